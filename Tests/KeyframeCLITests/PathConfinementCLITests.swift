import Foundation
import KeyframeTestSupport
import XCTest

/// Paths named inside an input never lead outside the export's folder (issue 23, defect 1): for every format that
/// names an atlas image and every command that opens images, a `..` above the folder and a link in the folder that
/// points out of it are located errors naming the file, the field and the path as written, and nothing is read —
/// in particular `export --to core-animation` never copies an outside file into its `images/`.
final class PathConfinementCLITests: XCTestCase {
    /// One hostile export: the command-line path to it, and where its error must point.
    struct Hostile {
        var format: String
        /// INPUT, relative to the work folder (commands run there).
        var input: String
        /// The start of the located error: the file as the user gave it and the field (`…/spritemap1.json: at
        /// meta.image`, `…/library.xml:59:`).
        var location: String
        /// Whether the importer opens the image (a normalized document's images are opened only to draw or export;
        /// its paths are still checked for `..` when it is read).
        var importOpensImages = true
    }

    var root: URL { TestPaths.packageRoot }
    var work: URL!
    /// The secret the hostile exports point at: a valid PNG the size of the walker's atlas, outside every export.
    var secret: URL { work.appendingPathComponent("secret/evil.png") }

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("confinement")
        try FileManager.default.createDirectory(at: secret.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: root.appendingPathComponent("Samples/animate-walker/spritemap1.png"), to: secret)
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    // MARK: Fixtures

