import RecipeJSON
import RecipeWire

// MARK: - JSON as recipe pages write it
//
// Pages hand their JSON-LD to browsers and search engines, which read more than the JSON
// grammar: raw line breaks and tabs inside strings, `\'`, a `;` or a `// ]]>` after the
// object, comments, trailing commas. A strict parser refuses such a page whole, though
// every reader its author tried took it; this one reads what is unambiguous and
// refuses only what is not JSON-shaped at all. It never reads valid JSON differently
// from a strict parser. The log's records keep their strict scanner (`JSONScanner`):
// only the import is lenient.
//
// One pass, each byte looked at a bounded number of times, and a budget of values
// and depth: the work is linear in the input and bounded per document.

/// Reads one JSON text, or several one after another (`{…}{…}`, JSON lines), leniently.
struct LenientJSONReader {
    /// How much one document may hold; shared by every block of a page.
    struct Budget {
        /// The most values (objects, lists, strings, numbers, literals) a document holds.
        let limit: Int
        /// Values still allowed.
        var values: Int
        /// How deep objects and lists may nest.
        let depth: Int
        /// The most steps reading may take: a step is a byte of the document scanned or a byte
        /// of text copied into a value, so the whole read costs at most this, whatever the markup.
        let maxSteps: Int
        /// Steps taken so far.
        private(set) var steps = 0
        /// Asked whether to go on, every `stepsBetweenChecks` steps; true stops the reading.
        let shouldStop: (() -> Bool)?
        private var nextCheck = 0
        static let stepsBetweenChecks = 1 << 16

        init(values: Int, depth: Int, maxSteps: Int = .max, shouldStop: (() -> Bool)? = nil) {
            (limit, self.values, self.depth, self.maxSteps, self.shouldStop) = (values, values, depth, maxSteps, shouldStop)
        }

        /// Counts one value; past the limit, the failure that says so.
        mutating func take() throws(Failure) {
            values -= 1
            guard values >= 0 else { throw .overBudget("more than \(limit) values") }
        }

        /// Counts `count` steps: past `maxSteps`, `tooMuchWork`; when `shouldStop` says so, `interrupted`.
        mutating func step(_ count: Int) throws(Failure) {
            steps += count
            guard steps <= maxSteps else { throw .tooMuchWork("more than \(maxSteps) steps (bytes read and text copied)") }
            guard steps >= nextCheck else { return }
            nextCheck = steps + Self.stepsBetweenChecks
            if shouldStop?() == true { throw .interrupted }
        }
    }

    enum Failure: Error, Equatable {
        /// Not JSON-shaped: what was expected, and where (line and column, from 1).
        case syntax(String)
        /// Over the budget of values or depth: what was over it.
        case overBudget(String)
        /// Over the budget of steps: the whole document is refused, as it costs more than an import may.
        case tooMuchWork(String)
        /// `Budget.shouldStop` said to stop.
        case interrupted
    }

    private let bytes: [UInt8]
    private var index: Int
    private var budget: Budget
    private var depth = 0

    private init(_ bytes: ArraySlice<UInt8>, budget: Budget) {
        self.bytes = Array(bytes)
        self.index = 0
        self.budget = budget
    }

    /// The value of `bytes`: one value, or a list of the values when several follow one
    /// another. `budget` is what is left after this call (or as it was, when it throws).
    static func read(_ bytes: ArraySlice<UInt8>, budget: inout Budget) -> Result<JSONValue, Failure> {
        var reader = LenientJSONReader(bytes, budget: budget)
        var values: [JSONValue] = []
        reader.skipSpace()
        while reader.index < reader.bytes.count {
            do {
                values.append(try reader.value())
            } catch {
                // What follows a complete value (a script's own code after the object) is not data.
                if case .syntax = error, !values.isEmpty { break }
                return .failure(error)
            }
            reader.skipSpace()
            // `};`, `},` between or after values: script punctuation, not data.
            while reader.index < reader.bytes.count, reader.bytes[reader.index] == UInt8(ascii: ";") || reader.bytes[reader.index] == UInt8(ascii: ",") {
                reader.index += 1
                reader.skipSpace()
            }
        }
        guard let first = values.first else { return .failure(.syntax("there is no value in it")) }
        budget = reader.budget
        return .success(values.count == 1 ? first : .array(values))
    }

    // MARK: - Values

