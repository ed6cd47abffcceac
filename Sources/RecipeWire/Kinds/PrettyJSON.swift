// MARK: - Pretty JSON

/// JSON with its members in a given order, written as the schema files are: two spaces
/// an indent, one member or item a line, `": "` and `", "` as Python's `json.dumps(indent=2,
/// ensure_ascii=False)` writes them, so that a generated file and a hand-kept one compare.
indirect enum PrettyJSON: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case array([PrettyJSON])
    case object([(String, PrettyJSON)])

    static func == (lhs: PrettyJSON, rhs: PrettyJSON) -> Bool { lhs.indented(0) == rhs.indented(0) }

    /// A whole file: the value and a newline.
    static func text(_ value: PrettyJSON) -> String { value.indented(0) + "\n" }

    /// The value as it is written nested `level` deep (its first line not indented).
    func indented(_ level: Int) -> String {
        let inner = String(repeating: "  ", count: level + 1)
        let outer = String(repeating: "  ", count: level)
        switch self {
        case .string(let text): return Self.quoted(text)
        case .integer(let value): return String(value)
        case .number(let value): return value == value.rounded() ? String(Int(value)) : String(value)
        case .bool(let value): return value ? "true" : "false"
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { inner + $0.indented(level + 1) }.joined(separator: ",\n") + "\n\(outer)]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            return "{\n" + members.map { inner + Self.quoted($0.0) + ": " + $0.1.indented(level + 1) }
                .joined(separator: ",\n") + "\n\(outer)}"
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
