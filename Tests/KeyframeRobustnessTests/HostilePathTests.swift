import Foundation
import KeyframeFiles
import KeyframeImport
import KeyframeJSON
import KeyframeTestSupport
import XCTest

/// The three shared mechanisms hostile names and paths meet (issue 23): ``InputFolder`` (a path an input names stays
/// inside its folder), ``FileName`` (a name becomes a file name by one rule) and ``HTMLEscape`` (text and JSON in
/// the pages the tool writes).
final class HostilePathTests: XCTestCase {
    // MARK: InputFolder

    func testCleanPathsAndWhatIsRefusedWithoutAFileSystem() {
        let accepted: [(String, String)] = [
            ("a.png", "a.png"), ("./a.png", "a.png"), ("images//a.png", "images/a.png"), ("/a.png", "a.png"),
            ("//abs/x/a.png", "abs/x/a.png"), ("images/../a.png", "a.png"), ("a/b/../../c.png", "c.png"),
            ("..a.png", "..a.png"), ("a..png", "a..png"), ("...", "..."), ("a\\..\\..\\b.png", "a\\..\\..\\b.png"),
        ]
        for (written, clean) in accepted {
            XCTAssertEqual(try InputFolder.clean(written), clean, written)
        }
        let refused: [(String, InputPathError.Reason)] = [
            ("", .empty), ("a\u{0}.png", .nulCharacter), (".", .namesTheFolder), ("/", .namesTheFolder),
            ("a/..", .namesTheFolder), ("..", .climbsOutside), ("../a.png", .climbsOutside),
            ("a/../../b.png", .climbsOutside), ("/../a.png", .climbsOutside), ("./../a.png", .climbsOutside),
            ("images/../../../../etc/passwd", .climbsOutside),
        ]
        for (written, reason) in refused {
            XCTAssertThrowsError(try InputFolder.clean(written), written) { error in
                XCTAssertEqual((error as? InputPathError)?.reason, reason, written)
            }
        }
    }

    func testLinksAreFollowedAndMustStayInside() throws {
        let root = try TestPaths.temporaryFolder("input-folder")
        defer { try? FileManager.default.removeItem(at: root) }
        let export = root.appendingPathComponent("export")
        let outside = root.appendingPathComponent("outside")
        for folder in [export.appendingPathComponent("images"), outside] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        for file in [export.appendingPathComponent("a.png"), export.appendingPathComponent("images/b.png"),
                     outside.appendingPathComponent("secret.png")] {
            try Data("x".utf8).write(to: file)
        }
        func link(_ name: String, _ target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: export.appendingPathComponent(name).path,
                                                       withDestinationPath: target)
        }
        try link("inside.png", "images/b.png")
        try link("absolute-inside.png", export.appendingPathComponent("a.png").path)
        try link("up.png", "../outside/secret.png")
        try link("absolute-out.png", outside.appendingPathComponent("secret.png").path)
        try link("outdir", "../outside")
        try link("chain.png", "up.png")
        try link("dangling.png", "../outside/none.png")
        try link("images/back", "..")

        let folder = InputFolder(export.path)
        XCTAssertEqual(try folder.resolve("inside.png"), "inside.png")
        XCTAssertEqual(try folder.resolve("absolute-inside.png"), "absolute-inside.png")
        XCTAssertEqual(try folder.resolve("images/back/a.png"), "images/back/a.png")
        XCTAssertEqual(try folder.resolve("missing.png"), "missing.png", "a missing file is for the reader to report")
        XCTAssertEqual(try folder.resolve("dangling.png"), "dangling.png", "nothing is there to read")
        for written in ["up.png", "absolute-out.png", "outdir/secret.png", "chain.png", "images/back/up.png"] {
            XCTAssertThrowsError(try folder.resolve(written), written) { error in
                guard case .linksOutside(let real)? = (error as? InputPathError)?.reason else {
                    return XCTFail("\(written): \(error)")
                }
                XCTAssertTrue(real.hasSuffix("/outside/secret.png"), real)
            }
        }
        XCTAssertThrowsError(try folder.resolve("images/../../outside/secret.png"))

