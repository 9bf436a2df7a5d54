// The Apple-side half of the Core Animation loader (docs/core-animation.md §9): copies a `LayerTreeDescription`, field
// for field, onto CALayer / CAAnimationGroup / CAKeyframeAnimation and reads the images with ImageIO.
//
// Compiled only where QuartzCore exists (iOS, macOS, tvOS, visionOS). CI runs on Linux and does not compile or run
// this file; everything the loader decides lives in LayerTreeDescription, which CI compiles and tests against the
// exporter's files, so what is left here has no logic of its own: no defaults, no conditions but the platform's
// NSValue spelling and macOS's flipped geometry. It depends on nothing but Foundation, QuartzCore and ImageIO, so an
// app links neither libpng nor the rest of Keyframe. Untested on Apple platforms until a macOS runner exists.
#if canImport(QuartzCore) && canImport(ImageIO)
import Foundation
import ImageIO
import QuartzCore
#if !os(macOS) && canImport(UIKit)
import UIKit  // NSValue(cgPoint:)
#endif

/// A layer tree read from a `keyframe export --to core-animation` file, ready to add to a view's layer.
///
/// ```swift
/// let tree = try KeyframeLayerTree(contentsOf: Bundle.main.url(forResource: "walk", withExtension: "json")!)
/// view.layer.addSublayer(tree.layer)
/// tree.play()
/// ```
///
/// Main-actor isolated: it owns `CALayer`s, which UIKit and AppKit use on the main thread only, so in Swift 6 mode the
/// compiler keeps every use of a tree there. ``LayerTreeDescription`` (all the decisions, `Sendable`) can be read on
/// any thread and handed over.
@MainActor
public final class KeyframeLayerTree {
    /// The root layer; its sublayers carry the animations.
    public let layer: CALayer
    /// The file as read: clip name, frame rate, duration, loop count and every layer's values.
    public let source: LayerTreeDescription
    /// Why a file could not be loaded (the file, the field's path, the reason).
    public typealias LoadError = LayerTreeLoadError

    /// The clip's name.
    public var clip: String { source.clip }
    /// Frames per second of the source.
    public var frameRate: Double { source.frameRate }
    /// The clip's length in seconds.
    public var duration: CFTimeInterval { source.duration }
    /// The source's loop count (0: forever).
    public var loopCount: Int { source.loopCount }

    /// Reads a JSON or XML property-list file; images are read from inside the file's folder.
    public init(contentsOf url: URL) throws {
        source = try LayerTreeDescription(contentsOf: url)
        var images: [String: CGImage] = [:]
        for (id, imageURL) in source.images {
            guard let imageSource = CGImageSourceCreateWithURL(imageURL as CFURL, nil),
                let image = CGImageSourceCreateImageAtIndex(imageSource, 0, nil)
            else {
                throw LayerTreeLoadError(file: url.path, path: "images", message: "cannot read image \(imageURL.path)")
            }
            images[id] = image
        }
        layer = KeyframeLayerTree.layer(source.root, images: images)
        #if os(macOS)
        layer.isGeometryFlipped = true  // the file's y axis points down, as on iOS
        #endif
    }

    /// Starts the clip now (from its first frame).
    public func play() {
        let now = CACurrentMediaTime()
        layer.beginTime = layer.superlayer.map { $0.convertTime(now, from: nil) } ?? now
    }

    // MARK: Field-for-field copies

    static func layer(_ d: LayerTreeDescription.Layer, images: [String: CGImage]) -> CALayer {
        let layer: CALayer
        if let first = d.path.first {
            // A shape layer (a mesh triangle's mask): the polygon filled opaque, non-zero rule.
            let shape = CAShapeLayer()
            let path = CGMutablePath()
            path.move(to: point(first))
            for p in d.path.dropFirst() { path.addLine(to: point(p)) }
            path.closeSubpath()
            shape.path = path
            shape.fillColor = CGColor(gray: 0, alpha: 1)
            shape.fillRule = .nonZero
            layer = shape
        } else {
            layer = CALayer()
        }
        layer.name = d.name
        layer.bounds = rect(d.bounds)
        layer.anchorPoint = point(d.anchorPoint)
        layer.position = point(d.position)
        layer.transform = transform(d.transform)
        layer.opacity = d.opacity
        layer.isHidden = d.isHidden
        layer.zPosition = CGFloat(d.zPosition)
        layer.allowsGroupOpacity = d.allowsGroupOpacity
        layer.contents = d.contents.flatMap { images[$0] }
        layer.contentsRect = rect(d.contentsRect)
        layer.beginTime = d.beginTime
        layer.timeOffset = d.timeOffset
        layer.speed = d.speed
        if let group = d.animation { layer.add(animationGroup(group), forKey: "keyframe") }
        layer.mask = d.mask.first.map { Self.layer($0, images: images) }
        for sublayer in d.sublayers { layer.addSublayer(Self.layer(sublayer, images: images)) }
        return layer
    }

    static func animationGroup(_ d: LayerTreeDescription.AnimationGroup) -> CAAnimationGroup {
        let group = CAAnimationGroup()
        timing(group, d.timing)
        group.animations = d.animations.map(keyframeAnimation)
        return group
    }

    static func keyframeAnimation(_ d: LayerTreeDescription.KeyframeAnimation) -> CAKeyframeAnimation {
        let animation = CAKeyframeAnimation(keyPath: d.keyPath)
        animation.values = d.values.map { value -> Any in
            switch value {
            case .number(let number): return NSNumber(value: number)
            case .bool(let bool): return NSNumber(value: bool)
            case .point(let p):
                #if os(macOS)
                return NSValue(point: point(p))
                #else
                return NSValue(cgPoint: point(p))
                #endif
            case .transform(let m): return NSValue(caTransform3D: transform(m))
            }
        }
        animation.keyTimes = d.keyTimes.map { NSNumber(value: $0) }
        animation.timingFunctions = d.timingFunctions.map { c in
            CAMediaTimingFunction(controlPoints: c[0], c[1], c[2], c[3])
        }
        animation.calculationMode = CAAnimationCalculationMode(rawValue: d.calculationMode)
        timing(animation, d.timing)
        return animation
    }

    static func timing(_ animation: CAAnimation, _ t: LayerTreeDescription.Timing) {
        animation.beginTime = t.beginTime
        animation.duration = t.duration
        animation.timeOffset = t.timeOffset
        animation.speed = t.speed
        animation.repeatCount = t.repeatCount
        animation.repeatDuration = t.repeatDuration
        animation.autoreverses = t.autoreverses
        animation.fillMode = CAMediaTimingFillMode(rawValue: t.fillMode)
        animation.isRemovedOnCompletion = t.isRemovedOnCompletion
    }

    static func point(_ p: LayerTreeDescription.Point) -> CGPoint { CGPoint(x: p.x, y: p.y) }

    static func rect(_ r: LayerTreeDescription.Rect) -> CGRect {
        CGRect(x: r.x, y: r.y, width: r.width, height: r.height)
    }

    static func transform(_ v: [Double]) -> CATransform3D {
        let m = v.map { CGFloat($0) }
        return CATransform3D(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                             m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
    }
}
#endif
