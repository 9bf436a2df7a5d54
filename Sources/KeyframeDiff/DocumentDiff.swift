import KeyframeJSON
import KeyframeModel

/// What changed between two versions of an export (or two normalized documents): clips, compositions, nodes and
/// sprites added, removed, renamed or changed, and which nodes' motion changed, by how much and where in time.
///
/// Only the documents are compared, never how they happen to be written: the same document read from an export
/// and from its normalized JSON, or from an export whose atlas was re-encoded or repacked, has no change.
///
/// ```swift
/// let diff = DocumentDiff(before: old, after: new)
/// if diff.hasChanges { print(diff.text) }
/// ```
public struct DocumentDiff: Sendable {
    /// The older version's label (its path as given).
    public var before: String
    /// The newer version's label.
    public var after: String
    /// What counted as a change.
    public var options: DiffOptions
    /// Structural changes: document settings, clips, compositions, sprites, then nodes.
    public var structure: [StructuralChange]
    /// Nodes whose motion changed beyond the tolerance, in the newer document's order.
    public var motion: [MotionChange]
    /// What could not be compared (a side's images were not found), for the report.
    public var notes: [String]
    /// The clips present in both versions, as (older name, newer name), in the newer document's order.
    public var matchedClips: [(before: String, after: String)]

    /// Compares `before` with `after`.
    public init(before: DiffSide, after: DiffSide, options: DiffOptions = DiffOptions()) {
        self.before = before.label
        self.after = after.label
        self.options = options
        let correspondence = Correspondence(before, after, options: options)
        let order: [StructuralChange.Subject] = [.document, .clip, .composition, .sprite, .node]
        structure = correspondence.changes.enumerated().sorted { x, y in
            let (i, j) = (order.firstIndex(of: x.element.subject) ?? 0, order.firstIndex(of: y.element.subject) ?? 0)
            return i != j ? i < j : x.offset < y.offset
        }.map(\.element)
        motion = MotionComparison(correspondence: correspondence, tolerance: options.tolerance,
                                  before: before.document, after: after.document).changes()
        matchedClips = correspondence.clips.map { ($0.0.name, $0.1.name) }
        var notes: [String] = []
        for side in [before, after] {
            if let missing = side.missingImages {
                notes.append("\(side.label): images not read (\(missing)); sprites compared by size and origin only")
            }
        }
        self.notes = notes
    }

    /// Whether anything changed beyond the tolerance.
    public var hasChanges: Bool { !structure.isEmpty || !motion.isEmpty }

