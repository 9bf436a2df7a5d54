import KeyframeJSON
import XCTest
@testable import KeyframeEngine

/// Reading scripts: every accepted form, and bad scripts reported with line/column or JSON path.
final class ScriptParsingTests: XCTestCase {
    private func parse(_ text: String) throws(ScriptError) -> AnimatorScript {
        try AnimatorScript(jsonBytes: Array(text.utf8), file: "t.json")
    }

    /// Expects `text` to fail with a schema error at `path` whose message contains `fragment`.
    private func assertSchemaError(_ text: String, path: String, _ fragment: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try parse(text)
            XCTFail("expected an error at \(path)", file: file, line: line)
        } catch {
            guard case .schema(let schema) = error.kind else {
                return XCTFail("expected a schema error, got \(error)", file: file, line: line)
            }
            XCTAssertEqual(schema.path.description, path, "\(error)", file: file, line: line)
            XCTAssert(error.description.contains(fragment), "\(error)", file: file, line: line)
            XCTAssert(error.description.hasPrefix("t.json: at \(path): "), "\(error)", file: file, line: line)
        }
    }

    func testValidScriptWithGroupAndEveryAction() throws {
        let script = try parse("""
        {"format": "keyframe-script", "version": 1,
         "animators": [
           {"name": "walker", "duration": 1.5, "timing": "easeInOut", "target": {"clip": "walk", "document": "../w"}},
           {"name": "fade", "duration": 0.5, "timing": {"bezier": [0.1, 0.7, 0.3, 1]}, "target": {"from": 0, "to": 1},
            "scrubsLinearly": false, "pausesOnCompletion": true, "interruptible": false},
           {"name": "glow", "duration": 2, "target": {"from": 5, "to": -5}}
         ],
         "group": {"primary": "walker", "secondaries": ["fade"]},
         "steps": [
           {"at": 0, "action": "start"},
           {"at": 0, "animator": "glow", "action": "start", "delay": 0.25},
           {"at": 0.5, "action": "pause"},
           {"at": 0.5, "action": "scrub", "fraction": 0.25},
           {"at": 0.6, "action": "reverse"},
           {"at": 0.6, "animator": "glow", "action": "reverse", "reversed": false},
           {"at": 0.7, "action": "continue", "timing": {"spring": {"dampingRatio": 0.5}}, "durationFactor": 0.5},
           {"at": 0.8, "animator": "glow", "action": "addAnimations", "target": {"from": 1, "to": 2}, "delayFactor": 0.5},
           {"at": 0.8, "animator": "glow", "action": "addAnimations"},
           {"at": 0.9, "animator": "glow", "action": "stop", "withoutFinishing": true},
           {"at": 1.0, "action": "stop"},
           {"at": 1.0, "action": "finish", "position": "current"}
         ]}
        """)
        XCTAssertEqual(script.file, "t.json")
        XCTAssertEqual(script.animators.map(\.name), ["walker", "fade", "glow"])
        XCTAssertEqual(script.animators[0].target, .clip(name: "walk", document: "../w"))
        XCTAssertEqual(script.animators[0].timing, .easeInEaseOut)
        XCTAssertEqual(script.animators[0].duration, Seconds(1.5))
        XCTAssertEqual(script.animators[1].timing, .bezier(0.1, 0.7, 0.3, 1))
        XCTAssertEqual(script.animators[1].target, .value(from: 0, to: 1))
        XCTAssertFalse(script.animators[1].scrubsLinearly)
        XCTAssertTrue(script.animators[1].pausesOnCompletion)
        XCTAssertFalse(script.animators[1].isInterruptible)
        XCTAssertEqual(script.animators[2].timing, .default, "a missing timing is Core Animation's default")
        XCTAssertTrue(script.animators[2].scrubsLinearly)
        XCTAssertEqual(script.group, ScriptGroup(name: "group", primary: "walker", secondaries: ["fade"]))
        XCTAssertEqual(script.steps.map(\.subject),
                       ["group", "glow", "group", "group", "group", "glow", "group", "glow", "glow", "glow", "group", "group"],
                       "steps without an animator address the group")
        XCTAssertEqual(script.steps.map(\.isGroup), script.steps.map { $0.subject == "group" })
        XCTAssertEqual(script.steps.map(\.action), [
            .start(delay: nil), .start(delay: Seconds(0.25)), .pause, .scrub(fraction: 0.25), .reverse(to: nil),
            .reverse(to: false), .continue(timing: .spring(dampingRatio: 0.5), durationFactor: 0.5),
            .addAnimations(.value(from: 1, to: 2), delayFactor: 0.5), .addAnimations(nil, delayFactor: 0),
            .stop(withoutFinishing: true), .stop(withoutFinishing: false), .finish(at: .current),
        ])
        XCTAssertEqual(script.steps[6].at, Seconds(0.7))
        XCTAssertEqual(script.clipTargets.map(\.path.description), ["animators[0].target"])
    }

    func testDefaultsWithoutGroup() throws {
        let script = try parse(#"{"animators": [{"name": "a", "duration": 1, "target": {"from": 0, "to": 1}}],"#
                               + #" "steps": [{"at": 0.5, "action": "start"}]}"#)
        XCTAssertNil(script.group)
        XCTAssertEqual(script.steps.first?.subject, "a", "the only animator is the default subject")
        XCTAssertEqual(script.steps.first?.isGroup, false)
        let noSteps = try parse(#"{"animators": [{"name": "a", "duration": 1, "target": {"from": 0, "to": 1}}]}"#)
        XCTAssertEqual(noSteps.steps, [])
        let group = try parse(#"{"animators": [{"name": "a", "duration": 1, "target": {"from": 0, "to": 1}},"#
                              + #"{"name": "b", "duration": 1, "target": {"from": 0, "to": 1}},"#
                              + #"{"name": "c", "duration": 1, "target": {"from": 0, "to": 1}}],"#
                              + #""group": {"name": "g", "primary": "b"}}"#)
        XCTAssertEqual(group.group, ScriptGroup(name: "g", primary: "b", secondaries: ["a", "c"]),
                       "secondaries default to every other animator in declaration order")
    }

    func testTimingForms() throws {
        func timing(_ json: String) throws -> TimingCurve {
            try TimingCurve(scriptJSON: JSONCursor(JSONParser.parse(json), path: JSONPath.root.appending("timing")))
        }
        XCTAssertEqual(try timing(#""linear""#), .linear)
        XCTAssertEqual(try timing(#""ease-in""#), .easeIn)
        XCTAssertEqual(try timing(#""easeOut""#), .easeOut)
        XCTAssertEqual(try timing(#""default""#), .default)
        XCTAssertEqual(try timing(#""hold""#), .hold)
        XCTAssertEqual(try timing(#""systemSpring""#), .systemSpring)
        XCTAssertEqual(try timing(#"{"bezier": [0.68, -0.55, 0.265, 1.55]}"#), .bezier(0.68, -0.55, 0.265, 1.55))
        XCTAssertEqual(try timing(#"{"spring": {"dampingRatio": 0.5, "initialVelocity": 2}}"#),
                       .spring(dampingRatio: 0.5, initialVelocity: 2))
        XCTAssertEqual(try timing(#"{"spring": {"mass": 2, "stiffness": 100, "damping": 10}}"#),
                       .spring(mass: 2, stiffness: 100, damping: 10))
        XCTAssertEqual(try timing(#"{"spring": {"response": 0.5, "dampingFraction": 0.8}}"#),
                       .spring(response: 0.5, dampingFraction: 0.8))
        XCTAssertEqual(try timing(#"{"spring": {"duration": 0.5, "bounce": 0.2}}"#), .spring(duration: 0.5, bounce: 0.2))
        XCTAssertEqual(try timing(#"{"steps": 4}"#), .steps(4, .end))
        XCTAssertEqual(try timing(#"{"steps": 3, "position": "both"}"#), .steps(3, .both))
        XCTAssertEqual(try timing(#"{"flashEase": -50}"#), .quadraticEase(-0.5))
    }

    func testInvalidJSONReportsLineAndColumn() {
        do {
            _ = try parse("{\n  \"animators\": [}\n")
            XCTFail("expected a syntax error")
        } catch {
            guard case .syntax(let syntax) = error.kind else { return XCTFail("expected a syntax error, got \(error)") }
            XCTAssertEqual(syntax.line, 2)
            XCTAssertEqual(syntax.column, 17)
            XCTAssert(error.description.hasPrefix("t.json:2:17: invalid JSON: "), error.description)
            XCTAssertNil(error.path)
        }
    }

    private let animator = #"{"name": "a", "duration": 1, "target": {"from": 0, "to": 1}}"#

    func testWrongTypesAndMissingKeysReportTheJSONPath() {
        assertSchemaError(#"{"animators": [\#(animator)], "steps": [{"at": 0, "action": "start"}, {"at": "0.5", "action": "pause"}]}"#,
                          path: "steps[1].at", "expected a number, found string")
        assertSchemaError(#"{"animators": [{"name": "a", "target": {"from": 0, "to": 1}}]}"#,
                          path: "animators[0]", #"missing required key "duration""#)
        assertSchemaError(#"{"animators": [{"name": "a", "duration": 1, "target": {"from": 0}}]}"#,
                          path: "animators[0].target", #"missing required key "to""#)
        assertSchemaError(#"{"animators": [{"name": "a", "duration": 1, "target": {"clip": "walk"}}]}"#,
                          path: "animators[0].target", #"missing required key "document""#)
        assertSchemaError(#"{"animators": [{"name": "a", "duration": 1, "target": {"x": 1}}]}"#,
                          path: "animators[0].target", "expected a value target")
        assertSchemaError(#"{"animators": {}}"#, path: "animators", "expected an array, found object")
        assertSchemaError(#"[1]"#, path: "$", "expected an object")
        assertSchemaError(#"{"steps": []}"#, path: "$", #"missing required key "animators""#)
        assertSchemaError(#"{"animators": []}"#, path: "animators", "at least one animator")
        assertSchemaError(#"{"animators": [\#(animator)], "steps": [{"at": 0, "action": "scrub"}]}"#,
                          path: "steps[0]", #"missing required key "fraction""#)
        assertSchemaError(#"{"animators": [\#(animator)], "steps": [{"at": 0, "action": "scrub", "fraction": 1.5}]}"#,
                          path: "steps[0].fraction", "must be in 0...1")
        assertSchemaError(#"{"animators": [\#(animator)], "steps": [{"at": 0, "action": "finish", "position": "middle"}]}"#,
                          path: "steps[0].position", #"unknown position "middle""#)
        assertSchemaError(#"{"animators": [\#(animator)], "steps": [{"at": -1, "action": "start"}]}"#,
                          path: "steps[0].at", "≥ 0")
        assertSchemaError(#"{"animators": [\#(animator)], "steps": [{"at": 1, "action": "start"}, {"at": 0.5, "action": "pause"}]}"#,
                          path: "steps[1].at", "time order")
        assertSchemaError(#"{"version": 2, "animators": [\#(animator)]}"#, path: "version", "unsupported script version 2")
        assertSchemaError(#"{"format": "lottie", "animators": [\#(animator)]}"#, path: "format", "keyframe-script")
        assertSchemaError(#"{"animators": [\#(animator), \#(animator)]}"#, path: "animators[1].name", #"duplicate animator name "a""#)
    }

    func testUnknownActionAnimatorAndTimingAreClearErrors() {
        assertSchemaError(#"{"animators": [\#(animator)], "steps": [{"at": 0, "action": "jump"}]}"#,
                          path: "steps[0].action",
                          #"unknown action "jump"; expected one of start, pause, scrub, reverse, continue, stop, finish, addAnimations"#)
        assertSchemaError(#"{"animators": [\#(animator)], "steps": [{"at": 0, "animator": "b", "action": "start"}]}"#,
                          path: "steps[0].animator", #"unknown animator "b"; the script declares a"#)
        assertSchemaError(#"{"animators": [{"name": "a", "duration": 1, "timing": "bouncy", "target": {"from": 0, "to": 1}}]}"#,
                          path: "animators[0].timing", #"unknown timing curve "bouncy"; known names: linear, easeIn"#)
        assertSchemaError(#"{"animators": [{"name": "a", "duration": 1, "timing": {"bezier": [0, 1]}, "target": {"from": 0, "to": 1}}]}"#,
                          path: "animators[0].timing.bezier", "expected 4 numbers")
        assertSchemaError(#"{"animators": [{"name": "a", "duration": 1, "timing": {"bezier": [1.5, 0, 0.5, 1]}, "target": {"from": 0, "to": 1}}]}"#,
                          path: "animators[0].timing.bezier[0]", "x1 must be in 0...1")
        assertSchemaError(#"{"animators": [{"name": "a", "duration": 1, "timing": {"spring": {"dampingRatio": 0}}, "target": {"from": 0, "to": 1}}]}"#,
                          path: "animators[0].timing.spring.dampingRatio", "greater than 0")
        assertSchemaError(#"{"animators": [{"name": "a", "duration": 1, "timing": {"wobble": 1}, "target": {"from": 0, "to": 1}}]}"#,
                          path: "animators[0].timing", "expected a timing name or an object")
        assertSchemaError(#"{"animators": [\#(animator)], "steps": [{"at": 0, "action": "continue", "timing": "zoom"}]}"#,
                          path: "steps[0].timing", #"unknown timing curve "zoom""#)
    }

    func testGroupErrors() {
        let two = #"{"name": "a", "duration": 1, "target": {"from": 0, "to": 1}}, {"name": "b", "duration": 1, "target": {"from": 0, "to": 1}}"#
        assertSchemaError(#"{"animators": [\#(two)], "group": {"primary": "c"}}"#, path: "group.primary", #"unknown animator "c""#)
        assertSchemaError(#"{"animators": [\#(two)], "group": {"primary": "a", "secondaries": ["a"]}}"#,
                          path: "group.secondaries[0]", "already in the group")
        assertSchemaError(#"{"animators": [\#(two)], "group": {"name": "b", "primary": "a"}}"#, path: "group.name",
                          "also an animator's name")
        assertSchemaError(#"{"animators": [\#(two)], "steps": [{"at": 0, "action": "start"}]}"#, path: "steps[0]",
                          #"missing "animator": the script has 2 animators and no group"#)
        assertSchemaError(#"{"animators": [\#(two)], "group": {"primary": "a"}, "steps": [{"at": 0, "action": "addAnimations"}]}"#,
                          path: "steps[0].action", "addAnimations needs an animator, not the group")
        assertSchemaError(#"{"animators": [\#(two)], "group": {"primary": "a"}, "steps": [{"at": 0, "action": "start", "delay": 1}]}"#,
                          path: "steps[0].delay", "a group cannot start after a delay")
    }
}
