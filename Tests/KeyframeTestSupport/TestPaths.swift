import Foundation
import XCTest

/// Locations tests read from: the package root, the bundled samples, and the shared corpus beside the checkout.
public enum TestPaths {
    /// The package root (the folder holding Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// `../shared` beside the package, where CI puts the corpus and golden data.
    public static let shared: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// The folders of one corpus family (`animate_atlas`, `dragonbones`, `flump`), sorted; skips the test with a
    /// message when `../shared` is absent (a user's clone).
    public static func corpus(_ family: String) throws -> [URL] {
        let folder = shared.appendingPathComponent("corpus").appendingPathComponent(family)
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw XCTSkip("../shared/corpus/\(family) is absent (it exists beside the checkout in CI); corpus tests skipped")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return names.map { folder.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
    }

    /// A new empty temporary folder.
    public static func temporaryFolder(_ name: String = "keyframe-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Asserts two doubles agree within `tolerance`.
public func assertClose(_ actual: Double, _ expected: Double, tolerance: Double = 1e-9,
                        _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssert(abs(actual - expected) <= tolerance,
              "\(actual) is not within \(tolerance) of \(expected) \(message())", file: file, line: line)
}
