import Foundation
import KeyframeJSON
import KeyframeModel

/// Reads DragonBones 2.3 and 3.0 data into the 4.5 form the way the DragonBones tools' converter does
/// (DragonBones/Tools `toFormat.ts`, `V23ToV45`), so the result animates as the official runtime shows converted
/// data:
///
/// - slots come from the skins (ordered by `z`), every bone gets `inheritScale: false`;
/// - image displays are re-centred on their texture (`x += width/2 − pX`), frame pivots `pX`/`pY` are folded into
///   the frame position through the frame's own rotation and scale;
/// - one `timeline` per bone feeds both the bone and the slot of that name; a frame without `tweenEasing` takes the
///   animation's `tweenEasing` (or linear) when `autoTween` is on, otherwise no tween; a frame before a hidden frame
///   loses its tween; a slot without a timeline is hidden for that animation;
/// - with `isGlobal` (the 2.3 default) setup and frame transforms are armature-space: each is mapped into its
///   parent's space (the parent's frame transform sampled at the child frame's position), then made relative to the
///   bone's setup pose.
struct DragonBonesUpconverter {
    /// The versions this converts.
    static let versions: Set<String> = ["2.3", "3.0"]

    /// A 2.x transform in degrees, with its pivot.
    struct Transform {
        var x = 0.0, y = 0.0, skX = 0.0, skY = 0.0, scX = 1.0, scY = 1.0, pX = 0.0, pY = 0.0

        var matrix: Matrix2D {
            let rx = skX * .pi / 180, ry = skY * .pi / 180
            return Matrix2D(a: cos(ry) * scX, b: sin(ry) * scX, c: -sin(rx) * scY, d: cos(rx) * scY, tx: x, ty: y)
        }

        /// The transform as the tools write it: positions and angles to two decimals, scales to four.
        var wire: DragonBonesWire.Transform {
            DragonBonesWire.Transform(
                x: Self.fixed(x, 100), y: Self.fixed(y, 100), skewX: Self.fixed(skX, 100), skewY: Self.fixed(skY, 100),
                scaleX: Self.fixed(scX, 10000), scaleY: Self.fixed(scY, 10000))
        }

        /// An animation frame as the tools' 4.5→5.5 step (`toNew`) writes it: `rotate = normalizeDegree(skY)`,
        /// `skew = normalizeDegree(skX − skY)` (both in −180…180, −180 becoming +180), then rounded to two decimals
        /// (`formatFormat`). The runtime tweens `rotate` the short way or by `clockwise` turns and `skew` straight
        /// from value to value, so a 2.x frame whose skX and skY lie on either side of ±180 turns as it does there.
        /// A value the conversion made NaN is written as `null`, which the runtime reads as the key's default.
        var frameWire: DragonBonesWire.Transform {
            func value(_ v: Double, _ places: Double, _ fallback: Double) -> Double { v.isNaN ? fallback : Self.fixed(v, places) }
            let rotate = DragonBonesUpconverter.normalizedDegrees(DragonBonesUpconverter.normalizedDegrees(skY))
            let skew = DragonBonesUpconverter.normalizedDegrees(DragonBonesUpconverter.normalizedDegrees(skX - skY))
            return DragonBonesWire.Transform(
                x: value(x, 100, 0), y: value(y, 100, 0), rotate: value(rotate, 100, 0), skew: value(skew, 100, 0),
                scaleX: value(scX, 10000, 1), scaleY: value(scY, 10000, 1))
        }

        static func fixed(_ value: Double, _ places: Double) -> Double {
            (value * places).rounded(.toNearestOrAwayFromZero) / places
        }
    }

    /// One converted bone frame.
    struct BoneFrame {
        var duration: Int
        var tween: DragonBonesWire.Tween
        var clockwise: Double
        var transform: Transform
    }

    /// Texture sizes for re-centring image displays, by texture name.
    let textureSizes: [String: Size]

