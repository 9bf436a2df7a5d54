import Foundation
import KeyframeEngine
import KeyframeExport
import KeyframeImport
import KeyframeJSON
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// The Lottie export against the model: an independent reading of the exported files (`LottieTestSampler`) matches
/// the pose at every frame within the documented tolerances; the files satisfy the Lottie specification's schema;
/// bytes are deterministic; bad input is refused clearly.
final class LottieExportTests: XCTestCase {
    static let samples = ["animate-walker", "animate-bouncer-long", "bta-spinner", "flump-hopbot", "dragonbones-waver"]

    private func load(_ sample: String) throws -> (Document, AtlasLibrary) {
        let url = TestPaths.packageRoot.appendingPathComponent("Samples").appendingPathComponent(sample)
        let document = try Importer.importDocument(at: url)
        return (document, try AtlasLibrary(document: document, folder: try Importer.detect(url).folder))
    }

    /// Every frame of every clip of every sample: each drawn picture (meshes excepted: the export drops them with a
    /// diagnostic) is an image layer showing at that frame, in the pose's back-to-front order, whose four corners
    /// lie within 0.01 px of the pose's and whose opacity is within 0.1/255.
    func testExportedTransformsMatchThePoseAtEveryFrame() throws {
        for profile in LottieExportSettings.Profile.allCases {
            for sample in Self.samples {
                let url = TestPaths.packageRoot.appendingPathComponent("Samples").appendingPathComponent(sample)
                try checkPose(url, name: sample, profile: profile, frameLimit: nil)
            }
        }
    }

    /// The same reading for every Animate, DragonBones and Flump corpus export (portable profile): the first clip,
    /// first, middle and last frame (`KEYFRAME_LOTTIE_CORPUS_FRAMES` spread frames when set).
    func testCorpusExportsMatchThePose() throws {
        let limit = Int(ProcessInfo.processInfo.environment["KEYFRAME_LOTTIE_CORPUS_FRAMES"] ?? "") ?? 3
        var exports: [URL] = []
        for corpus in ["animate_atlas", "dragonbones", "flump", "flump_xml"] {
            exports += (try? TestPaths.corpus(corpus)) ?? []
        }
        if exports.isEmpty { throw XCTSkip("no corpus") }
        for url in exports {
            try checkPose(url, name: url.lastPathComponent, profile: .portable, frameLimit: limit, firstClipOnly: true)
        }
    }

    private func checkPose(_ url: URL, name sample: String, profile: LottieExportSettings.Profile, frameLimit: Int?,
                           firstClipOnly: Bool = false) throws {
        let document = try Importer.importDocument(at: url)
        let library = try AtlasLibrary(document: document, folder: try Importer.detect(url).folder)
        try checkPose(document, library: library, name: sample, profile: profile, frameLimit: frameLimit,
                      firstClipOnly: firstClipOnly)
    }

