/// A time or duration counted in frames of the document's frame rate; fractional frames are allowed.
///
/// Keyframe times, composition lengths and clip ranges are all `Frames`. Convert to wall time only through a
/// ``FrameRate`` (the engine's `FrameRate.seconds(for:)` gives its typed `Seconds`).
public struct Frames: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The number of frames.
    public var value: Double
    /// Creates a frame count.
    public init(_ value: Double) { self.value = value }
    public static func < (lhs: Frames, rhs: Frames) -> Bool { lhs.value < rhs.value }
    public static func + (lhs: Frames, rhs: Frames) -> Frames { Frames(lhs.value + rhs.value) }
    public static func - (lhs: Frames, rhs: Frames) -> Frames { Frames(lhs.value - rhs.value) }
    public static let zero = Frames(0)
    public var description: String { "\(value) frames" }
    public init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Double.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// An angle in degrees. The model stores every angle in degrees; radians appear only inside computations.
public struct Degrees: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The angle in degrees.
    public var value: Double
    /// Creates an angle from degrees.
    public init(_ value: Double) { self.value = value }
    /// Creates an angle from radians.
    public init(radians: Double) { self.value = radians * 180 / .pi }
    /// The angle in radians.
    public var radians: Double { value * .pi / 180 }
    public static func < (lhs: Degrees, rhs: Degrees) -> Bool { lhs.value < rhs.value }
    public var description: String { "\(value)°" }
}

/// Frames per second of a document's timelines; the engine converts ``Frames`` to its `Seconds` through it.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    /// Frames per second, always positive and finite.
    public var framesPerSecond: Double
    /// Creates a frame rate.
    public init(_ framesPerSecond: Double) { self.framesPerSecond = framesPerSecond }
    /// The wall time that `frames` last at this rate, in seconds.
    public func secondsValue(for frames: Frames) -> Double { frames.value / framesPerSecond }
    public var description: String { "\(framesPerSecond) fps" }
}
