import Foundation
import KeyframeTestSupport
import XCTest

/// The manifest docs/asset-pipelines.md tells users to write is the one `PluginFixtureTests` builds (trust trial,
/// class 10): its dependency and plugin lines are the fixture's, and neither depends on the checkout's folder being
/// called `keyframe`. Before: the documented `.package(path: "../keyframe")` with `package: "Keyframe"` failed
/// (`product 'KeyframeAssets' … not found`) in any checkout named otherwise, while the fixture used another form.
final class DocumentedManifestTests: XCTestCase {
    /// The lines of `text` with `.package(` or `.plugin(` in them, code only, the path argument written as `PATH`.
    func manifestLines(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            var code = line.trimmingCharacters(in: .whitespaces)
            guard !code.hasPrefix("//"), code.contains(".package(") || code.contains(".plugin(") else { return nil }
            if let comment = code.range(of: "  //") { code = String(code[..<comment.lowerBound]) }
            return code.replacingOccurrences(of: #"path: "[^"]*""#, with: #"path: PATH"#, options: .regularExpression)
                .replacingOccurrences(of: "dependencies: [", with: "").replacingOccurrences(of: "],", with: "")
                .trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: ","))
        }
    }

    func testTheDocumentedManifestIsTheFixturesAndNamesThePackage() throws {
        let docs = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/asset-pipelines.md"),
                              encoding: .utf8)
        let start = try XCTUnwrap(docs.range(of: "// Package.swift of the app"))
        let end = try XCTUnwrap(docs.range(of: "```", range: start.upperBound..<docs.endIndex))
        let documented = manifestLines(String(docs[start.upperBound..<end.lowerBound]))
        let fixture = manifestLines(try String(contentsOf: TestPaths.packageRoot
            .appendingPathComponent("Tests/Fixtures/PluginApp/Package.swift"), encoding: .utf8))
        XCTAssertEqual(documented, fixture, "docs/asset-pipelines.md and Tests/Fixtures/PluginApp/Package.swift")
        // A path dependency is named, so `package: "Keyframe"` does not depend on the folder's name.
        XCTAssertTrue(documented.contains(#".package(name: "Keyframe", path: PATH)"#), "\(documented)")
        XCTAssertTrue(documented.contains(#"plugins: [.plugin(name: "KeyframeAssets", package: "Keyframe")])"#),
                      "\(documented)")
    }
}
