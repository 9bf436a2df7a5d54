import Foundation
import KeyframeModel

/// A textured mesh cut into triangles that layers with affine transforms can draw: each triangle is the upright
/// picture under the affine map that takes its three texture corners to its three placed vertices, clipped by a
/// fixed triangle in picture space (a mask).
///
/// Two neighbouring triangles each anti-aliased by a player leave a hairline along their shared edge (coverages c
/// and 1 − c composite to 1 − c(1 − c)). So a mask is pushed out along its interior edges (those shared with another
/// triangle) by about one device pixel, converted to picture pixels, while the mesh's outer boundary stays exact.
/// Used by the Lottie and Core Animation exporters alike.
struct MeshTriangles: Sendable {
    /// One triangle of the mesh.
    struct Triangle: Sendable, Equatable {
        /// Its vertex indices, in the mesh's order.
        var vertices: [Int]
        /// Its corners in picture pixels (texture coordinates times the picture's size).
        var picture: [Vector2]
        /// Per edge (vertex i to vertex i + 1): whether another triangle shares it.
        var interior: [Bool]
    }

    /// How far interior edges are pushed out, in device pixels.
    static let seamPixels = 1.0
    /// The most an edge is pushed out, in picture pixels, however small the triangle is drawn.
    static let maximumDilation = 4.0

    /// The triangles that map the picture (triangles whose texture corners enclose no area, or name vertices the
    /// mesh lacks, are left out: no affine map of the picture can draw them).
    let triangles: [Triangle]
    /// How many triangles were left out.
    let skipped: Int

