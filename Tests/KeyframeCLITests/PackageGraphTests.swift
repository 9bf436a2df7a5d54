import Foundation
import KeyframeTestSupport
import XCTest

/// The package's dependency graph as SwiftPM reads it (`swift package dump-package`): what an app on Apple platforms
/// links when it depends on the products it would use.
final class PackageGraphTests: XCTestCase {
    /// The targets an iOS or macOS app uses to read exports, play them and load Core Animation trees: none of them may
    /// reach libpng (`CLibPNG`, `CPNG16`) or anything else that needs pkg-config, directly or through another target.
    static let appTargets = ["KeyframeJSON", "KeyframeModel", "KeyframeImport", "KeyframeEngine", "KeyframeFiles",
                             "KeyframeCoreAnimation"]
    static let systemTargets: Set<String> = ["CLibPNG", "CPNG16", "CWebP"]

    func testAppFacingTargetsBuildWithoutLibPNG() throws {
        // A scratch folder of its own: the package's .build is locked while `swift test` runs this test.
        let scratch = try TestPaths.temporaryFolder("package-graph")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let dump = try CommandRun.run(["swift", "package", "--package-path", TestPaths.packageRoot.path,
                                       "--scratch-path", scratch.path, "dump-package"])
        XCTAssertEqual(dump.status, 0, dump.output)
        // The JSON starts at the first brace (SwiftPM may print progress lines before it).
        let json = try XCTUnwrap(dump.output.firstIndex(of: "{").map { String(dump.output[$0...]) })
        let package = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let targets = try XCTUnwrap(package["targets"] as? [[String: Any]])
        var dependencies: [String: [String]] = [:]
        for target in targets {
            let name = try XCTUnwrap(target["name"] as? String)
            dependencies[name] = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                // {"byName": ["X", null]} or {"target": ["X", null]}; products of other packages are not ours.
                ((dependency["byName"] ?? dependency["target"]) as? [Any])?.first as? String
            }
        }
        XCTAssertNotNil(dependencies["KeyframePNG"], "the graph was not read: \(dependencies.keys.sorted())")
        XCTAssertEqual(dependencies["KeyframePNG"].map { Set($0).isDisjoint(with: Self.systemTargets) }, false,
                       "KeyframePNG should reach libpng: the test would pass vacuously")
        for target in Self.appTargets {
            var seen: Set<String> = [], stack = [target], chain: [String: String] = [:]
            while let next = stack.popLast() {
                guard seen.insert(next).inserted else { continue }
                for dependency in dependencies[next] ?? [] where !seen.contains(dependency) {
                    chain[dependency] = chain[dependency] ?? next
                    stack.append(dependency)
                }
            }
            for system in Self.systemTargets where seen.contains(system) {
                var path = [system]
                while let parent = chain[path[0]] { path.insert(parent, at: 0) }
                XCTFail("\(target) reaches \(system): \(path.joined(separator: " → "))")
            }
        }
    }
}
