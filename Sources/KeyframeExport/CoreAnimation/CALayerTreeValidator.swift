import KeyframeModel

/// Structural checks for a layer tree: what Core Animation would reject or misplay at run time.
///
/// Every animation: a known key path and value type, values of the type's width, `keyTimes` in 0…1 starting at 0,
/// ending at 1, never decreasing, one per value (one more for `discrete`), `values − 1` timing functions of 4 numbers
/// each, a known calculation mode and fill mode, a positive duration, a non-zero speed, `isRemovedOnCompletion`
/// false; every number finite; every layer's `contents` a listed image and its `contentsRect` inside the unit square;
/// a shape layer's `path` x, y pairs of at least three points.
public enum CALayerTreeValidator {
    /// Key paths the exporter writes and the loader knows.
    public static let keyPaths: [String: CAKeyframeAnimationSpec.ValueType] = [
        "position": .point, "transform": .transform, "transform.rotation.z": .number, "transform.scale.x": .number,
        "transform.scale.y": .number, "opacity": .number, "hidden": .bool, "zPosition": .number,
    ]
    static let calculationModes: Set<String> = ["linear", "discrete", "paced", "cubic", "cubicPaced"]
    static let fillModes: Set<String> = ["removed", "forwards", "backwards", "both"]

    /// Every problem found, each naming the layer path and the animation; empty when the tree is sound.
    public static func problems(in document: CALayerTreeDocument) -> [String] {
        var problems: [String] = []
        let images = Set(document.images.map(\.id))
        for image in document.images where !(image.pixelWidth > 0 && image.pixelHeight > 0 && image.pixelWidth.isFinite && image.pixelHeight.isFinite) {
            problems.append("image \(image.id): size must be positive and finite")
        }
        if !(document.frameRate > 0 && document.frameRate.isFinite) { problems.append("frameRate must be positive") }
        check(document.root, path: document.root.name, images: images, into: &problems)
        return problems
    }

    private static func check(_ layer: CALayerSpec, path: String, images: Set<String>, into problems: inout [String]) {
        func fail(_ message: String) { problems.append("\(path): \(message)") }
        let numbers = layer.bounds + layer.anchorPoint + layer.position + layer.transform + layer.contentsRect
            + [layer.opacity, layer.zPosition, layer.beginTime, layer.timeOffset, layer.speed]
        if numbers.contains(where: { !$0.isFinite }) { fail("a layer field is not a finite number") }
        if layer.bounds.count != 4 || layer.anchorPoint.count != 2 || layer.position.count != 2
            || layer.transform.count != 16 || layer.contentsRect.count != 4 {
            fail("a geometry field has the wrong number of numbers")
        }
        if layer.bounds.count == 4 && (layer.bounds[2] < 0 || layer.bounds[3] < 0) { fail("bounds has a negative size") }
        if layer.speed == 0 { fail("layer speed is 0 (its sublayers would never move)") }
        if !(0...1).contains(layer.opacity) { fail("opacity \(layer.opacity) outside 0…1") }
        if let contents = layer.contents {
            if !images.contains(contents) { fail("contents names unknown image \"\(contents)\"") }
            if layer.contentsRect.count == 4 {
                let r = layer.contentsRect
                if r[0] < -1e-9 || r[1] < -1e-9 || r[0] + r[2] > 1 + 1e-9 || r[1] + r[3] > 1 + 1e-9 || r[2] <= 0 || r[3] <= 0 {
                    fail("contentsRect \(r) is not inside the unit square")
                }
            }
        }
        if let group = layer.animation {
            let timing = [group.beginTime, group.duration, group.timeOffset, group.speed, group.repeatCount, group.repeatDuration]
            if timing.contains(where: { !$0.isFinite }) { fail("group timing is not finite") }
            if !(group.duration > 0) { fail("group duration must be positive") }
            if group.speed == 0 { fail("group speed is 0") }
            if group.repeatCount < 0 || group.repeatDuration < 0 { fail("negative repeat") }
            if !fillModes.contains(group.fillMode) { fail("unknown group fillMode \"\(group.fillMode)\"") }
            if group.isRemovedOnCompletion { fail("group isRemovedOnCompletion must be false") }
            if group.animations.isEmpty { fail("empty animation group") }
            var seen: Set<String> = []
            for animation in group.animations {
                if !seen.insert(animation.keyPath).inserted { fail("\(animation.keyPath) animated twice") }
                check(animation, group: group, fail: { fail("\(animation.keyPath): \($0)") })
            }
        }
        if let polygon = layer.path {
            if polygon.count < 6 || polygon.count % 2 != 0 { fail("path has \(polygon.count) numbers (x, y pairs, at least 3 points)") }
            if polygon.contains(where: { !$0.isFinite }) { fail("path is not finite") }
        }
        if let mask = layer.mask { check(mask.layer, path: "\(path)/mask:\(mask.layer.name)", images: images, into: &problems) }
        for (index, sublayer) in layer.sublayers.enumerated() {
            check(sublayer, path: "\(path)/\(index):\(sublayer.name)", images: images, into: &problems)
        }
    }

