import KeyframeJSON
import KeyframeModel

/// Reads DragonBones 4.0–5.6 skeleton JSON into ``DragonBonesWire`` values, accepting the spellings the runtime
/// accepts (`ffd`/`deform`, `frame` or split `translateFrame`/`rotateFrame`/`scaleFrame`, `displayFrame`/`colorFrame`,
/// numeric strings, `"NaN"`), and failing with the JSON path of anything malformed. Numbers written as strings and
/// Booleans written as text or numbers where they do not belong are read and recorded as lenient reads (a warning
/// each, ``JSONLenientReads``); `"NaN"` and `0`/`1` flags are what the DragonBones tools write and are not.
struct DragonBonesReader {
    /// Versions read directly; older data is up-converted first.
    static let directVersions: Set<String> = ["4.0", "4.5", "5.0", "5.5", "5.6"]
    /// Frame members that carry an event (counted, not converted).
    static let eventKeys = ["event", "sound", "action", "events", "actions"]

    /// The data's version text (`version`, a string or a number in 2.x files, else `compatibleVersion`).
    static func version(of root: JSONCursor) -> String? {
        for key in ["version", "compatibleVersion"] {
            switch root.value[key] {
            case .string(let text)?: return text
            case .number(let number)?:
                // Whole version numbers (2, 3) read "2.0"; anything else as written (never a trapping conversion).
                return number == number.rounded() && abs(number) < 1e6 ? String(format1: number) : String(number)
            default: continue
            }
        }
        return nil
    }

    func read(_ root: JSONCursor, version: String) throws(JSONSchemaError) -> DragonBonesWire.Data {
        var armatures: [DragonBonesWire.Armature] = []
        for cursor in try root.member("armature").array() { armatures.append(try readArmature(cursor)) }
        var frameRate = try number(root, "frameRate", 24)
        if frameRate <= 0 { frameRate = 24 }
        return DragonBonesWire.Data(
            name: try string(root, "name", ""), version: version, frameRate: frameRate, armatures: armatures)
    }

    // MARK: Armature

