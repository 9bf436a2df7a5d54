import KeyframeJSON

/// The sizes a sheet may state: finite, not negative, at most ``maximumSide`` pixels.
enum SpriteSheetLimits {
    /// The largest frame side accepted, in pixels (PNG's own limit is far larger; no real sheet comes near).
    static let maximumSide = 65_536.0
    /// The most frames a sheet may hold.
    static let maximumFrames = 1_000_000

    static func check(_ width: Double, _ height: Double, at cursor: JSONCursor) throws(JSONSchemaError) {
        if let problem = problem(width, height) { throw cursor.error(problem) }
    }

    /// What is wrong with a `width × height`, or `nil`.
    static func problem(_ width: Double, _ height: Double) -> String? {
        guard width.isFinite, height.isFinite, width >= 0, height >= 0 else {
            return "a size must be finite and not negative, found \(JSONWriter.format(width))×\(JSONWriter.format(height))"
        }
        guard width <= maximumSide, height <= maximumSide else {
            return "\(JSONWriter.format(width))×\(JSONWriter.format(height)) is larger than \(Int(maximumSide)) pixels on a side"
        }
        return nil
    }
}
