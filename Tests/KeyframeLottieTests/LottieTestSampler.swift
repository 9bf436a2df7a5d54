import Foundation
import KeyframeJSON
import KeyframeModel

/// An independent reading of an exported Lottie file, written from the Lottie specification (not from the
/// exporter): evaluates animated properties (hold, linear and cubic Bézier keyframes), layer transforms, parenting,
/// in/out points, precomps and their time remapping (`tm`), and lists the pictures showing at a frame with their
/// world matrices and opacities, so tests can hold the export against the model's pose.
struct LottieTestSampler {
    struct Layer {
        var index: Int?
        var parent: Int?
        var name: String
        var type: Int
        var refID: String?
        var inPoint: Double
        var outPoint: Double
        var startTime: Double
        var stretch: Double
        var transform: JSONObject
        var timeRemap: JSONValue?
        var hasMask: Bool
        var isMatte: Bool
        /// Static mask polygons (`masksProperties[].pt.k.v`), in the layer's own space.
        var maskPolygons: [[Vector2]] = []
    }

    /// A picture showing at a frame: its image layer, where the picture's pixels land, and its opacity 0…1.
    struct Drawn {
        var layer: Layer
        var world: Matrix2D
        var opacity: Double
        /// The innermost masked precomp layer the picture shows through: its mask polygons mapped to the canvas.
        var clip: [[Vector2]]? = nil
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let width: Int
    let height: Int
    let frameCount: Int
    let frameRate: Double
    let layers: [Layer]
    let precomps: [String: [Layer]]
    let images: [String: (width: Double, height: Double)]

    init(json: [UInt8]) throws {
        let root = try JSONParser.parse(json)
        width = Int(root["w"]?.doubleValue ?? 0)
        height = Int(root["h"]?.doubleValue ?? 0)
        frameCount = Int(root["op"]?.doubleValue ?? 0)
        frameRate = root["fr"]?.doubleValue ?? 0
        var images: [String: (Double, Double)] = [:]
        var precomps: [String: [Layer]] = [:]
        for asset in root["assets"]?.arrayValue ?? [] {
            guard let id = asset["id"]?.stringValue else { continue }
            if let layers = asset["layers"]?.arrayValue {
                precomps[id] = layers.map(Self.layer)
            } else {
                images[id] = (asset["w"]?.doubleValue ?? 0, asset["h"]?.doubleValue ?? 0)
            }
        }
        self.images = images
        self.precomps = precomps
        layers = (root["layers"]?.arrayValue ?? []).map(Self.layer)
    }

    private static func layer(_ layer: JSONValue) -> Layer {
        Layer(index: layer["ind"]?.doubleValue.map { Int($0) }, parent: layer["parent"]?.doubleValue.map { Int($0) },
              name: layer["nm"]?.stringValue ?? "", type: Int(layer["ty"]?.doubleValue ?? -1),
              refID: layer["refId"]?.stringValue, inPoint: layer["ip"]?.doubleValue ?? 0,
              outPoint: layer["op"]?.doubleValue ?? 0, startTime: layer["st"]?.doubleValue ?? 0,
              stretch: layer["sr"]?.doubleValue ?? 1, transform: layer["ks"]?.objectValue ?? [:],
              timeRemap: layer["tm"], hasMask: layer["masksProperties"] != nil,
              isMatte: layer["td"]?.doubleValue == 1,
              maskPolygons: (layer["masksProperties"]?.arrayValue ?? []).compactMap { mask in
                  guard mask["pt"]?["a"]?.doubleValue != 1, let points = mask["pt"]?["k"]?["v"]?.arrayValue else { return nil }
                  return points.map { Vector2(x: $0.arrayValue?.first?.doubleValue ?? 0,
                                              y: $0.arrayValue?.dropFirst().first?.doubleValue ?? 0) }
              })
    }

    /// A property's value at `frame`: static, or keyframes — hold (`h: 1`) keeps the start value; otherwise the
    /// progress is eased by the cubic Bézier from (0, 0) through `o` and `i` to (1, 1), per dimension when the
    /// handles give one number per dimension.
    static func value(_ property: JSONValue?, at frame: Double, default fallback: [Double]) throws -> [Double] {
        guard let property else { return fallback }
        func numbers(_ v: JSONValue?) -> [Double] {
            if let n = v?.doubleValue { return [n] }
            return v?.arrayValue?.compactMap(\.doubleValue) ?? fallback
        }
        guard property["a"]?.doubleValue == 1, let keys = property["k"]?.arrayValue, !keys.isEmpty else {
            return numbers(property["k"])
        }
        let times = keys.map { $0["t"]?.doubleValue ?? 0 }
        if frame <= times[0] { return numbers(keys[0]["s"]) }
        for i in 0..<(keys.count - 1) where frame < times[i + 1] {
            let start = numbers(keys[i]["s"])
            if keys[i]["h"]?.doubleValue == 1 { return start }
            let end = keys[i]["e"].map(numbers) ?? numbers(keys[i + 1]["s"])
            let p = (frame - times[i]) / (times[i + 1] - times[i])
            guard let o = keys[i]["o"], let inHandle = keys[i]["i"] else {
                throw Failure(description: "keyframe at \(times[i]) has neither h nor o/i")
            }
            let ox = numbers(o["x"]), oy = numbers(o["y"]), ix = numbers(inHandle["x"]), iy = numbers(inHandle["y"])
            return try start.indices.map { d in
                func pick(_ v: [Double]) -> Double { v.count > d ? v[d] : v[0] }
                let eased = try bezier(p, x1: pick(ox), y1: pick(oy), x2: pick(ix), y2: pick(iy))
                return start[d] + (end[d] - start[d]) * eased
            }
        }
        return numbers(keys[keys.count - 1]["s"])
    }

