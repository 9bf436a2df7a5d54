import Foundation
import KeyframeEngine
import KeyframeModel

/// A model of Core Animation that plays a layer-tree file on any platform: what an app would show at a time.
///
/// It evaluates the file as Core Animation does: each layer's local time is `(parent − beginTime)·speed +
/// timeOffset`; a layer's animation group maps that time through its own media timing (`MediaTiming`: repeats,
/// fill modes), and each keyframe animation maps the group's time through its own timing into a fraction that
/// `KeyframeTrack` turns into a value (keyTimes, timingFunctions, calculationMode); without an effective animation
/// the model value shows. `transform.rotation.z`/`transform.scale.x/y` replace those components of the decomposed
/// transform; a layer's frame is `translate(position) · transform · translate(−anchorPoint·size − bounds.origin)`
/// in its superlayer; hidden layers hide their sublayers; opacity multiplies down (group opacity off); sublayers
/// draw in order, sorted stably by `zPosition`; a `mask` layer tree, laid out in its layer's coordinates on its
/// layer's time, limits the layer and its sublayers. The result is the back-to-front list of layers with contents
/// or a shape (``CALayerSpec/path``).
public struct CALayerTreePlayer: Sendable {
    /// One layer with contents as it appears at a time.
    public struct DrawnLayer: Sendable, Equatable {
        /// The layer's name and its path from the root (`root/timeline/node/sprite`).
        public var name: String
        public var path: String
        /// The image and the unit rectangle of it shown.
        public var image: String
        public var contentsRect: [Double]
        /// The layer's bounds `[x, y, width, height]`.
        public var bounds: [Double]
        /// Bounds space → root layer space.
        public var transform: Matrix2D
        /// The product of the opacities down to it.
        public var opacity: Double
        /// The masks that limit it, outermost first: each the layers with contents of one mask layer's tree.
        public var masks: [[DrawnLayer]] = []
        /// For a shape layer (``CALayerSpec/path``): its filled polygon in bounds space (``image`` is then empty).
        public var shape: [Double]? = nil
    }

    private struct Animation: Sendable {
        var keyPath: String
        var timing: MediaTiming
        var track: KeyframeTrack
    }

    private final class Layer: Sendable {
        let spec: CALayerSpec
        let group: MediaTiming?
        let groupDuration: Double
        let animations: [Animation]
        let sublayers: [Layer]
        let mask: Layer?

        init(_ spec: CALayerSpec) {
            self.spec = spec
            if let group = spec.animation {
                self.group = CALayerTreePlayer.timing(beginTime: group.beginTime, duration: group.duration,
                                                      speed: group.speed, timeOffset: group.timeOffset,
                                                      repeatCount: group.repeatCount, repeatDuration: group.repeatDuration,
                                                      autoreverses: group.autoreverses, fillMode: group.fillMode)
                groupDuration = group.duration
                animations = group.animations.map { a in
                    let functions = a.timingFunctions.map { f -> TimingCurve in
                        f == [0, 0, 1, 1] ? .linear : .cubic(CubicBezier(f[0], f[1], f[2], f[3]))
                    }
                    return Animation(
                        keyPath: a.keyPath,
                        timing: CALayerTreePlayer.timing(beginTime: a.beginTime, duration: a.duration, speed: a.speed,
                                                         timeOffset: a.timeOffset, repeatCount: a.repeatCount,
                                                         repeatDuration: a.repeatDuration, autoreverses: a.autoreverses,
                                                         fillMode: a.fillMode),
                        track: KeyframeTrack(values: a.values, keyTimes: a.keyTimes, timingFunctions: functions,
                                             calculationMode: CalculationMode(rawValue: a.calculationMode) ?? .linear))
                }
            } else {
                group = nil
                groupDuration = 0
                animations = []
            }
            sublayers = spec.sublayers.map(Layer.init)
            mask = spec.mask.map { Layer($0.layer) }
        }
    }

    /// A layer's presentation values at a time.
    private struct Presentation {
        var localTime: Double
        var position: [Double]
        var transform: Matrix2D
        var opacity: Double
        var hidden: Bool
        var zPosition: Double
    }

    public let document: CALayerTreeDocument
    private let root: Layer

    public init(document: CALayerTreeDocument) {
        self.document = document
        root = Layer(document.root)
    }

    /// The layers with contents, back to front, `time` seconds after the tree started playing.
    public func draw(at time: Double) -> [DrawnLayer] {
        var result: [DrawnLayer] = []
        let presentation = present(root, parentTime: time)
        visit(root, presentation, parent: .identity, opacity: 1, path: root.spec.name, masks: [], into: &result)
        return result
    }

