import Foundation
import KeyframeTestSupport
import XCTest

/// No output replaces a file the same command reads (trust trial, class 3): every command knows its inputs — the
/// export's files, its atlas images, a script and the documents it names — and refuses, before writing anything, an
/// output that is one of them, whatever path reaches it (as given, through a symbolic link, through a hard link).
final class OutputInputCLITests: XCTestCase {
    var work: URL!

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("output-input")
        for sample in ["animate-walker", "flump-hopbot"] {
            try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)"),
                                             to: work.appendingPathComponent(sample))
        }
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    func run(_ arguments: [String]) throws -> CLIRun {
        try CLIRunner.run(arguments, directory: work)
    }

    /// Every regular file under `folder` with its bytes, by relative path.
    func snapshot(_ folder: String) throws -> [String: Data] {
        let root = work.appendingPathComponent(folder)
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[String(url.path.dropFirst(root.path.count + 1))] = try Data(contentsOf: url)
            }
        }
        return files
    }

    /// Runs `arguments`, which must fail naming `output` as an input, and leave `folders` exactly as they were.
    func assertRefused(_ arguments: [String], output: String, keeps folders: [String],
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try folders.map(snapshot)
        let result = try run(arguments)
        let command = arguments.joined(separator: " ")
        XCTAssertEqual(result.status, 1, "\(command): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("keyframe: error: cannot write \(output): ")
                      || result.stderr.hasPrefix("keyframe: error: cannot write ")
                      && result.stderr.contains("/\(output): "), "\(command): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.contains("which this command reads"), "\(command): \(result.stderr)",
                      file: file, line: line)
        for (folder, files) in zip(folders, before) {
            XCTAssertEqual(try snapshot(folder), files, "\(command) changed \(folder)", file: file, line: line)
        }
    }

    /// The three outputs of the trial and their siblings: each names an input of its own command. Before: each
    /// replaced the input, exit 0.
    func testAnOutputThatIsAnInputIsRefusedBeforeAnythingIsWritten() throws {
        let commands: [(arguments: [String], output: String)] = [
            (["render", "animate-walker", "-o", "frames", "--contact-sheet", "animate-walker/spritemap1.png"],
             "animate-walker/spritemap1.png"),
            (["render", "animate-walker", "-o", "frames", "--animated", "animate-walker/spritemap1.png", "--clip",
              "walk"], "animate-walker/spritemap1.png"),
            (["render", "animate-walker", "--preview-sheet", "animate-walker/spritemap1.png"],
             "animate-walker/spritemap1.png"),
            (["convert", "animate-walker", "-o", "animate-walker/Animation.json"], "animate-walker/Animation.json"),
            (["convert", "animate-walker", "-o", "animate-walker/spritemap1.json"], "animate-walker/spritemap1.json"),
            (["export", "flump-hopbot", "--to", "lottie", "--clip", "robot:hop", "-o", "flump-hopbot/library.json"],
             "flump-hopbot/library.json"),
            (["export", "flump-hopbot", "--to", "core-animation", "--clip", "robot:hop", "-o", "flump-hopbot/library.json"],
             "flump-hopbot/library.json"),
            (["preview", "animate-walker", "-o", "animate-walker/Animation.json"], "animate-walker/Animation.json"),
            (["verify", "animate-walker", "--golden", "golden", "--html", "animate-walker/spritemap1.json"],
             "animate-walker/spritemap1.json"),
            (["diff", "animate-walker", "flump-hopbot", "--html", "flump-hopbot/atlas0.png"],
             "flump-hopbot/atlas0.png"),
        ]
        for command in commands {
            try assertRefused(command.arguments, output: command.output, keeps: ["animate-walker", "flump-hopbot"])
            XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("frames").path),
                           "\(command.arguments.joined(separator: " ")) wrote frames before refusing")
        }
    }

    /// The same input reached by another path — a symbolic link, a hard link, `dir/../` — is the same input.
    func testAnInputReachedThroughALinkIsStillAnInput() throws {
        let links = work.appendingPathComponent("links")
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: links.appendingPathComponent("soft.json").path,
                                                   withDestinationPath: "../animate-walker/Animation.json")
        try FileManager.default.linkItem(at: work.appendingPathComponent("animate-walker/spritemap1.json"),
                                         to: links.appendingPathComponent("hard.json"))
        try assertRefused(["convert", "animate-walker", "-o", "links/soft.json"], output: "links/soft.json",
                          keeps: ["animate-walker"])
        try assertRefused(["convert", "animate-walker", "-o", "links/hard.json"], output: "links/hard.json",
                          keeps: ["animate-walker"])
        try assertRefused(["convert", "animate-walker/Animation.json", "-o", "links/../animate-walker/spritemap1.png"],
                          output: "links/../animate-walker/spritemap1.png", keeps: ["animate-walker"])
        // A normalized document is its own input.
        XCTAssertEqual(try run(["convert", "animate-walker", "-o", "doc.json"]).status, 0)
        try assertRefused(["convert", "doc.json", "--compact", "-o", "doc.json"], output: "doc.json", keeps: [])
    }

    /// A file the command cannot name in advance — a frame whose name is an atlas image's — is refused before the
    /// first frame is written. Before: the image was overwritten by the frame.
    func testAFrameNamedLikeAnAtlasImageIsRefusedBeforeTheFirstFrame() throws {
        XCTAssertEqual(try run(["convert", "animate-walker", "-o", "doc/doc.json"]).status, 0)
        try FileManager.default.copyItem(at: work.appendingPathComponent("animate-walker/spritemap1.png"),
                                         to: work.appendingPathComponent("doc/walk-0002.png"))
        let url = work.appendingPathComponent("doc/doc.json")
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var assets = try XCTUnwrap(object["assets"] as? [String: Any])
        var images = try XCTUnwrap(assets["images"] as? [[String: Any]])
        images[0]["path"] = "walk-0002.png"
        assets["images"] = images
        object["assets"] = assets
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        let clips = try XCTUnwrap(object["clips"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        XCTAssertTrue(clips.contains("walk"), "\(clips)")
        try assertRefused(["render", "doc/doc.json", "--clip", "walk", "-o", "doc"], output: "doc/walk-0002.png",
                          keeps: ["doc"])
        // Elsewhere the same render is an ordinary render.
        XCTAssertEqual(try run(["render", "doc/doc.json", "--clip", "walk", "-o", "frames"]).status, 0)
        // `--clean` removes older frames of the clip, never an input named like one: the image as `walk-0099.png`,
        // beyond the clip's frames, in the output folder.
        let image = work.appendingPathComponent("doc/walk-0099.png")
        try FileManager.default.moveItem(at: work.appendingPathComponent("doc/walk-0002.png"), to: image)
        images[0]["path"] = "walk-0099.png"
        assets["images"] = images
        object["assets"] = assets
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        let before = try Data(contentsOf: image)
        let clean = try run(["render", "doc/doc.json", "--clip", "walk", "--frames", "0", "-o", "doc", "--clean"])
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertEqual(try Data(contentsOf: image), before, "--clean removed an input")
    }
}