    private mutating func value() throws(Failure) -> JSONValue {
        try budget.take()
        guard index < bytes.count else { throw failure("a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default:
            let start = index
            switch identifier() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            // `undefined`, `NaN` and `Infinity` are what scripts print for a missing or broken number.
            case "null", "undefined", "NaN", "Infinity": return .null
            default:
                index = start
                throw failure("a value")
            }
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var members: [String: JSONValue] = [:]
        while true {
            skipSeparators()
            guard index < bytes.count else { throw failure("\"}\"") }
            if bytes[index] == UInt8(ascii: "}") { break }
            let name: String
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): name = try string()
            default:
                // A script's object literal: `{name: "…"}`.
                name = identifier()
                guard !name.isEmpty else { throw failure("a member name") }
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("\":\" after a member name") }
            index += 1
            skipSpace()
            members[name] = try value()
        }
        index += 1
        depth -= 1
        return .object(members)
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enter()
        index += 1
        var items: [JSONValue] = []
        while true {
            skipSeparators()
            guard index < bytes.count else { throw failure("\"]\"") }
            if bytes[index] == UInt8(ascii: "]") { break }
            items.append(try value())
        }
        index += 1
        depth -= 1
        return .array(items)
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= budget.depth else { throw .overBudget("objects and lists nested deeper than \(budget.depth) levels") }
    }

    /// Space and commas between members or items: a missing or trailing comma is not an error.
    private mutating func skipSeparators() {
        skipSpace()
        while index < bytes.count, bytes[index] == UInt8(ascii: ",") {
            index += 1
            skipSpace()
        }
    }

    // MARK: - Strings

    /// A string in double or single quotes. Raw control characters are kept as they are
    /// (a line break is a line break); an escape JSON does not know (`\'`) is the character.
    private mutating func string() throws(Failure) -> String {
        let quote = bytes[index]
        index += 1
        // Most strings have no escape: they are decoded straight from the page's bytes.
        var text: [UInt8]?
        var runStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                defer { index += 1 }
                guard var escaped = text else { return String(decoding: bytes[runStart..<index], as: UTF8.self) }
                escaped += bytes[runStart..<index]
                return String(decoding: escaped, as: UTF8.self)
            }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            var unescaped = text ?? []
            text = nil  // the one owner of the buffer, so appending does not copy it
            unescaped += bytes[runStart..<index]
            index += 1
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): unescaped.append(0x0A)
            case UInt8(ascii: "t"): unescaped.append(0x09)
            case UInt8(ascii: "r"): unescaped.append(0x0D)
            case UInt8(ascii: "b"): unescaped.append(0x08)
            case UInt8(ascii: "f"): unescaped.append(0x0C)
            case UInt8(ascii: "u"): appendUnicodeEscape(to: &unescaped)
            // A backslash before a line break continues the line, as in a script.
            case 0x0A: break
            default: unescaped.append(escaped)
            }
            text = unescaped
            runStart = index
        }
        throw failure("the end of a string")
    }

    /// `\uXXXX` (after the `u`), a surrogate pair as one character; a lone surrogate or a
    /// broken escape is U+FFFD, as a browser shows it.
    private mutating func appendUnicodeEscape(to text: inout [UInt8]) {
        guard let high = hexQuad() else { return text += Array("\u{FFFD}".utf8) }
        var scalar = Unicode.Scalar(high)
        if (0xD800...0xDBFF).contains(high), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
            let mark = index
            index += 2
            if let low = hexQuad(), (0xDC00...0xDFFF).contains(low) {
                scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            } else {
                index = mark
            }
        }
        text += Array(String(Character(scalar ?? "\u{FFFD}")).utf8)
    }

    private mutating func hexQuad() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    // MARK: - Numbers and words

    /// A number: an integer that fits `Int64` stays one (servings are 4, not 4.0).
    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var isInteger = true
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): break
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): isInteger = false
            // A sign only right after the exponent's "e".
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard bytes[index - 1] | 0x20 == UInt8(ascii: "e") else { return try numberValue(bytes[start..<index], isInteger: isInteger) }
            default:
                return try numberValue(bytes[start..<index], isInteger: isInteger)
            }
            index += 1
        }
        return try numberValue(bytes[start..<index], isInteger: isInteger)
    }

    private func numberValue(_ text: ArraySlice<UInt8>, isInteger: Bool) throws(Failure) -> JSONValue {
        let string = String(decoding: text.first == UInt8(ascii: "+") ? text.dropFirst() : text, as: UTF8.self)
        if isInteger, let integer = Int64(string) { return .integer(integer) }
        guard let number = Double(string), number.isFinite else { throw failure("a number") }
        return .number(number)
    }

    /// Letters, digits, `_`, `$`, `@` and `-`: a literal, or a member name without quotes.
    private mutating func identifier() -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isWordByte = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "@") || (byte == UInt8(ascii: "-") && index > start)
            guard isWordByte else { break }
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    // MARK: - Space, comments, wrappers

    /// White space (a no-break space too), `//` and `/* */` comments, and the `<!--`, `-->`,
    /// `<![CDATA[` and `]]>` marks old pages wrap their scripts in.
    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                index += 1
            case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0xA0:
                index += 2
            case 0xEF where hasPrefix([0xEF, 0xBB, 0xBF]):
                index += 3
            case UInt8(ascii: "/") where hasPrefix("//"):
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            case UInt8(ascii: "/") where hasPrefix("/*"):
                index += 2
                while index < bytes.count, !hasPrefix("*/") { index += 1 }
                index = min(index + 2, bytes.count)
            case UInt8(ascii: "<") where hasPrefix("<!--"):
                index += 4
            case UInt8(ascii: "<") where hasPrefix("<![CDATA["):
                index += 9
            case UInt8(ascii: "-") where hasPrefix("-->"):
                index += 3
            case UInt8(ascii: "]") where hasPrefix("]]>"):
                index += 3
            default:
                return
            }
        }
    }

    private func hasPrefix(_ text: StaticString) -> Bool {
        hasPrefix(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private func hasPrefix<Prefix: Collection<UInt8>>(_ prefix: Prefix) -> Bool {
        guard index + prefix.count <= bytes.count else { return false }
        return zip(bytes[index...], prefix).allSatisfy { $0 == $1 }
    }

    // MARK: - Errors

    /// "expected X at line L, column C": the place a person finds in the page's source.
    private func failure(_ expected: String) -> Failure {
        var line = 1
        var lineStart = 0
        for position in 0..<min(index, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        let column = String(decoding: bytes[lineStart..<min(index, bytes.count)], as: UTF8.self).count + 1
        let found = index < bytes.count ? "\(String(decoding: bytes[index..<min(index + 12, bytes.count)], as: UTF8.self).debugDescription)" : "the end"
        return .syntax("expected \(expected) at line \(line), column \(column), found \(found)")
    }
}
