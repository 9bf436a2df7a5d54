import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Compares our sampled DragonBones poses with what the official runtime (DragonBonesJS 5.7, run headless) computed
/// for every frame of every animation of every armature in `../shared/golden/dragonbones` (read with Foundation's
/// JSONSerialization): bone world matrices, where each slot's picture lands, slot colours, which display each slot
/// shows, draw order, and mesh vertices.
final class DragonBonesGoldenTests: XCTestCase {
    /// The largest differences seen in one sample.
    struct Maxima: CustomStringConvertible {
        var position = 0.0, angle = 0.0, color = 0.0, vertex = 0.0
        var frames = 0, displayMismatches = 0, orderMismatches = 0
        /// Child-armature frames compared (one per child armature shown in a compared frame).
        var childFrames = 0
        /// Largest position/angle difference on frames after an animation-frame action started another animation
        /// (reported, not asserted: actions are not converted, so we keep showing the first animation).
        var switchedPosition = 0.0, switchedAngle = 0.0, switchedFrames = 0
        /// Largest differences inside a child armature while the runtime cross-fades it into a new animation
        /// (reported, not asserted: the document holds the new animation's first frame meanwhile, format.md §6.2).
        var fadingPosition = 0.0, fadingAngle = 0.0, fadingFrames = 0
        /// Largest differences inside a child armature, in a later play of a repeating parent animation, that an
        /// action restarted in the play before (reported, not asserted: the runtime's child goes on with that
        /// animation across the parent's loop, the document starts each play as the first).
        var carriedPosition = 0.0, carriedAngle = 0.0, carriedFrames = 0
        /// Largest differences inside a child armature in the frame a slot shows it anew (reported, not asserted:
        /// the runtime adds the child to its clock after that tick's update, so it is drawn in the pose it had when
        /// last updated; the document shows its animation's first frame).
        var appearingPosition = 0.0, appearingAngle = 0.0, appearingFrames = 0
        var wherePosition = "", whereAngle = "", whereVertex = "", whereColor = "", whereDisplay = "", whereOrder = ""
        var description: String {
            String(format: "frames %d (child armatures %d)  position %.5f px  angle %.5f°  colour %.5f  vertex %.5f px  display mismatches %d  order mismatches %d",
                   frames, childFrames, position, angle, color, vertex, displayMismatches, orderMismatches)
                + (switchedFrames > 0
                    ? String(format: "\n    after an action started another animation (%d frames): position %.5f px  angle %.5f°",
                             switchedFrames, switchedPosition, switchedAngle) : "")
                + (fadingFrames > 0
                    ? String(format: "\n    child armatures cross-fading (%d child frames): position %.5f px  angle %.5f°",
                             fadingFrames, fadingPosition, fadingAngle) : "")
                + (appearingFrames > 0
                    ? String(format: "\n    child armatures in the frame they are shown anew (%d child frames): position %.5f px  angle %.5f°",
                             appearingFrames, appearingPosition, appearingAngle) : "")
                + (carriedFrames > 0
                    ? String(format: "\n    child armatures carrying an action's animation into the parent's next play (%d child frames): position %.5f px  angle %.5f°",
                             carriedFrames, carriedPosition, carriedAngle) : "")
                + "\n    worst position: \(wherePosition)\n    worst angle: \(whereAngle)\n    worst vertex: \(whereVertex)"
                + (displayMismatches > 0 ? "\n    display: \(whereDisplay)" : "") + (orderMismatches > 0 ? "\n    order: \(whereOrder)" : "")
                + (color > 0 ? "\n    worst colour: \(whereColor)" : "")
        }
    }

    static func json(_ url: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    }

