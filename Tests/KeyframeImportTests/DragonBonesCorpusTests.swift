import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Every DragonBones export in ../shared/corpus/dragonbones converts: each armature and animation becomes a
/// composition and a clip, the atlases' sub-textures become sprites, the output reads back identically and satisfies
/// docs/keyframe.schema.json. Facts are taken from the raw files with Foundation's JSONSerialization.
final class DragonBonesCorpusTests: XCTestCase {
    static func raw(_ url: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    }

    /// The skeleton file and the atlas files of a corpus folder.
    static func files(_ folder: URL) throws -> (skeleton: URL, atlases: [URL]) {
        var skeleton: URL? = nil
        var atlases: [URL] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".json") {
            let url = folder.appendingPathComponent(name)
            let object = try raw(url)
            if object["armature"] != nil { skeleton = url }
            if object["SubTexture"] != nil || object["frames"] != nil { atlases.append(url) }
        }
        return (skeleton!, atlases)
    }

    static func version(_ object: [String: Any]) -> String {
        if let text = object["version"] as? String { return text }
        if let number = object["version"] as? Double { return String(format: "%.1f", number) }
        return ""
    }

    func testEveryArmatureAndAnimationConverts() throws {
        let folders = try TestPaths.corpus("dragonbones")
        XCTAssertFalse(folders.isEmpty)
        var converted = 0
        for folder in folders {
            let (skeletonURL, atlasURLs) = try Self.files(folder)
            let skeleton = try Self.raw(skeletonURL)
            let name = folder.lastPathComponent
            let document: Document
            do { document = try Importer.importDocument(at: folder) } catch {
                XCTFail("\(name): \(error)")
                continue
            }
            converted += 1
            XCTAssertEqual(document.source.format, .dragonBones, name)
            XCTAssertEqual(document.source.formatVersion, Self.version(skeleton), name)
            var clipCount = 0
            for armature in skeleton["armature"] as! [[String: Any]] {
                let armatureName = armature["name"] as! String
                let animations = armature["animation"] as? [[String: Any]] ?? []
                if animations.isEmpty {
                    XCTAssertNotNil(document.composition(armatureName), "\(name): setup composition of \(armatureName)")
                }
                for animation in animations {
                    let id = "\(armatureName)/\(animation["name"] as! String)"
                    guard let composition = document.composition(id) else {
                        XCTFail("\(name): no composition \(id)")
                        continue
                    }
                    clipCount += 1
                    let bones = (armature["bone"] as? [[String: Any]] ?? []).count
                    // 2.x data lists slots in the skins.
                    let skinSlots = Set(((armature["skin"] as? [[String: Any]])?.first?["slot"] as? [[String: Any]] ?? [])
                        .map { $0["name"] as! String })
                    let slots = (armature["slot"] as? [[String: Any]])?.count ?? skinSlots.count
                    XCTAssertEqual(composition.nodes.filter { $0.kind == .bone }.count, bones, id)
                    XCTAssertEqual(composition.nodes.filter { $0.kind == .slot }.count, slots, id)
                    let clip = document.clips.first { $0.composition == id }
                    XCTAssertEqual(clip?.loopCount, (animation["playTimes"] as? Int) ?? (animation["loop"] as? Int) ?? 1, id)
                    // A finite clip ends on the animation's end pose (one frame more); a looping one spans whole
                    // plays (several when a timeline runs slower than its animation).
                    let frames = Double(animation["duration"] as? Int ?? 1) * (animation["scale"] as? Double ?? 1)
                    let duration = clip?.duration.value ?? 0
                    if clip?.loopCount == 0 && frames > 0 {
                        let plays = duration / frames
                        XCTAssert(plays >= 1 && plays == plays.rounded(), "\(id): \(duration) frames for \(frames)")
                    } else {
                        XCTAssertGreaterThanOrEqual(duration, frames, id)
                        XCTAssertLessThanOrEqual(duration, max(frames + 1, 1), id)
                    }
                }
            }
            XCTAssertEqual(document.clips.count, clipCount, name)
            var textures = Set<String>()
            for atlas in atlasURLs {
                for texture in try Self.raw(atlas)["SubTexture"] as? [[String: Any]] ?? [] {
                    textures.insert(texture["name"] as! String)
                }
            }
            XCTAssertEqual(Set(document.assets.sprites.map(\.id)), textures, name)
            // The normalized JSON reads back to the same document.
            XCTAssertEqual(try Document(jsonBytes: document.jsonBytes()), document, name)
        }
        XCTAssertEqual(converted, folders.count)
    }

    func testMeshesAndIKAreKept() throws {
        let folder = try TestPaths.corpus("dragonbones").first { $0.lastPathComponent == "db5.5-youxin-body-mesh" }
        guard let folder else { throw XCTSkip("db5.5-youxin-body-mesh missing") }
        let document = try Importer.importDocument(at: folder)
        let skeleton = try Self.raw(try Self.files(folder).skeleton)
        let armature = (skeleton["armature"] as! [[String: Any]])[0]
        var meshDisplays = 0
        for slot in ((armature["skin"] as! [[String: Any]])[0]["slot"] as! [[String: Any]]) {
            for display in slot["display"] as? [[String: Any]] ?? [] where display["type"] as? String == "mesh" {
                meshDisplays += 1
                let id = "body/\(slot["name"] as! String)/\(display["name"] as! String)"
                let mesh = try XCTUnwrap(document.assets.meshes.first { $0.id == id }, id)
                XCTAssertEqual(mesh.vertices.count * 2, (display["vertices"] as! [Double]).count)
                XCTAssertEqual(mesh.triangles, display["triangles"] as! [Int])
                XCTAssertEqual(mesh.weights?.count, mesh.vertices.count)
            }
        }
        XCTAssertEqual(document.assets.meshes.count, meshDisplays)
        XCTAssertEqual(document.compositions[0].ik.count, (armature["ik"] as! [Any]).count)
    }

    func testSlotActionsPlayChildArmatureAnimations() throws {
        // progress_bar's "idle" starts the nested "loading" armature's idle at frame 0 and its "hide" at frame 100.
        // Both fade in over 0.2 s (4.8 frames at 24 fps), and the runtime holds an animation that fades in at its
        // first frame: idle is held until frame 4 (the fade completes in the tick of frame 5, which already
        // advances it), hide from 100 to the end.
        guard let folder = try TestPaths.corpus("dragonbones").first(where: { $0.lastPathComponent == "db5.5-progress-bar" })
        else { throw XCTSkip("db5.5-progress-bar missing") }
        let skeleton = try Self.raw(try Self.files(folder).skeleton)
        let armature = (skeleton["armature"] as! [[String: Any]]).first { $0["name"] as? String == "progress_bar" }!
        let animation = (armature["animation"] as! [[String: Any]]).first { $0["name"] as? String == "idle" }!
        let timeline = (animation["slot"] as! [[String: Any]]).first { $0["name"] as? String == "loading" }!
        let child = (skeleton["armature"] as! [[String: Any]]).first { $0["name"] as? String == "loading" }!
        let fades = Dictionary(uniqueKeysWithValues: (child["animation"] as! [[String: Any]]).map {
            ($0["name"] as! String, $0["fadeInTime"] as? Double ?? 0)
        })
        let frameRate = skeleton["frameRate"] as? Double ?? 24
        let end = Double(animation["duration"] as! Int) + 1
        var expected: [(Double, String, LoopMode)] = []
        var start = 0.0
        for frame in timeline["displayFrame"] as! [[String: Any]] {
            if let play = (frame["actions"] as? [[String: Any]])?.first?["gotoAndPlay"] as? String {
                let ticks = (fades[play]! * frameRate).rounded(.up)
                let delay = start == 0 ? ticks - 1 : ticks - 2
                expected.append((start, "loading/\(play)", .singleFrame))
                if start + delay < end { expected.append((start + delay, "loading/\(play)", .loop)) }
            }
            start += Double(frame["duration"] as? Int ?? 1)
        }
        let document = try Importer.importDocument(at: folder)
        let node = try XCTUnwrap(document.composition("progress_bar/idle")?.nodes.first { $0.id == "slot:loading" })
        let actual = (node.tracks.content?.keyframes ?? []).compactMap { keyframe -> (Double, String, LoopMode)? in
            if case .composition(let instance) = keyframe.value {
                return (keyframe.frame.value, instance.composition, instance.loop)
            }
            return nil
        }
        XCTAssertEqual(actual.map(\.0), expected.map(\.0))
        XCTAssertEqual(actual.map(\.1), expected.map(\.1))
        XCTAssertEqual(actual.map(\.2), expected.map(\.2))
        XCTAssertEqual(expected.map(\.0), [0, 4, 100])
    }

    func testBinaryTwinGivesTheSameAnimation() throws {
        // mecha_1406 ships as JSON and as .dbbin: the same bones, slots, clips and keyframe times; values agree to
        // the binary file's 32-bit floats.
        guard let folder = try TestPaths.corpus("dragonbones").first(where: { $0.lastPathComponent == "db5.5-mecha1406-with-dbbin" })
        else { throw XCTSkip("db5.5-mecha1406-with-dbbin missing") }
        let json = try Importer.importDocument(at: folder.appendingPathComponent("mecha_1406_ske.json"))
        let binary = try Importer.importDocument(at: folder.appendingPathComponent("mecha_1406_ske.dbbin"))
        XCTAssertEqual(binary.source.files, ["mecha_1406_ske.dbbin", "mecha_1406_tex.json", "mecha_1406_tex.png"])
        XCTAssertEqual(binary.clips, json.clips)
        XCTAssertEqual(binary.compositions.map(\.id), json.compositions.map(\.id))
        for (b, j) in zip(binary.compositions, json.compositions) {
            XCTAssertEqual(b.nodes.map(\.id), j.nodes.map(\.id))
            XCTAssertEqual(b.ik, j.ik)
            for (bn, jn) in zip(b.nodes, j.nodes) {
                XCTAssertEqual(bn.tracks.position?.keyframes.map(\.frame), jn.tracks.position?.keyframes.map(\.frame), "\(b.id) \(bn.id)")
                XCTAssertEqual(bn.tracks.position?.keyframes.map(\.easing), jn.tracks.position?.keyframes.map(\.easing), "\(b.id) \(bn.id)")
                for (bk, jk) in zip(bn.tracks.position?.keyframes ?? [], jn.tracks.position?.keyframes ?? []) {
                    XCTAssertEqual(bk.value.x, jk.value.x, accuracy: 1e-4, "\(b.id) \(bn.id)")
                    XCTAssertEqual(bk.value.y, jk.value.y, accuracy: 1e-4, "\(b.id) \(bn.id)")
                }
                for (bk, jk) in zip(bn.tracks.rotation?.keyframes ?? [], jn.tracks.rotation?.keyframes ?? []) {
                    XCTAssertEqual(bk.value.value, jk.value.value, accuracy: 1e-4, "\(b.id) \(bn.id)")
                }
                XCTAssertEqual(bn.tracks.content, jn.tracks.content, "\(b.id) \(bn.id)")
            }
        }
    }

    func testCorpusOutputMatchesTheSchema() throws {
        var documents: [String: [UInt8]] = [:]
        for folder in try TestPaths.corpus("dragonbones") {
            documents[folder.lastPathComponent] = try Importer.importDocument(at: folder).jsonBytes()
        }
        try SchemaValidator.assertValid(documents, "DragonBones output")
    }
}
