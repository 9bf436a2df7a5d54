/// One prepared triangle of a mesh draw: its edges in the scratch list, rows, and sampling map.
struct MeshTriangle {
    var firstEdge: Int
    var edgeCount: Int
    var minY: Double
    var maxY: Double
    /// Device → atlas pixel coordinates.
    var inverse: Affine
}
