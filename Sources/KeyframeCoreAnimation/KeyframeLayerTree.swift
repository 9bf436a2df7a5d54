// The Apple-side loader of Keyframe's Core Animation layer-tree files (docs/core-animation.md).
//
// It is compiled only where QuartzCore exists (iOS, macOS, tvOS, visionOS); on Linux this file is empty and the
// module has no symbols, so `swift build` stays green there. CI runs on Linux and DOES NOT BUILD THIS CODE: it is
// kept a direct, field-for-field mapping of the file to CALayer / CAAnimationGroup / CAKeyframeAnimation with no
// logic of its own, so that the Linux-side verification of the file (KeyframeExport's CALayerTreePlayer against the
// engine) covers what an app shows. It depends on nothing but Foundation, QuartzCore and ImageIO, so an app links
// neither libpng nor the rest of Keyframe.
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
public final class KeyframeLayerTree {
    /// The root layer; its sublayers carry the animations.
    public let layer: CALayer
    /// The clip's name, frame rate, length in seconds and loop count from the file.
    public let clip: String
    public let frameRate: Double
    public let duration: CFTimeInterval
    public let loopCount: Int

    /// Why a file could not be loaded.
    public struct LoadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Core Animation replaces a `beginTime` of exactly 0 with "now"; AVFoundation's
    /// `AVCoreAnimationBeginTimeAtZero` (1e-100) is the documented way to say time zero. The file's 0 maps to it.
    static let beginTimeAtZero: CFTimeInterval = 1e-100