    func read(_ root: JSONCursor, version: String, diagnostics: inout DiagnosticCollector, file: String)
        throws(JSONSchemaError) -> DragonBonesWire.Data
    {
        var isGlobal = true
        if let flag = try root.optionalMember("isGlobal") {
            if case .bool(let value) = flag.value { isGlobal = value } else { isGlobal = try flag.number() != 0 }
        }
        var armatures: [DragonBonesWire.Armature] = []
        for cursor in try root.member("armature").array() {
            armatures.append(try readArmature(cursor, isGlobal: isGlobal))
        }
        var frameRate = try root.optionalMember("frameRate")?.lenientNumber() ?? 24
        if frameRate <= 0 { frameRate = 24 }
        diagnostics.add(Diagnostic(
            severity: .info, code: "up-converted",
            message: "DragonBones \(version) data was up-converted to the 4.5 form as the DragonBones tools do", file: file))
        return DragonBonesWire.Data(
            name: try root.optionalName("name") ?? "", version: version, frameRate: frameRate,
            armatures: armatures)
    }

    private func number(_ json: JSONCursor, _ key: String, _ fallback: Double) throws(JSONSchemaError) -> Double {
        guard let cursor = try json.optionalMember(key) else { return fallback }
        if case .string(let text) = cursor.value, text == "NaN" { return fallback }
        if case .bool(let flag) = cursor.value { return flag ? 1 : 0 }
        return try cursor.lenientNumber()
    }

    /// A name, which 2.x exporters sometimes write as a number (read as the runtime's `String(value)`).
    private func text(_ json: JSONCursor, _ key: String) throws(JSONSchemaError) -> String? {
        try json.optionalName(key)
    }

    /// A whole number limited to ±100 000 000 (a wild value is an error with its path, not a trap).
    private func int(_ json: JSONCursor, _ key: String, _ fallback: Int) throws(JSONSchemaError) -> Int {
        let value = try number(json, key, Double(fallback))
        guard abs(value) <= 100_000_000 else { throw json.error(at: key, "\(value) is out of range") }
        return Int(value)
    }

    private func transform(_ json: JSONCursor, _ key: String = "transform") throws(JSONSchemaError) -> Transform {
        guard let t = try json.optionalMember(key) else { return Transform() }
        return Transform(
            x: try number(t, "x", 0), y: try number(t, "y", 0), skX: try number(t, "skX", 0), skY: try number(t, "skY", 0),
            scX: try number(t, "scX", 1), scY: try number(t, "scY", 1), pX: try number(t, "pX", 0), pY: try number(t, "pY", 0))
    }

    private func color(_ json: JSONCursor) throws(JSONSchemaError) -> DragonBonesWire.Color {
        guard let c = try json.optionalMember("colorTransform") else { return DragonBonesWire.Color() }
        return DragonBonesWire.Color(
            aM: try number(c, "aM", 100), rM: try number(c, "rM", 100), gM: try number(c, "gM", 100),
            bM: try number(c, "bM", 100), aO: try number(c, "aO", 0), rO: try number(c, "rO", 0),
            gO: try number(c, "gO", 0), bO: try number(c, "bO", 0))
    }

