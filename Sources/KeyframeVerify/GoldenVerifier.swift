import Foundation
import KeyframePNG
import KeyframeRaster

/// Compares rendered frames with a golden folder of `<clip>-NNNN.png` files: what `keyframe verify` does after
/// rendering.
///
/// Frames whose bytes equal the golden file's match without decoding; others are decoded and compared by pixels
/// (``BitmapDifference``) against ``VerifyCriteria``. The golden folder is only read.
///
/// ```swift
/// let verifier = GoldenVerifier(goldenFolder: golden, criteria: VerifyCriteria(tolerance: 2))
/// let report = try verifier.verify(frames, extrasFor: ["walk"])
/// ```
public struct GoldenVerifier: Sendable {
    /// The folder holding the approved frames.
    public var goldenFolder: URL
    /// When a frame matches.
    public var criteria: VerifyCriteria
    /// Frames compared in parallel.
    public var jobs: Int

    public init(goldenFolder: URL, criteria: VerifyCriteria = VerifyCriteria(), jobs: Int = 1) {
        self.goldenFolder = goldenFolder
        self.criteria = criteria
        self.jobs = max(1, jobs)
    }

    /// Checks every rendered frame against its golden file and, for each file stem in `extrasFor` (clips rendered
    /// whole), reports golden files `<stem>-NNNN.png` that the render did not produce.
    ///
    /// With `ownsFolder` (the folder holds the goldens of this render and nothing else, as in `keyframe batch
    /// --verify`), every `<stem>-NNNN.png` the render did not produce is an extra, also for stems that are no clip
    /// any more (a renamed or removed clip).
    ///
    /// - Throws: ``VerifyError`` when the golden folder does not exist or cannot be listed.
    public func verify(_ frames: [RenderedFrame], extrasFor stems: [String: String] = [:], ownsFolder: Bool = false)
        throws(VerifyError) -> VerifyReport
    {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: goldenFolder.path, isDirectory: &isFolder) else {
            throw VerifyError(path: goldenFolder.path,
                              reason: "the golden folder does not exist (create it with --record)")
        }
        guard isFolder.boolValue else {
            throw VerifyError(path: goldenFolder.path, reason: "the golden path is not a folder")
        }
        let checks = Checks(count: frames.count)
        let workers = min(jobs, max(1, frames.count))
        let next = Counter()
        let run: @Sendable (Int) -> Void = { _ in
            while let index = next.take(below: frames.count) {
                checks.set(index, check(frames[index]))
            }
        }
        if workers == 1 { run(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: run) }
        var results = checks.values
        results += try extras(rendered: Set(frames.map(\.fileName)), stems: stems, ownsFolder: ownsFolder)
        return VerifyReport(goldenFolder: goldenFolder.path, criteria: criteria, frames: results)
    }

    /// Golden files of the verified stems that no rendered frame has, in name order.
    private func extras(rendered: Set<String>, stems: [String: String], ownsFolder: Bool) throws(VerifyError)
        -> [FrameCheck]
    {
        guard !stems.isEmpty || ownsFolder else { return [] }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: goldenFolder.path) } catch {
            throw VerifyError(path: goldenFolder.path, reason: "cannot list the golden folder: \(FileSystemReason.describe(error))")
        }
        var found: [FrameCheck] = []
        for name in names.sorted() where !rendered.contains(name) {
            guard let (stem, number) = GoldenVerifier.parseFrameFileName(name),
                let clip = stems[stem] ?? (ownsFolder ? stem : nil)
            else { continue }
            found.append(FrameCheck(
                clip: clip, number: number, fileName: name, status: .extraGolden,
                message: stems[stem] == nil
                    ? "golden frame \(name) belongs to no rendered clip (a clip renamed or removed?; --record removes it)"
                    : "golden frame \(name) has no rendered frame (the clip renders fewer frames now; "
                    + "--record removes it)",
                actualPath: nil, goldenPath: goldenFolder.appendingPathComponent(name).path))
        }
        return found
    }

    /// `walk-0007.png` → (`walk`, 7); `nil` for other names.
    public static func parseFrameFileName(_ name: String) -> (stem: String, number: Int)? {
        guard name.hasSuffix(".png") else { return nil }
        let base = name.dropLast(4)
        guard let dash = base.lastIndex(of: "-") else { return nil }
        let digits = base[base.index(after: dash)...]
        guard digits.count >= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else {
            return nil
        }
        return (String(base[..<dash]), number)
    }

    /// The verdict on one rendered frame.
    public func check(_ frame: RenderedFrame) -> FrameCheck {
        let goldenPath = goldenFolder.appendingPathComponent(frame.fileName).path
        func verdict(_ status: FrameCheck.Status, _ message: String, _ difference: BitmapDifference? = nil,
                     _ diff: Bitmap? = nil) -> FrameCheck {
            FrameCheck(clip: frame.clip, number: frame.number, fileName: frame.fileName, status: status,
                       message: message, difference: difference, actualPath: frame.path, goldenPath: goldenPath,
                       diffImage: diff)
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: goldenPath, isDirectory: &isFolder), !isFolder.boolValue else {
            return verdict(.missingGolden, "no golden frame \(frame.fileName) (record it with --record)")
        }
        guard let goldenBytes = FileManager.default.contents(atPath: goldenPath).map(Array.init) else {
            return verdict(.unreadableGolden, "cannot read golden frame \(frame.fileName)")
        }
        guard let actualBytes = FileManager.default.contents(atPath: frame.path).map(Array.init) else {
            return verdict(.differs, "cannot read the rendered frame \(frame.path)")
        }
        if goldenBytes == actualBytes {
            return verdict(.match, "identical")
        }
        let decoder = PNGDecoder()
        let expected: Bitmap
        do { expected = try decoder.decode(goldenBytes) } catch {
            return verdict(.unreadableGolden, "golden frame \(frame.fileName) is not a readable PNG: \(error.message)")
        }
        let actual: Bitmap
        do { actual = try decoder.decode(actualBytes) } catch {
            return verdict(.differs, "the rendered frame \(frame.path) cannot be decoded: \(error.message)")
        }
        guard let difference = BitmapDifference(actual, expected, tolerance: criteria.tolerance) else {
            return verdict(.sizeMismatch, "golden frame \(frame.fileName) is \(expected.width)×\(expected.height) "
                + "but the render is \(actual.width)×\(actual.height)")
        }
        if difference.differingPixels == 0 || difference.differingShare <= criteria.maxDifferingShare {
            return verdict(.match, difference.differingPixels == 0
                ? "within tolerance" : "\(difference.differingPixels) pixel(s) differ, within the allowed share",
                difference)
        }
        var message = "\(difference.differingPixels) pixel(s) (\(VerifyReport.percent(difference.differingShare))) "
            + "differ by more than \(criteria.tolerance); max difference \(difference.maxDifference), mean "
            + VerifyReport.decimal(difference.meanDifference)
        if let bounds = difference.bounds {
            message += ", changed area x \(bounds.x) y \(bounds.y) \(bounds.width)×\(bounds.height)"
        }
        return verdict(.differs, message, difference, difference.image(actual: actual, expected: expected))
    }
}

/// Results gathered by index from parallel workers.
private final class Checks: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [FrameCheck?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ check: FrameCheck) {
        lock.lock()
        slots[index] = check
        lock.unlock()
    }

    var values: [FrameCheck] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}

/// Hands out indices 0, 1, 2, … to whichever worker asks.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}
