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
                name: try cursor.name("name"), parent: try optionalString(cursor, "parent"),
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
                name: try cursor.name("name"), parent: try string(cursor, "parent", ""),
                displayIndex: try int(cursor, "displayIndex", 0), blendMode: blend,
                color: try cursor.optionalMember("color").map { (c) throws(JSONSchemaError) in try color(c) },
                path: cursor.path))
        }
        // A slot's `actions` belong to the armature display at its `displayIndex` when that display has none
        // (the runtime's parser hands them to the first skin that has that display, once).
        var slotActions: [String: (index: Int, plays: [String])] = [:]
        for (cursor, slot) in zip(try optionalArray(json, "slot"), slots) {
            if let actions = try cursor.optionalMember("actions") {
                slotActions[slot.name] = (slot.displayIndex, try Self.playActions(actions).map(\.animation))
            }
        }
        var skins: [DragonBonesWire.Skin] = []
        for cursor in try optionalArray(json, "skin") {
            var displays: [String: [DragonBonesWire.Display]] = [:]
            for slot in try optionalArray(cursor, "slot") {
                let name = try slot.name("name")
                var list: [DragonBonesWire.Display] = []
                for display in try optionalArray(slot, "display") {
                    var read = try readDisplay(display)
                    if read.type == "armature", !display.has("actions"), let actions = slotActions[name],
                        actions.index == displays[name, default: []].count + list.count
                    {
                        read.plays = actions.plays
                        slotActions[name] = nil
                    }
                    list.append(read)
                }
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
                name: try string(cursor, "name", ""), bone: try bone.name(), target: try cursor.name("target"),
                bendPositive: try bool(cursor, "bendPositive", true), chain: try int(cursor, "chain", 0),
                weight: try number(cursor, "weight", 1), path: cursor.path))
        }
        var animations: [DragonBonesWire.Animation] = []
        let slotNames = Set(slots.map(\.name))
        for cursor in try optionalArray(json, "animation") {
            animations.append(try readAnimation(cursor, slotNames: slotNames))
        }
        // The first play action of `defaultActions` (`{gotoAndPlay}`, or `{type, name}` as binary data and the
        // tools' output write it).
        var defaultAnimation: String? = nil
        if let actions = try json.optionalMember("defaultActions") {
            defaultAnimation = try Self.playActions(actions).first?.animation
        }
        let frameRate = try json.optionalMember("frameRate").map { (c) throws(JSONSchemaError) in try c.lenientNumber() }
        return DragonBonesWire.Armature(
            name: try json.name("name"), frameRate: frameRate.flatMap { $0 > 0 ? $0 : nil }, bones: bones,
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
            // Binary data keeps mesh geometry in its packed arrays (decoded by the binary reader).
            return DragonBonesWire.Display(
                name: name, path: path.isEmpty ? name : path, type: type, transform: try transform(json, "transform"),
                pivot: pivot, mesh: nil, share: nil, packedGeometry: try json.member("offset").integer(),
                jsonPath: json.path)
        }
        if type == "mesh" && share == nil {
            func numbers(_ key: String) throws(JSONSchemaError) -> [Double] {
                try json.member(key).numbers()
            }
            func optionalNumbers(_ key: String) throws(JSONSchemaError) -> [Double]? {
                guard let cursor = try json.optionalMember(key) else { return nil }
                return try cursor.numbers()
            }
            let triangles = try json.member("triangles").array().map { (c) throws(JSONSchemaError) in try c.integer() }
            mesh = DragonBonesWire.Mesh(
                vertices: try numbers("vertices"), uvs: try numbers("uvs"), triangles: triangles,
                weights: try optionalNumbers("weights"), slotPose: try optionalNumbers("slotPose"),
                bonePose: try optionalNumbers("bonePose"))
        }
        var display = DragonBonesWire.Display(
            name: name, path: path.isEmpty ? name : path, type: type, transform: try transform(json, "transform"),
            pivot: pivot, mesh: mesh, share: share, jsonPath: json.path)
        if type == "armature", let actions = try json.optionalMember("actions") {
            display.plays = try Self.playActions(actions).map(\.animation)
        }
        return display
    }

    /// A play action: the animation it starts and the `slot`/`bone` it names.
    typealias PlayAction = (animation: String, slot: String?, bone: String?)

    /// The play actions of an `action`/`actions` value as the runtime's parser reads them: a name, or a list of
    /// `{gotoAndPlay}` or `{type, name}` objects (type `play`/0, the default; `frame` and `sound` are events, not
    /// plays), each optionally naming a `slot` and a `bone`.
    static func playActions(_ json: JSONCursor) throws(JSONSchemaError) -> [PlayAction] {
        switch json.value {
        case .string, .number, .bool:
            return [(try json.name(), nil, nil)]
        case .array:
            var result: [PlayAction] = []
            for action in try json.array() {
                guard case .object = action.value else { continue }
                var name = try action.optionalName("gotoAndPlay")
                if name == nil {
                    var play = true
                    if let type = try action.optionalMember("type") {
                        if case .string(let text) = type.value {
                            play = !["frame", "sound"].contains(text.lowercased())
                        } else {
                            play = try type.lenientNumber() == 0
                        }
                    }
                    name = play ? (try action.optionalName("name") ?? "") : nil
                }
                if let name {
                    result.append((name, try action.optionalName("slot"), try action.optionalName("bone")))
                }
            }
            return result
        default:
            return []
        }
    }

    /// The play actions held by one frame (its `action` and `actions`).
    static func framePlays(_ frame: JSONCursor) throws(JSONSchemaError) -> [PlayAction] {
        var plays: [PlayAction] = []
        for key in ["action", "actions"] {
            if let value = try frame.optionalMember(key) { plays += try playActions(value) }
        }
        return plays
    }

    /// The starts of a timeline's frames, in frames: the running sum of their durations (as the runtime places
    /// the actions they hold).
    static func frameStarts(_ frames: [JSONCursor]) -> [Int] {
        var starts: [Int] = []
        var position = 0.0
        for frame in frames {
            starts.append(Int(position.rounded()))
            if case .number(let duration)? = frame.value["duration"], duration.isFinite, duration >= 0,
                duration <= 100_000
            {
                position += duration
            } else if frame.value["duration"] == nil {
                position += 1
            }
        }
        return starts
    }

    // MARK: Animation

    private func readAnimation(_ json: JSONCursor, slotNames: Set<String>) throws(JSONSchemaError)
        -> DragonBonesWire.Animation
    {
        var events = 0
        var bones: [DragonBonesWire.BoneTimeline] = []
        var childActions: [DragonBonesWire.ChildAction] = []
        for cursor in try optionalArray(json, "bone") {
            var timeline = DragonBonesWire.BoneTimeline(
                name: try cursor.name("name"), scale: try number(cursor, "scale", 1),
                offset: try number(cursor, "offset", 0), path: cursor.path)
            if cursor.has("frame") {
                timeline.all = try frames(cursor, "frame", tweened: true, events: &events) {
                    (f) throws(JSONSchemaError) in try transform(f, "transform")
                }
                // A bone frame's play action starts a child armature's animation: in the slot it names, else the
                // slot named like the bone, else every slot on the bone.
                let list = try cursor.member("frame").array()
                for (frame, start) in zip(list, Self.frameStarts(list)) {
                    let plays = try Self.framePlays(frame)
                    for play in plays {
                        childActions.append(DragonBonesWire.ChildAction(
                            frame: start, slot: play.slot ?? (slotNames.contains(timeline.name) ? timeline.name : nil),
                            bone: play.bone ?? timeline.name, animation: play.animation))
                    }
                    if !plays.isEmpty, Self.holdsOnlyPlays(frame) { events -= ["action", "actions"].filter(frame.has).count }
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
                name: try cursor.name("name"), scale: try number(cursor, "scale", 1),
                offset: try number(cursor, "offset", 0), path: cursor.path)
            let displayKey = cursor.has("displayFrame") ? "displayFrame" : "frame"
            if cursor.has(displayKey) {
                timeline.display = try frames(cursor, displayKey, tweened: false, events: &events) {
                    (f) throws(JSONSchemaError) in
                    try int(f, f.has("value") ? "value" : "displayIndex", 0)
                }
                // A slot frame's play action starts an animation of the child armature the slot shows (converted).
                let list = try cursor.member(displayKey).array()
                for (frame, start) in zip(list, Self.frameStarts(list)) {
                    let plays = try Self.framePlays(frame)
                    for play in plays {
                        childActions.append(DragonBonesWire.ChildAction(
                            frame: start, slot: play.slot ?? timeline.name, bone: play.bone, animation: play.animation))
                    }
                    if !plays.isEmpty, Self.holdsOnlyPlays(frame) { events -= ["action", "actions"].filter(frame.has).count }
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
                        try c.numbers()
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
        // Animation frames: play actions naming a slot or a bone start a child armature's animation (converted);
        // the others start another animation of this armature, and events and sounds stay events.
        let animationFrames = try optionalArray(json, "frame")
        for (frame, start) in zip(animationFrames, Self.frameStarts(animationFrames)) {
            let all = try Self.framePlays(frame)
            let plays = all.filter { $0.slot != nil || $0.bone != nil }
            for play in plays {
                childActions.append(DragonBonesWire.ChildAction(
                    frame: start, slot: play.slot, bone: play.bone, animation: play.animation))
            }
            let converted = !plays.isEmpty && plays.count == all.count && Self.holdsOnlyPlays(frame)
            if !converted {
                for key in Self.eventKeys where frame.has(key) { events += 1 }
            }
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
            playTimes: max(playTimes, 0), scale: scale, fadeInTime: max(try number(json, "fadeInTime", 0), 0),
            bones: bones, slots: slots,
            deforms: deforms, zOrder: zOrder, childActions: childActions, eventCount: events,
            ikTimelineCount: try optionalArray(json, "ik").count, path: json.path)
    }

    /// Whether a frame's actions are all plays and it holds no events or sounds (so converting its plays leaves
    /// nothing unconverted in it).
    static func holdsOnlyPlays(_ frame: JSONCursor) -> Bool {
        guard !["event", "sound", "events"].contains(where: { frame.has($0) }) else { return false }
        guard case .array(let actions)? = frame.value["actions"] else { return true }
        return actions.allSatisfy { action in
            guard case .object(let members) = action else { return false }
            if members["gotoAndPlay"] != nil { return true }
            switch members["type"] {
            case nil: return true
            case .string(let text)?: return !["frame", "sound"].contains(text.lowercased())
            case .number(let code)?: return code == 0
            default: return false
            }
        }
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
                    tween = .curve(try curve.numbers())
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
        // The common cases, a finite number or no member, without making a cursor.
        if case .object(let members) = json.value {
            switch members[key] {
            case .number(let value)? where value.isFinite: return value
            case nil, .null?: return fallback
            default: break
            }
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
        // The common cases without making a cursor.
        if case .object(let members) = json.value {
            switch members[key] {
            case nil, .null?: return fallback
            case .bool(let flag)?: return flag
            case .number(let number)?: return number != 0
            default: break
            }
        }
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
