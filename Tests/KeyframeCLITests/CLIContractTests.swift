import Foundation
import KeyframeTestSupport
import XCTest

/// The CLI's contract as an asset pipeline relies on it (issue 11): failed writes are errors, outputs never replace
/// what is not ours, every output is checked before the first frame, subsets of frames equal the full render, and
/// every error has one prefix, the right exit code, plain words and the path as the user gave it.
final class CLIContractTests: XCTestCase {
    func run(_ arguments: [String], standardOutput: FileHandle? = nil, directory: URL? = nil) throws -> CLIRun {
        try CLIRunner.run(arguments, standardOutput: standardOutput, directory: directory)
    }

    var walker: String { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path }
    var spinner: String { TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner").path }
    var script: String { TestPaths.packageRoot.appendingPathComponent("Samples/scripts/walker-interaction.json").path }

    func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    func fileType(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    /// Runs a system tool (mkfifo, mknod); returns whether it succeeded.
    func tool(_ path: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// A normalized copy of the walker whose two clips are renamed, for file-name collisions.
    func walkerWithClips(named names: [String], in folder: URL) throws -> String {
        let json = folder.appendingPathComponent("renamed.json")
        XCTAssertEqual(try run(["convert", walker, "-o", json.path]).status, 0)
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        var clips = try XCTUnwrap(object["clips"] as? [[String: Any]])
        for index in clips.indices where index < names.count { clips[index]["name"] = names[index] }
        object["clips"] = clips
        try JSONSerialization.data(withJSONObject: object).write(to: json)
        return json.path
    }

    // MARK: 1. Standard output and standard error

    /// Every command, help and version included, exits 1 with a message when standard output cannot be written
    /// (before: a trap with exit 132 for convert, inspect --json and play; exit 0 with the output lost otherwise).
    func testAFailedWriteToStandardOutputIsAnErrorForEveryCommand() throws {
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { throw XCTSkip("no /dev/full") }
        let out = try TestPaths.temporaryFolder("contract-stdout")
        let commands: [[String]] = [
            ["convert", walker],
            ["convert", walker, "-o", out.appendingPathComponent("w.json").path, "--json"],
            ["inspect", walker],
            ["inspect", walker, "--json"],
            ["play", script],
            ["play", script, "--json"],
            ["render", walker, "-o", out.path, "--frames", "0"],
            ["render", walker, "-o", out.path, "--frames", "0", "--json"],
            ["render", walker, "--script", script, "-o", out.appendingPathComponent("script").path],
            ["diff", walker, walker],
            ["--help"],
            ["--version"],
            ["render", "--help"],
        ]
        for command in commands {
            let result = try run(command, standardOutput: full)
            XCTAssertEqual(result.status, 1, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("keyframe: error: cannot write to standard output: "),
                          "\(command): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Fatal error") || result.stderr.contains("crashed"), result.stderr)
        }
    }

    // MARK: 2. -o never replaces what is not a regular file

    func testOutputsAreWrittenThroughSymlinksAndSpecialFilesAreRefusedUntouched() throws {
        let folder = try TestPaths.temporaryFolder("contract-o")
        let target = folder.appendingPathComponent("real.json")
        let link = folder.appendingPathComponent("link.json")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.json")
        let converted = try run(["convert", walker, "-o", link.path])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertEqual(fileType(link.path), .typeSymbolicLink)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "real.json",
                       "the link is still a link to the same file")
        XCTAssertTrue(try String(contentsOf: target, encoding: .utf8).contains("\"format\""), "written through the link")

        let fifo = folder.appendingPathComponent("fifo.json").path
        XCTAssertTrue(tool("/usr/bin/mkfifo", [fifo]))
        let special = folder.appendingPathComponent("special")
        let cases: [(path: String, reason: String)] = [
            (fifo, "not a regular file"),
            (folder.path, "it is a directory"),
        ]
        var all = cases
        // A device node (as root, where mknod is allowed): the case that replaced /dev/full with a file.
        let device = special.path + "-full"
        try FileManager.default.createDirectory(at: special, withIntermediateDirectories: true)
        if tool("/usr/bin/mknod", [device, "c", "1", "7"]) || tool("/bin/mknod", [device, "c", "1", "7"]) {
            all.append((device, "not a regular file"))
        }
        for (path, reason) in all {
            let before = fileType(path)
            for command in [["convert", walker, "-o", path],
                            ["render", walker, "-o", folder.appendingPathComponent("frames").path, "--frames", "0",
                             "--contact-sheet", path]] {
                let result = try run(command)
                XCTAssertEqual(result.status, 1, "\(command)")
                XCTAssertTrue(result.stderr.hasPrefix("keyframe: error: cannot write \(path): "), result.stderr)
                XCTAssertTrue(result.stderr.contains(reason), result.stderr)
                XCTAssertEqual(fileType(path), before, "\(path) was replaced")
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("frames/walk-0000.png").path),
                       "a refused contact sheet stops the render before the first frame")
    }

    // MARK: 3. Output-name collisions

    func testClipsWhoseFramesWouldShareFileNamesFailBeforeRendering() throws {
        let folder = try TestPaths.temporaryFolder("contract-collision")
        for names in [["walk/left", "walk_left"], ["Walk", "walk"]] {
            let document = try walkerWithClips(named: names, in: folder)
            let out = folder.appendingPathComponent("frames-\(names[1])")
            let result = try run(["render", document, "--assets", walker, "-o", out.path])
            XCTAssertEqual(result.status, 1, result.stdout)
            XCTAssertTrue(result.stderr.contains("\"\(names[0])\" and \"\(names[1])\" would both be written as"),
                          result.stderr)
            XCTAssertEqual((try? files(in: out))?.filter { $0.hasSuffix(".png") } ?? [], [], "nothing was rendered")
            // One of them at a time is fine.
            let one = try run(["render", document, "--assets", walker, "-o", out.path, "--clip", names[0], "--frames", "0"])
            XCTAssertEqual(one.status, 0, one.stderr)
        }
        // The contact sheet cannot be one of the frames either.
        let out = folder.appendingPathComponent("sheet-clash")
        let clash = try run(["render", walker, "-o", out.path, "--clip", "walk", "--frames", "0",
                             "--contact-sheet", out.appendingPathComponent("walk-0000.png").path])
        XCTAssertEqual(clash.status, 1)
        XCTAssertTrue(clash.stderr.contains("is also the name of a frame"), clash.stderr)
    }

    // MARK: 4. Every output location is checked before the first frame

    func testUnwritableOutputsAreFoundBeforeTheFirstFrameAndNamed() throws {
        let folder = try TestPaths.temporaryFolder("contract-late")
        let blocker = folder.appendingPathComponent("file.txt")
        try Data("x".utf8).write(to: blocker)
        let frames = folder.appendingPathComponent("frames")
        let sheet = blocker.appendingPathComponent("sheet.png").path
        let result = try run(["render", walker, "-o", frames.path, "--contact-sheet", sheet])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "keyframe: error: cannot write \(sheet): \(blocker.path) is a file, not a folder\n")
        XCTAssertEqual(try files(in: frames), [], "no frame was written before the failure")

        // The frames folder is a file.
        let notFolder = try run(["render", walker, "-o", blocker.path])
        XCTAssertEqual(notFolder.status, 1)
        XCTAssertEqual(notFolder.stderr, "keyframe: error: cannot write \(blocker.path): it is a file, not a folder\n")

        // A frame's name is taken by a folder: found before frame 0 is drawn.
        let taken = folder.appendingPathComponent("taken")
        try FileManager.default.createDirectory(at: taken.appendingPathComponent("walk-0005.png"),
                                                withIntermediateDirectories: true)
        let clash = try run(["render", walker, "-o", taken.path, "--clip", "walk"])
        XCTAssertEqual(clash.status, 1)
        XCTAssertTrue(clash.stderr.contains("walk-0005.png: it is a directory"), clash.stderr)
        XCTAssertEqual(try files(in: taken), ["walk-0005.png"])
    }

