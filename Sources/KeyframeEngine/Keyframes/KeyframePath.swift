/// A 2-D path for a ``KeyframeTrack`` to move along: a start point and a list of segments, the
/// elements of a `CGPath` (`CAKeyframeAnimation.path`).
///
/// The start point and the end point of every segment are the path's *vertices*: they play the
/// role of keyframe values (engine.md §d.7), so a path of `n` segments has `n + 1` vertices and
/// wants `n + 1` key times (`n + 2` for `discrete`). Between two vertices the position follows the
/// segment's own geometry: a straight line, or a quadratic or cubic Bézier curve.
///
/// ```swift
/// let path = KeyframePath(start: .init(0, 0), segments: [
///     .line(to: .init(100, 0)),
///     .cubic(control1: .init(150, 0), control2: .init(150, 50), to: .init(100, 50)),
/// ])
/// ```
public struct KeyframePath: Hashable, Sendable, ArcLengthCurve {
    /// A point of the path.
    public struct Point: Hashable, Sendable {
        public var x: Double
        public var y: Double

        /// Creates the point `(x, y)`.
        public init(_ x: Double, _ y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// One element of the path, from the previous vertex to `to`.
    public enum Segment: Hashable, Sendable {
        /// A straight line.
        case line(to: Point)
        /// A quadratic Bézier curve.
        case quad(control: Point, to: Point)
        /// A cubic Bézier curve.
        case cubic(control1: Point, control2: Point, to: Point)
        /// A jump (`CGPath` move): the position stays at the previous vertex for the segment's
        /// time and lands on `to` when it ends; the segment has no length.
        case move(to: Point)

        /// The segment's end vertex.
        public var end: Point {
            switch self {
            case .line(let to), .quad(_, let to), .cubic(_, _, let to), .move(let to): return to
            }
        }
    }

    /// The first vertex.
    public var start: Point
    /// The elements after the start point.
    public var segments: [Segment]

    /// Creates a path from `start` through `segments`.
    public init(start: Point, segments: [Segment]) {
        self.start = start
        self.segments = segments
    }

    /// The start point and every segment's end point.
    public var vertices: [Point] { [start] + segments.map(\.end) }

    /// The number of segments.
    var segmentCount: Int { segments.count }

    /// The vertex a segment starts from.
    func origin(of segment: Int) -> Point { segment == 0 ? start : segments[segment - 1].end }

    /// The segment's position at parameter `u` (0 = its origin, 1 = its end).
    func point(segment i: Int, at u: Double) -> Point {
        let p0 = origin(of: i)
        switch segments[i] {
        case .line(let p1):
            return Point(p0.x + (p1.x - p0.x) * u, p0.y + (p1.y - p0.y) * u)
        case .quad(let c, let p1):
            let v = 1 - u
            return Point(v * v * p0.x + 2 * v * u * c.x + u * u * p1.x,
                         v * v * p0.y + 2 * v * u * c.y + u * u * p1.y)
        case .cubic(let c1, let c2, let p1):
            let v = 1 - u
            let b0 = v * v * v, b1 = 3 * v * v * u, b2 = 3 * v * u * u, b3 = u * u * u
            return Point(b0 * p0.x + b1 * c1.x + b2 * c2.x + b3 * p1.x,
                         b0 * p0.y + b1 * c1.y + b2 * c2.y + b3 * p1.y)
        case .move(let p1):
            return u >= 1 ? p1 : p0
        }
    }

    /// The segment's derivative with respect to `u` (the direction of travel times its speed).
    func derivative(segment i: Int, at u: Double) -> Point {
        let p0 = origin(of: i)
        switch segments[i] {
        case .line(let p1):
            return Point(p1.x - p0.x, p1.y - p0.y)
        case .quad(let c, let p1):
            let v = 1 - u
            return Point(2 * v * (c.x - p0.x) + 2 * u * (p1.x - c.x), 2 * v * (c.y - p0.y) + 2 * u * (p1.y - c.y))
        case .cubic(let c1, let c2, let p1):
            let v = 1 - u
            return Point(3 * v * v * (c1.x - p0.x) + 6 * v * u * (c2.x - c1.x) + 3 * u * u * (p1.x - c2.x),
                         3 * v * v * (c1.y - p0.y) + 6 * v * u * (c2.y - c1.y) + 3 * u * u * (p1.y - c2.y))
        case .move:
            return Point(0, 0)
        }
    }

    /// The direction of travel at parameter `u` of a segment, or `nil` where the segment has none
    /// (a move, or a curve collapsed to a point).
    ///
    /// Where the derivative vanishes — a curve's end whose control point sits on the end point —
    /// the direction is the curve's limit direction there: towards the nearest distinct control
    /// point after the start, or from the nearest distinct one before the end.
    func direction(segment i: Int, at u: Double) -> Point? {
        let d = derivative(segment: i, at: u)
        if d.x != 0 || d.y != 0 { return d }
        let p0 = origin(of: i)
        let controls: [Point]
        switch segments[i] {
        case .line(let p1): controls = [p0, p1]
        case .quad(let c, let p1): controls = [p0, c, p1]
        case .cubic(let c1, let c2, let p1): controls = [p0, c1, c2, p1]
        case .move: return nil
        }
        if u < 0.5 {
            let here = point(segment: i, at: u)
            for c in controls.dropFirst() where c != here { return Point(c.x - here.x, c.y - here.y) }
        } else {
            let here = point(segment: i, at: u)
            for c in controls.dropLast().reversed() where c != here { return Point(here.x - c.x, here.y - c.y) }
        }
        return nil
    }

    /// The segment's speed `|dP/du|` at `u`.
    func speed(segment i: Int, at u: Double) -> Double {
        let d = derivative(segment: i, at: u)
        return (d.x * d.x + d.y * d.y).squareRoot()
    }

    /// The length of segment `i` from its origin to parameter `u`.
    func length(segment i: Int, upTo u: Double) -> Double {
        switch segments[i] {
        case .move:
            return 0
        case .line:
            return speed(segment: i, at: 0) * u
        case .quad, .cubic:
            return ArcLengthTable<KeyframePath>.integrate(from: 0, to: u) { speed(segment: i, at: $0) }
        }
    }
}