    private func readArmature(_ json: JSONCursor) throws(JSONSchemaError) -> DragonBonesWire.Armature {
        var bones: [DragonBonesWire.Bone] = []
        for cursor in try optionalArray(json, "bone") {
            bones.append(DragonBonesWire.Bone(
                name: try cursor.member("name").name(), parent: try optionalString(cursor, "parent"),
                transform: try transform(cursor, "transform"), length: try number(cursor, "length", 0),
                inheritTranslation: try bool(cursor, "inheritTranslation", true),
                inheritRotation: try bool(cursor, "inheritRotation", true),
                inheritScale: try bool(cursor, "inheritScale", true),
                inheritReflection: try bool(cursor, "inheritReflection", true), path: cursor.path))
        }
        var slots: [DragonBonesWire.Slot] = []
        for cursor in try optionalArray(json, "slot") {
            var blend: String? = nil
            if let mode = try cursor.optionalMember("blendMode") {
                if case .string(let name) = mode.value { blend = name } else { blend = String(try int(cursor, "blendMode", 0)) }
            }
            slots.append(DragonBonesWire.Slot(
                name: try cursor.member("name").name(), parent: try string(cursor, "parent", ""),
                displayIndex: try int(cursor, "displayIndex", 0), blendMode: blend,
                color: try cursor.optionalMember("color").map { (c) throws(JSONSchemaError) in try color(c) },
                path: cursor.path))
        }
        var skins: [DragonBonesWire.Skin] = []
        for cursor in try optionalArray(json, "skin") {
            var displays: [String: [DragonBonesWire.Display]] = [:]
            for slot in try optionalArray(cursor, "slot") {
                let name = try slot.member("name").name()
                var list: [DragonBonesWire.Display] = []
                for display in try optionalArray(slot, "display") { list.append(try readDisplay(display)) }
                displays[name, default: []].append(contentsOf: list)
            }
            skins.append(DragonBonesWire.Skin(name: try string(cursor, "name", "default"), displays: displays))
        }
        var ik: [DragonBonesWire.IK] = []
        var pathConstraints = 0
        // 5.6+ lists constraints under `constraint` with a `type` (ik or path); older data has `ik`.
        var ikCursors = try optionalArray(json, "ik")
        for cursor in try optionalArray(json, "constraint") {
            let type = try string(cursor, "type", "ik")
            if type == "ik" || type == "0" { ikCursors.append(cursor) } else { pathConstraints += 1 }
        }
        for cursor in ikCursors {
            var bone = try cursor.member(anyOf: ["bone", "name"])
            if let explicit = try cursor.optionalMember("bone") { bone = explicit }
            ik.append(DragonBonesWire.IK(
                name: try string(cursor, "name", ""), bone: try bone.name(), target: try cursor.member("target").name(),
                bendPositive: try bool(cursor, "bendPositive", true), chain: try int(cursor, "chain", 0),
                weight: try number(cursor, "weight", 1), path: cursor.path))
        }
        var animations: [DragonBonesWire.Animation] = []
        for cursor in try optionalArray(json, "animation") { animations.append(try readAnimation(cursor)) }
        var defaultAnimation: String? = nil
        for action in try optionalArray(json, "defaultActions") {
            if let name = try optionalString(action, "gotoAndPlay") {
                defaultAnimation = name
                break
            }
        }
        let frameRate = try json.optionalMember("frameRate").map { (c) throws(JSONSchemaError) in try c.lenientNumber() }
        return DragonBonesWire.Armature(
            name: try json.member("name").name(), frameRate: frameRate.flatMap { $0 > 0 ? $0 : nil }, bones: bones,
            slots: slots, skins: skins, ik: ik, animations: animations, defaultAnimation: defaultAnimation,
            pathConstraintCount: pathConstraints, path: json.path)
    }

    private func readDisplay(_ json: JSONCursor) throws(JSONSchemaError) -> DragonBonesWire.Display {
        let name = try string(json, "name", "")
        let path = try string(json, "path", "")
        var type = "image"
        if let cursor = try json.optionalMember("type") {
            if case .string(let text) = cursor.value {
                type = text
            } else {
                let codes = ["image", "armature", "mesh", "boundingBox", "path"]
                let code = try cursor.integer()
                type = codes.indices.contains(code) ? codes[code] : "unknown(\(code))"
            }
        }
        var pivot = Vector2(x: 0.5, y: 0.5)
        if let cursor = try json.optionalMember("pivot") {
            pivot = Vector2(x: try number(cursor, "x", 0), y: try number(cursor, "y", 0))
        }
        var mesh: DragonBonesWire.Mesh? = nil
        let share = try optionalString(json, "share")
        if type == "mesh" && share == nil && !json.has("vertices") && json.has("offset") {
            // Binary data keeps mesh geometry in its packed arrays (not converted).
            return DragonBonesWire.Display(
                name: name, path: path.isEmpty ? name : path, type: type, transform: try transform(json, "transform"),
                pivot: pivot, mesh: nil, share: nil, packedGeometry: true, jsonPath: json.path)
        }
        if type == "mesh" && share == nil {
            func numbers(_ key: String) throws(JSONSchemaError) -> [Double] {
                try json.member(key).array().map { (c) throws(JSONSchemaError) in try c.number() }
            }
            func optionalNumbers(_ key: String) throws(JSONSchemaError) -> [Double]? {
                guard let cursor = try json.optionalMember(key) else { return nil }
                return try cursor.array().map { (c) throws(JSONSchemaError) in try c.number() }
            }
            let triangles = try json.member("triangles").array().map { (c) throws(JSONSchemaError) in try c.integer() }
            mesh = DragonBonesWire.Mesh(
                vertices: try numbers("vertices"), uvs: try numbers("uvs"), triangles: triangles,
                weights: try optionalNumbers("weights"), slotPose: try optionalNumbers("slotPose"),
                bonePose: try optionalNumbers("bonePose"))
        }
        return DragonBonesWire.Display(
            name: name, path: path.isEmpty ? name : path, type: type, transform: try transform(json, "transform"),
            pivot: pivot, mesh: mesh, share: share, jsonPath: json.path)
    }