    // MARK: 5. --at beyond the clip agrees with --frames

    func testTimesBeyondTheClipFailLikeFramesBeyondIt() throws {
        let out = try TestPaths.temporaryFolder("contract-at")
        let at = try run(["render", walker, "--clip", "walk", "--at", "5", "-o", out.path])
        XCTAssertEqual(at.status, 1)
        XCTAssertTrue(at.stderr.contains("--at 5 is after the end of clip \"walk\"") && at.stderr.contains("0..23"),
                      at.stderr)
        let end = try run(["render", walker, "--clip", "walk", "--at", "1", "-o", out.path])
        XCTAssertEqual(end.status, 1, "frame 24 does not exist: --frames 24 fails too")
        XCTAssertEqual(try run(["render", walker, "--clip", "walk", "--frames", "24", "-o", out.path]).status, 1)
        XCTAssertEqual(try files(in: out), [])
        let last = try run(["render", walker, "--clip", "walk", "--at", "0.99", "-o", out.path])
        XCTAssertEqual(last.status, 0, last.stderr)
        XCTAssertEqual(try files(in: out), ["walk-0023.png"])
        // Several clips: each renders the times it has; a time past every clip fails.
        let hopbot = TestPaths.packageRoot.appendingPathComponent("Samples/flump-hopbot").path
        let several = try run(["render", hopbot, "--at", "0.5", "1.5", "-o", out.appendingPathComponent("hop").path])
        XCTAssertEqual(several.status, 0, several.stderr)
        let none = try run(["render", hopbot, "--at", "30", "-o", out.appendingPathComponent("none").path])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("after the end of every clip"), none.stderr)
    }

    // MARK: 6. Any subset of frames equals the same frames of the full render

    /// Property: for random frame ranges and random sets of frame times, with content framing, every written frame
    /// is byte-identical to the same frame of a full render (before: frame 7 was 46×138 alone, 54×138 in full).
    func testAnySubsetOfFramesIsByteIdenticalToTheFullRender() throws {
        let root = try TestPaths.temporaryFolder("contract-subsets")
        var generator = SeededGenerator(seed: 11)
        for (input, clip, fps) in [(walker, "walk", 24), (walker, "wave", 30), (spinner, "spinner", 24)] {
            let full = root.appendingPathComponent("full-\(clip)-\(fps)")
            let all = try run(["render", input, "--clip", clip, "--fit", "content", "--fps", "\(fps)", "-o", full.path])
            XCTAssertEqual(all.status, 0, all.stderr)
            let count = try files(in: full).count
            XCTAssertGreaterThan(count, 10)
            for trial in 0..<4 {
                let out = root.appendingPathComponent("subset-\(clip)-\(fps)-\(trial)")
                var arguments = ["render", input, "--clip", clip, "--fit", "content", "--fps", "\(fps)", "-o", out.path]
                if trial % 2 == 0 {
                    let a = Int.random(in: 0..<count, using: &generator)
                    let b = Int.random(in: a..<min(count, a + 4), using: &generator)
                    arguments += ["--frames", "\(a)..\(b)"]
                } else {
                    let numbers = Set((0..<3).map { _ in Int.random(in: 0..<count, using: &generator) })
                    arguments += ["--at"] + numbers.sorted().map { "\(Double($0) / Double(fps))" }
                }
                let result = try run(arguments)
                XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
                let written = try files(in: out)
                XCTAssertFalse(written.isEmpty)
                for name in written {
                    let subset = try Data(contentsOf: out.appendingPathComponent(name))
                    let whole = try Data(contentsOf: full.appendingPathComponent(name))
                    XCTAssertEqual(subset, whole, "\(name) of \(arguments) differs from the full render")
                }
            }
        }
    }

    // MARK: 7. Output is bounded

    func testOutputFrameCountsAndSizeAreBounded() throws {
        let folder = try TestPaths.temporaryFolder("contract-bounds")
        let fast = try run(["render", walker, "--fps", "100000", "-o", folder.path])
        XCTAssertEqual(fast.status, 2)
        XCTAssertTrue(fast.stderr.hasPrefix("keyframe: error: --fps 100000: ") && fast.stderr.contains("at most 1000"), fast.stderr)
        // Two clips of 60 s each at 1000 fps: 120,000 frames in one run.
        let slow = folder.appendingPathComponent("slow.json")
        XCTAssertEqual(try run(["convert", walker, "-o", slow.path]).status, 0)
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: slow)) as? [String: Any])
        object["frameRate"] = 0.4
        try JSONSerialization.data(withJSONObject: object).write(to: slow)
        let many = try run(["render", slow.path, "--assets", walker, "--clip", "walk", "--clip", "wave",
                            "--fps", "1000", "--size", "8x8",
                            "-o", folder.appendingPathComponent("many").path])
        XCTAssertEqual(many.status, 1)
        XCTAssertTrue(many.stderr.contains("would write 120000 frames, more than the 100000"), many.stderr)
        // 2,000 frames of 16384×16384: 2 TiB of pixels.
        let huge = try run(["render", walker, "--fps", "1000", "--size", "16384x16384",
                            "-o", folder.appendingPathComponent("huge").path])
        XCTAssertEqual(huge.status, 1)
        XCTAssertTrue(huge.stderr.contains("GiB of pixels, more than the 64 GiB"), huge.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("huge/walk-0000.png").path))
    }

    // MARK: 8. Stale frames and --clean

    func testRerenderingAtALowerRateNotesStaleFramesAndCleanRemovesOnlyThem() throws {
        let out = try TestPaths.temporaryFolder("contract-clean")
        XCTAssertEqual(try run(["render", walker, "-o", out.path, "--clip", "walk"]).status, 0)
        let others = ["notes.txt", "walk-final.png", "wave-0030.png", "walk-12.png", "walker-0030.png"]
        for name in others { try Data("keep".utf8).write(to: out.appendingPathComponent(name)) }
        let lower = try run(["render", walker, "-o", out.path, "--clip", "walk", "--fps", "12"])
        XCTAssertEqual(lower.status, 0, lower.stderr)
        XCTAssertTrue(lower.stdout.contains("walk: note: 12 older frame(s) of this clip remain"), lower.stdout)
        XCTAssertEqual(try files(in: out).filter { $0.hasPrefix("walk-0") }.count, 24)
        let cleaned = try run(["render", walker, "-o", out.path, "--clip", "walk", "--fps", "12", "--clean"])
        XCTAssertEqual(cleaned.status, 0, cleaned.stderr)
        XCTAssertTrue(cleaned.stdout.contains("walk: removed 12 older frame(s)"), cleaned.stdout)
        let remaining = try files(in: out)
        XCTAssertEqual(remaining.filter { $0.hasPrefix("walk-0") }, (0..<12).map { String(format: "walk-%04d.png", $0) })
        for name in others { XCTAssertTrue(remaining.contains(name), "\(name) was removed") }
        let again = try run(["render", walker, "-o", out.path, "--clip", "walk", "--fps", "12"])
        XCTAssertFalse(again.stdout.contains("note:"), again.stdout)
    }

    // MARK: 9 and 10. One prefix, exit 2 for bad values, negative numbers as values

    func testUsageErrorsShareThePrefixAndExitTwo() throws {
        let cases: [[String]] = [
            ["render", walker, "--size", "20000x10"],
            ["render", walker, "--size", "12"],
            ["render", walker, "--fps", "0"],
            ["render", walker, "--background", "red"],
            ["render", walker, "--jobs", "0"],
            ["render", walker, "--frames", "5..2"],
            ["render", walker, "--script", script, "--clip", "walk"],
            ["render", walker, "--bogus"],
            ["render", walker, "--fps"],
            ["convert", walker, "--json"],
            ["frobnicate"],
        ]
        for arguments in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("keyframe: error: "), "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Error: "), result.stderr)
        }
        let input = try run(["convert", "/nonexistent/export"])
        XCTAssertEqual(input.status, 1)
        XCTAssertTrue(input.stderr.hasPrefix("keyframe: error: /nonexistent/export: "), input.stderr)
    }

    func testNegativeNumbersAreReadAsTheOptionsValues() throws {
        let cases: [(arguments: [String], message: String)] = [
            (["render", walker, "--at", "-1"], "--at -1: must be a number of seconds from 0 to 1000000"),
            (["render", walker, "--at", "0", "-0.5"], "--at -0.5: must be a number of seconds from 0 to 1000000"),
            (["render", walker, "--frames", "-1..2"], "--frames -1..2: expected A..B"),
            (["render", walker, "--fps", "-24"], "--fps -24: must be"),
            (["render", walker, "--scale-factor", "-1"], "--scale-factor -1: must be a number above 0 and at most 1000"),
            (["convert", walker, "--scale-factor", "inf"], "--scale-factor inf: must be a number above 0 and at most 1000"),
            (["play", script, "--until", "-1"], "--until -1: must be a number of seconds from 0 to 1000000"),
        ]
        for (arguments, message) in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix("keyframe: error: \(message)"), "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Missing value"), result.stderr)
        }
    }

    /// One-character paths, relative to the working folder: `-o a` and an input file `a` (Foundation's
    /// `deletingLastPathComponent` traps on such a name, so no command may take paths apart with it).
    func testOneCharacterPathsAreOrdinaryPaths() throws {
        let folder = try TestPaths.temporaryFolder("contract-short")
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = try run(["export", spinner, "--to", "lottie", "-o", "a"], directory: folder)
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertEqual(try run(["export", spinner, "--to", "lottie", "-o", "b/"], directory: folder).status, 0)
        XCTAssertEqual(try files(in: folder), ["a", "b"])
        XCTAssertEqual(try run(["convert", spinner, "-o", "c"], directory: folder).status, 0)
        let convert = try run(["convert", "c"], directory: folder)
        XCTAssertEqual(convert.status, 0, convert.stderr)
        XCTAssertTrue(convert.stdout.hasPrefix("{"), convert.stdout)
    }

    // MARK: 11. Plain words, with the path

    func testFileErrorsNameThePathInPlainWords() throws {
        let folder = try TestPaths.temporaryFolder("contract-words")
        let file = folder.appendingPathComponent("file.json")
        try Data("{}".utf8).write(to: file)
        let nested = file.appendingPathComponent("sub/x.json").path
        let cases: [(arguments: [String], expected: String)] = [
            (["convert", walker, "-o", nested], "cannot write \(nested): \(file.path) is a file, not a folder"),
            (["convert", walker, "-o", "/proc/x.json"], "cannot write /proc/x.json: cannot create files in /proc: "),
            (["play", folder.path], "\(folder.path): cannot read the script: it is a folder, not a file"),
            (["render", walker, "--script", folder.appendingPathComponent("missing.json").path, "-o", folder.path],
             "cannot read the script: No such file or directory"),
        ]
        for (arguments, expected) in cases {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix("keyframe: error: "), result.stderr)
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            for foundation in ["NSCocoaErrorDomain", "Error Domain", "error 512", "Code="] {
                XCTAssertFalse(result.stderr.contains(foundation), result.stderr)
            }
        }
    }

    // MARK: 12. Errors inside a folder name the path as given

    func testErrorsInsideAnExportNameThePathAsTheUserGaveIt() throws {
        let root = try TestPaths.temporaryFolder("contract-paths")
        let export = root.appendingPathComponent("broken-walker")
        try FileManager.default.createDirectory(at: export, withIntermediateDirectories: true)
        for name in ["Animation.json", "spritemap1.json", "spritemap1.png"] {
            try FileManager.default.copyItem(at: URL(fileURLWithPath: walker).appendingPathComponent(name),
                                             to: export.appendingPathComponent(name))
        }
        var text = try String(contentsOf: export.appendingPathComponent("Animation.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"DU\":24", with: "\"DU\":24,,")
        try text.write(to: export.appendingPathComponent("Animation.json"), atomically: true, encoding: .utf8)
        for (given, shown) in [("broken-walker", "broken-walker/Animation.json:"),
                               ("broken-walker/", "broken-walker/Animation.json:"),
                               ("broken-walker/Animation.json", "broken-walker/Animation.json:"),
                               ("./broken-walker", "./broken-walker/Animation.json:")] {
            for command in ["convert", "inspect", "render"] {
                let result = try run([command, given, "-o", "out"].prefix(command == "inspect" ? 2 : 4).map { $0 },
                                     directory: root)
                XCTAssertEqual(result.status, 1)
                XCTAssertTrue(result.stderr.hasPrefix("keyframe: error: \(shown)3:"), "\(command) \(given): \(result.stderr)")
            }
        }
        let absolute = try run(["convert", export.path])
        XCTAssertTrue(absolute.stderr.hasPrefix("keyframe: error: \(export.path)/Animation.json:3:"), absolute.stderr)
    }

    // MARK: What users expect besides

    func testCompactConversionHasTheSameContentWithoutWhitespace() throws {
        let pretty = try run(["convert", walker])
        let compact = try run(["convert", walker, "--compact"])
        XCTAssertEqual(compact.status, 0, compact.stderr)
        XCTAssertFalse(compact.stdout.contains("\n  "))
        XCTAssertLessThan(compact.stdout.utf8.count * 10, pretty.stdout.utf8.count * 8, "at least 20 % smaller")
        let a = try JSONSerialization.jsonObject(with: Data(pretty.stdout.utf8)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: Data(compact.stdout.utf8)) as? NSDictionary
        XCTAssertEqual(a, b)
        XCTAssertEqual(try run(["convert", walker, "--compact"]).stdout, compact.stdout, "deterministic")
    }

    func testJSONReportsDescribeWhatWasWritten() throws {
        let folder = try TestPaths.temporaryFolder("contract-json")
        let output = folder.appendingPathComponent("walker.json")
        let converted = try run(["convert", walker, "-o", output.path, "--json"])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(converted.stdout.utf8)) as? [String: Any])
        let written = try XCTUnwrap(report["output"] as? [String: Any])
        XCTAssertEqual(written["path"] as? String, output.path)
        XCTAssertEqual(written["bytes"] as? Int, try Data(contentsOf: output).count)
        XCTAssertEqual((report["clips"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["walk", "wave", "walker"])
        XCTAssertNotNil(report["diagnostics"] as? [Any])

        let frames = folder.appendingPathComponent("frames")
        let sheet = folder.appendingPathComponent("sheet.png")
        let rendered = try run(["render", walker, "-o", frames.path, "--frames", "2..4", "--json",
                                "--contact-sheet", sheet.path])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        let render = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(rendered.stdout.utf8)) as? [String: Any])
        let clips = try XCTUnwrap(render["clips"] as? [[String: Any]])
        XCTAssertEqual(clips.compactMap { $0["name"] as? String }, ["walk", "wave", "walker"])
        for clip in clips {
            let entries = try XCTUnwrap(clip["files"] as? [[String: Any]])
            XCTAssertEqual(entries.compactMap { $0["frame"] as? Int }, [2, 3, 4])
            for entry in entries {
                let path = try XCTUnwrap(entry["path"] as? String)
                XCTAssertEqual(entry["bytes"] as? Int, try Data(contentsOf: URL(fileURLWithPath: path)).count)
            }
            let first = try Data(contentsOf: URL(fileURLWithPath: try XCTUnwrap(entries.first?["path"] as? String)))
            XCTAssertEqual(clip["width"] as? Int, first[16..<20].reduce(0) { $0 << 8 | Int($1) }, "the PNG's width")
        }
        XCTAssertEqual((render["contactSheet"] as? [String: Any])?["bytes"] as? Int, try Data(contentsOf: sheet).count)
    }

    /// An export without its atlas images converts (sizes from the atlas JSON, with a warning) since the JSON does
    /// not need the pixels; rendering it still fails, naming the image.
    func testConversionWithoutAtlasImagesWarnsAndOnlyRenderingNeedsThem() throws {
        let root = try TestPaths.temporaryFolder("contract-no-images")
        for (sample, files) in [("animate-walker", ["Animation.json", "spritemap1.json"]),
                                ("dragonbones-waver", ["waver_ske.json", "waver_tex.json"])] {
            let source = TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)")
            let bare = root.appendingPathComponent(sample)
            try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
            for name in files {
                try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: bare.appendingPathComponent(name))
            }
            let converted = try run(["convert", bare.path])
            XCTAssertEqual(converted.status, 0, converted.stderr)
            XCTAssertTrue(converted.stderr.hasPrefix("keyframe: warning: [atlas-image-missing]"), converted.stderr)
            XCTAssertTrue(converted.stderr.contains("(\(bare.path)/\(files[1])"), "the warning names the export: \(converted.stderr)")
            let full = try run(["convert", source.path])
            func object(_ text: String) throws -> [String: Any] {
                try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            }
            let (a, b) = (try object(converted.stdout), try object(full.stdout))
            for key in ["assets", "clips", "compositions", "frameRate"] {
                XCTAssertEqual(a[key] as? NSObject, b[key] as? NSObject, "\(sample): \(key) differs without the images")
            }
            XCTAssertEqual(try run(["convert", bare.path, "--strict"]).status, 1, "a warning fails --strict")
            let render = try run(["render", bare.path, "-o", root.appendingPathComponent("frames").path])
            XCTAssertEqual(render.status, 1)
            XCTAssertTrue(render.stderr.contains("not found"), render.stderr)
        }
    }

    /// The documented completion scripts exist and complete files for INPUT, -o, --script and --assets.
    func testCompletionScriptsCompleteFiles() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try run(["--generate-completion-script", shell])
            XCTAssertEqual(result.status, 0, result.stderr)
            for option in ["--contact-sheet", "--script", "--assets", "--clean"] {
                XCTAssertTrue(result.stdout.contains(String(option.dropFirst(2))), "\(shell) completion lacks \(option)")
            }
        }
        let bash = try run(["--generate-completion-script", "bash"]).stdout
        XCTAssertTrue(bash.contains("-fX '!*.@(json)'"), "--script and convert -o complete JSON files")
        XCTAssertTrue(bash.contains("'--assets')\n        __keyframe_add_completions -d"), "--assets completes folders")
    }

    /// On a terminal the progress bar counts frames over every clip of the run and ends with the time taken.
    /// (`script` gives the run a pseudo-terminal; skipped where util-linux's `script` is missing.)
    func testProgressBarCountsTheWholeRunOnATerminal() throws {
        let tool = "/usr/bin/script"
        guard FileManager.default.isExecutableFile(atPath: tool) else { throw XCTSkip("no \(tool)") }
        let out = try TestPaths.temporaryFolder("contract-progress")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-qec", "\(CLIRunner.binary.path) render \(walker) --clip walk --clip wave -o \(out.path)", "/dev/null"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        let draws = text.components(separatedBy: "\r").filter { $0.contains(" frames") }
        XCTAssertTrue(draws.contains { $0.hasPrefix("walk ") && $0.contains("/48 frames") && $0.contains(" left") }, text)
        XCTAssertTrue(draws.contains { $0.hasPrefix("wave 24/24 [") && $0.contains("] 48/48 frames, 0:") }, text)
    }
}
