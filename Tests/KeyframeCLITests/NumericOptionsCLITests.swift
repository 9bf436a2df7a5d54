import Foundation
import KeyframeTestSupport
import XCTest

/// Every numeric option of every subcommand, found in the command configuration itself
/// (`keyframe --experimental-dump-help`), gets `0, -1, 1e19, 1e308, nan, inf, 999999999999` and the values just beyond
/// its documented bounds (docs/cli.md, "Numeric options"): each ends in exit 2 with a message naming the option, or —
/// when the value is inside the bounds — in an ordinary result (exit 0 or 1), never in a signal. An option the parser
/// reads as a number but the table does not list fails the walk, so a new option cannot escape it.
final class NumericOptionsCLITests: XCTestCase {
    private var work: URL!

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("numeric-options")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    /// One row of the table: an option of some commands, the form of its value, its range.
    struct Bounds {
        var option: String
        var commands: [String]
        /// `number`, `whole`, `WxH`, `A..B` or `P%`.
        var form: String
        var lower: Double
        var lowerIncluded: Bool
        var upper: Double

        func contains(_ value: Double) -> Bool {
            (lowerIncluded ? value >= lower : value > lower) && value <= upper
                && (form == "number" || form == "P%" || value == value.rounded())
        }

        /// Whether `text` is a value the option accepts, read as the table says.
        func accepts(_ text: String) -> Bool {
            func whole(_ part: Substring) -> Bool { Int(part).map { contains(Double($0)) } ?? false }
            switch form {
            case "number": return Double(text).map(contains) ?? false
            case "whole": return whole(Substring(text))
            case "P%": return Double(text.hasSuffix("%") ? String(text.dropLast()) : text).map(contains) ?? false
            case "WxH":
                let sides = text.split(separator: "x", omittingEmptySubsequences: false)
                return sides.count == 2 && sides.allSatisfy(whole)
            case "A..B":
                if whole(Substring(text)) { return true }
                let ends = text.components(separatedBy: "..")
                return ends.count == 2 && whole(Substring(ends[0])) && whole(Substring(ends[1]))
                    && Int(ends[0])! <= Int(ends[1])!
            default: return false
            }
        }

        /// The values to try, written in the option's form: the hostile ones, and with `edges` (for the first command
        /// of a row; the others share its parsing) a huge whole number and the values just beyond each bound.
        func values(edges: Bool) -> [String] {
            let isWhole = form != "number" && form != "P%"
            var numbers = ["0", "-1", "1e19", "1e308", "nan", "inf"]
            if edges {
                numbers.append("999999999999")
                numbers.append(isWhole ? String(Int(upper) + 1) : String(upper * 2))
                numbers.append(lowerIncluded ? (isWhole ? String(Int(lower) - 1) : String(lower - 0.5)) : String(lower))
            }
            switch form {
            case "WxH": return numbers.map { "\($0)x64" } + (edges ? ["64x\(Int(upper) + 1)"] : [])
            case "A..B": return numbers + (edges ? ["0..\(Int(upper) + 1)", "1..0"] : [])
            case "P%": return numbers.map { "\($0)%" } + (edges ? ["0", "\(upper * 2)"] : [])
            default: return numbers
            }
        }
    }

