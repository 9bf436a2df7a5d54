import KeyframeJSON

/// One keyframe of a ``Track``: a value at a frame, and how it travels to the next keyframe.
public struct Keyframe<Value: Sendable & Hashable>: Sendable, Hashable {
    /// When the value is reached, in frames of the owning composition's timeline.
    public var frame: Frames
    /// The value at ``frame``.
    public var value: Value
    /// The easing of the segment from this keyframe to the next one (ignored on the last keyframe and on tracks that
    /// never interpolate).
    public var easing: Easing

    @inlinable
    public init(frame: Frames, value: Value, easing: Easing = .hold) {
        self.frame = frame
        self.value = value
        self.easing = easing
    }
}

/// The keyframes of one animated property, in strictly increasing frame order.
///
/// Before the first keyframe the property has the first keyframe's value; after the last, the last one's.
public struct Track<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The keyframes, sorted by frame, no two at the same frame.
    public var keyframes: [Keyframe<Value>]

    @inlinable
    public init(_ keyframes: [Keyframe<Value>] = []) { self.keyframes = keyframes }

    /// A track that holds one value for all time.
    @inlinable
    public init(constant value: Value) { self.keyframes = [Keyframe(frame: .zero, value: value)] }

    /// Appends a keyframe unless it would change nothing: a keyframe equal in value to the previous one whose
    /// incoming segment holds is dropped (the previous keyframe already holds that value).
    ///
    /// Inlinable, like ``appendRestarting(_:)`` and ``isConstant``: the importers call them for every keyframe, and
    /// unspecialized across modules each call looked up the generic array's type at run time.
    @inlinable
    public mutating func append(_ keyframe: Keyframe<Value>) {
        if let last = keyframes.last, last.value == keyframe.value, !last.easing.interpolates {
            // The previous segment already holds this value; keep the new easing for the next segment only when
            // it interpolates, otherwise nothing changes.
            if keyframe.easing.interpolates && keyframe.frame > last.frame {
                keyframes.append(keyframe)
            }
            return
        }
        if let last = keyframes.last, last.frame == keyframe.frame {
            keyframes[keyframes.count - 1] = keyframe
            return
        }
        keyframes.append(keyframe)
    }

    /// Appends a keyframe even when its value equals the previous one (replacing a keyframe at the same frame).
    ///
    /// Content tracks need this: a nested composition's age restarts at each content keyframe, so two equal
    /// instance values in a row mean "restart", not "nothing changes".
    @inlinable
    public mutating func appendRestarting(_ keyframe: Keyframe<Value>) {
        if let last = keyframes.last, last.frame == keyframe.frame {
            keyframes[keyframes.count - 1] = keyframe
        } else {
            keyframes.append(keyframe)
        }
    }

    /// Whether the track has no keyframes.
    @inlinable
    public var isEmpty: Bool { keyframes.isEmpty }

    /// Whether the track has one value for all time.
    @inlinable
    public var isConstant: Bool {
        guard let first = keyframes.first else { return true }
        return keyframes.allSatisfy { $0.value == first.value }
    }

    /// The index of the keyframe in effect at `frame` (the last one at or before it), or `nil` before the first.
    ///
    /// Inlinable so that the engine's sampler, which calls it for every track of every node at every frame, gets a
    /// copy specialized for the value type instead of a generic call.
    @inlinable
    public func keyframeIndex(at frame: Frames) -> Int? {
        var low = 0
        var high = keyframes.count - 1
        var found: Int? = nil
        while low <= high {
            let middle = (low + high) / 2
            if !(frame.value < keyframes[middle].frame.value) {
                found = middle
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return found
    }
}

extension Keyframe where Value: JSONRepresentable {
    init(json: JSONCursor, interpolates: Bool) throws(JSONSchemaError) {
        self.init(
            frame: try json.decode("frame"), value: try json.decode("value"),
            easing: interpolates ? (try json.decodeIfPresent("easing") ?? .hold) : .hold)
    }

    func json(interpolates: Bool) -> JSONValue {
        var object: JSONObject = ["frame": frame.json, "value": value.json]
        if interpolates { object["easing"] = easing.json }
        return .object(object)
    }
}

extension Track where Value: JSONRepresentable {
    /// Reads a track, checking that frames are finite and strictly increasing.
    public init(json: JSONCursor, interpolates: Bool) throws(JSONSchemaError) {
        var keyframes: [Keyframe<Value>] = []
        for element in try json.array() {
            let keyframe = try Keyframe<Value>(json: element, interpolates: interpolates)
            if let last = keyframes.last, keyframe.frame <= last.frame {
                throw element.error(at: "frame", 
                    "keyframes must be in strictly increasing frame order (\(keyframe.frame.value) after \(last.frame.value))")
            }
            keyframes.append(keyframe)
        }
        self.init(keyframes)
    }

    /// The track's JSON form: an array of `{frame, value, easing?}` objects.
    public func json(interpolates: Bool) -> JSONValue {
        .array(keyframes.map { $0.json(interpolates: interpolates) })
    }
}