    /// The report for a terminal or a pull-request comment.
    public var text: String {
        var lines = ["keyframe diff: \(before) → \(after)"]
        if !structure.isEmpty {
            lines.append("structure:")
            lines += structure.map { "  " + $0.line }
        }
        if !motion.isEmpty {
            lines.append("motion (largest difference beyond \(Correspondence.number(options.tolerance)), and where):")
            for change in motion {
                lines.append("  \(change.displayName)")
                for channel in change.channels {
                    lines.append("    " + Self.describe(channel))
                    if let source = channel.source { lines.append("      \(source.terms): \(source.changedText)") }
                }
                for property in change.properties {
                    lines.append("    " + Self.describe(property))
                }
            }
        }
        lines += notes.map { "note: \($0)" }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `no change`, or `3 change(s): 2 structural, 1 node's motion`.
    public var summary: String {
        guard hasChanges else {
            return "no change (tolerance \(Correspondence.number(options.tolerance)) px, °, %)"
        }
        return "\(structure.count + motion.count) change(s): \(structure.count) structural, "
            + "\(motion.count) node(s) with changed motion"
    }

    /// `position  10 px at frame 7 (walk frame 7, 0.292 s): (12, 40) → (22, 40); 18 frame(s) differ`.
    static func describe(_ channel: MotionChange.ChannelDifference) -> String {
        let name = channel.channel.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
        return "\(name) \(Correspondence.number(channel.largest)) \(channel.channel.unit) at frame \(channel.frame)"
            + "\(where_(channel.clips)): \(values(channel)); \(channel.frames) frame(s) differ"
    }

    /// Each version's value where the difference is largest: `(12, 40) → (22, 40)`, `15° → 20°`, `1 → 0.5`.
    static func values(_ channel: MotionChange.ChannelDifference) -> String {
        let n = Correspondence.number
        func text(_ v: [Double]) -> String {
            switch channel.channel {
            case .position, .scale: return "(\(v.map { n($0) }.joined(separator: ", ")))"
            case .alpha: return n(v.first ?? 0)
            case .rotation, .skew: return n(v.first ?? 0) + "°"
            }
        }
        return "\(text(channel.before)) → \(text(channel.after))"
    }

    /// `content   differs on 3 frame(s) from frame 5 (walk frame 5, 0.208 s): sprite 0003 → sprite 0007`.
    static func describe(_ property: MotionChange.PropertyDifference) -> String {
        let name = property.property.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
        return "\(name) differs on \(property.frames) frame(s) from frame \(property.firstFrame)"
            + "\(where_(property.clips)): \(property.before) → \(property.after)"
    }

    private static func where_(_ clips: [MotionChange.ClipTime]) -> String {
        guard !clips.isEmpty else { return "" }
        return " (" + clips.map { "\($0.clip) frame \($0.frame), \(Correspondence.number($0.seconds)) s" + through($0) }
            .joined(separator: "; ") + ")"
    }

    /// ` in arm #0, on 24 frame(s)` for a moment of a nested composition; empty for a clip that plays it directly.
    static func through(_ time: MotionChange.ClipTime) -> String {
        guard !time.through.isEmpty else { return "" }
        return " in \(time.through.joined(separator: " › ")), on \(time.count) frame(s)"
    }

    // MARK: - JSON

    /// The report as JSON (`"format": "keyframe-diff"`, version 1; deterministic).
    public var json: JSONValue {
        func clips(_ times: [MotionChange.ClipTime]) -> JSONValue {
            .array(times.map { time in
                var object: JSONObject = ["clip": .string(time.clip), "frame": .number(Double(time.frame)),
                                          "seconds": .number(time.seconds)]
                if !time.through.isEmpty {
                    object["through"] = .array(time.through.map { .string($0) })
                    object["count"] = .number(Double(time.count))
                }
                return .object(object)
            })
        }
        func rounded(_ value: Double) -> JSONValue { value.isFinite ? .number((value * 1e6).rounded() / 1e6) : .null }
        return .object([
            "format": "keyframe-diff",
            "version": 1,
            "before": .string(before),
            "after": .string(after),
            "changed": .bool(hasChanges),
            "tolerance": .number(options.tolerance),
            "structure": .array(structure.map { change in
                var object: JSONObject = [
                    "subject": .string(change.subject.rawValue), "change": .string(change.kind.rawValue),
                    "name": .string(change.name),
                ]
                if let oldName = change.oldName { object["oldName"] = .string(oldName) }
                if let context = change.context { object["composition"] = .string(context) }
                if !change.details.isEmpty { object["details"] = .string(change.details) }
                return .object(object)
            }),
            "motion": .array(motion.map { change in
                .object([
                    "composition": .string(change.compositionName),
                    "node": .string(change.node),
                    "path": .array(change.path.map { .string($0) }),
                    "frames": .number(Double(change.comparedFrames)),
                    "channels": .array(change.channels.map { channel in
                        var object: JSONObject = [
                            "channel": .string(channel.channel.rawValue), "unit": .string(channel.channel.unit),
                            "largest": rounded(channel.largest), "frame": .number(Double(channel.frame)),
                            "before": .array(channel.before.map(rounded)), "after": .array(channel.after.map(rounded)),
                            "differingFrames": .number(Double(channel.frames)), "clips": clips(channel.clips),
                        ]
                        if let source = channel.source {
                            object["source"] = [
                                "terms": .string(source.terms), "names": .array(source.names.map { .string($0) }),
                                "before": .array(source.before.map(rounded)), "after": .array(source.after.map(rounded)),
                            ]
                        }
                        return .object(object)
                    }),
                    "properties": .array(change.properties.map { property in
                        .object([
                            "property": .string(property.property.rawValue),
                            "firstFrame": .number(Double(property.firstFrame)),
                            "differingFrames": .number(Double(property.frames)),
                            "before": .string(property.before), "after": .string(property.after),
                            "clips": clips(property.clips),
                        ])
                    }),
                ])
            }),
            "notes": .array(notes.map { .string($0) }),
        ])
    }

    /// The JSON report's bytes (sorted keys, indented, ending in a line break).
    public var jsonBytes: [UInt8] { JSONWriter.write(json) }
}