    // MARK: Animation

    private func readAnimation(_ json: JSONCursor) throws(JSONSchemaError) -> DragonBonesWire.Animation {
        var events = 0
        var bones: [DragonBonesWire.BoneTimeline] = []
        for cursor in try optionalArray(json, "bone") {
            var timeline = DragonBonesWire.BoneTimeline(
                name: try cursor.member("name").name(), scale: try number(cursor, "scale", 1),
                offset: try number(cursor, "offset", 0), path: cursor.path)
            if cursor.has("frame") {
                timeline.all = try frames(cursor, "frame", tweened: true, events: &events) {
                    (f) throws(JSONSchemaError) in try transform(f, "transform")
                }
            }
            if cursor.has("translateFrame") {
                timeline.translate = try frames(cursor, "translateFrame", tweened: true, events: &events) {
                    (f) throws(JSONSchemaError) in Vector2(x: try number(f, "x", 0), y: try number(f, "y", 0))
                }
            }
            if cursor.has("rotateFrame") {
                timeline.rotate = try frames(cursor, "rotateFrame", tweened: true, events: &events) {
                    (f) throws(JSONSchemaError) in (rotate: try number(f, "rotate", 0), skew: try number(f, "skew", 0))
                }
            }
            if cursor.has("scaleFrame") {
                timeline.scaleFrames = try frames(cursor, "scaleFrame", tweened: true, events: &events) {
                    (f) throws(JSONSchemaError) in Vector2(x: try number(f, "x", 1), y: try number(f, "y", 1))
                }
            }
            bones.append(timeline)
        }
        var slots: [DragonBonesWire.SlotTimeline] = []
        for cursor in try optionalArray(json, "slot") {
            var timeline = DragonBonesWire.SlotTimeline(
                name: try cursor.member("name").name(), scale: try number(cursor, "scale", 1),
                offset: try number(cursor, "offset", 0), path: cursor.path)
            let displayKey = cursor.has("displayFrame") ? "displayFrame" : "frame"
            if cursor.has(displayKey) {
                timeline.display = try frames(cursor, displayKey, tweened: false, events: &events) {
                    (f) throws(JSONSchemaError) in
                    try int(f, f.has("value") ? "value" : "displayIndex", 0)
                }
                // A slot frame's action plays an animation of the child armature the slot shows (converted).
                for frame in try cursor.member(displayKey).array() {
                    var play: String? = nil
                    if let action = frame.value["action"].flatMap({ try? JSONCursor($0).name() }) { play = action }
                    for action in try optionalArray(frame, "actions") where play == nil {
                        play = try optionalString(action, "gotoAndPlay")
                    }
                    timeline.childPlays.append(play)
                    if play != nil { events -= 1 }
                }
            }
            let colorKey = cursor.has("colorFrame") ? "colorFrame" : "frame"
            if cursor.has(colorKey) {
                var ignored = 0
                timeline.color = try frames(cursor, colorKey, tweened: true, events: &ignored) {
                    (f) throws(JSONSchemaError) in
                    if let value = try f.optionalMember(anyOf: ["value", "color"]) { return try color(value) }
                    return DragonBonesWire.Color()
                }
            }
            slots.append(timeline)
        }
        var deforms: [DragonBonesWire.DeformTimeline] = []
        for key in ["ffd", "deform"] {
            for cursor in try optionalArray(json, key) {
                let list = try frames(cursor, "frame", tweened: true, events: &events) {
                    (f) throws(JSONSchemaError) in
                    let vertices = try f.optionalMember("vertices").map { (c) throws(JSONSchemaError) in
                        try c.array().map { (v) throws(JSONSchemaError) in try v.number() }
                    }
                    return (offset: try int(f, "offset", 0), vertices: vertices ?? [])
                }
                deforms.append(DragonBonesWire.DeformTimeline(
                    slot: try string(cursor, "slot", ""), display: try string(cursor, "name", ""),
                    skin: try string(cursor, "skin", ""), scale: try number(cursor, "scale", 1),
                    offset: try number(cursor, "offset", 0), frames: list, path: cursor.path))
            }
        }
        var zOrder: [DragonBonesWire.ZOrderFrame]? = nil
        if let cursor = try json.optionalMember("zOrder"), cursor.has("frame") {
            var list: [DragonBonesWire.ZOrderFrame] = []
            for frame in try cursor.member("frame").array() {
                let changes = try frame.optionalMember("zOrder").map { (c) throws(JSONSchemaError) in
                    try c.array().map { (v) throws(JSONSchemaError) in try v.integer() }
                } ?? []
                list.append(DragonBonesWire.ZOrderFrame(duration: max(try int(frame, "duration", 1), 0), changes: changes))
            }
            zOrder = list
        }
        for frame in try optionalArray(json, "frame") {
            for key in Self.eventKeys where frame.has(key) { events += 1 }
        }
        let playTimes = json.has("playTimes") ? try int(json, "playTimes", 1) : try int(json, "loop", 1)
        let duration = try int(json, "duration", 1)
        guard duration <= 100_000 else {
            throw json.error(at: "duration", "an animation of \(duration) frames is longer than the 100000-frame limit")
        }
        var scale = try number(json, "scale", 1)
        if scale <= 0 { scale = 1 }
        return DragonBonesWire.Animation(
            name: try string(json, "name", "default"), duration: max(duration, 0),
            playTimes: max(playTimes, 0), scale: scale, bones: bones, slots: slots,
            deforms: deforms, zOrder: zOrder, eventCount: events, ikTimelineCount: try optionalArray(json, "ik").count,
            path: json.path)
    }