    /// Every nested composition time rule (format.md §4.7) through precomp time remapping: the samples whose clips
    /// show nested compositions, with every instance switched to each loop mode, both clocks, and a first frame of 3
    /// (`keepsTime` on the independent ones), read back independently and matched to the pose at every frame in
    /// both profiles.
    func testNestedCompositionTimeRulesMatchThePose() throws {
        var checked = 0
        for sample in ["animate-walker", "bta-spinner", "flump-hopbot"] {
            let url = TestPaths.packageRoot.appendingPathComponent("Samples").appendingPathComponent(sample)
            let original = try Importer.importDocument(at: url)
            let library = try AtlasLibrary(document: original, folder: try Importer.detect(url).folder)
            for loop in LoopMode.allCases {
                for clock in CompositionClock.allCases {
                    var document = original
                    for c in document.compositions.indices {
                        for n in document.compositions[c].nodes.indices {
                            guard var track = document.compositions[c].nodes[n].tracks.content else { continue }
                            for k in track.keyframes.indices {
                                if case .composition(var instance) = track.keyframes[k].value {
                                    instance.loop = loop
                                    instance.clock = clock
                                    instance.firstFrame = Frames(3)
                                    instance.keepsTime = clock == .independent
                                    track.keyframes[k].value = .composition(instance)
                                    checked += 1
                                }
                            }
                            document.compositions[c].nodes[n].tracks.content = track
                        }
                    }
                    for profile in LottieExportSettings.Profile.allCases {
                        try checkPose(document, library: library, name: "\(sample) \(loop) \(clock)", profile: profile,
                                      frameLimit: nil)
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 0, "no nested composition found")
    }

    /// The structure is there: nested compositions are precomps with a time remap, each used composition one asset
    /// (hopbot's robot shows its nested movies without tints), and layers are parented.
    func testNestedCompositionsArePrecompsSharedByTheirInstances() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Samples/flump-hopbot")
        let document = try Importer.importDocument(at: url)
        let library = try AtlasLibrary(document: document, folder: try Importer.detect(url).folder)
        let result = try LottieExporter().exportWithReports(document, library: library, clips: document.clips,
                                                           options: ExportOptions())
        let robot = try XCTUnwrap(result.result.clips.first { $0.clip == "robot" })
        let root = try JSONParser.parse(robot.main.bytes)
        let precomps = (root["assets"]?.arrayValue ?? []).filter { $0["layers"] != nil }
        let names = precomps.compactMap { $0["nm"]?.stringValue }
        XCTAssertFalse(names.isEmpty)
        XCTAssertEqual(Set(names).count, names.count, "a composition written twice: \(names)")
        var allLayers = root["layers"]?.arrayValue ?? []
        for precomp in precomps { allLayers += precomp["layers"]?.arrayValue ?? [] }
        XCTAssertTrue(allLayers.contains { $0["ty"]?.doubleValue == 0 && $0["tm"] != nil }, "no time-remapped precomp")
        XCTAssertTrue(allLayers.contains { $0["parent"] != nil }, "no parenting")
        XCTAssertEqual(result.reports["robot"]?.flattened, nil)
    }

    private func checkPose(_ document: Document, library: AtlasLibrary, name sample: String,
                           profile: LottieExportSettings.Profile, frameLimit: Int?, firstClipOnly: Bool = false) throws {
                var options = ExportOptions()
                options.lottie.profile = profile
                let clips = firstClipOnly ? Array(document.clips.prefix(1)) : document.clips
                let result = try LottieExporter().exportWithReports(document, library: library, clips: clips,
                                                                   options: options).result
                let sampler = PoseSampler(document: document)
                let scene = RenderScene(document: document, library: library)
                var worst = 0.0
                for (clip, exported) in zip(clips, result.clips) {
                    let lottie = try LottieTestSampler(json: exported.main.bytes)
                    let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                                    fps: document.frameRate.framesPerSecond, selection: .all)
                    let framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
                    XCTAssertEqual(lottie.frameCount, plans.count)
                    let view = Matrix2D(a: framing.rootToDevice.a, b: framing.rootToDevice.b, c: framing.rootToDevice.c,
                                        d: framing.rootToDevice.d, tx: framing.rootToDevice.tx, ty: framing.rootToDevice.ty)
                    var chosen = Array(plans.indices)
                    if let frameLimit, plans.count > frameLimit, frameLimit > 1 {
                        chosen = (0..<frameLimit).map { $0 * (plans.count - 1) / (frameLimit - 1) }
                    }
                    for index in chosen {
                        let plan = plans[index]
                        let context = "\(sample)/\(clip.name) [\(profile)] frame \(index)"
                        let pose = sampler.sample(clip: clip, time: plan.layers[0].time)
                        let items = LottieConformanceSubject.pictureItems(pose, library: library, framing: framing)
                        var layers = try lottie.drawn(at: Double(index))
                        let expectedCount = items.reduce(0) { $0 + (Self.meshTriangles($1)?.count ?? 1) }
                        guard layers.count == expectedCount else {
                            XCTFail("\(context): \(layers.count) image layers show, the pose draws \(expectedCount)")
                            continue
                        }
                        for item in items {
                            if let triangles = Self.meshTriangles(item) {
                                let shown = Array(layers.prefix(triangles.count))
                                layers.removeFirst(triangles.count)
                                worst = max(worst, checkMesh(item, triangles: triangles, shown: shown, lottie: lottie,
                                                             view: view, context: context))
                                continue
                            }
                            let shown = layers.removeFirst()
                            let layer = shown.layer
                            if item.sprite == LottieConformanceSubject.filteredPicture {
                                // A filtered node's picture, drawn on the canvas's pixels: a whole-pixel translation.
                                let m = shown.world
                                XCTAssertTrue(layer.refID?.contains("_filtered_") ?? false,
                                              "\(context): \(layer.name) shows \(layer.refID ?? "-") for \(item.path)")
                                XCTAssertTrue(abs(m.a - 1) < 1e-5 && abs(m.d - 1) < 1e-5 && abs(m.b) < 1e-9
                                              && abs(m.c) < 1e-9 && abs(m.tx - m.tx.rounded()) <= LottieTolerance.corner
                                              && abs(m.ty - m.ty.rounded()) <= LottieTolerance.corner,
                                              "\(context): the picture of \(item.path) is not on whole pixels: \(m)")
                                XCTAssertEqual(shown.opacity, 1, accuracy: 1e-9, "\(context): \(layer.name) opacity")
                                continue
                            }
                            guard let sprite = library.sprite(item.sprite), let refID = layer.refID,
                                let picture = lottie.images[refID]
                            else { XCTFail("\(context): \(layer.name) has no picture"); continue }
                            // The layer shows the item's picture: its atlas region, upright, at full resolution.
                            let rotated = document.assets.sprites.first { $0.id == item.sprite }?.rotated ?? false
                            let region = sprite.region
                            XCTAssertEqual([Int(picture.width), Int(picture.height)],
                                           rotated ? [region.height, region.width] : [region.width, region.height],
                                           "\(context): layer \(layer.name) shows \(refID) where the pose draws \(item.sprite)")
                            let world = shown.world
                            let expected = view.concatenating(item.transform)
                            let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
                            for (u, v) in corners {
                                let a = world.apply(Vector2(x: u * picture.width, y: v * picture.height))
                                let b = expected.apply(Vector2(x: u * sprite.size.width, y: v * sprite.size.height))
                                let error = hypot(a.x - b.x, a.y - b.y)
                                worst = max(worst, error)
                                XCTAssertLessThanOrEqual(error, LottieTolerance.corner,
                                                         "\(context): \(layer.name) corner (\(u), \(v))")
                            }
                            if item.color.alphaOffset == 0, (0...1).contains(item.color.alphaMultiplier) {
                                XCTAssertEqual(shown.opacity, item.color.alphaMultiplier,
                                               accuracy: 0.1 / 255 + 1e-9, "\(context): \(layer.name) opacity")
                            }
                        }
                    }
                }
                print("LottieExportTests: \(sample) [\(profile)] worst corner error \(worst) px")
    }

    /// A mesh item's triangles that have area in texture space (vertex indices), or `nil` for a plain sprite.
    static func meshTriangles(_ item: Pose.Item) -> [[Int]]? {
        guard let mesh = item.mesh else { return nil }
        var result: [[Int]] = []
        for t in 0..<(mesh.triangles.count / 3) {
            let v = [mesh.triangles[3 * t], mesh.triangles[3 * t + 1], mesh.triangles[3 * t + 2]]
            guard v.allSatisfy(mesh.uvs.indices.contains) else { continue }
            let (a, b, c) = (mesh.uvs[v[0]], mesh.uvs[v[1]], mesh.uvs[v[2]])
            if abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) > 1e-12 { result.append(v) }
        }
        return result
    }

