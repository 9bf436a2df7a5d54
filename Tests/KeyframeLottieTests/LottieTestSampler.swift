import Foundation
import KeyframeJSON
import KeyframeModel

/// An independent reading of an exported Lottie file: evaluates every layer's transform, opacity and visibility at
/// a frame the way the Lottie specification defines them (linear and hold keyframes, parenting, in/out points), so
/// tests can hold the export against the model's pose without going through the exporter's own code.
struct LottieTestSampler {
    struct Layer {
        var index: Int?
        var parent: Int?
        var name: String
        var type: Int
        var refID: String?
        var inPoint: Double
        var outPoint: Double
        var transform: [String: JSONValue]
        var hasMask: Bool
        var isMatte: Bool
    }

    let width: Int
    let height: Int
    let frameCount: Int
    let layers: [Layer]
    let images: [String: (width: Double, height: Double)]

    init(json: [UInt8]) throws {
        let root = try JSONParser.parse(json)
        width = Int(root["w"]?.doubleValue ?? 0)
        height = Int(root["h"]?.doubleValue ?? 0)
        frameCount = Int(root["op"]?.doubleValue ?? 0)
        var images: [String: (Double, Double)] = [:]
        for asset in root["assets"]?.arrayValue ?? [] where asset["layers"] == nil {
            if let id = asset["id"]?.stringValue {
                images[id] = (asset["w"]?.doubleValue ?? 0, asset["h"]?.doubleValue ?? 0)
            }
        }
        self.images = images
        layers = (root["layers"]?.arrayValue ?? []).map { layer in
            Layer(index: layer["ind"]?.doubleValue.map { Int($0) }, parent: layer["parent"]?.doubleValue.map { Int($0) },
                  name: layer["nm"]?.stringValue ?? "", type: Int(layer["ty"]?.doubleValue ?? -1),
                  refID: layer["refId"]?.stringValue, inPoint: layer["ip"]?.doubleValue ?? 0,
                  outPoint: layer["op"]?.doubleValue ?? 0, transform: layer["ks"]?.objectValue ?? [:],
                  hasMask: layer["masksProperties"] != nil, isMatte: layer["td"]?.doubleValue == 1)
        }
    }

    /// A property's value at `frame`: static, or keyframes (hold `h: 1`, otherwise linear — the only easing the
    /// exporter writes; a Bézier handle other than (0,0)/(1,1) fails the reading).
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
            let end = numbers(keys[i + 1]["s"])
            if let o = keys[i]["o"], numbers(o["x"]).first != 0 || numbers(o["y"]).first != 0 {
                throw NSError(domain: "LottieTestSampler", code: 1, userInfo: [NSLocalizedDescriptionKey: "eased keyframe"])
            }
            let p = (frame - times[i]) / (times[i + 1] - times[i])
            return zip(start, end).map { $0 + ($1 - $0) * p }
        }
        return numbers(keys[keys.count - 1]["s"])
    }

    /// A layer's own matrix: translate(p) · rotate(r) · scale(s/100) · translate(−a) (no skew is written).
    func localMatrix(_ layer: Layer, at frame: Double) throws -> Matrix2D {
        let ks = layer.transform
        let a = try Self.value(ks["a"], at: frame, default: [0, 0])
        let p = try Self.value(ks["p"], at: frame, default: [0, 0])
        let s = try Self.value(ks["s"], at: frame, default: [100, 100])
        let r = try Self.value(ks["r"], at: frame, default: [0])[0] * .pi / 180
        let rotation = Matrix2D(a: cos(r), b: sin(r), c: -sin(r), d: cos(r), tx: 0, ty: 0)
        return Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: p[0], ty: p[1])
            .concatenating(rotation)
            .concatenating(Matrix2D(a: s[0] / 100, b: 0, c: 0, d: s[1] / 100, tx: 0, ty: 0))
            .concatenating(Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: -a[0], ty: -a[1]))
    }

    /// A layer's matrix with its parents' (Lottie parenting: the parent's transform without its opacity).
    func worldMatrix(_ layer: Layer, at frame: Double, depth: Int = 0) throws -> Matrix2D {
        let own = try localMatrix(layer, at: frame)
        guard let parentIndex = layer.parent, depth < 32,
            let parent = layers.first(where: { $0.index == parentIndex })
        else { return own }
        return try worldMatrix(parent, at: frame, depth: depth + 1).concatenating(own)
    }

    /// The image layers showing at `frame`, back to front.
    func visibleImages(at frame: Double) -> [Layer] {
        layers.reversed().filter { $0.type == 2 && $0.inPoint <= frame && frame < $0.outPoint }
    }

    func opacity(_ layer: Layer, at frame: Double) throws -> Double {
        try Self.value(layer.transform["o"], at: frame, default: [100])[0] / 100
    }
}