    static func matrix(_ value: Any?) -> Matrix2D? {
        guard let m = value as? [Double], m.count == 6 else { return nil }
        return Matrix2D(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5])
    }

    /// The largest difference in degrees between the directions of the two matrices' x and y axes.
    static func angleDifference(_ a: Matrix2D, _ b: Matrix2D) -> Double {
        func diff(_ x: Double, _ y: Double) -> Double {
            var d = (x - y).truncatingRemainder(dividingBy: 2 * .pi)
            if d > .pi { d -= 2 * .pi } else if d < -.pi { d += 2 * .pi }
            return abs(d) * 180 / .pi
        }
        var result = 0.0
        if hypot(a.a, a.b) > 1e-3 && hypot(b.a, b.b) > 1e-3 { result = max(result, diff(atan2(a.b, a.a), atan2(b.b, b.a))) }
        if hypot(a.c, a.d) > 1e-3 && hypot(b.c, b.d) > 1e-3 { result = max(result, diff(atan2(-a.c, a.d), atan2(-b.c, b.d))) }
        return result
    }

    /// Every golden sample; `<sample>@dbbin` was produced from the sample's binary `.dbbin` file.
    static func goldenSamples() throws -> [URL] {
        let folder = TestPaths.shared.appendingPathComponent("golden/dragonbones")
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw XCTSkip("../shared/golden/dragonbones is absent (it exists beside the checkout in CI); golden comparison skipped")
        }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .map { folder.appendingPathComponent($0) }
    }

    /// The skeleton file of a corpus sample.
    static func skeletonFile(_ label: String) throws -> URL {
        let parts = label.split(separator: "@")
        let folder = TestPaths.shared.appendingPathComponent("corpus/dragonbones/\(parts[0])")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        if parts.count > 1, let binary = names.first(where: { $0.hasSuffix(".\(parts[1])") }) {
            return folder.appendingPathComponent(binary)
        }
        let name = names.first { $0.hasSuffix("_ske.json") || $0 == "skeleton.json" }
            ?? names.first { name in
                name.hasSuffix(".json") && ((try? json(folder.appendingPathComponent(name)))?["armature"] != nil)
            }
        return folder.appendingPathComponent(name!)
    }

    /// Compares one sample (its golden folder, and the skeleton when it is not the corpus sample of that name);
    /// returns its maxima.
    ///
    /// Golden frame `i` of an armature running at `r` fps is the runtime's state `i / r` seconds after the animation
    /// started; it is compared with the document at that time on the document's own clock (`i / r` × the document
    /// frame rate), so armatures whose rate differs from the document's are compared at the same moment.
    static func compare(_ sample: URL, skeleton: URL? = nil) throws -> Maxima {
        let index = try json(sample.appendingPathComponent("index.json"))
        let document = try Importer.importDocument(at: try skeleton ?? skeletonFile(sample.lastPathComponent))
        var comparison = FrameComparison(document: document)
        for armature in index["armatures"] as! [[String: Any]] {
            let armatureName = armature["name"] as! String
            for animation in armature["animations"] as! [[String: Any]] {
                let animationName = animation["name"] as! String
                let golden = try json(sample.appendingPathComponent(animation["file"] as! String))
                let compositionID = "\(armatureName)/\(animationName)"
                guard document.composition(compositionID) != nil else {
                    XCTFail("\(sample.lastPathComponent): no composition \(compositionID) for a golden animation")
                    continue
                }
                let frameRate = golden["frameRate"] as! Double
                var switched = false
                // Child armatures (by slot path) that the runtime cross-fades now, that an action restarted in the
                // parent's current play, and that carry such an animation into this play.
                var fading: [String: String] = [:]
                var restarted = Set<String>(), carried = Set<String>()
                var play = 0
                var previous: [String: ChildState] = [:]
                let clip = document.clips.first { $0.composition == compositionID }
                for frame in golden["frames"] as! [[String: Any]] {
                    let i = frame["i"] as? Int ?? 0
                    // The time in frames of the document's clock.
                    let playback = Double(i) * document.frameRate.framesPerSecond / frameRate
                    let events = frame["events"] as? [[String: Any]] ?? []
                    // An action in the animation's own frames (`gotoAndPlay`) fades in another animation of this
                    // armature from that frame on; the runtime reports it as a fadeIn event.
                    for event in events where event["type"] as? String == "fadeIn"
                        && event["armature"] as? String == armatureName && event["animation"] as? String != animationName
                    {
                        switched = true
                    }
                    if let clip, clip.duration.value > 0 {
                        let current = Int((playback / clip.duration.value).rounded(.down))
                        if current > play {
                            // (A restart that leaves the child's state as it was is not seen again, so what was
                            // carried stays carried until a restart is seen.)
                            play = current
                            carried.formUnion(restarted)
                            restarted = []
                        }
                    }
                    let local = clip.map { playback - Double(play) * $0.duration.value } ?? playback
                    // A child the runtime fades into a new animation (a fadeIn event for its armature, and its
                    // animation or time changed) cross-fades until its armature's fadeInComplete event.
                    let children = Self.childStates(frame["slots"] as? [String: [String: Any]])
                    let fadedIn = Set(events.filter { $0["type"] as? String == "fadeIn" }.compactMap { $0["armature"] as? String })
                    for (path, child) in children where fadedIn.contains(child.armature) {
                        guard let before = previous[path] else {
                            fading[path] = child.armature
                            continue
                        }
                        if before.armature != child.armature || before.animation != child.animation
                            || (child.time ?? 0) < (before.time ?? 0)
                        {
                            fading[path] = child.armature
                            if local > 0 { restarted.insert(path) }
                            carried.remove(path)
                        }
                    }
                    for event in events where event["type"] as? String == "fadeInComplete" {
                        fading = fading.filter { $0.value != event["armature"] as? String }
                    }
                    let appearing = i == 0 ? [] : Set(children.keys.filter { previous[$0] == nil })
                    previous = children
                    comparison.compare(frame, composition: compositionID, playback: playback,
                                       excluded: switched ? .switched : .none, fading: Set(fading.keys), carried: carried,
                                       appearing: appearing, label: "\(sample.lastPathComponent) \(compositionID) frame \(i)")
                }
            }
        }
        return comparison.maxima
    }

    /// A child armature in a golden frame: which one, the animation it plays and that animation's time.
    struct ChildState {
        var armature: String
        var animation: String?
        var time: Double?
    }

    /// The child armatures of a golden frame's slots, by slot path (`weapon`, `head>eye` for a child's child).
    static func childStates(_ slots: [String: [String: Any]]?, prefix: String = "") -> [String: ChildState] {
        var result: [String: ChildState] = [:]
        for (name, value) in slots ?? [:] {
            guard let child = value["child"] as? [String: Any], let armature = child["armature"] as? String else { continue }
            let path = prefix + name
            result[path] = ChildState(armature: armature, animation: child["animation"] as? String,
                                      time: child["time"] as? Double)
            result.merge(childStates(child["slots"] as? [String: [String: Any]], prefix: path + ">")) { a, _ in a }
        }
        return result
    }

    /// Compares golden frames with the document's poses, the child armatures inside them included.
    struct FrameComparison {
        let document: Document
        let sampler: PoseSampler
        let spritesByID: [String: Sprite]
        let meshesByID: [String: MeshGeometry]
        var maxima = Maxima()

        init(document: Document) {
            self.document = document
            sampler = PoseSampler(document: document)
            spritesByID = Dictionary(document.assets.sprites.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            meshesByID = Dictionary(document.assets.meshes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        }

        /// One golden frame against the pose of `composition` after `playback` document frames of playing its
        /// clip (§4.10: repeats wrap, the last play rests on the clip's last frame, nested instances that keep
        /// their own time go on aging).
        mutating func compare(_ frame: [String: Any], composition: String, playback: Double, excluded: Exclusion,
                              fading: Set<String>, carried: Set<String> = [], appearing: Set<String> = [],
                              label: String) {
            let pose = document.clips.first(where: { $0.composition == composition }).map {
                sampler.sample(clip: $0, playback: Frames(playback), collectNodes: true)
            } ?? sampler.sample(composition: composition, frame: Frames(playback), collectNodes: true)
            var states: [String: Pose.NodeState] = [:]
            for state in pose.nodes { states[state.path] = state }
            if excluded == .switched { maxima.switchedFrames += 1 } else { maxima.frames += 1 }
            compareArmature(bones: frame["bones"] as? [String: [String: Any]] ?? [:],
                            slots: frame["slots"] as? [String: [String: Any]] ?? [:],
                            prefix: composition, slotPath: "", placement: .identity, colorIsIdentity: true, pose: pose,
                            states: states, excluded: excluded, fading: fading, carried: carried, appearing: appearing,
                            label: label)
        }

        /// Why differences are reported apart instead of asserted.
        enum Exclusion {
            case none
            /// An action in the parent's frames started another animation of the parent.
            case switched
            /// The runtime cross-fades this child armature into its new animation.
            case fading
            /// This child armature goes on with an animation an action started in the parent's previous play.
            case carried
            /// A slot shows this child armature anew in this frame.
            case appearing
        }

        /// One armature's bones and slots; a child armature's golden values are in its own space, placed by its
        /// slot's matrix (`placement`), and its slots' colours are compared where the slots above it leave colour
        /// unchanged (the runtime's renderers combine them differently).
        private mutating func compareArmature(
            bones: [String: [String: Any]], slots: [String: [String: Any]], prefix: String, slotPath: String,
            placement: Matrix2D,
            colorIsIdentity: Bool, pose: Pose, states: [String: Pose.NodeState], excluded: Exclusion,
            fading: Set<String>, carried: Set<String>, appearing: Set<String>, label: String
        ) {
            func notePosition(_ d: Double, _ what: String) {
                switch excluded {
                case .switched: maxima.switchedPosition = max(maxima.switchedPosition, d)
                case .fading: maxima.fadingPosition = max(maxima.fadingPosition, d)
                case .carried: maxima.carriedPosition = max(maxima.carriedPosition, d)
                case .appearing: maxima.appearingPosition = max(maxima.appearingPosition, d)
                case .none:
                    if d > maxima.position { maxima.position = d; maxima.wherePosition = "\(label) \(what): \(d)" }
                }
            }
            func noteAngle(_ d: Double, _ what: String) {
                switch excluded {
                case .switched: maxima.switchedAngle = max(maxima.switchedAngle, d)
                case .fading: maxima.fadingAngle = max(maxima.fadingAngle, d)
                case .carried: maxima.carriedAngle = max(maxima.carriedAngle, d)
                case .appearing: maxima.appearingAngle = max(maxima.appearingAngle, d)
                case .none:
                    if d > maxima.angle { maxima.angle = d; maxima.whereAngle = "\(label) \(what): \(d)" }
                }
            }
            for (name, value) in bones {
                guard let local = DragonBonesGoldenTests.matrix(value["matrix"]), let actual = states["\(prefix)/bone:\(name)"]?.transform
                else { continue }
                let expected = placement.concatenating(local)
                notePosition(hypot(actual.tx - expected.tx, actual.ty - expected.ty), "bone \(name)")
                noteAngle(DragonBonesGoldenTests.angleDifference(actual, expected), "bone \(name)")
            }
            var goldenOrder: [(z: Int, name: String)] = []
            for (name, value) in slots {
                guard let state = states["\(prefix)/slot:\(name)"] else { continue }
                let index = value["displayIndex"] as? Int ?? -1
                let shown: String?
                switch state.content {
                case .none: shown = nil
                case .sprite(let id): shown = id
                case .mesh(let id): shown = meshesByID[id]?.sprite
                case .composition(let instance): shown = instance.composition
                }
                let missingTexture = (value["displayType"] as? String) == "image" && value["texture"] is NSNull
                var expectedShown = index < 0 || (value["hasDisplay"] as? Bool) == false || missingTexture
                    ? nil : (value["texture"] as? String ?? value["display"] as? String)
                // A child armature shows the animation the runtime plays in it.
                let child = value["child"] as? [String: Any]
                var childExcluded = excluded
                if let child, let armature = child["armature"] as? String {
                    expectedShown = (child["animation"] as? String).map { "\(armature)/\($0)" } ?? armature
                    if excluded == .none, carried.contains(slotPath + name) { childExcluded = .carried }
                    if excluded == .none, fading.contains(slotPath + name) { childExcluded = .fading }
                    if excluded == .none, appearing.contains(slotPath + name) { childExcluded = .appearing }
                }
                if shown != expectedShown, excluded == .none, childExcluded != .carried {
                    maxima.displayMismatches += 1
                    maxima.whereDisplay = "\(label) slot \(prefix)/\(name): ours \(shown ?? "none"), runtime \(expectedShown ?? "none")"
                }
                if shown != nil, (value["visible"] as? Bool) != false, let z = value["zOrder"] as? Int {
                    goldenOrder.append((z, name))
                }
                let goldenColor = (value["color"] as? [Double]).flatMap { $0.count == 8 ? $0 : nil }
                if let c = goldenColor, colorIsIdentity, excluded == .none {
                    let ours = state.color
                    let values = [ours.alphaMultiplier, ours.redMultiplier, ours.greenMultiplier, ours.blueMultiplier,
                                  ours.alphaOffset, ours.redOffset, ours.greenOffset, ours.blueOffset]
                    let d = zip(values, c).map { abs($0 - $1) }.max() ?? 0
                    if d > maxima.color { maxima.color = d; maxima.whereColor = "\(label) slot \(prefix)/\(name): \(d)" }
                }
                guard shown != nil, let local = DragonBonesGoldenTests.matrix(value["matrix"]) else { continue }
                let slotMatrix = placement.concatenating(local)
                // Where the picture's top-left lands: runtime at −pivot in slot space, ours at the sprite origin.
                if case .sprite(let id) = state.content, let sprite = spritesByID[id],
                    let pivot = value["pivot"] as? [Double], pivot.count == 2
                {
                    let scale = value["textureScale"] as? Double ?? 1
                    let expected = slotMatrix.concatenating(
                        Matrix2D(a: scale, b: 0, c: 0, d: scale, tx: -pivot[0], ty: -pivot[1]))
                    let actual = state.transform.concatenating(
                        Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: sprite.origin.x, ty: sprite.origin.y))
                    notePosition(hypot(actual.tx - expected.tx, actual.ty - expected.ty), "slot \(name) picture")
                    noteAngle(DragonBonesGoldenTests.angleDifference(actual, expected), "slot \(name)")
                }
                if let vertices = value["vertices"] as? [Double],
                    let item = pose.items.first(where: { $0.path == "\(prefix)/slot:\(name)" }),
                    let mesh = item.mesh
                {
                    let inSlot = (value["meshSpace"] as? String) == "slot"
                    for (k, position) in mesh.positions.enumerated() where 2 * k + 1 < vertices.count {
                        var expected = Vector2(x: vertices[2 * k], y: vertices[2 * k + 1])
                        expected = inSlot ? slotMatrix.apply(expected) : placement.apply(expected)
                        let d = hypot(position.x - expected.x, position.y - expected.y)
                        if excluded != .none { notePosition(d, "slot \(name) vertex \(k)"); continue }
                        if d > maxima.vertex { maxima.vertex = d; maxima.whereVertex = "\(label) slot \(name) vertex \(k): \(d)" }
                    }
                }
                if let child, case .composition(let instance) = state.content,
                    shown == expectedShown || childExcluded == .carried
                {
                    switch childExcluded {
                    case .none: maxima.childFrames += 1
                    case .fading: maxima.fadingFrames += 1
                    case .carried: maxima.carriedFrames += 1
                    case .appearing: maxima.appearingFrames += 1
                    case .switched: break
                    }
                    let identity = colorIsIdentity && goldenColor.map { $0 == [1, 1, 1, 1, 0, 0, 0, 0] } ?? true
                    compareArmature(bones: child["bones"] as? [String: [String: Any]] ?? [:],
                                    slots: child["slots"] as? [String: [String: Any]] ?? [:],
                                    prefix: "\(prefix)/slot:\(name)>\(instance.composition)",
                                    slotPath: slotPath + name + ">", placement: slotMatrix,
                                    colorIsIdentity: identity, pose: pose, states: states, excluded: childExcluded,
                                    fading: fading, carried: carried, appearing: appearing, label: "\(label) in \(name)")
                }
            }
            let expectedOrder = goldenOrder.sorted { $0.z < $1.z }.map(\.name)
            let slotPrefix = "\(prefix)/slot:"
            let ourOrder = pose.items.compactMap { item -> String? in
                guard item.path.hasPrefix(slotPrefix) else { return nil }
                let rest = item.path.dropFirst(slotPrefix.count)
                return rest.contains(">") ? nil : String(rest)
            }.filter { expectedOrder.contains($0) }
            if excluded == .none, ourOrder != expectedOrder.filter({ ourOrder.contains($0) }) {
                maxima.orderMismatches += 1
                maxima.whereOrder = "\(label): ours \(ourOrder), runtime \(expectedOrder)"
            }
        }
    }

    func testEverySampleMatchesTheRuntime() throws {
        var report: [String] = []
        var failures: [String] = []
        for sample in try Self.goldenSamples() {
            let maxima: Maxima
            do { maxima = try Self.compare(sample) } catch {
                failures.append("\(sample.lastPathComponent): \(error)")
                continue
            }
            report.append("\(sample.lastPathComponent): \(maxima)")
            if maxima.position > 0.01 || maxima.angle > 0.01 || maxima.vertex > 0.01 || maxima.color > 1e-6
                || maxima.displayMismatches > 0 || maxima.orderMismatches > 0
            {
                failures.append("\(sample.lastPathComponent) exceeds tolerance: \(maxima)")
            }
        }
        print("DragonBones golden comparison:\n" + report.joined(separator: "\n"))
        XCTAssert(failures.isEmpty, failures.joined(separator: "\n"))
    }
}