    /// Reads a JSON or XML property-list file; images are read relative to the file's folder.
    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        let object: Any
        if data.starts(with: Array("<?xml".utf8)) || data.starts(with: Array("bplist".utf8)) {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } else {
            object = try JSONSerialization.jsonObject(with: data)
        }
        guard let file = object as? [String: Any], file["format"] as? String == "keyframe-core-animation" else {
            throw LoadError(description: "\(url.path): not a Keyframe Core Animation file")
        }
        guard (file["version"] as? NSNumber)?.intValue == 1 else {
            throw LoadError(description: "\(url.path): unsupported version \(file["version"] ?? "none")")
        }
        let folder = url.deletingLastPathComponent()
        var images: [String: CGImage] = [:]
        for image in try KeyframeLayerTree.array(file["images"], "images") {
            let id = try KeyframeLayerTree.string(image["id"], "images.id")
            let path = try KeyframeLayerTree.string(image["path"], "images.path")
            let imageURL = folder.appendingPathComponent(path)
            guard let source = CGImageSourceCreateWithURL(imageURL as CFURL, nil),
                let cgImage = CGImageSourceCreateImageAtIndex(source, 0, nil)
            else { throw LoadError(description: "\(url.path): cannot read image \(imageURL.path)") }
            images[id] = cgImage
        }
        clip = try KeyframeLayerTree.string(file["clip"], "clip")
        frameRate = try KeyframeLayerTree.number(file["frameRate"], "frameRate")
        duration = try KeyframeLayerTree.number(file["duration"], "duration")
        loopCount = Int(try KeyframeLayerTree.number(file["loopCount"], "loopCount"))
        guard let root = file["root"] as? [String: Any] else { throw LoadError(description: "\(url.path): no root layer") }
        layer = try KeyframeLayerTree.layer(root, images: images)
        #if os(macOS)
        layer.isGeometryFlipped = true  // the file's y axis points down, as on iOS
        #endif
    }

    /// Starts the clip now (from its first frame).
    public func play() {
        let now = CACurrentMediaTime()
        layer.beginTime = layer.superlayer.map { $0.convertTime(now, from: nil) } ?? now
    }

    // MARK: Field-for-field mapping

    static func layer(_ d: [String: Any], images: [String: CGImage]) throws -> CALayer {
        let layer = CALayer()
        layer.name = d["name"] as? String
        layer.bounds = try rect(d["bounds"], "bounds")
        layer.anchorPoint = try point(d["anchorPoint"], "anchorPoint")
        layer.position = try point(d["position"], "position")
        layer.transform = try transform(d["transform"], "transform")
        layer.opacity = Float(try number(d["opacity"], "opacity"))
        layer.isHidden = try bool(d["isHidden"], "isHidden")
        layer.zPosition = CGFloat(try number(d["zPosition"], "zPosition"))
        layer.allowsGroupOpacity = try bool(d["allowsGroupOpacity"], "allowsGroupOpacity")
        if let id = d["contents"] as? String {
            guard let image = images[id] else { throw LoadError(description: "unknown image \(id)") }
            layer.contents = image
        }
        layer.contentsRect = try rect(d["contentsRect"], "contentsRect")
        layer.beginTime = try number(d["beginTime"], "beginTime")
        layer.timeOffset = try number(d["timeOffset"], "timeOffset")
        layer.speed = Float(try number(d["speed"], "speed"))
        if let group = d["animation"] as? [String: Any] {
            layer.add(try animationGroup(group), forKey: "keyframe")
        }
        if let mask = d["mask"] as? [String: Any] {
            layer.mask = try Self.layer(mask, images: images)
        }
        for sublayer in try array(d["sublayers"], "sublayers") {
            layer.addSublayer(try Self.layer(sublayer, images: images))
        }
        return layer
    }

    static func animationGroup(_ d: [String: Any]) throws -> CAAnimationGroup {
        let group = CAAnimationGroup()
        try timing(group, d)
        group.animations = try array(d["animations"], "animations").map(keyframeAnimation)
        return group
    }

    static func keyframeAnimation(_ d: [String: Any]) throws -> CAKeyframeAnimation {
        let animation = CAKeyframeAnimation(keyPath: try string(d["keyPath"], "keyPath"))
        let type = try string(d["valueType"], "valueType")
        guard let values = d["values"] as? [Any] else { throw LoadError(description: "values missing") }
        animation.values = try values.map { value -> Any in
            switch type {
            case "number": return NSNumber(value: try number(value, "values"))
            case "bool": return NSNumber(value: try bool(value, "values"))
            case "point":
                #if os(macOS)
                return NSValue(point: try point(value, "values"))
                #else
                return NSValue(cgPoint: try point(value, "values"))
                #endif
            case "transform": return NSValue(caTransform3D: try transform(value, "values"))
            default: throw LoadError(description: "unknown value type \(type)")
            }
        }
        animation.keyTimes = try numbers(d["keyTimes"], "keyTimes").map { NSNumber(value: $0) }
        animation.timingFunctions = try (d["timingFunctions"] as? [Any] ?? []).map { value in
            let c = try numbers(value, "timingFunctions")
            guard c.count == 4 else { throw LoadError(description: "a timing function has 4 numbers") }
            return CAMediaTimingFunction(controlPoints: Float(c[0]), Float(c[1]), Float(c[2]), Float(c[3]))
        }
        animation.calculationMode = CAAnimationCalculationMode(rawValue: try string(d["calculationMode"], "calculationMode"))
        try timing(animation, d)
        return animation
    }

    static func timing(_ animation: CAAnimation, _ d: [String: Any]) throws {
        let begin = try number(d["beginTime"], "beginTime")
        animation.beginTime = begin == 0 ? beginTimeAtZero : begin
        animation.duration = try number(d["duration"], "duration")
        animation.timeOffset = try number(d["timeOffset"], "timeOffset")
        animation.speed = Float(try number(d["speed"], "speed"))
        animation.repeatCount = Float(try number(d["repeatCount"], "repeatCount"))
        animation.repeatDuration = try number(d["repeatDuration"], "repeatDuration")
        animation.autoreverses = try bool(d["autoreverses"], "autoreverses")
        animation.fillMode = CAMediaTimingFillMode(rawValue: try string(d["fillMode"], "fillMode"))
        animation.isRemovedOnCompletion = try bool(d["isRemovedOnCompletion"], "isRemovedOnCompletion")
    }

    // MARK: Reading values

    static func number(_ value: Any?, _ key: String) throws -> Double {
        guard let number = value as? NSNumber else { throw LoadError(description: "\(key): expected a number") }
        return number.doubleValue
    }

    static func bool(_ value: Any?, _ key: String) throws -> Bool {
        guard let number = value as? NSNumber else { throw LoadError(description: "\(key): expected a boolean") }
        return number.boolValue
    }

    static func string(_ value: Any?, _ key: String) throws -> String {
        guard let string = value as? String else { throw LoadError(description: "\(key): expected a string") }
        return string
    }

    static func array(_ value: Any?, _ key: String) throws -> [[String: Any]] {
        guard let array = value as? [[String: Any]] else { throw LoadError(description: "\(key): expected a list") }
        return array
    }

    static func numbers(_ value: Any?, _ key: String) throws -> [Double] {
        guard let array = value as? [Any] else { throw LoadError(description: "\(key): expected numbers") }
        return try array.map { try number($0, key) }
    }

    static func point(_ value: Any?, _ key: String) throws -> CGPoint {
        let n = try numbers(value, key)
        guard n.count == 2 else { throw LoadError(description: "\(key): expected 2 numbers") }
        return CGPoint(x: n[0], y: n[1])
    }

    static func rect(_ value: Any?, _ key: String) throws -> CGRect {
        let n = try numbers(value, key)
        guard n.count == 4 else { throw LoadError(description: "\(key): expected 4 numbers") }
        return CGRect(x: n[0], y: n[1], width: n[2], height: n[3])
    }

    static func transform(_ value: Any?, _ key: String) throws -> CATransform3D {
        let m = try numbers(value, key).map { CGFloat($0) }
        guard m.count == 16 else { throw LoadError(description: "\(key): expected 16 numbers") }
        return CATransform3D(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                             m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
    }
}
#endif
