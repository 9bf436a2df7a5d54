import KeyframeEngine

/// An animator script's run for the preview: each animator's fraction-complete over time, and the script's steps
/// (start, pause, scrub, reverse, …) at the times they were applied.
public struct ScriptGraph: Sendable, Hashable {
    /// One animator's line.
    public struct Line: Sendable, Hashable {
        public var name: String
        /// Tick times in seconds.
        public var times: [Double]
        /// `fractionComplete` at each tick.
        public var fractions: [Double]
        /// Whether it ran reversed at each tick.
        public var reversed: [Bool]
    }

    /// A step applied during the run.
    public struct Mark: Sendable, Hashable {
        public var seconds: Double
        /// e.g. `x: pause`.
        public var label: String
    }

    public var lines: [Line]
    public var marks: [Mark]

    /// The graph of `ticks`, a run of `script`.
    public init(script: AnimatorScript, ticks: [ScriptTick]) {
        var order: [String] = []
        var lines: [String: Line] = [:]
        var marks: [Mark] = []
        for tick in ticks {
            for sample in tick.animators {
                if lines[sample.name] == nil {
                    order.append(sample.name)
                    lines[sample.name] = Line(name: sample.name, times: [], fractions: [], reversed: [])
                }
                lines[sample.name]!.times.append(NodeCurves.round(tick.time.value))
                lines[sample.name]!.fractions.append(NodeCurves.round(sample.fractionComplete.value))
                lines[sample.name]!.reversed.append(sample.isReversed)
            }
            for index in tick.steps where script.steps.indices.contains(index) {
                let step = script.steps[index]
                marks.append(Mark(seconds: NodeCurves.round(step.at.value), label: "\(step.subject): \(step.action.name)"))
            }
        }
        self.lines = order.compactMap { lines[$0] }
        self.marks = marks
    }
}