    private func visit(_ layer: Layer, _ p: Presentation, parent: Matrix2D, opacity: Double, path: String,
                       masks: [[DrawnLayer]], into result: inout [DrawnLayer]) {
        guard !p.hidden else { return }
        let spec = layer.spec
        let size = (spec.bounds[2], spec.bounds[3])
        let matrix = parent
            .concatenating(Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: p.position[0], ty: p.position[1]))
            .concatenating(p.transform)
            .concatenating(Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: -spec.anchorPoint[0] * size.0 - spec.bounds[0],
                                    ty: -spec.anchorPoint[1] * size.1 - spec.bounds[1]))
        let alpha = opacity * p.opacity
        var masks = masks
        if let mask = layer.mask {
            // The mask is laid out in this layer's coordinates and runs on this layer's time.
            var shapes: [DrawnLayer] = []
            visit(mask, present(mask, parentTime: p.localTime), parent: matrix, opacity: 1,
                  path: path + "/" + mask.spec.name, masks: [], into: &shapes)
            masks.append(shapes)
        }
        if let image = spec.contents {
            result.append(DrawnLayer(name: spec.name, path: path, image: image, contentsRect: spec.contentsRect,
                                     bounds: spec.bounds, transform: matrix, opacity: alpha, masks: masks))
        } else if let polygon = spec.path {
            result.append(DrawnLayer(name: spec.name, path: path, image: "", contentsRect: spec.contentsRect,
                                     bounds: spec.bounds, transform: matrix, opacity: alpha, masks: masks,
                                     shape: polygon))
        }
        let children = layer.sublayers.map { present($0, parentTime: p.localTime) }
        let order = children.indices.sorted { a, b in
            children[a].zPosition != children[b].zPosition ? children[a].zPosition < children[b].zPosition : a < b
        }
        for index in order {
            let child = layer.sublayers[index]
            visit(child, children[index], parent: matrix, opacity: alpha, path: path + "/" + child.spec.name,
                  masks: masks, into: &result)
        }
    }

    private func present(_ layer: Layer, parentTime: Double) -> Presentation {
        let spec = layer.spec
        let local = (parentTime - spec.beginTime) * spec.speed + spec.timeOffset
        var p = Presentation(localTime: local, position: spec.position, transform: CALayerSpec.affine(spec.transform),
                             opacity: spec.opacity, hidden: spec.isHidden, zPosition: spec.zPosition)
        guard let group = layer.group, let fraction = group.fraction(atParentTime: Seconds(local)) else { return p }
        let groupTime = fraction * layer.groupDuration
        var rotation: Double? = nil, scaleX: Double? = nil, scaleY: Double? = nil
        for animation in layer.animations {
            guard let value = animation.track.value(atParentTime: Seconds(groupTime), timing: animation.timing) else { continue }
            switch animation.keyPath {
            case "position": p.position = value
            case "transform": p.transform = CALayerSpec.affine(value)
            case "transform.rotation.z": rotation = value[0]
            case "transform.scale.x": scaleX = value[0]
            case "transform.scale.y": scaleY = value[0]
            case "opacity": p.opacity = value[0]
            case "hidden": p.hidden = value[0] != 0
            case "zPosition": p.zPosition = value[0]
            default: break
            }
        }
        if rotation != nil || scaleX != nil || scaleY != nil {
            // Component key paths: decompose the transform, replace the animated components, compose again.
            let m = p.transform
            let sx = (m.a * m.a + m.b * m.b).squareRoot()
            let current = (rotation: atan2(m.b, m.a), sx: sx, sy: sx > 0 ? m.determinant / sx : 0)
            let composed = CALayerTreeBuilder.matrix(rotation: rotation ?? current.rotation, scaleX: scaleX ?? current.sx,
                                                     scaleY: scaleY ?? current.sy)
            p.transform = Matrix2D(a: composed.a, b: composed.b, c: composed.c, d: composed.d, tx: m.tx, ty: m.ty)
        }
        return p
    }

    static func timing(beginTime: Double, duration: Double, speed: Double, timeOffset: Double, repeatCount: Double,
                       repeatDuration: Double, autoreverses: Bool, fillMode: String) -> MediaTiming {
        MediaTiming(beginTime: Seconds(beginTime), duration: Seconds(duration), speed: speed,
                    timeOffset: Seconds(timeOffset), repeatCount: repeatCount, repeatDuration: Seconds(repeatDuration),
                    autoreverses: autoreverses, fillMode: FillMode(rawValue: fillMode) ?? .removed)
    }
}
