import KeyframeJSON

extension ScriptTick {
    /// The tick as a JSON object (what `keyframe play --json` prints, one compact line per tick).
    ///
    /// ```json
    /// {"animators":[{"fractionComplete":0.25,"isReversed":false,"isRunning":true,"name":"fade",
    ///   "state":"active","value":25}],"completions":[],"steps":[],"tick":6,"time":0.25}
    /// ```
    /// Clip targets give `"clip": {"name", "document", "frames", "seconds"}` instead of `"value"`;
    /// animations added with an explicit target are listed under `"added"`. Each applied step is
    /// `{"index", "at", "animator", "action", "summary"}`; each completion
    /// `{"animator", "position", "time"}`. Keys are sorted and numbers written in their shortest
    /// round-trip form, so the same script always prints the same bytes.
    ///
    /// - Parameter script: the script the tick came from (names the applied steps).
    public func json(script: AnimatorScript) -> JSONValue {
        .object([
            "tick": .number(Double(index)),
            "time": .number(time.value),
            "animators": .array(animators.map(\.json)),
            "steps": .array(steps.map { index in
                let step = script.steps[index]
                return .object(["index": .number(Double(index)), "at": .number(step.at.value),
                                "animator": .string(step.subject), "action": .string(step.action.name),
                                "summary": .string(step.action.summary)])
            }),
            "completions": .array(completions.map { completion in
                .object(["animator": .string(completion.name), "position": .string(completion.position.rawValue),
                         "time": .number(completion.time.value)])
            }),
        ])
    }

    /// ``json(script:)`` written compactly, without a trailing newline.
    public func jsonLine(script: AnimatorScript) -> String {
        String(decoding: JSONWriter.writeCompact(json(script: script)), as: UTF8.self)
    }
}

extension ScriptAnimatorSample {
    /// The sample as a JSON object (see ``ScriptTick/json(script:)``).
    public var json: JSONValue {
        var object: JSONObject = [
            "name": .string(name), "state": .string(state.rawValue), "isRunning": .bool(isRunning),
            "isReversed": .bool(isReversed), "fractionComplete": .number(fractionComplete.value),
        ]
        if let value { object["value"] = .number(value) }
        if let clip { object["clip"] = clip.json }
        if !added.isEmpty {
            object["added"] = .array(added.map { value in
                switch value {
                case .value(let number): return .number(number)
                case .clip(let clip): return clip.json
                }
            })
        }
        return .object(object)
    }
}

extension ScriptClipTime {
    /// `{"name", "document", "frames", "seconds"}`.
    public var json: JSONValue {
        .object(["name": .string(clipName), "document": .string(documentPath), "frames": .number(frames.value),
                 "seconds": .number(seconds.value)])
    }
}