        // The folder given through a link is the folder it links to.
        let linked = root.appendingPathComponent("linked-export")
        try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: export.path)
        XCTAssertEqual(try InputFolder(linked.path).resolve("images/b.png"), "images/b.png")
        XCTAssertThrowsError(try InputFolder(linked.path).resolve("up.png"))

        // A sandbox of links (Bazel): every file links to the real export; the main file's real folder counts.
        let sandbox = root.appendingPathComponent("sandbox/export")
        try FileManager.default.createDirectory(at: sandbox.appendingPathComponent("images"), withIntermediateDirectories: true)
        for name in ["a.png", "images/b.png", "up.png"] {
            try FileManager.default.createSymbolicLink(atPath: sandbox.appendingPathComponent(name).path,
                                                       withDestinationPath: export.appendingPathComponent(name).path)
        }
        XCTAssertThrowsError(try InputFolder(sandbox.path).resolve("images/b.png"), "without its main file")
        let withMain = InputFolder(sandbox.path, mainFile: "a.png")
        XCTAssertEqual(try withMain.resolve("images/b.png"), "images/b.png")
        XCTAssertThrowsError(try withMain.resolve("up.png"), "a link out of the real export is still refused")
    }

    /// An export held in memory (the fuzzers' entry point) is checked the same way, without a file system.
    func testInMemoryExportsRefuseAPathAboveTheirFolder() throws {
        let sample = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker")
        var files: [String: [UInt8]] = [:]
        for name in ["Animation.json", "spritemap1.json", "spritemap1.png"] {
            files[name] = [UInt8](try Data(contentsOf: sample.appendingPathComponent(name)))
        }
        files["../secret.png"] = files["spritemap1.png"]
        var text = String(decoding: files["spritemap1.json"]!, as: UTF8.self)
        text = text.replacingOccurrences(of: "\"spritemap1.png\"", with: "\"../secret.png\"")
        files["spritemap1.json"] = Array(text.utf8)
        XCTAssertThrowsError(try Importer.importDocument(files: files)) { error in
            XCTAssertEqual("\(error)", "spritemap1.json: at meta.image: the atlas image \"../secret.png\" leads outside "
                           + "the export's folder (\"..\" climbs above it)")
        }
    }

    func testMessagesQuoteThePathAndNameTheFolder() {
        XCTAssertEqual(InputPathError(written: "../x.png", reason: .climbsOutside).message(folder: "the export's folder"),
                       "\"../x.png\" leads outside the export's folder (\"..\" climbs above it)")
        XCTAssertEqual(InputPathError(written: "a\nb\"c", reason: .linksOutside("/s")).message(folder: "assets"),
                       "\"a\\nb\\\"c\" leads outside assets through a symbolic link (to \"/s\")")
        XCTAssertEqual(InputFolder("out/x/").displayPath(of: "a.png"), "out/x/a.png")
        XCTAssertEqual(InputFolder("").location(of: "a.png"), "a.png")
        XCTAssertEqual(InputFolder("/abs", displayName: "").displayPath(of: "a.png"), "a.png")
    }

    // MARK: FileName

    func testNamesBecomeSafeFileNames() {
        let cases: [(String, String)] = [
            ("walk", "walk"), ("walk_left-2.v1", "walk_left-2.v1"), ("robot:hop", "robot_hop"),
            ("walk/left", "walk_left"), ("line1\nline2", "line1_line2"), ("a\u{0}b", "a_b"), ("tab\there", "tab_here"),
            ("../../etc/passwd", "clip.._.._etc_passwd"), ("..", "clip.."), (".", "clip."), ("", "clip"),
            (".hidden", "clip.hidden"), ("-rf", "clip-rf"), ("~user", "clip~user"), ("a~tint-0f", "a~tint-0f"),
            ("<!--<script>", "__--_script_"), ("a b", "a_b"), ("C:\\x", "C__x"), ("what?*|\"", "what____"),
            ("\u{202E}gnp.exe", "_gnp.exe"), ("FX_Boule_Electricité_1", "FX_Boule_Electricité_1"),
            ("e\u{301}", "e\u{301}"), ("歩く", "歩く"), ("Ünïcødé", "Ünïcødé"), ("😀", "_"),
            ("CON", "CON_"), ("nul.txt", "nul_.txt"), ("com1", "com1_"), ("LPT9.x", "LPT9_.x"), ("CONSOLE", "CONSOLE"),
        ]
        for (name, stem) in cases {
            XCTAssertEqual(FileName.stem(name), stem, name.debugDescription)
        }
        // Long names are cut between characters to the byte limit; a letter keeps its marks.
        XCTAssertEqual(FileName.stem(String(repeating: "a", count: 300)).utf8.count, FileName.maximumStemBytes)
        let accented = String(repeating: "e\u{301}", count: 100)  // 3 bytes each
        let cut = FileName.stem(accented)
        XCTAssertEqual(cut.utf8.count, 198)
        XCTAssertTrue(cut.unicodeScalars.last == "\u{301}", "cut inside a character")
        // Whatever the name, the stem is one path component that is not hidden.
        var generator = SeededGenerator(seed: 23)
        for _ in 0..<2000 {
            let length = Int.random(in: 0...12, using: &generator)
            let scalars = (0..<length).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0...0x2FFF, using: &generator)) }
            var name = ""
            name.unicodeScalars.append(contentsOf: scalars)
            let stem = FileName.stem(name)
            XCTAssertFalse(stem.isEmpty || stem.hasPrefix(".") || stem.contains("/") || stem.contains("\u{0}"),
                           name.debugDescription)
            XCTAssertFalse(stem.unicodeScalars.contains { $0.properties.generalCategory == .control }, name.debugDescription)
        }
    }

    // MARK: HTMLEscape

    func testJSONForAScriptBlockHasNoLessThanSignAndReadsBackTheSame() throws {
        var generator = SeededGenerator(seed: 5)
        let pieces = ["<", "</script>", "<!--", "-->", "\u{2028}", "\u{2029}", "a", "é", "\"", "\\", "/", "\n", "&"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }.joined()
            let value = JSONValue.object(["name": .string(text), "list": .array([.string(text), .number(1)])])
            let escaped = HTMLEscape.scriptJSON(JSONWriter.writeCompact(value))
            XCTAssertFalse(escaped.contains(UInt8(ascii: "<")), text.debugDescription)
            let decoded = String(decoding: escaped, as: UTF8.self)
            XCTAssertFalse(decoded.contains("\u{2028}") || decoded.contains("\u{2029}"), text.debugDescription)
            XCTAssertEqual(try JSONParser.parse(escaped), value, text.debugDescription)
        }
        XCTAssertEqual(HTMLEscape.text("<a href=\"x\">'&'</a>"),
                       "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }
}
