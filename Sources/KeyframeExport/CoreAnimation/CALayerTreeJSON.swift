import KeyframeJSON

/// Writes a layer tree's JSON straight from the specs, byte for byte what `JSONWriter.write(document.json)` gives
/// (or, compact, `JSONWriter.writeCompact(document.json)` and a newline), without building the `JSONValue` tree
/// first (that tree and its sorting were a third of the export's time).
///
/// The document, its layers, animation groups and keyframe animations are objects `JSONWriter` never puts on one
/// line (each holds more than ten scalars or a container two levels down), so they are written expanded with their
/// members in key order; everything else goes through `JSONStream`, which makes the writer's one-line decisions.
/// A group without animations could fit on one line; it is written through the generic path. The tests compare the
/// bytes with `JSONWriter` on every sample and corpus export, in both layouts.
///
/// Compact is the default: indentation grows with every nested layer and was three quarters of the indented files'
/// bytes (a Flump scene: 761 KB indented, 200 KB compact), and most of their writing time.
enum CALayerTreeJSON {
    static func encode(_ document: CALayerTreeDocument, compact: Bool = true) -> [UInt8] {
        var out = JSONStream(capacity: 1 << 16, compact: compact)
        out.open(UInt8(ascii: "{"))
        out.member("clip", indent: 1, first: true)
        out.string(document.clip)
        out.member("duration", indent: 1)
        out.number(document.duration)
        out.member("format", indent: 1)
        out.string(CALayerTreeDocument.formatName)
        out.member("frameCount", indent: 1)
        out.number(Double(document.frameCount))
        out.member("frameRate", indent: 1)
        out.number(document.frameRate)
        out.member("images", indent: 1)
        out.value(document.images.json, indent: 1)
        out.member("loopCount", indent: 1)
        out.number(Double(document.loopCount))
        out.member("root", indent: 1)
        layer(document.root, indent: 1, into: &out)
        if let stage = document.stage {
            out.member("stage", indent: 1)
            out.numbers(stage, indent: 1)
        }
        out.member("version", indent: 1)
        out.number(Double(CALayerTreeDocument.formatVersion))
        out.close(UInt8(ascii: "}"), indent: 0)
        return out.finish()
    }

    /// A layer object at level `indent` (members in key order).
    private static func layer(_ layer: CALayerSpec, indent: Int, into out: inout JSONStream) {
        // Eight scalars always; with its five geometry arrays (28 numbers in any real layer) it cannot fit on one
        // line. A layer built with (almost) empty arrays might: the generic path decides.
        let geometry = layer.anchorPoint.count + layer.bounds.count + layer.contentsRect.count
            + layer.position.count + layer.transform.count
        guard geometry > 2 else {
            out.value(layer.json, indent: indent)
            return
        }
        let inner = indent + 1
        out.open(UInt8(ascii: "{"))
        out.member("allowsGroupOpacity", indent: inner, first: true)
        out.bool(layer.allowsGroupOpacity)
        out.member("anchorPoint", indent: inner)
        out.numbers(layer.anchorPoint, indent: inner)
        if let animation = layer.animation {
            out.member("animation", indent: inner)
            if animation.animations.isEmpty {
                out.value(animation.json, indent: inner)
            } else {
                group(animation, indent: inner, into: &out)
            }
        }
        out.member("beginTime", indent: inner)
        out.number(layer.beginTime)
        out.member("bounds", indent: inner)
        out.numbers(layer.bounds, indent: inner)
        if let contents = layer.contents {
            out.member("contents", indent: inner)
            out.string(contents)
        }
        out.member("contentsRect", indent: inner)
        out.numbers(layer.contentsRect, indent: inner)
        out.member("isHidden", indent: inner)
        out.bool(layer.isHidden)
        if let mask = layer.mask {
            out.member("mask", indent: inner)
            self.layer(mask.layer, indent: inner, into: &out)
        }
        out.member("name", indent: inner)
        out.string(layer.name)
        out.member("opacity", indent: inner)
        out.number(layer.opacity)
        if let path = layer.path {
            out.member("path", indent: inner)
            out.numbers(path, indent: inner)
        }
        out.member("position", indent: inner)
        out.numbers(layer.position, indent: inner)
        out.member("speed", indent: inner)
        out.number(layer.speed)
        out.member("sublayers", indent: inner)
        if layer.sublayers.isEmpty {
            out.value(.array([]), indent: inner)
        } else {
            // Layers hold containers two levels down: the array never fits on one line.
            out.open(UInt8(ascii: "["))
            for position in layer.sublayers.indices {
                out.element(indent: inner + 1, first: position == 0)
                self.layer(layer.sublayers[position], indent: inner + 1, into: &out)
            }
            out.close(UInt8(ascii: "]"), indent: inner)
        }
        out.member("timeOffset", indent: inner)
        out.number(layer.timeOffset)
        out.member("transform", indent: inner)
        out.numbers(layer.transform, indent: inner)
        out.member("zPosition", indent: inner)
        out.number(layer.zPosition)
        out.close(UInt8(ascii: "}"), indent: indent)
    }

