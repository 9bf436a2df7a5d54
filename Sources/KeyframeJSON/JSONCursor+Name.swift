/// Names the way JavaScript runtimes read them: DragonBonesJS (`ObjectDataParser._getString`) and the DragonBones
/// tools turn any present value into text with `String(value)`, so an exporter that wrote `"name": 1` gets the
/// animation `"1"`.
extension JSONCursor {
    /// The value as a name: a string as it is; a number as JavaScript's `String(number)` writes it (`1`, `0.5`,
    /// `1e+21`); `true`/`false`. Arrays and objects are an error with the path (no exporter writes them as names,
    /// and JavaScript's `"[object Object]"` would only hide the mistake).
    public func name() throws(JSONSchemaError) -> String {
        switch value {
        case .string(let text): return text
        case .number(let number): return JSONCursor.javaScriptText(of: number)
        case .bool(let flag): return flag ? "true" : "false"
        default: throw error("expected a name (a string or a number), found \(value.typeName)")
        }
    }

    /// The required member `key` as a name (see ``name()``).
    public func name(_ key: String) throws(JSONSchemaError) -> String {
        // The common case, a string, without making a cursor.
        if case .object(let members) = value, case .string(let text)? = members[key] { return text }
        return try member(key).name()
    }

    /// The member `key` as a name (see ``name()``), or `nil` when absent or null.
    public func optionalName(_ key: String) throws(JSONSchemaError) -> String? {
        if case .object(let members) = value {
            switch members[key] {
            case .string(let text)?: return text
            case nil, .null?: return nil
            default: break
            }
        }
        return try optionalMember(key)?.name()
    }

    /// ECMAScript's Number::toString(10): the shortest digits that read back to the same value, written without an
    /// exponent from 10⁻⁶ up to 10²¹ and as `d.ddde±n` outside; `NaN`, `Infinity`, `-Infinity`; `-0` is `0`.
    public static func javaScriptText(of number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == 0 { return "0" }
        let sign = number < 0 ? "-" : ""
        // Swift's description is also the shortest round-trip text; take its digits and decimal exponent.
        var text = Substring(abs(number).description)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        var digits = ""
        var pointAt = text.count
        for (offset, character) in text.enumerated() {
            if character == "." { pointAt = offset } else { digits.append(character) }
        }
        // value = 0.digits × 10^n
        var n = pointAt + exponent
        while digits.hasPrefix("0") && digits.count > 1 {
            digits.removeFirst()
            n -= 1
        }
        while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
        let k = digits.count
        let result: String
        if k <= n && n <= 21 {
            result = digits + String(repeating: "0", count: n - k)
        } else if 0 < n && n <= 21 {
            let split = digits.index(digits.startIndex, offsetBy: n)
            result = digits[..<split] + "." + digits[split...]
        } else if -6 < n && n <= 0 {
            result = "0." + String(repeating: "0", count: -n) + digits
        } else {
            let e = n - 1
            let mantissa = k == 1 ? digits : String(digits.first!) + "." + digits.dropFirst()
            result = mantissa + "e" + (e < 0 ? "-" : "+") + String(abs(e))
        }
        return sign + result
    }
}