    /// Copies `sample` (a folder of `Samples/`) to `exports/<name>` and returns that folder.
    func copy(_ sample: String, as name: String) throws -> URL {
        let folder = work.appendingPathComponent("exports/\(name)")
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: root.appendingPathComponent("Samples/\(sample)"), to: folder)
        return folder
    }

    /// Rewrites the JSON file at `url` with `change`.
    func edit(_ url: URL, _ change: (inout [String: Any]) throws -> Void) throws {
        var data = try Data(contentsOf: url)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        try change(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: url)
    }

    /// The same export in every format, its image path set to `path` (`nil`: the image path is left as exported and
    /// the image file itself is replaced by a link to the secret).
    func hostileExports(imagePath path: String?) throws -> [Hostile] {
        var exports: [Hostile] = []
        let link = path == nil

        let animate = try copy("animate-walker", as: "animate")
        if let path { try edit(animate.appendingPathComponent("spritemap1.json")) { $0["meta"] = (($0["meta"] as? [String: Any]) ?? [:]).merging(["image": path]) { $1 } } }
        if link { try linkToSecret(animate.appendingPathComponent("spritemap1.png")) }
        exports.append(Hostile(format: "Animate", input: "exports/animate",
                               location: "exports/animate/spritemap1.json: at meta.image: "))

        let dragonBones = try copy("dragonbones-waver", as: "dragonbones")
        if let path { try edit(dragonBones.appendingPathComponent("waver_tex.json")) { $0["imagePath"] = path } }
        if link { try linkToSecret(dragonBones.appendingPathComponent("waver_tex.png")) }
        exports.append(Hostile(format: "DragonBones", input: "exports/dragonbones",
                               location: "exports/dragonbones/waver_tex.json: at imagePath: "))

        let flump = try copy("flump-hopbot", as: "flump")
        if let path {
            try edit(flump.appendingPathComponent("library.json")) { library in
                var groups = try XCTUnwrap(library["textureGroups"] as? [[String: Any]])
                for g in groups.indices {
                    var atlases = try XCTUnwrap(groups[g]["atlases"] as? [[String: Any]])
                    for a in atlases.indices { atlases[a]["file"] = path }
                    groups[g]["atlases"] = atlases
                }
                library["textureGroups"] = groups
            }
        }
        if link { try linkToSecret(flump.appendingPathComponent("atlas0.png")) }
        exports.append(Hostile(format: "Flump JSON", input: "exports/flump",
                               location: "exports/flump/library.json: at textureGroups[0].atlases[0].file: "))

        let xml = try copy("flump-hopbot", as: "flump-xml")
        try FileManager.default.removeItem(at: xml.appendingPathComponent("library.json"))
        var text = try String(contentsOf: root.appendingPathComponent("Fuzz/Seeds/flump-xml/hopbot.xml"), encoding: .utf8)
        let line = try XCTUnwrap(text.components(separatedBy: "\n").firstIndex { $0.contains("<atlas file=\"atlas0.png\"") }) + 1
        let column = try XCTUnwrap(text.components(separatedBy: "\n")[line - 1].range(of: "file=")).lowerBound.utf16Offset(
            in: text.components(separatedBy: "\n")[line - 1]) + 1
        if let path {
            text = text.replacingOccurrences(of: "file=\"atlas0.png\"", with: "file=\"\(path)\"")
                .replacingOccurrences(of: "file=\"atlas0@2x.png\"", with: "file=\"\(path)\"")
        }
        try text.write(to: xml.appendingPathComponent("library.xml"), atomically: true, encoding: .utf8)
        if link { try linkToSecret(xml.appendingPathComponent("atlas0.png")) }
        exports.append(Hostile(format: "Flump XML", input: "exports/flump-xml",
                               location: "exports/flump-xml/library.xml:\(line):\(column): "))

        // A normalized document beside its images.
        let normalized = try copy("animate-walker", as: "normalized")
        XCTAssertEqual(try CLIRunner.run(["convert", normalized.path, "-o", normalized.appendingPathComponent("doc.json").path])
            .status, 0)
        if let path {
            try edit(normalized.appendingPathComponent("doc.json")) { document in
                var assets = try XCTUnwrap(document["assets"] as? [String: Any])
                var images = try XCTUnwrap(assets["images"] as? [[String: Any]])
                images[0]["path"] = path
                assets["images"] = images
                document["assets"] = assets
            }
        }
        if link { try linkToSecret(normalized.appendingPathComponent("spritemap1.png")) }
        exports.append(Hostile(format: "normalized", input: "exports/normalized/doc.json",
                               location: "exports/normalized/doc.json: at assets.images[0].path: ",
                               importOpensImages: false))
        return exports
    }

    /// Replaces `file` with a symbolic link to the secret (an absolute link, as an unpacked archive can hold).
    func linkToSecret(_ file: URL) throws {
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: secret.path)
    }

    /// Every command that opens an export's images, writing into `out` (relative to the work folder).
    func commands(_ input: String, out: String) -> [[String]] {
        [
            ["convert", input, "-o", "\(out)/doc.json"],
            ["inspect", input],
            ["render", input, "-o", "\(out)/frames", "--frames", "0"],
            ["export", input, "--to", "lottie", "-o", "\(out)/lottie/"],
            ["export", input, "--to", "core-animation", "-o", "\(out)/ca/"],
            ["preview", input, "-o", "\(out)/page.html", "--frames", "0"],
            ["verify", input, "--golden", "\(out)/golden", "--record", "--frames", "0"],
        ]
    }

    /// Every regular file under `folder`, relative.
    func files(under folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [String] = []
        while let item = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(item).path, isDirectory: &isDirectory),
                !isDirectory.boolValue { found.append(item) }
        }
        return found.sorted()
    }

    /// Runs every command on every export and checks the refusal: exit 1, the located message, nothing written.
    /// With `opensOnlyToDraw`, a normalized document is converted and inspected without opening its images, so
    /// those two commands succeed (nothing is read).
    func checkRefused(_ exports: [Hostile], written: String, reason: String, opensOnlyToDraw: Bool = false) throws {
        var runs = 0
        for export in exports {
            for command in commands(export.input, out: "out/\(runs)") {
                let out = work.appendingPathComponent("out/\(runs)")
                runs += 1
                let name = "\(export.format): keyframe \(command.joined(separator: " "))"
                let run = try CLIRunner.run(command, directory: work)
                if opensOnlyToDraw && !export.importOpensImages && ["convert", "inspect"].contains(command[0]) {
                    XCTAssertEqual(run.status, 0, "\(name): \(run.stderr)")
                    continue
                }
                XCTAssertEqual(run.status, 1, "\(name) must refuse: \(run.stderr)")
                XCTAssertTrue(run.stderr.hasPrefix("keyframe: error: " + export.location), "\(name): \(run.stderr)")
                XCTAssertTrue(run.stderr.contains("\"\(written)\" leads outside"), "\(name): \(run.stderr)")
                XCTAssertTrue(run.stderr.contains(reason), "\(name): \(run.stderr)")
                XCTAssertEqual(files(under: out), [], "\(name) wrote outputs")
            }
        }
    }

    // MARK: Tests

    /// `..` above the export's folder, in every format's image field, for every command (before: each converted,
    /// rendered and exported the secret).
    func testDotDotAboveTheExportIsALocatedErrorForEveryFormatAndCommand() throws {
        try checkRefused(try hostileExports(imagePath: "../../secret/evil.png"), written: "../../secret/evil.png",
                         reason: "(\"..\" climbs above it)")
    }

    /// A link inside the export that points outside it, in every format, for every command that opens the image
    /// (before: each read the secret).
    func testALinkInsideTheExportPointingOutsideIsRefused() throws {
        let exports = try hostileExports(imagePath: nil)
        let written = ["Animate": "spritemap1.png", "DragonBones": "waver_tex.png", "Flump JSON": "atlas0.png",
                       "Flump XML": "atlas0.png", "normalized": "spritemap1.png"]
        for export in exports {
            try checkRefused([export], written: try XCTUnwrap(written[export.format]),
                             reason: "through a symbolic link (to \"\(secret.path)\")", opensOnlyToDraw: true)
        }
    }

    /// `export --to core-animation` copies atlas images into `images/`: with `--assets` pointing at a folder whose
    /// image is a link out of it, nothing outside is copied (before: a byte-identical copy of the secret).
    func testCoreAnimationExportNeverCopiesAnOutsideFile() throws {
        let export = try copy("animate-walker", as: "walker")
        XCTAssertEqual(try CLIRunner.run(["convert", "exports/walker", "-o", "doc/walker.json"], directory: work).status, 0)
        let assets = work.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: assets.appendingPathComponent("spritemap1.png").path,
                                                   withDestinationPath: secret.path)
        let run = try CLIRunner.run(["export", "doc/walker.json", "--assets", "assets", "--to", "core-animation",
                                     "-o", "ca/"], directory: work)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("at assets.images[0].path: the atlas image \"spritemap1.png\" leads outside "
                                          + "assets through a symbolic link"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("ca").path))
        // The same export from its own folder copies its own atlas: the check refuses only what leads out.
        let good = try CLIRunner.run(["export", "exports/walker", "--to", "core-animation", "-o", "ca/"], directory: work)
        XCTAssertEqual(good.status, 0, good.stderr)
        XCTAssertEqual(try Data(contentsOf: work.appendingPathComponent("ca/images/spritemap1.png")),
                       try Data(contentsOf: export.appendingPathComponent("spritemap1.png")))
    }

    /// What stays inside is still read: an absolute path is re-rooted inside the export (as before), a `..` that
    /// stays inside and a link to a file of the export resolve, and the document is the same as the plain export's.
    func testPathsThatStayInsideStillResolve() throws {
        let plain = try CLIRunner.run(["convert", root.appendingPathComponent("Samples/animate-walker").path])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        for (name, path) in [("absolute", "/spritemap1.png"), ("dotdot", "images/../spritemap1.png"),
                             ("linked", "alias.png")] {
            let folder = try copy("animate-walker", as: name)
            try edit(folder.appendingPathComponent("spritemap1.json")) {
                $0["meta"] = (($0["meta"] as? [String: Any]) ?? [:]).merging(["image": path]) { $1 }
            }
            if name == "linked" {
                try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("alias.png").path,
                                                           withDestinationPath: "spritemap1.png")
            }
            let render = try CLIRunner.run(["render", "exports/\(name)", "-o", "frames-\(name)", "--frames", "0"],
                                           directory: work)
            XCTAssertEqual(render.status, 0, "\(name): \(render.stderr)")
            let converted = try CLIRunner.run(["convert", "exports/\(name)"], directory: work)
            XCTAssertEqual(converted.status, 0, "\(name): \(converted.stderr)")
            guard name != "linked" else { continue }
            // The same document but for the image's id, the path as written (its path is the clean one).
            XCTAssertEqual(converted.stdout.replacingOccurrences(of: "\"" + path + "\"", with: "\"spritemap1.png\""),
                           plain.stdout, name)
        }
    }
}
