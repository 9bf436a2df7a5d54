import KeyframeJSON

/// The images and sprite regions a document draws from.
public struct Assets: Sendable, Hashable {
    /// Atlas images, in the order the source lists them.
    public var images: [AtlasImage]
    /// Sprite regions, in the order the source lists them.
    public var sprites: [Sprite]
    /// Textured meshes (DragonBones), in the order the source lists them; written only when not empty.
    public var meshes: [MeshGeometry]

    public init(images: [AtlasImage] = [], sprites: [Sprite] = [], meshes: [MeshGeometry] = []) {
        self.images = images
        self.sprites = sprites
        self.meshes = meshes
    }
}

/// One atlas image file.
public struct AtlasImage: Sendable, Hashable {
    /// Unique within the document.
    public var id: String
    /// The file's path relative to the document's source folder.
    public var path: String
    /// The image's size in pixels.
    public var pixelSize: Size
    /// Atlas pixels per document pixel (Animate `resolution`, Flump `scaleFactor`); 1 for most exports.
    public var resolution: Double

    public init(id: String, path: String, pixelSize: Size, resolution: Double = 1) {
        self.id = id
        self.path = path
        self.pixelSize = pixelSize
        self.resolution = resolution
    }
}

/// A region of an atlas image drawn as one picture.
public struct Sprite: Sendable, Hashable {
    /// Unique within the document.
    public var id: String
    /// The source's name for the region.
    public var name: String
    /// The id of the atlas image.
    public var image: String
    /// The region as stored in the atlas, in atlas pixels.
    public var region: Rect
    /// Whether the region is stored rotated 90° clockwise; the upright picture is the region turned 90°
    /// counter-clockwise, upright pixel (u, v) = atlas pixel (x + w − 1 − v, y + u).
    public var rotated: Bool
    /// Where the upright picture's top-left corner sits in the sprite's local space, in document pixels.
    public var origin: Vector2
    /// The upright picture's size in document pixels (region size, swapped when rotated, divided by the image's
    /// resolution).
    public var size: Size

    public init(id: String, name: String, image: String, region: Rect, rotated: Bool, origin: Vector2, size: Size) {
        self.id = id
        self.name = name
        self.image = image
        self.region = region
        self.rotated = rotated
        self.origin = origin
        self.size = size
    }
}

extension Assets: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(images: try json.decode("images"), sprites: try json.decode("sprites"),
                  meshes: try json.decodeIfPresent("meshes") ?? [])
    }
    public var json: JSONValue {
        var object: JSONObject = ["images": images.json, "sprites": sprites.json]
        if !meshes.isEmpty { object["meshes"] = meshes.json }
        return .object(object)
    }
}

extension AtlasImage: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(
            id: try json.decode("id"), path: try json.decode("path"), pixelSize: try json.decode("pixelSize"),
            resolution: try json.decode("resolution"))
    }
    public var json: JSONValue {
        ["id": .string(id), "path": .string(path), "pixelSize": pixelSize.json, "resolution": .number(resolution)]
    }
}

extension Sprite: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(
            id: try json.decode("id"), name: try json.decode("name"), image: try json.decode("image"),
            region: try json.decode("region"), rotated: try json.decode("rotated"),
            origin: try json.decode("origin"), size: try json.decode("size"))
    }
    public var json: JSONValue {
        ["id": .string(id), "name": .string(name), "image": .string(image), "region": region.json,
         "rotated": .bool(rotated), "origin": origin.json, "size": size.json]
    }
}