    private func readArmature(_ json: JSONCursor, isGlobal: Bool) throws(JSONSchemaError) -> DragonBonesWire.Armature {
        let name = try json.name("name")
        // Bones, parents first.
        var bones: [(name: String, parent: String?, transform: Transform, path: JSONPath)] = []
        for cursor in try json.optionalMember("bone")?.array() ?? [] {
            let parent = try cursor.optionalName("parent")
            bones.append((try cursor.name("name"), parent.flatMap { $0.isEmpty ? nil : $0 },
                          try transform(cursor), cursor.path))
        }
        bones = Self.parentsFirst(bones)
        // Slots and displays from the skins, ordered by z.
        var slots: [DragonBonesWire.Slot] = []
        var skins: [DragonBonesWire.Skin] = []
        for skinCursor in try json.optionalMember("skin")?.array() ?? [] {
            var skinSlots: [(z: Double, cursor: JSONCursor)] = []
            for cursor in try skinCursor.optionalMember("slot")?.array() ?? [] {
                skinSlots.append((try number(cursor, "z", 0), cursor))
            }
            let sorted = skinSlots.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map(\.element)
            var displays: [String: [DragonBonesWire.Display]] = [:]
            for (_, cursor) in sorted {
                let slotName = try cursor.name("name")
                if !slots.contains(where: { $0.name == slotName }) {
                    var blend: String? = nil
                    if let mode = try cursor.optionalMember("blendMode") { blend = try mode.name() }
                    let c = try color(cursor)
                    slots.append(DragonBonesWire.Slot(
                        name: slotName, parent: try cursor.optionalName("parent") ?? "",
                        displayIndex: try int(cursor, "displayIndex", 0), blendMode: blend,
                        color: c == DragonBonesWire.Color() ? nil : c, path: cursor.path))
                }
                var list: [DragonBonesWire.Display] = []
                for display in try cursor.optionalMember("display")?.array() ?? [] {
                    let displayName = try display.optionalName("name") ?? ""
                    let type = try display.optionalName("type") ?? "image"
                    var t = try transform(display)
                    if type == "image", let size = textureSizes[displayName]
                        ?? DragonBonesTexturePairing(textures: Set(textureSizes.keys)).resolve(displayName).texture
                        .flatMap({ textureSizes[$0] })
                    {
                        t.x += 0.5 * size.width - t.pX
                        t.y += 0.5 * size.height - t.pY
                    }
                    list.append(DragonBonesWire.Display(
                        name: displayName, path: displayName, type: type == "image" ? "image" : "armature",
                        transform: t.wire, pivot: Vector2(x: 0.5, y: 0.5), mesh: nil, share: nil, jsonPath: display.path))
                }
                displays[slotName, default: []].append(contentsOf: list)
            }
            skins.append(DragonBonesWire.Skin(name: try text(skinCursor, "name") ?? "default",
                                              displays: displays))
        }
        // Animations: one timeline per bone drives the bone and the slot of that name.
        var animations: [DragonBonesWire.Animation] = []
        var boneFrames: [[String: [BoneFrame]]] = []
        for cursor in try json.optionalMember("animation")?.array() ?? [] {
            let (animation, frames) = try readAnimation(cursor, slots: slots)
            animations.append(animation)
            boneFrames.append(frames)
        }
        var setup = Dictionary(bones.map { ($0.name, $0.transform) }, uniquingKeysWith: { a, _ in a })
        if isGlobal {
            // Children first, while their parents are still in armature space.
            for bone in bones.reversed() {
                var local = setup[bone.name]!
                if let parent = bone.parent, let parentGlobal = setup[parent] {
                    if let inverse = parentGlobal.matrix.inverted {
                        let point = inverse.apply(Vector2(x: local.x, y: local.y))
                        local.x = point.x
                        local.y = point.y
                    }
                    local.skX -= parentGlobal.skY
                    local.skY -= parentGlobal.skY
                }
                setup[bone.name] = local
                for index in animations.indices {
                    guard var frames = boneFrames[index][bone.name] else { continue }
                    let parentFrames = bone.parent.flatMap { boneFrames[index][$0] }
                    var position = 0
                    for k in frames.indices {
                        var t = frames[k].transform
                        if let parentFrames {
                            let p = Self.transformAt(parentFrames, position: position)
                            if let inverse = p.matrix.inverted {
                                let point = inverse.apply(Vector2(x: t.x, y: t.y))
                                t.x = point.x
                                t.y = point.y
                            } else if !p.matrix.determinant.isFinite {
                                // The tools' NaN parent (see transformAt) makes the whole frame NaN.
                                t.x = .nan
                                t.y = .nan
                            }
                            t.skX -= p.skY
                            t.skY -= p.skY
                        }
                        t.x -= local.x
                        t.y -= local.y
                        t.skX = Self.normalizedDegrees(t.skX - local.skY)
                        t.skY = Self.normalizedDegrees(t.skY - local.skY)
                        t.scX /= local.scX
                        t.scY /= local.scY
                        frames[k].transform = t
                        position += frames[k].duration
                    }
                    boneFrames[index][bone.name] = frames
                }
            }
        }
        for index in animations.indices {
            for t in animations[index].bones.indices {
                guard let frames = boneFrames[index][animations[index].bones[t].name] else { continue }
                // Split into translate/rotate/scale timelines, as the tools' 4.5→5.5 step writes them: the runtime
                // reads 5.5 rotate frames raw (rotation unwrapped keyframe to keyframe, skew tweened straight).
                let values = frames.map { (frame: $0, wire: $0.transform.frameWire) }
                animations[index].bones[t].translate = values.map {
                    DragonBonesWire.Frame(duration: $0.frame.duration, tween: $0.frame.tween,
                                          value: Vector2(x: $0.wire.x, y: $0.wire.y))
                }
                animations[index].bones[t].rotate = values.map {
                    DragonBonesWire.Frame(duration: $0.frame.duration, tween: $0.frame.tween,
                                          value: (rotate: $0.wire.rotate ?? 0, skew: $0.wire.skew ?? 0),
                                          clockwise: $0.frame.clockwise)
                }
                animations[index].bones[t].scaleFrames = values.map {
                    DragonBonesWire.Frame(duration: $0.frame.duration, tween: $0.frame.tween,
                                          value: Vector2(x: $0.wire.scaleX, y: $0.wire.scaleY))
                }
            }
        }
        let wireBones = bones.map { bone in
            DragonBonesWire.Bone(
                name: bone.name, parent: bone.parent, transform: setup[bone.name]!.wire, length: 0,
                inheritTranslation: true, inheritRotation: true, inheritScale: false, inheritReflection: true,
                path: bone.path)
        }
        return DragonBonesWire.Armature(
            name: name, frameRate: nil, bones: wireBones, slots: slots, skins: skins, ik: [], animations: animations,
            defaultAnimation: nil, path: json.path)
    }