    private static func check(_ a: CAKeyframeAnimationSpec, group: CAAnimationGroupSpec, fail: (String) -> Void) {
        if let type = keyPaths[a.keyPath] {
            if type != a.valueType { fail("value type \(a.valueType.rawValue), expected \(type.rawValue)") }
        } else {
            fail("unknown key path")
        }
        if !calculationModes.contains(a.calculationMode) { fail("unknown calculationMode \"\(a.calculationMode)\"") }
        if !fillModes.contains(a.fillMode) { fail("unknown fillMode \"\(a.fillMode)\"") }
        if a.isRemovedOnCompletion { fail("isRemovedOnCompletion must be false") }
        if !(a.duration > 0 && a.duration.isFinite) { fail("duration must be positive") }
        if a.speed == 0 || !a.speed.isFinite { fail("speed must be finite and non-zero") }
        if ![a.beginTime, a.timeOffset, a.repeatCount, a.repeatDuration].allSatisfy(\.isFinite) { fail("timing is not finite") }
        if a.values.count < 2 { fail("fewer than 2 values") }
        if a.values.contains(where: { $0.count != a.valueType.width }) { fail("a value has the wrong number of numbers") }
        if a.values.contains(where: { $0.contains { !$0.isFinite } }) { fail("a value is not finite") }
        if a.valueType == .bool && a.values.contains(where: { $0[0] != 0 && $0[0] != 1 }) { fail("a boolean is not 0 or 1") }
        let expected = a.calculationMode == "discrete" ? a.values.count + 1 : a.values.count
        if a.calculationMode != "paced" && a.calculationMode != "cubicPaced" {
            if a.keyTimes.count != expected {
                fail("\(a.keyTimes.count) keyTimes for \(a.values.count) values (\(a.calculationMode) needs \(expected))")
            }
            if a.keyTimes.first != 0 || a.keyTimes.last != 1 { fail("keyTimes must start at 0 and end at 1") }
            if zip(a.keyTimes, a.keyTimes.dropFirst()).contains(where: { !($0 <= $1) }) { fail("keyTimes decrease") }
            if a.keyTimes.contains(where: { !(0...1).contains($0) }) { fail("a keyTime is outside 0…1") }
        }
        if a.timingFunctions.count != max(a.values.count - 1, 0) {
            fail("\(a.timingFunctions.count) timingFunctions for \(a.values.count) values (needs \(a.values.count - 1))")
        }
        for f in a.timingFunctions where f.count != 4 || !f.allSatisfy(\.isFinite) || !(0...1).contains(f[0]) || !(0...1).contains(f[2]) {
            fail("timing function \(f) needs 4 finite numbers with x in 0…1")
        }
        if a.duration > group.duration * (1 + 1e-9) + 1e-12 { fail("longer than its group (Core Animation would cut it)") }
    }
}
