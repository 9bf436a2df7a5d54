import KeyframeRaster

/// The fixed companion files the fuzz surfaces pair with the mutated one.
enum FuzzFixtures {
    /// An Animate spritemap with sprites `0000` … `0015` (the names Animate gives), four of them rotated, on a
    /// 128 × 128 sheet: enough for the bundled samples' and most corpus exports' sprite references.
    static let spritemap: String = {
        let sprites = (0..<16).map { index in
            let name = String(repeating: "0", count: 4 - String(index).count) + String(index)
            return #"{"SPRITE":{"name":"\#(name)","x":\#(index % 4 * 32),"y":\#(index / 4 * 32),"w":30,"h":20,"rotated":\#(index % 5 == 4)}}"#
        }
        return #"{"ATLAS":{"SPRITES":[\#(sprites.joined(separator: ","))]},"meta":{"app":"Adobe Animate","version":"21.0.0","#
            + #""image":"spritemap1.png","format":"RGBA8888","size":{"w":128,"h":128},"resolution":"1"}}"#
    }()

    /// An `Animation.json` with a symbol, a nested instance, a motion tween and a few sprites of ``spritemap``.
    static let animation = #"""
        {"AN":{"N":"fuzz","SN":"root","TL":{"L":[
        {"LN":"labels","FR":[{"N":"idle","I":0,"DU":2,"E":[]},{"N":"move","I":2,"DU":2,"E":[]}]},
        {"LN":"a","FR":[
         {"I":0,"DU":2,"TWN":{"CT":"motion","ES":[{"x":0,"y":0},{"x":1,"y":1}]},"E":[{"SI":{"SN":"part","IN":"p","ST":"MC","FF":0,"LP":"LP","TRP":{"x":4,"y":4},"M3D":[1,0,0,0,0,1,0,0,0,0,1,0,10,20,0,1],"C":{"M":"AD","RM":0.5,"GM":1,"BM":1,"AM":0.8}}}]},
         {"I":2,"DU":2,"E":[{"SI":{"SN":"part","IN":"p","ST":"G","FF":1,"LP":"PO","TRP":{"x":4,"y":4},"M3D":[0.7,0.7,0,0,-0.7,0.7,0,0,0,0,1,0,30,20,0,1]}}]}]},
        {"LN":"b","FR":[{"I":0,"DU":4,"E":[{"ASI":{"N":"0003","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]}]}]}},
        "SD":{"S":[{"SN":"part","TL":{"L":[{"LN":"x","FR":[
         {"I":0,"DU":1,"E":[{"ASI":{"N":"0000","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]},
         {"I":1,"DU":1,"E":[{"ASI":{"N":"0004","M3D":[2,0,0,0,0,2,0,0,0,0,1,0,5,5,0,1]}}]}]}]}}]},
        "MD":{"FRT":24}}
        """#

    /// The bundled DragonBones sample's texture atlas (`waver_tex.json`): the sample skeleton's textures.
    static let dragonBonesAtlas = #"""
        {"SubTexture":[{"height":32,"name":"body","width":24,"x":0,"y":0},{"height":20,"name":"head","width":20,"x":26,"y":0},
        {"height":6,"name":"arm_upper","width":14,"x":48,"y":0},{"height":6,"name":"arm_lower","width":12,"x":48,"y":8},
        {"height":16,"name":"flag","width":32,"x":64,"y":0},{"height":4,"name":"eye_open","width":4,"x":26,"y":22},
        {"height":2,"name":"eye_closed","width":4,"x":32,"y":22}],"height":64,"imagePath":"fuzz_tex.png","name":"waver","width":128}
        """#

    /// A 16 × 16 atlas stand-in: opaque quadrants of four colours.
    static let checker: Bitmap = {
        var bitmap = Bitmap(width: 16, height: 16)
        let colors: [RGBAColor] = [RGBAColor(r: 255, g: 0, b: 0), RGBAColor(r: 0, g: 255, b: 0),
                                   RGBAColor(r: 0, g: 0, b: 255, a: 128), .white]
        for y in 0..<16 {
            for x in 0..<16 { bitmap.setPixel(x: x, y: y, colors[(y / 8) * 2 + x / 8].premultiplied) }
        }
        return bitmap
    }()
}
