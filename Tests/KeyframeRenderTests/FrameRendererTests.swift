@testable import KeyframeEngine
import KeyframeModel
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// `FrameRenderer` on hand-built poses: meshes against plain sprites, masks, colour transforms, blend fallbacks.
final class FrameRendererTests: XCTestCase {
    /// The atlas of RenderPipelineTests: "quad" 8×8 with four coloured quadrants, "bar" stored rotated.
    func library() -> AtlasLibrary {
        let document = Document(
            name: "t", frameRate: FrameRate(24), source: Provenance(format: .keyframe),
            assets: Assets(
                images: [AtlasImage(id: "atlas", path: "atlas.png", pixelSize: Size(width: 12, height: 8))],
                sprites: [
                    Sprite(id: "quad", name: "quad", image: "atlas", region: Rect(x: 0, y: 0, width: 8, height: 8),
                           rotated: false, origin: .zero, size: Size(width: 8, height: 8)),
                    Sprite(id: "bar", name: "bar", image: "atlas", region: Rect(x: 8, y: 0, width: 2, height: 4),
                           rotated: true, origin: .zero, size: Size(width: 4, height: 2)),
                ]),
            compositions: [], root: "", clips: [])
        return AtlasLibrary(document: document, bitmaps: ["atlas": RenderPipelineTests.atlas()])
    }

    func item(_ sprite: String, _ transform: Matrix2D, color: ColorTransform = .identity, blend: BlendMode = .normal,
              masks: [Int] = [], mesh: Pose.Mesh? = nil) -> Pose.Item {
        Pose.Item(sprite: sprite, transform: transform, color: color, blendMode: blend, masks: masks, path: sprite,
                  mesh: mesh)
    }

    func render(_ pose: Pose, size: Int = 24) -> Bitmap {
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        renderer.render(pose, library: library(), framing: Framing(scene: Rect(x: 0, y: 0, width: Double(size),
                                                                               height: Double(size)), size: nil),
                        background: .transparent, into: &frame)
        return frame
    }

    /// A two-triangle mesh over the whole picture, with UVs at the corners, draws what the plain sprite draws —
    /// for an upright region and for a region stored rotated.
    func testFullQuadMeshMatchesThePlainSprite() {
        let placement = Matrix2D(a: 1.5, b: 0.4, c: -0.3, d: 1.2, tx: 7.25, ty: 3.5)
        for (sprite, w, h) in [("quad", 8.0, 8.0), ("bar", 4.0, 2.0)] {
            var plain = Pose()
            plain.items = [item(sprite, placement)]
            let corners = [Vector2(x: 0, y: 0), Vector2(x: w, y: 0), Vector2(x: w, y: h), Vector2(x: 0, y: h)]
            let mesh = Pose.Mesh(positions: corners.map(placement.apply),
                                 uvs: [Vector2(x: 0, y: 0), Vector2(x: 1, y: 0), Vector2(x: 1, y: 1), Vector2(x: 0, y: 1)],
                                 triangles: [0, 1, 2, 0, 2, 3])
            var meshed = Pose()
            meshed.items = [item(sprite, .identity, mesh: mesh)]
            let comparison = BitmapComparison.compare(render(meshed), render(plain), tolerance: 3)
            XCTAssertTrue(comparison.matches, "\(sprite): \(comparison.summary)")
            XCTAssertGreaterThan(render(plain).pixels.reduce(0) { $0 + Int($1) }, 1000, "nothing drawn")
        }
    }

    /// A mesh whose UVs cover only the left half of "quad" (red over blue), stretched over 16 × 8 px.
    func testMeshUVsSelectPartOfTheSprite() {
        let mesh = Pose.Mesh(
            positions: [Vector2(x: 0, y: 0), Vector2(x: 16, y: 0), Vector2(x: 16, y: 8), Vector2(x: 0, y: 8)],
            uvs: [Vector2(x: 0, y: 0), Vector2(x: 0.5, y: 0), Vector2(x: 0.5, y: 1), Vector2(x: 0, y: 1)],
            triangles: [0, 1, 2, 0, 2, 3])
        var pose = Pose()
        pose.items = [item("quad", .identity, mesh: mesh)]
        let frame = render(pose)
        XCTAssertEqual(frame.pixel(x: 10, y: 1), RenderPipelineTests.red.premultiplied)  // texel 2.6: clear of the green edge at 4
        XCTAssertEqual(frame.pixel(x: 1, y: 6), RenderPipelineTests.blue.premultiplied)
        XCTAssertEqual(frame.pixel(x: 17, y: 1).a, 0)
    }