    /// An animation group with at least one animation, at level `indent`.
    private static func group(_ group: CAAnimationGroupSpec, indent: Int, into out: inout JSONStream) {
        let inner = indent + 1
        out.open(UInt8(ascii: "{"))
        out.member("animations", indent: inner, first: true)
        out.open(UInt8(ascii: "["))
        for position in group.animations.indices {
            out.element(indent: inner + 1, first: position == 0)
            animation(group.animations[position], indent: inner + 1, into: &out)
        }
        out.close(UInt8(ascii: "]"), indent: inner)
        out.member("autoreverses", indent: inner)
        out.bool(group.autoreverses)
        out.member("beginTime", indent: inner)
        out.number(group.beginTime)
        out.member("duration", indent: inner)
        out.number(group.duration)
        out.member("fillMode", indent: inner)
        out.string(group.fillMode)
        out.member("isRemovedOnCompletion", indent: inner)
        out.bool(group.isRemovedOnCompletion)
        out.member("repeatCount", indent: inner)
        out.number(group.repeatCount)
        out.member("repeatDuration", indent: inner)
        out.number(group.repeatDuration)
        out.member("speed", indent: inner)
        out.number(group.speed)
        out.member("timeOffset", indent: inner)
        out.number(group.timeOffset)
        out.close(UInt8(ascii: "}"), indent: indent)
    }

    /// A keyframe animation (twelve scalars: never on one line) at level `indent`.
    private static func animation(_ animation: CAKeyframeAnimationSpec, indent: Int, into out: inout JSONStream) {
        let inner = indent + 1
        out.open(UInt8(ascii: "{"))
        out.member("autoreverses", indent: inner, first: true)
        out.bool(animation.autoreverses)
        out.member("beginTime", indent: inner)
        out.number(animation.beginTime)
        out.member("calculationMode", indent: inner)
        out.string(animation.calculationMode)
        out.member("duration", indent: inner)
        out.number(animation.duration)
        out.member("fillMode", indent: inner)
        out.string(animation.fillMode)
        out.member("isRemovedOnCompletion", indent: inner)
        out.bool(animation.isRemovedOnCompletion)
        out.member("keyPath", indent: inner)
        out.string(animation.keyPath)
        out.member("keyTimes", indent: inner)
        out.numbers(animation.keyTimes, indent: inner)
        out.member("repeatCount", indent: inner)
        out.number(animation.repeatCount)
        out.member("repeatDuration", indent: inner)
        out.number(animation.repeatDuration)
        out.member("speed", indent: inner)
        out.number(animation.speed)
        out.member("timeOffset", indent: inner)
        out.number(animation.timeOffset)
        out.member("timingFunctions", indent: inner)
        out.numberArrays(animation.timingFunctions, indent: inner)
        out.member("valueType", indent: inner)
        out.string(animation.valueType.rawValue)
        out.member("values", indent: inner)
        switch animation.valueType {
        case .point, .transform:
            out.numberArrays(animation.values, indent: inner)
        case .number:
            out.numbers(animation.values.map { $0.first ?? 0 }, indent: inner)
        case .bool:
            out.value(.array(animation.values.map { CAValueCoding.encode($0, as: .bool) }), indent: inner)
        }
        out.close(UInt8(ascii: "}"), indent: indent)
    }
}