    /// The keyframes under `key`, each with duration, easing and the value `read` extracts.
    private func frames<Value>(_ json: JSONCursor, _ key: String, tweened: Bool, events: inout Int,
                               _ read: (JSONCursor) throws(JSONSchemaError) -> Value)
        throws(JSONSchemaError) -> [DragonBonesWire.Frame<Value>]
    {
        var result: [DragonBonesWire.Frame<Value>] = []
        for frame in try json.member(key).array() {
            var tween = DragonBonesWire.Tween.none
            if tweened {
                if let curve = try frame.optionalMember("curve") {
                    tween = .curve(try curve.array().map { (c) throws(JSONSchemaError) in try c.number() })
                } else if let easing = frame.value["tweenEasing"] {
                    switch easing {
                    case .number(let value) where value.isFinite: tween = .easing(value)
                    case .string(let text) where Double(text)?.isFinite == true:
                        tween = .easing(Double(text)!)
                        frame.cursor(easing, at: frame.path.appending("tweenEasing"))
                            .noteLenient("number-as-string", readAs: JSONCursor.javaScriptText(of: Double(text)!))
                    default: tween = .none
                    }
                }
            }
            for key in Self.eventKeys where frame.has(key) { events += 1 }
            let duration = try number(frame, "duration", 1)
            guard duration >= 0, duration <= 100_000 else {
                throw frame.error(at: "duration", "frame duration \(duration) is outside 0…100000")
            }
            let clockwise = frame.has("clockwise") ? try number(frame, "clockwise", 0) : try number(frame, "tweenRotate", 0)
            result.append(DragonBonesWire.Frame(
                duration: Int(duration.rounded()), tween: tween, value: try read(frame), clockwise: clockwise))
        }
        return result
    }