    /// Items under a mask show only where the mask's sprites have alpha.
    func testMaskClipsConsecutiveMaskedItems() {
        var pose = Pose()
        // The mask: "bar" (4 × 2) scaled ×2 → covers x 0–8, y 0–4.
        pose.masks = [[item("bar", Matrix2D(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0))]]
        pose.items = [
            item("quad", .identity, masks: [0]),
            item("quad", Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: 10, ty: 0), masks: [0]),
            item("quad", Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 12)),
        ]
        let frame = render(pose)
        XCTAssertEqual(frame.pixel(x: 1, y: 1), RenderPipelineTests.red.premultiplied, "inside the mask")
        XCTAssertEqual(frame.pixel(x: 1, y: 6).a, 0, "below the mask")
        XCTAssertEqual(frame.pixel(x: 11, y: 1).a, 0, "second masked item lies outside the mask")
        XCTAssertEqual(frame.pixel(x: 1, y: 13), RenderPipelineTests.red.premultiplied, "unmasked item")
    }

    /// Colour transforms apply to straight colour: multiply, then offset, per channel.
    func testColourTransform() {
        var pose = Pose()
        let tint = ColorTransform(redMultiplier: 0.5, greenMultiplier: 1, blueMultiplier: 1, alphaMultiplier: 1,
                                  redOffset: 0, greenOffset: 64, blueOffset: 0, alphaOffset: 0)
        pose.items = [item("quad", .identity, color: tint)]
        let p = render(pose).pixel(x: 1, y: 1)  // red (255, 0, 0) → (127.5, 64, 0)
        XCTAssertEqual(Double(p.r), 127.5, accuracy: 1)
        XCTAssertEqual(Double(p.g), 64, accuracy: 1)
        XCTAssertEqual(p.b, 0)
        XCTAssertEqual(p.a, 255)
    }

    /// Every Flash mode is drawn: difference of red over white is cyan; `alpha` and `erase` with no group to act
    /// on draw nothing.
    func testBlendModesDrawAndGroupModesNeedAGroup() {
        func draw(_ blend: BlendMode) -> PremultipliedPixel {
            var pose = Pose()
            pose.items = [item("quad", .identity, blend: blend)]
            var renderer = FrameRenderer()
            var frame = Bitmap(width: 0, height: 0)
            renderer.render(pose, library: library(),
                            framing: Framing(scene: Rect(x: 0, y: 0, width: 8, height: 8), size: nil),
                            background: .white, into: &frame)
            return frame.pixel(x: 1, y: 1)
        }
        XCTAssertEqual(draw(.difference), PremultipliedPixel(r: 0, g: 255, b: 255, a: 255))
        XCTAssertEqual(draw(.invert), PremultipliedPixel(r: 0, g: 0, b: 0, a: 255))
        XCTAssertEqual(draw(.alpha), PremultipliedPixel(r: 255, g: 255, b: 255, a: 255))
        XCTAssertEqual(draw(.erase), PremultipliedPixel(r: 255, g: 255, b: 255, a: 255))
        XCTAssertEqual(draw(.layer), RenderPipelineTests.red.premultiplied)
    }

    /// A masked item with a blend mode blends with what is behind the masked run (not with the run's own picture),
    /// only where the mask covers it; the normal item after it in the run still draws over it.
    func testMaskedItemBlendsWithTheBackdrop() {
        var pose = Pose()
        pose.masks = [[item("bar", Matrix2D(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0))]]  // x 0–8, y 0–4
        pose.items = [
            item("quad", .identity, blend: .difference, masks: [0]),
            item("quad", Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: 6, ty: 0), masks: [0]),
        ]
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        renderer.render(pose, library: library(), framing: Framing(scene: Rect(x: 0, y: 0, width: 16, height: 8), size: nil),
                        background: .white, into: &frame)
        XCTAssertEqual(frame.pixel(x: 1, y: 1), PremultipliedPixel(r: 0, g: 255, b: 255, a: 255), "red − white, in the mask")
        XCTAssertEqual(frame.pixel(x: 1, y: 6), PremultipliedPixel(r: 255, g: 255, b: 255, a: 255), "below the mask")
        XCTAssertEqual(frame.pixel(x: 7, y: 1), RenderPipelineTests.red.premultiplied, "the normal item drawn after it")
    }

    /// Thumbnails average whole source pixels; contact sheets grow with their cells.
    func testContactSheetLayout() {
        var picture = Bitmap(width: 30, height: 20)
        picture.clear(to: .white)
        let cells = (0..<5).map { ContactSheet.Cell(picture: picture, label: ContactSheet.label(frame: $0, seconds: Double($0) / 24)) }
        let sheet = ContactSheet.compose(cells)
        // 5 cells → 3 columns × 2 rows; each cell is max(picture, label) wide plus padding.
        let labelWidth = "F4 0.167S".count * 4 * 2 - 2
        let cellWidth = max(30, labelWidth) + 6
        XCTAssertEqual(sheet.width, 6 + 3 * cellWidth)
        XCTAssertEqual(sheet.height, 6 + 2 * (20 + 6 + 10 + 6))
        XCTAssertEqual(ContactSheet.label(frame: 12, seconds: 0.5), "F12 0.500s")
        XCTAssertEqual(ContactSheet.label(frame: 3, seconds: 1.0416, prefix: "walk"), "walk F3 1.042s")
    }

    /// Many cells shrink their pictures so the sheet stays within its size limit; too many do not fit at all.
    func testContactSheetPicturesShrinkToFit() throws {
        // One cell: the preferred side.
        XCTAssertEqual(ContactSheet.pictureSide(count: 1, labelWidth: 50, preferred: 160), 160)
        // 10,000 cells → 100 × 100: (16384 − 6) / 100 − 6 = 157 wide, 163 − 6 − 10 − 6 = 141 high.
        XCTAssertEqual(ContactSheet.pictureSide(count: 10_000, labelWidth: 100, preferred: 160), 141)
        // 50 cells in 400 px → 8 columns × 7 rows: 394 / 8 − 6 = 43 wide, 394 / 7 − 22 = 34 high.
        XCTAssertEqual(ContactSheet.pictureSide(count: 50, labelWidth: 40, preferred: 160, maximumSide: 400), 34)
        XCTAssertNil(ContactSheet.pictureSide(count: 50, labelWidth: 44, preferred: 160, maximumSide: 400),
                     "captions wider than a column")
        XCTAssertNil(ContactSheet.pictureSide(count: 2_000, labelWidth: 10, preferred: 160, maximumSide: 400),
                     "pictures below the minimum")
        // The sheet laid out at the side found really fits.
        let side = try XCTUnwrap(ContactSheet.pictureSide(count: 50, labelWidth: 40, preferred: 160, maximumSide: 400))
        var picture = Bitmap(width: side, height: side)
        picture.clear(to: .white)
        // "F1" is 2 glyphs of 3 + 1 px at scale 2, less the last gap: 14 px, within the 40 allowed.
        let sheet = ContactSheet.compose((0..<50).map { _ in ContactSheet.Cell(picture: picture, label: "F1") })
        XCTAssertLessThanOrEqual(sheet.width, 400)
        XCTAssertLessThanOrEqual(sheet.height, 400)
    }
}