    /// `uvs` are normalized over the upright picture, which is `width` × `height` pixels; `indices` three per
    /// triangle.
    init(uvs: [Vector2], indices: [Int], width: Double, height: Double) {
        var edgeUse: [Int: Int] = [:]
        func edgeKey(_ i: Int, _ j: Int) -> Int { min(i, j) &* 1_000_003 &+ max(i, j) }
        let count = indices.count / 3
        for t in 0..<count {
            let v = [indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]]
            for e in 0..<3 { edgeUse[edgeKey(v[e], v[(e + 1) % 3]), default: 0] += 1 }
        }
        var result: [Triangle] = []
        var skipped = 0
        for t in 0..<count {
            let v = [indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]]
            guard v.allSatisfy({ uvs.indices.contains($0) }) else {
                skipped += 1
                continue
            }
            let p = v.map { Vector2(x: uvs[$0].x * width, y: uvs[$0].y * height) }
            let area = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[2].x - p[0].x) * (p[1].y - p[0].y)
            guard p.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), abs(area) > 1e-6 else {
                skipped += 1
                continue
            }
            let interior = (0..<3).map { e in (edgeUse[edgeKey(v[e], v[(e + 1) % 3])] ?? 0) > 1 }
            result.append(Triangle(vertices: v, picture: p, interior: interior))
        }
        triangles = result
        self.skipped = skipped
    }

    /// The affine map from picture pixels to the space of `positions` that takes the triangle's texture corners to
    /// its placed vertices. A triangle placed with no area (or at positions that are not finite) maps everything
    /// to its first vertex (a zero linear part), which draws nothing, as `keyframe render` draws nothing there.
    static func affine(_ triangle: Triangle, positions: [Vector2]) -> Matrix2D {
        let q = triangle.vertices.map { positions.indices.contains($0) ? positions[$0] : Vector2(x: 0, y: 0) }
        guard q.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return Matrix2D(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0) }
        let p = triangle.picture
        // E = [p1 − p0, p2 − p0] (columns), F = [q1 − q0, q2 − q0]; linear part F · E⁻¹.
        let e = Matrix2D(a: p[1].x - p[0].x, b: p[1].y - p[0].y, c: p[2].x - p[0].x, d: p[2].y - p[0].y, tx: 0, ty: 0)
        let f = Matrix2D(a: q[1].x - q[0].x, b: q[1].y - q[0].y, c: q[2].x - q[0].x, d: q[2].y - q[0].y, tx: 0, ty: 0)
        let placedArea = abs(f.determinant)
        let scale = max(hypot(f.a, f.b), hypot(f.c, f.d), 1e-300)
        guard let inverse = e.inverted, placedArea > 1e-9 * scale * scale else {
            return Matrix2D(a: 0, b: 0, c: 0, d: 0, tx: q[0].x, ty: q[0].y)
        }
        var linear = f.concatenating(inverse)
        let origin = linear.apply(p[0])
        linear.tx = q[0].x - origin.x
        linear.ty = q[0].y - origin.y
        guard [linear.a, linear.b, linear.c, linear.d, linear.tx, linear.ty].allSatisfy(\.isFinite) else {
            return Matrix2D(a: 0, b: 0, c: 0, d: 0, tx: q[0].x, ty: q[0].y)
        }
        return linear
    }

    /// How many picture pixels edge `e` (vertex e to e + 1) of `triangle` must move along its normal to move
    /// `devicePixels` across itself under `toDevice` (picture pixels → device pixels); 0 for a degenerate map.
    static func pictureDistance(_ triangle: Triangle, edge e: Int, toDevice: Matrix2D, devicePixels: Double) -> Double {
        let a = triangle.picture[e], b = triangle.picture[(e + 1) % 3]
        let edge = Vector2(x: b.x - a.x, y: b.y - a.y)
        let length = hypot(edge.x, edge.y)
        let mapped = hypot(toDevice.a * edge.x + toDevice.c * edge.y, toDevice.b * edge.x + toDevice.d * edge.y)
        let det = abs(toDevice.determinant)
        // A step t along the picture normal moves t · |det| · |e| / |M e| device pixels across the mapped edge.
        guard length > 0, mapped > 0, det > 0 else { return 0 }
        let perPixel = det * length / mapped
        let distance = devicePixels / perPixel
        return distance.isFinite ? min(distance, maximumDilation) : maximumDilation
    }

    /// The triangle's mask in picture pixels: its corners with each edge pushed out by `dilation[e]` pixels
    /// (0 keeps the edge exact, and no point of the polygon lies beyond its line). Where two pushed edges meet at a
    /// corner sharper than 60°, the corner is cut (two points) instead of reaching far out; the polygon has three to
    /// six points, turning the way the triangle does.
    static func mask(_ triangle: Triangle, dilation: [Double]) -> [Vector2] {
        let p = triangle.picture
        let area = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[2].x - p[0].x) * (p[1].y - p[0].y)
        let sign = area > 0 ? 1.0 : -1.0
        // Outward unit normal of edge e.
        func normal(_ e: Int) -> Vector2 {
            let a = p[e], b = p[(e + 1) % 3]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = max(hypot(dx, dy), 1e-300)
            return Vector2(x: sign * dy / length, y: -sign * dx / length)
        }
        var points: [Vector2] = []
        for corner in 0..<3 {
            // Corner `corner` joins edge (corner − 1) and edge corner.
            let before = (corner + 2) % 3
            let d0 = dilation[before], d1 = dilation[corner]
            guard d0 > 0 || d1 > 0 else {
                points.append(p[corner])
                continue
            }
            let n0 = normal(before), n1 = normal(corner)
            let a0 = Vector2(x: p[corner].x + n0.x * d0, y: p[corner].y + n0.y * d0)
            let a1 = Vector2(x: p[corner].x + n1.x * d1, y: p[corner].y + n1.y * d1)
            // Intersect the two pushed lines: a0 + s · dir0 and a1 + u · dir1.
            let dir0 = Vector2(x: p[corner].x - p[before].x, y: p[corner].y - p[before].y)
            let dir1 = Vector2(x: p[(corner + 1) % 3].x - p[corner].x, y: p[(corner + 1) % 3].y - p[corner].y)
            let cross = dir0.x * dir1.y - dir0.y * dir1.x
            let cosine = (dir0.x * dir1.x + dir0.y * dir1.y)
                / max(hypot(dir0.x, dir0.y) * hypot(dir1.x, dir1.y), 1e-300)
            // The interior angle θ is sharp when the directions nearly reverse: cos(π − θ) < −cos 60°. Where one
            // of the two edges stays (the mesh's outline), the corner always moves along that edge's line, never
            // off it, however sharp.
            if abs(cross) > 1e-12, cosine > -0.5 || d0 == 0 || d1 == 0 {
                let s = ((a1.x - a0.x) * dir1.y - (a1.y - a0.y) * dir1.x) / cross
                let meet = Vector2(x: a0.x + s * dir0.x, y: a0.y + s * dir0.y)
                if meet.x.isFinite && meet.y.isFinite {
                    points.append(meet)
                    continue
                }
            }
            points.append(a0)
            points.append(a1)
        }
        return points
    }
}