    private func readAnimation(_ json: JSONCursor, slots: [DragonBonesWire.Slot]) throws(JSONSchemaError)
        -> (DragonBonesWire.Animation, [String: [BoneFrame]])
    {
        var autoTween = true
        if let flag = try json.optionalMember("autoTween") {
            if case .bool(let value) = flag.value { autoTween = value } else { autoTween = try flag.number() != 0 }
        }
        let defaultEasing = try json.optionalMember("tweenEasing").flatMap { (c) throws(JSONSchemaError) -> Double? in
            if case .string(let text) = c.value, Double(text) == nil { return nil }
            return try c.lenientNumber()
        }
        var events = 0
        for frame in try json.optionalMember("frame")?.array() ?? [] {
            for key in ["event", "sound", "action"] where frame.has(key) { events += 1 }
        }
        var boneTimelines: [DragonBonesWire.BoneTimeline] = []
        var slotTimelines: [DragonBonesWire.SlotTimeline] = []
        var boneFrames: [String: [BoneFrame]] = [:]
        var childActions: [DragonBonesWire.ChildAction] = []
        let slotNames = Set(slots.map(\.name))
        for timeline in try json.optionalMember("timeline")?.array() ?? [] {
            let name = try timeline.name("name")
            var position = 0
            let scale = try number(timeline, "scale", 1), offset = try number(timeline, "offset", 0)
            var bones: [BoneFrame] = []
            var displays: [DragonBonesWire.Frame<Int>] = []
            var colors: [DragonBonesWire.Frame<DragonBonesWire.Color>] = []
            for frame in try timeline.member("frame").array() {
                let duration = try number(frame, "duration", 1)
                guard duration >= 0, duration <= 100_000 else {
                    throw frame.error(at: "duration", "frame duration \(duration) is outside 0…100000")
                }
                var tween = DragonBonesWire.Tween.none
                if let curve = try frame.optionalMember("curve") {
                    tween = .curve(try curve.numbers())
                } else if let easing = try frame.optionalMember("tweenEasing") {
                    if case .number(let value) = easing.value { tween = .easing(value) }
                } else if autoTween {
                    tween = .easing(defaultEasing ?? 0)
                }
                let displayIndex = try int(frame, "displayIndex", 0)
                if displayIndex < 0, !bones.isEmpty {
                    bones[bones.count - 1].tween = .none
                    displays[displays.count - 1].tween = .none
                    colors[colors.count - 1].tween = .none
                }
                var t = try transform(frame)
                let m = t.matrix
                t.x += m.a * t.pX + m.c * t.pY
                t.y += m.b * t.pX + m.d * t.pY
                let hidden = try frame.optionalMember("hide").map { (c) throws(JSONSchemaError) -> Bool in
                    if case .bool(let value) = c.value { return value }
                    return try c.number() != 0
                } ?? false
                for key in ["event", "sound", "action"] where frame.has(key) { events += 1 }
                // A frame's action plays an animation of the child armature in the slot of the timeline's name
                // (the tools turn it into that slot frame's play action).
                if let action = try frame.optionalName("action"), !action.isEmpty, slotNames.contains(name) {
                    childActions.append(DragonBonesWire.ChildAction(frame: position, slot: name, bone: nil, animation: action))
                    events -= 1
                }
                let whole = Int(duration.rounded())
                position += whole
                bones.append(BoneFrame(duration: whole, tween: tween, clockwise: try number(frame, "tweenRotate", 0),
                                       transform: t))
                displays.append(DragonBonesWire.Frame(duration: whole, tween: tween, value: hidden ? -1 : displayIndex))
                colors.append(DragonBonesWire.Frame(duration: whole, tween: tween, value: try color(frame)))
            }
            boneFrames[name] = bones
            boneTimelines.append(DragonBonesWire.BoneTimeline(name: name, scale: scale, offset: offset, path: timeline.path))
            slotTimelines.append(DragonBonesWire.SlotTimeline(
                name: name, scale: scale, offset: offset, display: displays, color: colors, path: timeline.path))
        }
        // A slot without a timeline is hidden in this animation.
        for slot in slots where !slotTimelines.contains(where: { $0.name == slot.name }) {
            slotTimelines.append(DragonBonesWire.SlotTimeline(
                name: slot.name, display: [DragonBonesWire.Frame(duration: 1, tween: .none, value: -1)],
                color: [DragonBonesWire.Frame(duration: 1, tween: .none, value: DragonBonesWire.Color())], path: json.path))
        }
        var animationScale = try number(json, "scale", 1)
        if animationScale <= 0 { animationScale = 1 }
        let animation = DragonBonesWire.Animation(
            name: try json.optionalName("name") ?? "default",
            duration: min(max(try int(json, "duration", 1), 0), 100_000), playTimes: max(try int(json, "loop", 1), 0),
            scale: animationScale, fadeInTime: max(try number(json, "fadeInTime", 0), 0), bones: boneTimelines, slots: slotTimelines, deforms: [], zOrder: nil,
            childActions: childActions, eventCount: events, ikTimelineCount: 0, path: json.path)
        return (animation, boneFrames)
    }

