/// Rewrites the command line before ArgumentParser reads it.
enum CommandArguments {
    /// Options that take several values in a row (`--at 0 0.5 1`).
    static let multiValueOptions: Set<String> = ["--at"]

    /// Attaches negative numbers to the option they are the value of: `--at -1` becomes `--at=-1` (and
    /// `--at 0 -1` becomes `--at 0 --at=-1`), so that the option's own check can say what is wrong with the value
    /// instead of ArgumentParser reporting a missing value. Nothing after `--` is touched.
    static func attachingNegativeNumbers(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var option: String? = nil
        var valuesOfOption = 0
        for (index, token) in arguments.enumerated() {
            if token == "--" {
                result += arguments[index...]
                break
            }
            if isNegativeNumber(token), let current = option {
                if valuesOfOption == 0 {
                    result[result.count - 1] = "\(current)=\(token)"
                    valuesOfOption = 1
                    if !multiValueOptions.contains(current) { option = nil }
                    continue
                }
                if multiValueOptions.contains(current) {
                    result.append("\(current)=\(token)")
                    continue
                }
            }
            if token.hasPrefix("--"), !token.contains("=") {
                option = token
                valuesOfOption = 0
            } else if token.hasPrefix("-") {
                option = nil
            } else if option != nil {
                valuesOfOption += 1
                if let current = option, !multiValueOptions.contains(current) { option = nil }
            }
            result.append(token)
        }
        return result
    }

    /// `-1`, `-0.5`, `-.5`, `-1..2`, `-inf`, `-nan`.
    static func isNegativeNumber(_ token: String) -> Bool {
        guard token.hasPrefix("-"), !token.hasPrefix("--") else { return false }
        let rest = token.dropFirst()
        if let first = rest.first, first.isASCII, first.isNumber { return true }
        if rest.hasPrefix("."), rest.dropFirst().first?.isNumber == true { return true }
        return ["inf", "infinity", "nan"].contains(rest.lowercased())
    }
}