    /// The table of docs/cli.md.
    func documentedBounds() throws -> [Bounds] {
        let text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/cli.md"), encoding: .utf8)
        let after = try XCTUnwrap(text.components(separatedBy: "### Numeric options").dropFirst().first)
        let section = after.components(separatedBy: "\n#").first ?? ""
        var rows: [Bounds] = []
        for line in section.split(separator: "\n") where line.hasPrefix("| `--") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4 else { XCTFail("not a row of four cells: \(line)"); continue }
            let option = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let commands = cells[1].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "` ")) }
            let range = try XCTUnwrap(cells[3].firstMatch(of: /^(-?[\d.]+) (<|≤) x ≤ ([\d.]+)/), String(line))
            rows.append(Bounds(option: option, commands: commands, form: cells[2], lower: Double(range.1)!,
                               lowerIncluded: range.2 == "≤", upper: Double(range.3)!))
        }
        XCTAssertGreaterThan(rows.count, 10, "the table of docs/cli.md was not found")
        return rows
    }

    /// Every option taking a value, per subcommand (`render`, `bench engine`), as the command configuration declares
    /// them, with whether it has a fixed list of values.
    func declaredOptions() throws -> [(command: String, option: String, choices: Bool)] {
        let dump = try CLIRunner.run(["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var found: [(String, String, Bool)] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "option" {
                let names = (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }
                guard let name = names.first?["name"] as? String else { continue }
                found.append((path.joined(separator: " "), "--" + name, argument["allValues"] != nil))
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path + [sub["commandName"] as? String ?? "?"])
            }
        }
        walk(try XCTUnwrap(root["command"] as? [String: Any]), [])
        return found
    }

    /// Arguments that make each command otherwise valid and quick (one small export, one frame, one repetition).
    func baseArguments(_ command: String) throws -> [String] {
        let spinner = TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner").path
        let script = TestPaths.packageRoot.appendingPathComponent("Samples/scripts/walker-interaction.json").path
        let root = work.appendingPathComponent("tree")
        if !FileManager.default.fileExists(atPath: root.path) {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: spinner, toPath: root.appendingPathComponent("spinner").path)
        }
        let out = work.appendingPathComponent("out-" + command.replacingOccurrences(of: " ", with: "-")).path
        switch command {
        case "convert", "inspect": return [spinner]
        case "play": return [script]
        case "render": return [spinner, "-o", out, "--frames", "0"]
        case "verify": return [spinner, "--golden", out, "--record", "--frames", "0"]
        case "preview": return [spinner, "-o", out + "/page.html", "--frames", "0"]
        // A sprite sheet: the format with numeric options of its own (--padding, --extrude, --max-size).
        case "export": return [spinner, "--to", "spritesheet", "-o", out + "/spinner.xml"]
        case "diff": return [spinner, spinner]
        case "batch": return [root.path, "-o", out, "--verify", out + "-goldens", "--record", "--frames", "0"]
        case "bench convert": return [spinner]
        case "bench engine": return ["--animators", "10", "--ticks", "1", "--repetitions", "1"]
        case "bench render": return [spinner, "--size", "16", "--frames", "1", "--repetitions", "1", "--jobs", "1"]
        case "bench export": return [spinner, "--repetitions", "1", "--jobs", "1"]
        case "bench preview": return [spinner, "--frames", "2", "--size", "16", "--repetitions", "1"]
        case "bench batch": return [root.path, "--repetitions", "1"]
        default: return []
        }
    }

    /// `command` with its base arguments and `option value`; a base option the walked one replaces or excludes goes.
    func arguments(_ command: String, _ option: String, _ value: String) throws -> [String] {
        var base = try baseArguments(command)
        for dropped in [option] + (option == "--at" ? ["--frames"] : []) {
            if let index = base.firstIndex(of: dropped) { base.removeSubrange(index...(index + 1)) }
        }
        return command.split(separator: " ").map(String.init) + base + [option, value]
    }

    func testEveryNumericOptionRefusesHostileValuesWithExitTwoAndNeverCrashes() throws {
        let table = try documentedBounds()
        let declared = try declaredOptions()
        var documented: [String: Bounds] = [:]
        for row in table {
            for command in row.commands {
                XCTAssertNil(documented["\(command) \(row.option)"], "\(command) \(row.option) is listed twice")
                documented["\(command) \(row.option)"] = row
            }
        }
        // Every listed option exists; every option the parser reads as a number is listed.
        let declaredKeys = Set(declared.map { "\($0.command) \($0.option)" })
        for key in documented.keys.sorted() { XCTAssertTrue(declaredKeys.contains(key), "docs/cli.md lists \(key), which does not exist") }
        // The parser reads an option as a number when it refuses `abc` but not `1` (a list of choices refuses both).
        func refused(_ run: CLIRun, _ option: String, _ value: String) -> Bool {
            run.stderr.contains("The value '\(value)' is invalid for '\(option)")
        }
        let unlisted = declared.filter { !$0.choices && documented["\($0.command) \($0.option)"] == nil }
        let probed = try runAll(unlisted.map { ($0.command, $0.option, "abc") })
        let suspects = zip(unlisted, probed).filter { refused($1, $0.option, "abc") }.map(\.0)
        let confirmed = try runAll(suspects.map { ($0.command, $0.option, "1") })
        for (run, option) in zip(probed, unlisted) {
            XCTAssertTrue(run.terminationReasonIsExit, "\(option.command) \(option.option) abc: killed by a signal")
        }
        for (run, option) in zip(confirmed, suspects) {
            XCTAssertTrue(refused(run, option.option, "1"),
                          "\(option.command) \(option.option) is read as a number but docs/cli.md does not list its bounds")
        }

        var cases: [(command: String, option: String, value: String)] = []
        for row in table {
            for (index, command) in row.commands.enumerated() {
                cases += row.values(edges: index == 0).map { (command, row.option, $0) }
            }
        }
        let results = try runAll(cases)
        var valid = 0
        for ((command, option, value), run) in zip(cases, results) {
            let bounds = documented["\(command) \(option)"]!
            let context = "keyframe \(command) \(option) \(value): \(run.status) \(run.stderr.prefix(300))"
            XCTAssertTrue(run.terminationReasonIsExit, "killed by a signal: \(context)")
            if bounds.accepts(value) {
                valid += 1
                XCTAssertTrue(run.status == 0 || run.status == 1, context)
            } else {
                XCTAssertEqual(run.status, 2, context)
                XCTAssertTrue(run.stderr.hasPrefix("keyframe: error: "), context)
                let message = run.stderr.split(separator: "\n").first ?? ""
                XCTAssertTrue(message.contains(option), "the message does not name the option: \(context)")
            }
        }
        XCTAssertGreaterThan(valid, 5, "some values inside the bounds were run")
        XCTAssertGreaterThan(cases.count, 350)
    }

    /// Runs every case in the test's folder (`-o abc` writes there), four at a time; results in the order of `cases`.
    func runAll(_ cases: [(command: String, option: String, value: String)]) throws -> [CLIRun] {
        let arguments = try cases.map { try self.arguments($0.command, $0.option, $0.value) }
        let results = Results(count: arguments.count)
        let folder = work!
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            while let index = results.next() {
                results.set(index, (try? CLIRunner.run(arguments[index], directory: folder))
                    ?? CLIRun(status: -1, stdout: "", stderr: "could not start", terminationReasonIsExit: false))
            }
        }
        return results.all
    }
}

/// Results of runs shared by the workers of ``NumericOptionsCLITests/runAll(_:)``.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [CLIRun?]
    private var position = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func next() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard position < slots.count else { return nil }
        position += 1
        return position - 1
    }

    func set(_ index: Int, _ run: CLIRun) { lock.lock(); slots[index] = run; lock.unlock() }
    var all: [CLIRun] { lock.lock(); defer { lock.unlock() }; return slots.map { $0! } }
}
