import Foundation
import XCTest

/// Broken copies of the bundled samples, for tests of how problems are reported, and where in a file text sits.
public enum SampleEdit {
    /// Copies the sample `name` to `folder` (its parent created when missing) and, when `file` is given, replaces the
    /// first `find` in it with `replace`; returns the edited text ("" without `file`).
    @discardableResult
    public static func copy(_ name: String, to folder: URL, file: String? = nil, _ find: String = "",
                            _ replace: String = "") throws -> String {
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("Samples/\(name)"), to: folder)
        guard let file else { return "" }
        let url = folder.appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let range = try XCTUnwrap(text.range(of: find), "\(find) in \(file)")
        let edited = text.replacingCharacters(in: range, with: replace)
        try Data(edited.utf8).write(to: url)
        return edited
    }

    /// `line:column` (1-based, columns in Unicode scalars, as Keyframe's messages count them) of the first `marker`
    /// in `text`.
    public static func place(of marker: String, in text: String) throws -> String {
        let before = text[..<(try XCTUnwrap(text.range(of: marker))).lowerBound]
        let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
        return "\(before.filter { $0 == "\n" }.count + 1):\(before[lineStart...].unicodeScalars.count + 1)"
    }
}