    /// Each triangle of a mesh is a picture showing through a mask: the picture's texture corners land within
    /// 0.01 px of the pose's vertices, and the mask covers the texture triangle and lies within 4 picture
    /// pixels of each of its edge lines (interior edges are pushed out against seams by at most that).
    /// Returns the worst vertex error.
    private func checkMesh(_ item: Pose.Item, triangles: [[Int]], shown: [LottieTestSampler.Drawn],
                           lottie: LottieTestSampler, view: Matrix2D, context: String) -> Double {
        guard let mesh = item.mesh else { return 0 }
        var worst = 0.0
        for (t, (vertices, drawn)) in zip(triangles, shown).enumerated() {
            guard let refID = drawn.layer.refID, let picture = lottie.images[refID] else {
                XCTFail("\(context): triangle \(t) of \(item.path) has no picture")
                continue
            }
            let placed = vertices.map { view.apply(mesh.positions[$0]) }
            for (v, target) in zip(vertices, placed) {
                let p = drawn.world.apply(Vector2(x: mesh.uvs[v].x * picture.width, y: mesh.uvs[v].y * picture.height))
                let error = hypot(p.x - target.x, p.y - target.y)
                worst = max(worst, error)
                XCTAssertLessThanOrEqual(error, LottieTolerance.corner, "\(context): \(item.path) triangle \(t) vertex \(v)")
            }
            guard let clip = drawn.clip?.first, let toPicture = drawn.world.inverted else {
                XCTFail("\(context): triangle \(t) of \(item.path) is not masked")
                continue
            }
            // Collapsed triangles draw nothing either way.
            let area = (placed[1].x - placed[0].x) * (placed[2].y - placed[0].y)
                - (placed[2].x - placed[0].x) * (placed[1].y - placed[0].y)
            guard abs(area) > 1e-3 else { continue }
            // In picture pixels: the mask covers the texture triangle and lies within the largest push
            // (MeshTriangles.maximumDilation) of each edge line.
            let polygon = clip.map(toPicture.apply)
            let texture = vertices.map { Vector2(x: mesh.uvs[$0].x * picture.width, y: mesh.uvs[$0].y * picture.height) }
            for point in texture {
                XCTAssertLessThanOrEqual(Self.outside(point, polygon), 0.01,
                                         "\(context): \(item.path) triangle \(t) leaves its mask")
            }
            for point in polygon {
                XCTAssertLessThanOrEqual(Self.outside(point, texture), 4.01,
                                         "\(context): \(item.path) triangle \(t) mask reaches too far")
            }
            // The mesh's outline stays exact: no mask point lies beyond an edge no other triangle shares.
            for e in 0..<3 where Self.edgeUse(mesh.triangles, vertices[e], vertices[(e + 1) % 3]) == 1 {
                let edge = [texture[e], texture[(e + 1) % 3], texture[(e + 2) % 3]]
                for point in polygon {
                    // Beyond edge e alone: the distance outside the half-plane the third vertex lies in.
                    let (a, b, c) = (edge[0], edge[1], edge[2])
                    let length = hypot(b.x - a.x, b.y - a.y)
                    let side = ((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) > 0 ? 1.0 : -1.0
                    let beyond = -side * ((b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)) / length
                    XCTAssertLessThanOrEqual(beyond, 0.01, "\(context): \(item.path) triangle \(t) mask crosses the outline")
                }
            }
        }
        return worst
    }

    /// How many triangles of `indices` have the edge between vertices `i` and `j`.
    static func edgeUse(_ indices: [Int], _ i: Int, _ j: Int) -> Int {
        var count = 0
        for t in 0..<(indices.count / 3) {
            let v = [indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]]
            for e in 0..<3 where (v[e] == i && v[(e + 1) % 3] == j) || (v[e] == j && v[(e + 1) % 3] == i) { count += 1 }
        }
        return count
    }