    /// The cubic Bézier easing (0,0), (x1,y1), (x2,y2), (1,1) at `x`: solve Bx(s) = x by bisection, return By(s).
    static func bezier(_ x: Double, x1: Double, y1: Double, x2: Double, y2: Double) throws -> Double {
        guard (0...1).contains(x1), (0...1).contains(x2) else { throw Failure(description: "Bézier x outside 0…1") }
        func curve(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * c1 + 3 * (1 - s) * s * s * c2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if curve(mid, x1, x2) < x { lo = mid } else { hi = mid }
        }
        return curve((lo + hi) / 2, y1, y2)
    }

    /// A layer's own matrix: translate(p) · rotate(r) · skew · scale(s/100) · translate(−a), the order of the Lottie
    /// specification's transform. The skew (`sk` degrees along the axis at `sa` degrees) turns to the skew axis,
    /// moves x by −tan(sk)·y there and turns back: R(−sa) · X(−tan sk) · R(sa) on column vectors — the
    /// specification's "rotate by −sa, skew x by tan(−sk), rotate by sa", read with the sign convention that makes
    /// its "rotate by −r" the clockwise rotation r (what lottie-web and ThorVG compute).
    func localMatrix(_ layer: Layer, at frame: Double) throws -> Matrix2D {
        let ks = layer.transform
        let sk = try Self.value(ks["sk"], at: frame, default: [0])[0] * .pi / 180
        let sa = try Self.value(ks["sa"], at: frame, default: [0])[0] * .pi / 180
        func turn(_ angle: Double) -> Matrix2D {
            Matrix2D(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle), tx: 0, ty: 0)
        }
        let skew = sk == 0 ? Matrix2D.identity
            : turn(-sa).concatenating(Matrix2D(a: 1, b: 0, c: -tan(sk), d: 1, tx: 0, ty: 0)).concatenating(turn(sa))
        let a = try Self.value(ks["a"], at: frame, default: [0, 0])
        let p = try Self.value(ks["p"], at: frame, default: [0, 0])
        let s = try Self.value(ks["s"], at: frame, default: [100, 100])
        let r = try Self.value(ks["r"], at: frame, default: [0])[0] * .pi / 180
        let rotation = Matrix2D(a: cos(r), b: sin(r), c: -sin(r), d: cos(r), tx: 0, ty: 0)
        return Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: p[0], ty: p[1])
            .concatenating(rotation)
            .concatenating(skew)
            .concatenating(Matrix2D(a: s[0] / 100, b: 0, c: 0, d: s[1] / 100, tx: 0, ty: 0))
            .concatenating(Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: -a[0], ty: -a[1]))
    }

    /// A layer's matrix with its parents' (parenting carries the transform, not the opacity), among `siblings`.
    func worldMatrix(_ layer: Layer, in siblings: [Layer], at frame: Double, depth: Int = 0) throws -> Matrix2D {
        let own = try localMatrix(layer, at: frame)
        guard let parentIndex = layer.parent else { return own }
        guard depth < 64, let parent = siblings.first(where: { $0.index == parentIndex }) else {
            throw Failure(description: "\(layer.name): parent \(parentIndex) not found")
        }
        return try worldMatrix(parent, in: siblings, at: frame, depth: depth + 1).concatenating(own)
    }

    /// The pictures showing at `frame` of the animation, back to front.
    func drawn(at frame: Double) throws -> [Drawn] {
        try drawn(layers, at: frame, world: .identity, opacity: 1, clip: nil, depth: 0)
    }

    private func drawn(_ list: [Layer], at frame: Double, world: Matrix2D, opacity: Double, clip: [[Vector2]]?,
                       depth: Int) throws -> [Drawn] {
        guard depth < 64 else { throw Failure(description: "precomps nested too deep") }
        var result: [Drawn] = []
        // The first layer of a list is drawn on top.
        for layer in list.reversed() where !layer.isMatte && layer.inPoint <= frame && frame < layer.outPoint {
            let matrix = world.concatenating(try worldMatrix(layer, in: list, at: frame))
            let alpha = opacity * (try Self.value(layer.transform["o"], at: frame, default: [100])[0] / 100)
            switch layer.type {
            case 2:
                result.append(Drawn(layer: layer, world: matrix, opacity: alpha, clip: clip))
            case 0:
                guard let ref = layer.refID, let content = precomps[ref] else {
                    throw Failure(description: "\(layer.name): precomp \(layer.refID ?? "-") not found")
                }
                let local = (frame - layer.startTime) / (layer.stretch == 0 ? 1 : layer.stretch)
                let childFrame = try layer.timeRemap.map { try Self.value($0, at: local, default: [0])[0] * frameRate } ?? local
                let masks = layer.maskPolygons.isEmpty ? clip : layer.maskPolygons.map { $0.map(matrix.apply) }
                result += try drawn(content, at: childFrame, world: matrix, opacity: alpha, clip: masks, depth: depth + 1)
            default:
                continue
            }
        }
        return result
    }
}
