import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Every real export in ../shared/corpus/animate_atlas converts, and its figures match values derived here
/// independently from the raw files (read with Foundation's JSONSerialization, not Keyframe's parser).
final class AnimateCorpusTests: XCTestCase {
    /// Facts about one export computed straight from its raw JSON.
    struct RawFacts {
        var rootDuration = 0
        var labels: [(name: String, start: Int, duration: Int)] = []
        var spriteNames = Set<String>()
        var rotatedSprites = Set<String>()
        var reachableSymbols = Set<String>()
        var nodeCount = 0
        var frameRate: Double = 24
    }

    static func loadJSON(_ url: URL) throws -> Any {
        var data = try Data(contentsOf: url)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        return try JSONSerialization.jsonObject(with: data)
    }

    static func value(_ object: [String: Any], _ keys: String...) -> Any? {
        for key in keys { if let found = object[key] { return found } }
        return nil
    }

    static func rawFacts(_ folder: URL) throws -> RawFacts {
        var facts = RawFacts()
        let root = try loadJSON(folder.appendingPathComponent("Animation.json")) as! [String: Any]
        let animation = value(root, "AN", "ANIMATION") as! [String: Any]
        let metadata = value(root, "MD", "metadata") as? [String: Any]
        if let fps = metadata.flatMap({ value($0, "FRT", "framerate") }) as? Double { facts.frameRate = fps }
        let metadataURL = folder.appendingPathComponent("metadata.json")
        if metadata == nil, let meta = try? loadJSON(metadataURL) as? [String: Any],
            let fps = value(meta, "framerate", "FRT")
        {
            facts.frameRate = (fps as? Double) ?? Double("\(fps)") ?? 24
        }

        // Timelines by symbol name: the dictionary, then LIBRARY/*.json.
        var timelines: [String: [String: Any]] = [:]
        if let dictionary = value(root, "SD", "SYMBOL_DICTIONARY") as? [String: Any] {
            for symbol in value(dictionary, "S", "Symbols") as! [[String: Any]] {
                timelines[value(symbol, "SN", "SYMBOL_name") as! String] = value(symbol, "TL", "TIMELINE") as? [String: Any]
            }
        }
        let library = folder.appendingPathComponent("LIBRARY")
        if let enumerator = FileManager.default.enumerator(atPath: library.path) {
            while let item = enumerator.nextObject() as? String {
                guard item.hasSuffix(".json") else { continue }
                let name = String(item.dropLast(5))
                if timelines[name] == nil {
                    timelines[name] = try loadJSON(library.appendingPathComponent(item)) as? [String: Any]
                }
            }
        }
        let rootName = value(animation, "SN", "SYMBOL_name") as! String
        timelines[rootName] = value(animation, "TL", "TIMELINE") as? [String: Any]

        func layers(_ timeline: [String: Any]) -> [[String: Any]] { value(timeline, "L", "LAYERS") as? [[String: Any]] ?? [] }
        func frames(_ layer: [String: Any]) -> [[String: Any]] { value(layer, "FR", "Frames") as? [[String: Any]] ?? [] }
        func elements(_ frame: [String: Any]) -> [[String: Any]] { value(frame, "E", "elements") as? [[String: Any]] ?? [] }
        func int(_ any: Any?) -> Int { (any as? NSNumber)?.intValue ?? 0 }

        // Reachable symbols and node count: per non-folder layer, one layer node plus one node per element slot.
        var bitmapSymbols = Set<String>()
        var pending = [rootName]
        while let name = pending.popLast() {
            guard !facts.reachableSymbols.contains(name), let timeline = timelines[name] else { continue }
            facts.reachableSymbols.insert(name)
            for layer in layers(timeline) {
                let type = value(layer, "LT", "Layer_type") as? String
                if type == "Folder" || type == "Fld" { continue }
                facts.nodeCount += 1 + (frames(layer).map { elements($0).count }.max() ?? 0)
                for frame in frames(layer) {
                    for element in elements(frame) {
                        guard let instance = value(element, "SI", "SYMBOL_Instance") as? [String: Any] else { continue }
                        let child = value(instance, "SN", "SYMBOL_name") as! String
                        if timelines[child] != nil { pending.append(child) } else { bitmapSymbols.insert(child) }
                    }
                }
            }
        }
        facts.nodeCount += bitmapSymbols.count  // each 2018 bitmap-only symbol is one node
        facts.reachableSymbols.formUnion(bitmapSymbols)
        // A stage instance that places, tints, filters or blends the symbol adds the stage composition and its node.
        if let sti = value(animation, "STI", "StageInstance") as? [String: Any],
            let instance = value(sti, "SI", "SYMBOL_Instance") as? [String: Any], stageInstanceChanges(instance)
        {
            facts.reachableSymbols.insert("\(rootName) (stage)")
            facts.nodeCount += 1
        }

        let rootLayers = layers(timelines[rootName]!)
        facts.rootDuration = rootLayers.map { layer in
            frames(layer).map { int(value($0, "I", "index")) + int(value($0, "DU", "duration")) }.max() ?? 0
        }.max() ?? 0
        var starts: [(String, Int)] = []
        for layer in rootLayers {
            for frame in frames(layer) {
                if let label = value(frame, "N", "name") as? String, !label.isEmpty {
                    starts.append((label, int(value(frame, "I", "index"))))
                }
            }
        }
        starts.sort { $0.1 < $1.1 }
        for (position, (name, start)) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1].1 : facts.rootDuration
            facts.labels.append((name, start, end - start))
        }

        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where file.hasPrefix("spritemap") && file.hasSuffix(".json") {
            let map = try loadJSON(folder.appendingPathComponent(file)) as! [String: Any]
            for entry in (map["ATLAS"] as! [String: Any])["SPRITES"] as! [[String: Any]] {
                let sprite = entry["SPRITE"] as! [String: Any]
                facts.spriteNames.insert(sprite["name"] as! String)
                if sprite["rotated"] as? Bool == true { facts.rotatedSprites.insert(sprite["name"] as! String) }
            }
        }
        return facts
    }

    /// Whether a raw stage instance has a matrix other than the identity, a colour effect, filters or a blend mode.
    static func stageInstanceChanges(_ instance: [String: Any]) -> Bool {
        var numbers: [Double] = [1, 0, 0, 1, 0, 0]
        if let m3d = value(instance, "M3D", "Matrix3D") {
            if let array = m3d as? [Double], array.count == 16 {
                numbers = [array[0], array[1], array[4], array[5], array[12], array[13]]
            } else if let object = m3d as? [String: Double] {
                numbers = ["m00", "m01", "m10", "m11", "m30", "m31"].map { object[$0] ?? 0 }
            }
        } else if let mx = value(instance, "MX", "Matrix") as? [Double], mx.count == 6 {
            numbers = mx
        }
        let color = value(instance, "C", "color") as? [String: Any]
        let mode = color.flatMap { value($0, "M", "mode") as? String }
        let filters = value(instance, "F", "filters")
        let filtered = (filters as? [Any]).map { !$0.isEmpty } ?? (filters as? [String: Any]).map { !$0.isEmpty } ?? false
        let blend = value(instance, "B", "blend").map { "\($0)" }
        return numbers != [1, 0, 0, 1, 0, 0] || (mode != nil && mode != "None" && mode != "N") || filtered
            || (blend != nil && !["normal", "0", "1"].contains(blend!))
    }

    func testEveryCorpusExportConvertsAndMatchesRawFacts() throws {
        let folders = try TestPaths.corpus("animate_atlas")
        XCTAssertEqual(folders.count, 14, "the corpus holds 14 Animate exports")
        for folder in folders {
            let name = folder.lastPathComponent
            let document: Document
            do { document = try Importer.importDocument(at: folder) } catch {
                XCTFail("\(name): \(error)")
                continue
            }
            let facts = try Self.rawFacts(folder)
            XCTAssertEqual(document.frameRate.framesPerSecond, facts.frameRate, "\(name) frame rate")
            XCTAssertEqual(document.composition(document.root)?.duration.value, Double(facts.rootDuration), "\(name) root length")
            XCTAssertEqual(Set(document.compositions.map(\.id)), facts.reachableSymbols, "\(name) symbols")
            XCTAssertEqual(document.nodeCount, facts.nodeCount, "\(name) node count")
            XCTAssertEqual(Set(document.assets.sprites.map(\.name)), facts.spriteNames, "\(name) sprites")
            XCTAssertEqual(Set(document.assets.sprites.filter(\.rotated).map(\.name)), facts.rotatedSprites, "\(name) rotated")
            if facts.labels.isEmpty {
                XCTAssertEqual(document.clips.count, 1, "\(name): one clip over the whole timeline")
                XCTAssertEqual(document.clips.first?.duration.value, Double(facts.rootDuration))
            } else {
                // One clip per label, then one over the whole timeline (format.md §6.1).
                XCTAssertEqual(document.clips.dropLast().map(\.name), facts.labels.map(\.name), "\(name) clip names")
                XCTAssertEqual(document.clips.dropLast().map { Int($0.duration.value) }, facts.labels.map(\.duration), "\(name) clip lengths")
                XCTAssertEqual(document.clips.dropLast().map { Int($0.start.value) }, facts.labels.map(\.start), "\(name) clip starts")
                XCTAssertEqual(document.clips.last?.start.value, 0, "\(name) whole-timeline clip")
                XCTAssertEqual(document.clips.last?.duration.value, Double(facts.rootDuration), "\(name) whole-timeline clip")
            }
            // Rotated regions: the upright size swaps the stored width and height.
            for sprite in document.assets.sprites where sprite.rotated {
                let image = try XCTUnwrap(document.assets.images.first { $0.id == sprite.image })
                assertClose(sprite.size.width, sprite.region.height / image.resolution, tolerance: 1e-9)
                assertClose(sprite.size.height, sprite.region.width / image.resolution, tolerance: 1e-9)
            }
            // Deterministic: a second conversion gives the same bytes.
            XCTAssertEqual(try Importer.importDocument(at: folder).jsonBytes(), document.jsonBytes(), "\(name) determinism")
            // The written JSON reads back to the same document.
            XCTAssertEqual(try Document(jsonBytes: document.jsonBytes()), document, "\(name) round trip")
        }
    }

    func testKeySpellingsAndVariantsAreDetected() throws {
        let folders = try TestPaths.corpus("animate_atlas")
        func document(_ name: String) throws -> Document {
            try Importer.importDocument(at: try XCTUnwrap(folders.first { $0.lastPathComponent == name }))
        }
        XCTAssertEqual(try document("flxanimate-ninja-girl-optimized").source.variant, "optimized")
        XCTAssertEqual(try document("openfl-test-2018").source.variant, "long")
        let bta = try document("libanimateatlas-balltest-bta")
        XCTAssertEqual(bta.source.format, .betterTextureAtlas)
        XCTAssertEqual(bta.source.formatVersion, "BTA 1.2.0")
        XCTAssertEqual(bta.stage, Rect(x: 0, y: 0, width: 640, height: 480))
        XCTAssertEqual(try document("openfl-astronaut-res0.5").assets.images.first?.resolution, 0.5)
    }

    /// The un-baked BTA tween keeps its custom ease and interpolates about the transformation point.
    func testBetterTextureAtlasTweensKeepTheirEase() throws {
        let folders = try TestPaths.corpus("animate_atlas")
        let folder = try XCTUnwrap(folders.first { $0.lastPathComponent == "libanimateatlas-balltest-bta" })
        let document = try Importer.importDocument(at: folder)
        let root = try XCTUnwrap(document.composition("SymbolScene"), "the exported symbol (the root shows it on the stage)")
        let ball = try XCTUnwrap(root.nodes.first { ($0.tracks.position?.keyframes.first?.easing ?? .hold) != .hold })
        let first = try XCTUnwrap(ball.tracks.position?.keyframes.first)
        // Raw: first tween curve points (0,0) (0.5469…,0.0615…) (0.7036…,0.2056…) (1,1), matrix tx 217.95, ty 144.65,
        // TRP (77.2, 77.2) in the instance's own space (BTA 1.2.0) → the pivot lands at (217.95+77.2, 144.65+77.2).
        guard case .cubicBezier(let x1, let y1, let x2, let y2) = first.easing else {
            return XCTFail("expected a cubic ease, found \(first.easing)")
        }
        assertClose(x1, 0.546948053896923, tolerance: 1e-12)
        assertClose(y1, 0.0615227421149364, tolerance: 1e-12)
        assertClose(x2, 0.703620839911789, tolerance: 1e-12)
        assertClose(y2, 0.20568003873512303, tolerance: 1e-12)
        assertClose(first.value.x, 217.95 + 77.2, tolerance: 1e-9)
        assertClose(first.value.y, 144.65 + 77.2, tolerance: 1e-9)
    }
}