    /// How far `point` lies outside the convex `polygon` (0 inside).
    static func outside(_ point: Vector2, _ polygon: [Vector2]) -> Double {
        var twiceArea = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            twiceArea += a.x * b.y - b.x * a.y
        }
        // Inside lies left of every edge when the polygon turns counter-clockwise (positive area), else right.
        let inward = twiceArea > 0 ? 1.0 : -1.0
        var distance = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            let length = hypot(b.x - a.x, b.y - a.y)
            guard length > 0 else { continue }
            let cross = ((b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)) / length
            distance = max(distance, -inward * cross)
        }
        return distance
    }


    /// Every export of every sample, both profiles and both image modes, validates against the Lottie
    /// specification's JSON Schema (Scripts/validate-lottie.py, draft 2020-12), and a broken file does not.
    func testExportsValidateAgainstTheLottieSchema() throws {
        let folder = try TestPaths.temporaryFolder("keyframe-lottie-schema")
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for sample in Self.samples {
            let (document, library) = try load(sample)
            for profile in LottieExportSettings.Profile.allCases {
                // Folder mode for every sample and profile; embedded pictures (long data URLs, slow for the
                // validator) once.
                for images in LottieExportSettings.Images.allCases
                where images == .folder || (profile == .portable && sample == "animate-walker") {
                    var options = ExportOptions()
                    options.lottie = LottieExportSettings(profile: profile, images: images)
                    let result = try LottieExporter().exportWithReports(document, library: library,
                                                                       clips: document.clips, options: options).result
                    for clip in result.clips {
                        let url = folder.appendingPathComponent("\(sample)-\(profile)-\(images)-\(clip.main.relativePath)")
                        try Data(clip.main.bytes).write(to: url)
                        paths.append(url.path)
                    }
                    // The single file of the export, every clip a marker range.
                    options.lottie.singleFile = true
                    let single = try LottieExporter().exportWithReports(document, library: library,
                                                                       clips: document.clips, options: options).result
                    let url = folder.appendingPathComponent("\(sample)-\(profile)-\(images)-single.json")
                    try Data(try XCTUnwrap(single.clips.first).main.bytes).write(to: url)
                    paths.append(url.path)
                }
            }
        }
        // A control: the walker without its required frame rate must be refused.
        var broken = try JSONParser.parse(try Data(contentsOf: URL(fileURLWithPath: paths[0])).map { $0 })
        if case .object(var members) = broken { members["fr"] = nil; broken = .object(members) }
        let brokenURL = folder.appendingPathComponent("broken.json")
        try Data(JSONWriter.write(broken)).write(to: brokenURL)

        let (status, output) = try LottieSchemaValidator.run(paths)
        XCTAssertEqual(status, 0, output)
        XCTAssertEqual(output.components(separatedBy: ": valid").count - 1, paths.count, output)
        let (brokenStatus, brokenOutput) = try LottieSchemaValidator.run([brokenURL.path])
        XCTAssertEqual(brokenStatus, 1, brokenOutput)
        XCTAssertTrue(brokenOutput.contains("'fr' is a required property"), brokenOutput)
    }

    /// The same input gives the same bytes (JSON and images), and images are shared by content.
    func testExportIsDeterministicAndDeduplicatesImages() throws {
        let (document, library) = try load("animate-walker")
        var options = ExportOptions()
        options.lottie.images = .folder
        let first = try LottieExporter().exportWithReports(document, library: library, clips: document.clips,
                                                          options: options).result
        let second = try LottieExporter().exportWithReports(document, library: library, clips: document.clips,
                                                           options: options).result
        XCTAssertEqual(first, second)
        for clip in first.clips {
            let names = clip.companions.map(\.relativePath)
            XCTAssertEqual(Set(names).count, names.count, "\(clip.clip): an image written twice")
            XCTAssertEqual(Set(clip.companions.map(\.bytes)).count, names.count, "\(clip.clip): identical pictures not merged")
            let text = String(decoding: clip.main.bytes, as: UTF8.self)
            for name in names {
                XCTAssertTrue(text.contains("\"\((name as NSString).lastPathComponent)\""), "\(name) not referenced")
            }
            XCTAssertFalse(text.contains("data:image"), "folder mode embeds no image")
        }
        // The rotated arm sprite comes out upright: 12 × 40 (stored 40 × 12 in the atlas).
        let walk = try LottieTestSampler(json: first.clips[0].main.bytes)
        XCTAssertTrue(walk.images.values.contains { $0.width == 12 && $0.height == 40 }, "\(walk.images)")
    }

    /// Names a designer can read (docs/lottie.md): layers after the source's instances, layers, bones and slots,
    /// unique within each list of layers; pictures after their sprites. Checked on the samples (every clip, both
    /// profiles: the structured and the flattened form) and on the first clip of every corpus export; an id names the
    /// same picture in every clip of an export (so clips written into one folder share their images).
    func testLayersAndPicturesHaveReadableUniqueNames() throws {
        var exports = Self.samples.map { TestPaths.packageRoot.appendingPathComponent("Samples/\($0)") }
        for corpus in ["animate_atlas", "dragonbones", "flump", "flump_xml"] {
            exports += (try? TestPaths.corpus(corpus)) ?? []
        }
        var layerCount = 0
        for url in exports {
            let document = try Importer.importDocument(at: url)
            let library = try AtlasLibrary(document: document, folder: try Importer.detect(url).folder)
            let isSample = url.path.hasPrefix(TestPaths.packageRoot.path)
            let clips = isSample ? document.clips : Array(document.clips.prefix(1))
            for profile in LottieExportSettings.Profile.allCases where isSample || profile == .portable {
                var options = ExportOptions()
                options.lottie = LottieExportSettings(profile: profile, images: .folder)
                let result = try LottieExporter().exportWithReports(document, library: library, clips: clips,
                                                                   options: options).result
                var pictures: [String: [UInt8]] = [:]
                for clip in result.clips {
                    let root = try JSONParser.parse(clip.main.bytes)
                    var lists = [root["layers"]?.arrayValue ?? []]
                    lists += (root["assets"]?.arrayValue ?? []).compactMap { $0["layers"]?.arrayValue }
                    for list in lists {
                        let names = list.compactMap { $0["nm"]?.stringValue }
                        layerCount += names.count
                        XCTAssertEqual(names.count, list.count, "\(url.lastPathComponent) \(clip.clip): a layer without a name")
                        XCTAssertEqual(Set(names).count, names.count, "\(url.lastPathComponent) \(clip.clip): \(names)")
                        XCTAssertFalse(names.contains(""), "\(url.lastPathComponent) \(clip.clip)")
                    }
                    for file in clip.companions {
                        if let known = pictures[file.relativePath] {
                            XCTAssertEqual(known, file.bytes, "\(url.lastPathComponent): \(file.relativePath) differs between clips")
                        }
                        pictures[file.relativePath] = file.bytes
                        let id = String(file.relativePath.dropFirst("images/".count).dropLast(".png".count))
                        XCTAssertTrue(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") },
                                      "\(url.lastPathComponent): \(id)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(layerCount, 1000)

        // What the samples' names read: nodes and symbols from the source, pictures after sprites.
        func names(_ sample: String, clip: String) throws -> (layers: Set<String>, pictures: Set<String>) {
            let (document, library) = try load(sample)
            let exported = try LottieExporter().exportWithReports(
                document, library: library, clips: [try XCTUnwrap(document.clip(named: clip))], options: ExportOptions())
            let root = try JSONParser.parse(try XCTUnwrap(exported.result.clips.first).main.bytes)
            var layers: Set<String> = []
            var pictures: Set<String> = []
            for asset in root["assets"]?.arrayValue ?? [] {
                if let list = asset["layers"]?.arrayValue {
                    layers.formUnion(list.compactMap { $0["nm"]?.stringValue })
                } else if let id = asset["id"]?.stringValue {
                    pictures.insert(id)
                }
            }
            layers.formUnion((root["layers"]?.arrayValue ?? []).compactMap { $0["nm"]?.stringValue })
            return (layers, pictures)
        }
        let walker = try names("animate-walker", clip: "walk")
        XCTAssertTrue(walker.layers.isSuperset(of: ["walker_head", "walker_legs", "body", "shadow", "skull", "leg_front"]),
                      "\(walker.layers)")
        XCTAssertTrue(walker.pictures.contains("skull_0000"), "\(walker.pictures)")
        let waver = try names("dragonbones-waver", clip: "idle")
        XCTAssertTrue(waver.layers.isSuperset(of: ["root", "arm_upper", "arm_lower", "head", "body"]), "\(waver.layers)")
        XCTAssertTrue(waver.pictures.isSuperset(of: ["arm_upper", "head", "eye_open"]), "\(waver.pictures)")
        let hopbot = try names("flump-hopbot", clip: "robot")
        XCTAssertTrue(hopbot.layers.isSuperset(of: ["head", "body", "antenna", "stick"]), "\(hopbot.layers)")
        XCTAssertTrue(hopbot.pictures.isSuperset(of: ["head", "body", "antenna_stick"]), "\(hopbot.pictures)")
        let bouncer = try names("animate-bouncer-long", clip: "bouncer")
        XCTAssertTrue(bouncer.layers.isSuperset(of: ["ball / Layer_1", "floor"]), "\(bouncer.layers)")
    }

    /// `--png fast` changes how the pictures are compressed, nothing else: the same pictures, pixel for pixel, in the
    /// same order, each in a PNG encoded with the fast preset.
    func testFastPicturePresetKeepsEveryPixel() throws {
        for sample in ["flump-hopbot", "animate-walker"] {
            let (document, library) = try load(sample)
            var options = ExportOptions()
            options.lottie.images = .folder
            let compact = try LottieExporter().exportWithReports(document, library: library, clips: document.clips,
                                                                options: options).result
            options.pictures = .fast
            let fast = try LottieExporter().exportWithReports(document, library: library, clips: document.clips,
                                                             options: options).result
            XCTAssertEqual(compact.clips.count, fast.clips.count)
            var encoder = PNGEncoder(options: .fast)
            for (a, b) in zip(compact.clips, fast.clips) {
                XCTAssertEqual(a.companions.count, b.companions.count, "\(sample) \(a.clip)")
                XCTAssertFalse(a.companions.isEmpty)
                for (x, y) in zip(a.companions, b.companions) {
                    let pixels = try PNGDecoder().decode(x.bytes)
                    XCTAssertEqual(try PNGDecoder().decode(y.bytes), pixels, "\(sample) \(a.clip): \(x.relativePath)")
                    XCTAssertEqual(y.bytes, try encoder.encode(pixels), "\(sample) \(a.clip): not the fast preset")
                }
            }
        }
    }

    func testMissingClipIsAnError() throws {
        let (document, _) = try load("bta-spinner")
        let url = TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner")
        XCTAssertThrowsError(try LottieExporter().export(document, assetsFolder: url,
                                                         options: ExportOptions(clips: ["nope"]))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("no clip named \"nope\"") && text.contains("\"spinner\""), text)
        }
    }

    func testSpriteMissingFromTheAtlasIsAnError() throws {
        var (document, _) = try load("bta-spinner")
        // The sprite's atlas image is not given: the library cannot resolve it.
        let library = AtlasLibrary(document: document, bitmaps: [:])
        document.diagnostics = []
        XCTAssertThrowsError(try LottieExporter().exportWithReports(document, library: library,
                                                                   clips: document.clips, options: ExportOptions()))
        { error in
            XCTAssertTrue("\(error)".contains("is not in the atlas"), "\(error)")
        }
    }

    /// The flattened form draws meshes too: the waver with its body in multiply is written flattened (a blend mode),
    /// and the independent reading matches the pose at every frame, the flag's triangles included, in both profiles.
    func testFlattenedClipsDrawMeshTriangles() throws {
        var (document, library) = try load("dragonbones-waver")
        let c = try XCTUnwrap(document.compositions.firstIndex { $0.nodes.contains { $0.id.hasSuffix("body") } })
        let n = try XCTUnwrap(document.compositions[c].nodes.firstIndex { $0.id.hasSuffix("body") })
        document.compositions[c].nodes[n].tracks.blendMode = Track(constant: .multiply)
        let report = try LottieExporter().exportWithReports(document, library: library, clips: document.clips,
                                                           options: ExportOptions()).reports
        XCTAssertTrue(report.values.allSatisfy { $0.flattened != nil && $0.meshTriangles > 0 }, "\(report)")
        for profile in LottieExportSettings.Profile.allCases {
            try checkPose(document, library: library, name: "waver flattened", profile: profile, frameLimit: nil)
        }
    }

    /// A mesh triangle with no area in its picture (two texture corners the same) and one naming a vertex the mesh
    /// lacks are left out with a warning naming the node; the rest is exported and matches the pose, and the Core
    /// Animation export says the same as an info diagnostic. Nothing crashes and no number is NaN.
    func testMeshTrianglesWithoutAreaAreLeftOutWithAWarning() throws {
        var (document, library) = try load("dragonbones-waver")
        XCTAssertFalse(document.assets.meshes.isEmpty)
        document.assets.meshes[0].uvs[1] = document.assets.meshes[0].uvs[0]
        document.assets.meshes[0].triangles += [0, 1, 999]
        let result = try LottieExporter().exportWithReports(document, library: library, clips: document.clips,
                                                           options: ExportOptions())
        XCTAssertTrue(result.result.diagnostics.contains { $0.code == "lottie-mesh-triangles" && $0.path?.contains("flag") == true },
                      "\(result.result.diagnostics)")
        for clip in result.result.clips {
            XCTAssertFalse(String(decoding: clip.main.bytes, as: UTF8.self).lowercased().contains("nan"), clip.clip)
        }
        try checkPose(document, library: library, name: "waver with a degenerate triangle", profile: .portable,
                      frameLimit: nil)
        let url = TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver")
        let ca = try CoreAnimationExporter().export(document, assetsFolder: try Importer.detect(url).folder,
                                                    options: ExportOptions())
        XCTAssertTrue(ca.diagnostics.contains { $0.code == "ca-mesh-triangles" }, "\(ca.diagnostics)")
    }

    /// `--strict` fails on any warning: the waver with its body drawn in multiply (which `portable` draws normal, with
    /// a `lottie-blend-mode` warning) is refused, and exported without `--strict` it reports the node approximated.
    /// The waver as bundled, meshes included, exports without a warning.
    func testStrictFailsOnAnyExportWarning() throws {
        var (document, library) = try load("dragonbones-waver")
        var options = ExportOptions(strict: true)
        options.lottie.profile = .portable
        XCTAssertNoThrow(try LottieExporter().exportWithReports(document, library: library, clips: document.clips,
                                                               options: options))
        let c = try XCTUnwrap(document.compositions.firstIndex { $0.nodes.contains { $0.id.hasSuffix("body") } })
        let n = try XCTUnwrap(document.compositions[c].nodes.firstIndex { $0.id.hasSuffix("body") })
        document.compositions[c].nodes[n].tracks.blendMode = Track(constant: .multiply)
        XCTAssertThrowsError(try LottieExporter().exportWithReports(document, library: library, clips: document.clips,
                                                                   options: options)) { error in
            XCTAssertTrue("\(error)".contains("lottie-blend-mode"), "\(error)")
        }
        let relaxed = try LottieExporter().exportWithReports(document, library: library, clips: document.clips,
                                                            options: ExportOptions())
        XCTAssertTrue(relaxed.result.diagnostics.contains { $0.code == "lottie-blend-mode" && $0.path?.contains("body") == true })
        XCTAssertTrue(relaxed.reports.values.contains { !$0.approximated.isEmpty })
    }
}
