import KeyframeJSON

/// A textured triangle mesh (DragonBones mesh display): vertices, texture coordinates and triangles, optionally
/// bound to skeleton bones by weights.
///
/// Unweighted vertices are in the local space of the node that shows the mesh. Weighted vertices are placed by their
/// bones: each vertex is `Σ weightᵢ · W(boneᵢ) · (xᵢ, yᵢ)`, with `(xᵢ, yᵢ)` in the bone's local space and `W` the
/// bone's world transform in the composition that shows the mesh (bones are named by node id).
public struct MeshGeometry: Sendable, Hashable {
    /// One bone's influence on a vertex.
    public struct Influence: Sendable, Hashable {
        /// The id of the bone node.
        public var bone: String
        /// The weight, normally summing to 1 over a vertex's influences.
        public var weight: Double
        /// The vertex in the bone's local space, px.
        public var position: Vector2

        public init(bone: String, weight: Double, position: Vector2) {
            self.bone = bone
            self.weight = weight
            self.position = position
        }
    }

    /// Unique within the document.
    public var id: String
    /// The sprite whose picture textures the mesh.
    public var sprite: String
    /// Vertex positions (local space of the showing node; for weighted meshes the bind pose, informative).
    public var vertices: [Vector2]
    /// Texture coordinates per vertex over the sprite's upright picture: (0, 0) top-left, (1, 1) bottom-right.
    public var uvs: [Vector2]
    /// Vertex indices, three per triangle.
    public var triangles: [Int]
    /// Per vertex, the bones that move it; `nil` for an unweighted mesh.
    public var weights: [[Influence]]?

    public init(id: String, sprite: String, vertices: [Vector2], uvs: [Vector2], triangles: [Int],
                weights: [[Influence]]? = nil) {
        self.id = id
        self.sprite = sprite
        self.vertices = vertices
        self.uvs = uvs
        self.triangles = triangles
        self.weights = weights
    }

    /// The number of values a deform offset list has: two per vertex, or two per influence when weighted.
    public var deformValueCount: Int {
        if let weights { return 2 * weights.reduce(0) { $0 + $1.count } }
        return 2 * vertices.count
    }
}

/// Vertex offsets of a deformed mesh (DragonBones FFD): added to the mesh's vertices (unweighted, in the node's local
/// space) or to each influence's bone-local position (weighted), in the order of ``MeshGeometry/deformValueCount``.
public struct MeshDeform: Sendable, Hashable {
    /// The id of the mesh the offsets apply to; they are ignored while the node shows another one.
    public var mesh: String
    /// `x, y` pairs.
    public var offsets: [Double]

    public init(mesh: String, offsets: [Double]) {
        self.mesh = mesh
        self.offsets = offsets
    }
}

extension MeshGeometry.Influence: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(bone: try json.decode("bone"), weight: try json.decode("weight"), position: try json.decode("position"))
    }
    public var json: JSONValue { ["bone": .string(bone), "weight": .number(weight), "position": position.json] }
}

extension MeshGeometry: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(
            id: try json.decode("id"), sprite: try json.decode("sprite"), vertices: try json.decode("vertices"),
            uvs: try json.decode("uvs"), triangles: try json.decode("triangles"),
            weights: try json.decodeIfPresent("weights"))
        guard uvs.count == vertices.count else { throw json.error(at: "uvs", "needs one entry per vertex") }
        guard triangles.count % 3 == 0, triangles.allSatisfy({ $0 >= 0 && $0 < vertices.count }) else {
            throw json.error(at: "triangles", "needs three valid vertex indices per triangle")
        }
        if let weights, weights.count != vertices.count {
            throw json.error(at: "weights", "needs one entry per vertex")
        }
    }
    public var json: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "sprite": .string(sprite), "vertices": vertices.json, "uvs": uvs.json,
            "triangles": triangles.json,
        ]
        object.setIfPresent("weights", weights)
        return .object(object)
    }
}

extension MeshDeform: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(mesh: try json.decode("mesh"), offsets: try json.decode("offsets"))
    }
    public var json: JSONValue { ["mesh": .string(mesh), "offsets": offsets.json] }
}
