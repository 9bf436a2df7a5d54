/// A polygon edge in device space, stored top to bottom with its original direction.
struct Edge {
    var x0: Double
    var y0: Double
    var x1: Double
    var y1: Double
    /// Horizontal step per unit of y.
    var dxdy: Double
    /// +1 if the edge originally pointed down, −1 if up: the sign of its area contribution.
    var direction: Double

    /// Builds the edge from `p` to `q`; `nil` for horizontal edges, which contribute no area.
    init?(from p: SIMD2<Double>, to q: SIMD2<Double>) {
        if p.y == q.y { return nil }
        if p.y < q.y {
            x0 = p.x; y0 = p.y; x1 = q.x; y1 = q.y; direction = 1
        } else {
            x0 = q.x; y0 = q.y; x1 = p.x; y1 = p.y; direction = -1
        }
        dxdy = (x1 - x0) / (y1 - y0)
    }
}