    /// A parent's frame transform at `position` (frames), interpolated as the tools do (angle differences wrapped
    /// with the radian rule although they are degrees, as the tools do).
    static func transformAt(_ frames: [BoneFrame], position: Int) -> Transform {
        var start = 0
        var current: Int? = nil
        for (index, frame) in frames.enumerated() {
            if start <= position && position < start + frame.duration {
                current = index
                break
            }
            start += frame.duration
        }
        let index = current ?? frames.count - 1
        let frame = frames[index]
        let tweens: Bool
        switch frame.tween {
        case .none: tweens = false
        default: tweens = true
        }
        guard tweens, frames.count > 1 else { return frame.transform }
        // Past the last frame the tools keep its start at the timeline's end, so a final frame of duration 0 reached
        // at that position gives 0/0 = NaN progress and a NaN transform; the tools then write `null` values, which
        // the runtime reads as its defaults (see `frameWire`). IEEE division reproduces that here.
        let next = frames[(index + 1) % frames.count].transform
        let p = Double(position - start) / Double(frame.duration)
        var progress = p
        if case .easing(let e) = frame.tween {
            if e > 1 { progress = p + (e - 1) * (0.5 * (1 - cos(p * .pi)) - p) }
            else if e > 0 { progress = p + e * p * (1 - p) }
            else if e < 0 { progress = p + e * p * (1 - p) }
        }
        var t = frame.transform
        let c = frame.transform
        t.x = c.x + (next.x - c.x) * progress
        t.y = c.y + (next.y - c.y) * progress
        t.skX = c.skX + BoneAngles.normalized(next.skX - c.skX) * progress
        t.skY = c.skY + BoneAngles.normalized(next.skY - c.skY) * progress
        t.scX = c.scX + (next.scX - c.scX) * progress
        t.scY = c.scY + (next.scY - c.scY) * progress
        return t
    }

    static func normalizedDegrees(_ value: Double) -> Double {
        var v = (value + 180).truncatingRemainder(dividingBy: 360)
        v += v > 0 ? -180 : 180
        return v
    }

    static func parentsFirst(_ bones: [(name: String, parent: String?, transform: Transform, path: JSONPath)])
        -> [(name: String, parent: String?, transform: Transform, path: JSONPath)]
    {
        var byName: [String: Int] = [:]
        for (index, bone) in bones.enumerated() where byName[bone.name] == nil { byName[bone.name] = index }
        var done = Set<String>()
        var visiting = Set<String>()
        var result: [(name: String, parent: String?, transform: Transform, path: JSONPath)] = []
        func visit(_ index: Int) {
            let bone = bones[index]
            if done.contains(bone.name) || visiting.contains(bone.name) { return }
            visiting.insert(bone.name)
            if let parent = bone.parent, let parentIndex = byName[parent] { visit(parentIndex) }
            visiting.remove(bone.name)
            done.insert(bone.name)
            result.append(bone)
        }
        for index in bones.indices { visit(index) }
        return result
    }
}