    // MARK: Values

    private func transform(_ json: JSONCursor, _ key: String) throws(JSONSchemaError) -> DragonBonesWire.Transform {
        guard let cursor = try json.optionalMember(key) else { return DragonBonesWire.Transform() }
        var result = DragonBonesWire.Transform()
        result.x = try number(cursor, "x", 0)
        result.y = try number(cursor, "y", 0)
        if cursor.has("rotate") || cursor.has("skew") {
            result.rotate = try number(cursor, "rotate", 0)
            result.skew = try number(cursor, "skew", 0)
        } else if cursor.has("skX") || cursor.has("skY") {
            result.skewX = try number(cursor, "skX", 0)
            result.skewY = try number(cursor, "skY", 0)
        }
        result.scaleX = try number(cursor, "scX", 1)
        result.scaleY = try number(cursor, "scY", 1)
        return result
    }

    private func color(_ json: JSONCursor) throws(JSONSchemaError) -> DragonBonesWire.Color {
        DragonBonesWire.Color(
            aM: try number(json, "aM", 100), rM: try number(json, "rM", 100), gM: try number(json, "gM", 100),
            bM: try number(json, "bM", 100), aO: try number(json, "aO", 0), rO: try number(json, "rO", 0),
            gO: try number(json, "gO", 0), bO: try number(json, "bO", 0))
    }

    /// A number the runtime's way: absent, null or `"NaN"` → `fallback`; numeric strings and Booleans accepted (and
    /// recorded as lenient reads).
    private func number(_ json: JSONCursor, _ key: String, _ fallback: Double) throws(JSONSchemaError) -> Double {
        // The common case, a finite number, without making a cursor for it.
        if case .object(let members) = json.value, case .number(let value)? = members[key], value.isFinite {
            return value
        }
        guard let cursor = try json.optionalMember(key) else { return fallback }
        switch cursor.value {
        case .string(let text) where text == "NaN": return fallback
        case .bool(let flag):
            cursor.noteLenient("boolean-as-number", readAs: flag ? "1" : "0")
            return flag ? 1 : 0
        default: return try cursor.lenientNumber()
        }
    }

    /// A whole number the runtime's way (numeric strings accepted, fractions truncated), limited to ±100 000 000 so a
    /// wild value is an error with its path rather than a trap.
    private func int(_ json: JSONCursor, _ key: String, _ fallback: Int) throws(JSONSchemaError) -> Int {
        let value = try number(json, key, Double(fallback))
        guard abs(value) <= 100_000_000 else { throw json.error(at: key, "\(value) is out of range") }
        return Int(value)
    }

    private func bool(_ json: JSONCursor, _ key: String, _ fallback: Bool) throws(JSONSchemaError) -> Bool {
        guard let cursor = try json.optionalMember(key) else { return fallback }
        switch cursor.value {
        case .bool(let flag): return flag
        case .number(let number): return number != 0
        case .string(let text):
            let flag = !["0", "NaN", "", "false", "null", "undefined"].contains(text)
            cursor.noteLenient("boolean-as-string", readAs: flag ? "true" : "false")
            return flag
        default: throw cursor.error("expected a boolean, found \(cursor.value.typeName)")
        }
    }

    private func string(_ json: JSONCursor, _ key: String, _ fallback: String) throws(JSONSchemaError) -> String {
        try optionalString(json, key) ?? fallback
    }

    private func optionalString(_ json: JSONCursor, _ key: String) throws(JSONSchemaError) -> String? {
        try json.optionalName(key)
    }

    private func optionalArray(_ json: JSONCursor, _ key: String) throws(JSONSchemaError) -> [JSONCursor] {
        guard let cursor = try json.optionalMember(key) else { return [] }
        return try cursor.array()
    }
}

extension String {
    /// A number with one decimal (`2.3`, `3.0`), as DragonBones writes versions.
    init(format1 number: Double) {
        let tenths = Int((number * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