/// Drawing atlases small: reduced copies keep fine texture from aliasing.
final class MipmapTests: XCTestCase {
    /// A 256² one-texel black/white checkerboard drawn at a quarter of its size must look mid-grey, as a box filter
    /// (a camera) would see it; plain bilinear sampling at that scale lands on isolated texels and shows black or
    /// white.
    func testMinifiedCheckerboardAveragesToGrey() {
        var board = Bitmap(width: 256, height: 256)
        for y in 0..<256 { for x in 0..<256 {
            board.setPixel(x: x, y: y, ((x + y) % 2 == 0 ? RGBAColor.white : .black).premultiplied)
        } }
        let document = Document(
            name: "t", frameRate: FrameRate(24), source: Provenance(format: .keyframe),
            assets: Assets(
                images: [AtlasImage(id: "board", path: "board.png", pixelSize: Size(width: 256, height: 256))],
                sprites: [Sprite(id: "board", name: "board", image: "board", region: Rect(x: 0, y: 0, width: 256, height: 256),
                                 rotated: false, origin: .zero, size: Size(width: 256, height: 256))]),
            compositions: [], root: "", clips: [])
        let library = AtlasLibrary(document: document, bitmaps: ["board": board])
        XCTAssertEqual(library.mipmaps[0].map(\.width), [128, 64])
        var pose = Pose()
        pose.items = [Pose.Item(sprite: "board", transform: Matrix2D(a: 0.25, b: 0, c: 0, d: 0.25, tx: 0.3, ty: 0.2),
                                color: .identity, blendMode: .normal, masks: [], path: "board")]
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        renderer.render(pose, library: library, framing: Framing(scene: Rect(x: 0, y: 0, width: 64, height: 64), size: nil),
                        background: .transparent, into: &frame)
        var worst = 0
        for y in 2..<62 { for x in 2..<62 {
            let p = frame.pixel(x: x, y: y)
            XCTAssertEqual(p.a, 255)
            worst = max(worst, abs(Int(p.r) - 128), abs(Int(p.g) - 128))
        } }
        XCTAssertLessThanOrEqual(worst, 8, "minified checkerboard strays \(worst) from grey")
    }

    func testLevelChoice() {
        XCTAssertEqual(FrameRenderer.mipmapLevel(for: .scale(1, 1), available: 4).level, 0)
        XCTAssertEqual(FrameRenderer.mipmapLevel(for: .scale(0.6, 0.6), available: 4).level, 0)
        XCTAssertEqual(FrameRenderer.mipmapLevel(for: .scale(0.5, 0.5), available: 4).level, 1)
        XCTAssertEqual(FrameRenderer.mipmapLevel(for: .scale(0.2, 0.2), available: 4).level, 2)
        XCTAssertEqual(FrameRenderer.mipmapLevel(for: .scale(0.01, 0.01), available: 3).level, 3)
        XCTAssertEqual(FrameRenderer.mipmapLevel(for: .scale(0.2, 0.2), available: 0).level, 0)
    }
}
