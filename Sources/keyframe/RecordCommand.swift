import Foundation

/// The command line that records the frames a failed verification rendered as the new golden frames: the command
/// as it was run, without the options that only say where reports go or how many workers run (they change nothing
/// that is recorded), plus `--record`, quoted for a POSIX shell. The verify reports show it.
enum RecordCommand {
    /// `arguments` (as `CommandLine.arguments`) without the options in `dropping` (each with its value, written
    /// `--option value` or `--option=value`) and the flags in `droppingFlags`, plus `--record`.
    static func text(_ arguments: [String], dropping: Set<String>, droppingFlags: Set<String> = []) -> String {
        var kept: [String] = []
        var index = 0
        var afterSeparator = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !afterSeparator {
                if argument == "--" { afterSeparator = true }
                if dropping.contains(argument) { index += 1; continue }
                if let equals = argument.firstIndex(of: "="), dropping.contains(String(argument[..<equals])) { continue }
                if droppingFlags.contains(argument) || argument == "--record" { continue }
            }
            kept.append(argument)
        }
        // `--record` goes before a `--` so that it is read as an option.
        if let separator = kept.firstIndex(of: "--") { kept.insert("--record", at: separator) } else { kept.append("--record") }
        return kept.map(quote).joined(separator: " ")
    }

    /// `text` for a POSIX shell: as it is when it holds only characters no shell treats specially, otherwise in
    /// single quotes (a single quote inside written `'\''`).
    static func quote(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            (scalar.value < 128 && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                || "@%+=:,./_-".unicodeScalars.contains(scalar)
        }
        if plain { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
