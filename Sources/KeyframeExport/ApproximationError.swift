/// How far an approximated frame is from the source's: the worst measured frame's figures.
public struct ApproximationError: Sendable, Hashable, CustomStringConvertible {
    /// A pixel is off when one of its channels differs by more than this (of 255), the players' own tolerance in the
    /// conformance tests.
    public static let tolerance = 8
    /// The clip frame (0-based) measured worst.
    public var frame: Int
    /// Pixels of that frame with a channel off by more than ``tolerance``.
    public var pixelsOff: Int
    /// The largest channel difference of that frame (0–255).
    public var largestDifference: Int
    /// The mean channel difference of that frame (0–255).
    public var meanDifference: Double

    /// Whether the frame is exact within ``tolerance``.
    public var isExact: Bool { pixelsOff == 0 }

    /// Worse: more pixels off, then a larger difference.
    func isWorse(than other: ApproximationError) -> Bool {
        (pixelsOff, largestDifference) > (other.pixelsOff, other.largestDifference)
    }

    /// "1,234 px off by more than 8/255 at frame 12 (largest difference 200/255)", or "no pixel off by more than
    /// 8/255".
    public var description: String {
        guard pixelsOff > 0 else { return "no pixel off by more than \(Self.tolerance)/255" }
        return "\(Self.grouped(pixelsOff)) px off by more than \(Self.tolerance)/255 at frame \(frame) "
            + "(largest difference \(largestDifference)/255)"
    }

    /// `n` with thousands separated by commas.
    static func grouped(_ n: Int) -> String {
        var digits = Array(String(n))
        var i = digits.count - 3
        while i > 0 {
            digits.insert(",", at: i)
            i -= 3
        }
        return String(digits)
    }
}
