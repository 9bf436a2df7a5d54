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
        /// Largest position/angle difference on frames after an animation-frame action started another animation
        /// (reported, not asserted: actions are not converted, so we keep showing the first animation).
        var switchedPosition = 0.0, switchedAngle = 0.0, switchedFrames = 0
        var wherePosition = "", whereAngle = "", whereVertex = "", whereColor = "", whereDisplay = "", whereOrder = ""
        var description: String {
            String(format: "frames %d  position %.5f px  angle %.5f°  colour %.5f  vertex %.5f px  display mismatches %d  order mismatches %d",
                   frames, position, angle, color, vertex, displayMismatches, orderMismatches)
                + (switchedFrames > 0
                    ? String(format: "\n    after an action started another animation (%d frames): position %.5f px  angle %.5f°",
                             switchedFrames, switchedPosition, switchedAngle) : "")
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
    static func compare(_ sample: URL, skeleton: URL? = nil) throws -> Maxima {
        let index = try json(sample.appendingPathComponent("index.json"))
        let document = try Importer.importDocument(at: try skeleton ?? skeletonFile(sample.lastPathComponent))
        let sampler = PoseSampler(document: document)
        let spritesByID = Dictionary(document.assets.sprites.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let meshesByID = Dictionary(document.assets.meshes.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var maxima = Maxima()
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
                let loops = (golden["playTimes"] as? Double ?? 1) == 0
                let frameRate = golden["frameRate"] as! Double
                var switched = false
                for frame in golden["frames"] as! [[String: Any]] {
                    let t = (frame["t"] as! Double) * frameRate
                    // The clip's playback rule (§4.10): repeats wrap, the last play rests on the clip's last frame.
                    var local = t.rounded()
                    if let clip = document.clips.first(where: { $0.composition == compositionID }) {
                        let length = clip.duration.value
                        if clip.loopCount == 0 || local < Double(clip.loopCount) * length {
                            local = local.truncatingRemainder(dividingBy: length)
                        } else {
                            local = length - 1
                        }
                    }
                    _ = loops
                    let pose = sampler.sample(composition: compositionID, frame: Frames(local), collectNodes: true)
                    var states: [String: Pose.NodeState] = [:]
                    for state in pose.nodes { states[state.path] = state }
                    let label = "\(sample.lastPathComponent) \(compositionID) frame \(frame["i"] ?? 0)"
                    // An action in the animation's own frames (`gotoAndPlay`) fades in another animation of this
                    // armature from that frame on; the runtime reports it as a fadeIn event.
                    for event in frame["events"] as? [[String: Any]] ?? [] where event["type"] as? String == "fadeIn"
                        && event["armature"] as? String == armatureName && event["animation"] as? String != animationName
                    {
                        switched = true
                    }
                    if switched { maxima.switchedFrames += 1 } else { maxima.frames += 1 }
                    func notePosition(_ d: Double, _ what: String) {
                        if switched { maxima.switchedPosition = max(maxima.switchedPosition, d); return }
                        if d > maxima.position { maxima.position = d; maxima.wherePosition = "\(label) \(what): \(d)" }
                    }
                    func noteAngle(_ d: Double, _ what: String) {
                        if switched { maxima.switchedAngle = max(maxima.switchedAngle, d); return }
                        if d > maxima.angle { maxima.angle = d; maxima.whereAngle = "\(label) \(what): \(d)" }
                    }
                    for (name, value) in frame["bones"] as? [String: [String: Any]] ?? [:] {
                        guard let expected = matrix(value["matrix"]),
                            let actual = states["\(compositionID)/bone:\(name)"]?.transform
                        else { continue }
                        notePosition(hypot(actual.tx - expected.tx, actual.ty - expected.ty), "bone \(name)")
                        noteAngle(angleDifference(actual, expected), "bone \(name)")
                    }
                    var goldenOrder: [(z: Int, name: String)] = []
                    for (name, value) in frame["slots"] as? [String: [String: Any]] ?? [:] {
                        guard let state = states["\(compositionID)/slot:\(name)"] else { continue }
                        let index = value["displayIndex"] as? Int ?? -1
                        let shown: String?
                        switch state.content {
                        case .none: shown = nil
                        case .sprite(let id): shown = id
                        case .mesh(let id): shown = meshesByID[id]?.sprite
                        case .composition(let instance): shown = instance.composition
                        }
                        let missingTexture = (value["displayType"] as? String) == "image" && value["texture"] is NSNull
                        let expectedShown = index < 0 || (value["hasDisplay"] as? Bool) == false || missingTexture
                            ? nil : (value["texture"] as? String ?? value["display"] as? String)
                        let goldenArmature = (value["displayType"] as? String) == "armature"
                        if goldenArmature ? (shown == nil) : (shown != expectedShown) {
                            maxima.displayMismatches += 1
                            maxima.whereDisplay = "\(label) slot \(name): ours \(shown ?? "none"), runtime \(expectedShown ?? "none")"
                        }
                        if shown != nil, (value["visible"] as? Bool) != false, let z = value["zOrder"] as? Int {
                            goldenOrder.append((z, name))
                        }
                        if let c = value["color"] as? [Double], c.count == 8 {
                            let ours = state.color
                            let values = [ours.alphaMultiplier, ours.redMultiplier, ours.greenMultiplier, ours.blueMultiplier,
                                          ours.alphaOffset, ours.redOffset, ours.greenOffset, ours.blueOffset]
                            let d = zip(values, c).map { abs($0 - $1) }.max() ?? 0
                            if d > maxima.color { maxima.color = d; maxima.whereColor = "\(label) slot \(name): \(d)" }
                        }
                        guard shown != nil, let slotMatrix = matrix(value["matrix"]) else { continue }
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
                            noteAngle(angleDifference(actual, expected), "slot \(name)")
                        }
                        if let vertices = value["vertices"] as? [Double],
                            let item = pose.items.first(where: { $0.path == "\(compositionID)/slot:\(name)" }),
                            let mesh = item.mesh
                        {
                            let inSlot = (value["meshSpace"] as? String) == "slot"
                            for (k, position) in mesh.positions.enumerated() where 2 * k + 1 < vertices.count {
                                var expected = Vector2(x: vertices[2 * k], y: vertices[2 * k + 1])
                                if inSlot { expected = slotMatrix.apply(expected) }
                                let d = hypot(position.x - expected.x, position.y - expected.y)
                                if d > maxima.vertex { maxima.vertex = d; maxima.whereVertex = "\(label) slot \(name) vertex \(k): \(d)" }
                            }
                        }
                    }
                    let expectedOrder = goldenOrder.sorted { $0.z < $1.z }.map(\.name)
                    let ourOrder = pose.items.compactMap { item -> String? in
                        let prefix = "\(compositionID)/slot:"
                        guard item.path.hasPrefix(prefix) else { return nil }
                        let rest = item.path.dropFirst(prefix.count)
                        return rest.contains(">") ? nil : String(rest)
                    }.filter { expectedOrder.contains($0) }
                    if ourOrder != expectedOrder.filter({ ourOrder.contains($0) }) {
                        maxima.orderMismatches += 1
                        maxima.whereOrder = "\(label): ours \(ourOrder), runtime \(expectedOrder)"
                    }
                }
            }
        }
        return maxima
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
