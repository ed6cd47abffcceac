// MARK: - JSON scanner
//
// A byte-level scanner of RFC 8259 JSON over a borrowed buffer. It builds no tree:
// the envelope's members are read one at a time, and each member's value is laid
// down as a tape (`JSONTape`), its tokens in document order, which the readers of
// `data` then index instead of scanning the bytes again at every level of nesting.
// Whatever it accepts is valid JSON — strict grammar, UTF-8 checked byte by byte,
// escapes and surrogate pairs checked — so tokens can be converted later without
// checking again. Containers deeper than `WireFormat.maxNestingDepth` are refused,
// which bounds the recursion, so no input can exhaust the stack; the caller bounds
// the input size.

/// A value found in the buffer, not yet converted.
struct JSONToken {
    enum Kind: UInt8 {
        case string, number, object, array, bool, null

        /// How messages name it.
        var article: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .object: "an object"
            case .array: "an array"
            case .bool: "a boolean"
            case .null: "null"
            }
        }
    }

    let kind: Kind
    /// String: holds a backslash escape. Number: a plain integer (no fraction or
    /// exponent). Bool: true.
    let flag: Bool
    // Offsets in 32 bits: a scanner reads at most one record (`JSONScanner.init`
    // checks), which keeps a token at 16 bytes, half what 64-bit offsets would take:
    // 64 of them fit the kibibyte of stack a decoder lends its tape.
    private let start32: Int32
    private let end32: Int32
    private let next32: Int32

    /// String: the first byte after the opening quote. Others: the first byte.
    var start: Int { Int(start32) }
    /// String: the closing quote. Others: one past the last byte.
    var end: Int { Int(end32) }
    /// On a tape, the index of the token after this value and all it holds: a
    /// container's members or elements are the tokens up to it. 0 off a tape.
    var next: Int { Int(next32) }

    init(kind: Kind, start: Int, end: Int, flag: Bool, next: Int) {
        self.kind = kind
        self.flag = flag
        start32 = Int32(truncatingIfNeeded: start)
        end32 = Int32(truncatingIfNeeded: end)
        next32 = Int32(truncatingIfNeeded: next)
    }
}

struct JSONScanner {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0
    /// Where the first escape of a C0 control character other than tab and newline
    /// (`\u0000`, `\b`, `\r`…) starts, if any: valid JSON, but no string of a record
    /// may hold one (`AttributeReader.controlCharacterError`). Raw ones are bad JSON.
    private(set) var firstControlEscape: Int?

    /// `bytes` may be at most one record long (a decision's cap, `DecisionFormat.maxRecordSize`,
    /// is the larger), which keeps every offset of a token within 32 bits.
    init(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= DecisionFormat.maxRecordSize, "the scanner reads one record at most")
        self.bytes = bytes
    }

    // MARK: - Structure

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset &+= 1
            default: return
            }
        }
    }

    /// Consumes `{` (after whitespace) as a container at `depth`.
    mutating func openObject(depth: Int) throws(WireError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "{") else { throw syntaxError("expected an object") }
        guard depth <= WireFormat.maxNestingDepth else { throw tooDeep() }
        offset &+= 1
    }

    /// The next member's key of an object opened with `openObject`, with its `:`
    /// consumed; nil once the closing `}` is consumed. `first` tracks whether a comma
    /// is due. Told the name most likely next (records list their members in a known
    /// order), a key that is `expected` as written, without escapes, is matched where
    /// it lies instead of scanned then compared (`isExpected`).
    mutating func nextKey(first: inout Bool, expecting expected: StaticString?) throws(WireError) -> (key: JSONToken, isExpected: Bool)? {
        guard try memberStart(first: &first) else { return nil }
        if let expected, let key = key(writtenAs: expected) {
            try colon()
            return (key, true)
        }
        let key = try string(next: 0)
        try colon()
        return (key, false)
    }

    /// The key whose opening quote is under `offset` when it is `name` as written, with
    /// `offset` after its closing quote; nil otherwise.
    private mutating func key(writtenAs name: StaticString) -> JSONToken? {
        let start = offset &+ 1, count = name.utf8CodeUnitCount
        // `name` is a plain ASCII name: equal bytes then a quote are that string, whole.
        guard start &+ count < bytes.count, bytes[start &+ count] == UInt8(ascii: "\""),
              Self.same(UnsafeRawBufferPointer(rebasing: bytes[start..<(start &+ count)]),
                        UnsafeRawBufferPointer(start: name.utf8Start, count: count))
        else { return nil }
        offset = start &+ count &+ 1
        return JSONToken(kind: .string, start: start, end: start &+ count, flag: false, next: 0)
    }

    /// Steps to the next member: true with the offset on its key's opening quote, false
    /// once the closing `}` is consumed.
    private mutating func memberStart(first: inout Bool) throws(WireError) -> Bool {
        skipWhitespace()
        guard offset < bytes.count else { throw syntaxError("unexpected end inside an object") }
        if bytes[offset] == UInt8(ascii: "}") {
            // Ends the object right after `{` or after a member; a `}` after a comma
            // is refused below, where a key is demanded.
            offset &+= 1
            return false
        }
        if !first {
            guard bytes[offset] == UInt8(ascii: ",") else { throw syntaxError("expected , or } after a member") }
            offset &+= 1
            skipWhitespace()
            guard offset < bytes.count else { throw syntaxError("unexpected end inside an object") }
        }
        guard bytes[offset] == UInt8(ascii: "\"") else { throw syntaxError("expected a member name in quotes") }
        first = false
        return true
    }

    private mutating func colon() throws(WireError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw syntaxError("expected : after a member name") }
        offset &+= 1
    }

    /// Scans one value at `depth` onto `tape` with all it holds and returns its index.
    /// A container's token comes first, its `next` the index after its last member or
    /// element; an object's members follow as key, value, key, value….
    @discardableResult
    mutating func value(depth: Int, onto tape: inout JSONTapeWriter) throws(WireError) -> Int {
        skipWhitespace()
        guard offset < bytes.count else { throw syntaxError("expected a value") }
        let index = tape.count, start = offset
        switch bytes[offset] {
        case UInt8(ascii: "\""):
            tape.append(try string(next: index &+ 1))
        case UInt8(ascii: "{"):
            try openObject(depth: depth)
            tape.append(JSONToken(kind: .object, start: start, end: start, flag: false, next: 0)) // completed below
            var first = true
            while try memberStart(first: &first) {
                tape.append(try string(next: tape.count &+ 1))
                try colon()
                try value(depth: depth &+ 1, onto: &tape)
            }
            tape[index] = JSONToken(kind: .object, start: start, end: offset, flag: false, next: tape.count)
        case UInt8(ascii: "["):
            guard depth <= WireFormat.maxNestingDepth else { throw tooDeep() }
            offset &+= 1
            tape.append(JSONToken(kind: .array, start: start, end: start, flag: false, next: 0)) // completed below
            try elements(depth: depth, onto: &tape)
            tape[index] = JSONToken(kind: .array, start: start, end: offset, flag: false, next: tape.count)
        case UInt8(ascii: "t"):
            try literal("true")
            tape.append(JSONToken(kind: .bool, start: start, end: offset, flag: true, next: index &+ 1))
        case UInt8(ascii: "f"):
            try literal("false")
            tape.append(JSONToken(kind: .bool, start: start, end: offset, flag: false, next: index &+ 1))
        case UInt8(ascii: "n"):
            try literal("null")
            tape.append(JSONToken(kind: .null, start: start, end: offset, flag: false, next: index &+ 1))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            tape.append(try number(next: index &+ 1))
        default:
            throw syntaxError("expected a value")
        }
        return index
    }

    /// Only whitespace may follow the top-level value.
    mutating func expectEnd() throws(WireError) {
        skipWhitespace()
        guard offset == bytes.count else { throw syntaxError("unexpected bytes after the record") }
    }

    /// The elements of an array at `depth` whose `[` is consumed, through its `]`.
    private mutating func elements(depth: Int, onto tape: inout JSONTapeWriter) throws(WireError) {
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset &+= 1
            return
        }
        while true {
            try value(depth: depth &+ 1, onto: &tape)
            skipWhitespace()
            guard offset < bytes.count else { throw syntaxError("unexpected end inside an array") }
            switch bytes[offset] {
            case UInt8(ascii: ","): offset &+= 1
            case UInt8(ascii: "]"): offset &+= 1; return
            default: throw syntaxError("expected , or ] after an element")
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws(WireError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count &- offset >= count else { throw syntaxError("expected a value") }
        for index in 0..<count where bytes[offset &+ index] != word.utf8Start[index] {
            throw syntaxError("expected a value")
        }
        offset &+= count
    }

    // MARK: - Numbers

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number(next: Int) throws(WireError) -> JSONToken {
        let start = offset
        var plainInteger = true
        if bytes[offset] == UInt8(ascii: "-") { offset &+= 1 }
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw syntaxError("expected a digit") }
        if bytes[offset] == UInt8(ascii: "0") {
            offset &+= 1
        } else {
            skipDigits()
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            plainInteger = false
            offset &+= 1
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw syntaxError("expected a digit after .") }
            skipDigits()
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            plainInteger = false
            offset &+= 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset &+= 1 }
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw syntaxError("expected a digit in the exponent") }
            skipDigits()
        }
        return JSONToken(kind: .number, start: start, end: offset, flag: plainInteger, next: next)
    }

    private mutating func skipDigits() {
        while offset < bytes.count, isDigit(bytes[offset]) { offset &+= 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    // MARK: - Strings

    /// A string starting at the opening quote under `offset`; leaves `offset` after
    /// the closing quote.
    private mutating func string(next: Int) throws(WireError) -> JSONToken {
        offset &+= 1
        let start = offset
        var escaped = false
        let count = bytes.count
        while offset < count {
            // Eight bytes at a time while all are plain ASCII (ids, names, times),
            // then straight to the first byte that is not.
            if offset &+ 8 <= count {
                let plain = ByteWord(bytes, at: offset).plainASCIIPrefix
                offset &+= plain
                if plain == 8 { continue }
            }
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let token = JSONToken(kind: .string, start: start, end: offset, flag: escaped, next: next)
                offset &+= 1
                return token
            }
            if byte < 0x80 {
                // Plain ASCII is by far the most common case; keep it one compare away.
                if byte >= 0x20, byte != UInt8(ascii: "\\") {
                    offset &+= 1
                    continue
                }
                if byte < 0x20 { throw syntaxError("control character in a string (write it as an escape)") }
                escaped = true
                try escape()
            } else {
                try utf8Sequence(lead: byte)
            }
        }
        throw syntaxError("unterminated string")
    }

    /// The escape whose backslash is under `offset`.
    private mutating func escape() throws(WireError) {
        guard offset &+ 1 < bytes.count else { throw syntaxError("unterminated string") }
        switch bytes[offset &+ 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "n"), UInt8(ascii: "t"):
            offset &+= 2
        case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "r"):
            if firstControlEscape == nil { firstControlEscape = offset }
            offset &+= 2
        case UInt8(ascii: "u"):
            let unit = try hex4(at: offset &+ 2)
            if unit < 0x20, unit != 0x09, unit != 0x0A, firstControlEscape == nil { firstControlEscape = offset }
            offset &+= 6
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed by an escaped low one: Swift
                // strings hold Unicode scalars, and a lone half is none.
                guard offset &+ 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset &+ 1] == UInt8(ascii: "u"),
                      case 0xDC00...0xDFFF = try hex4(at: offset &+ 2)
                else { throw syntaxError("unpaired surrogate in a \\u escape") }
                offset &+= 6
            case 0xDC00...0xDFFF:
                throw syntaxError("unpaired surrogate in a \\u escape")
            default:
                break
            }
        default:
            throw syntaxError("unknown escape in a string")
        }
    }

    private func hex4(at index: Int) throws(WireError) -> UInt16 {
        guard index &+ 4 <= bytes.count else { throw syntaxError("unterminated \\u escape") }
        var unit: UInt16 = 0
        for position in index..<(index &+ 4) {
            guard let digit = Self.hexValue(bytes[position]) else { throw syntaxError("bad hex digit in a \\u escape") }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// One well-formed UTF-8 sequence (Unicode 15, table 3-7): no overlong forms,
    /// no surrogates, nothing above U+10FFFF.
    private mutating func utf8Sequence(lead: UInt8) throws(WireError) {
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw syntaxError("invalid UTF-8")
        }
        guard offset &+ length <= bytes.count else { throw syntaxError("invalid UTF-8") }
        let second = bytes[offset &+ 1]
        guard second >= low, second <= high else { throw syntaxError("invalid UTF-8") }
        for index in 2..<max(2, length) where bytes[offset &+ index] & 0xC0 != 0x80 {
            throw syntaxError("invalid UTF-8")
        }
        offset &+= length
    }

    // MARK: - Errors

    /// Built only when the input is bad, so valid records pay for no strings.
    func syntaxError(_ reason: String) -> WireError {
        .malformed("Not valid JSON at byte \(offset): \(reason).")
    }

    private func tooDeep() -> WireError {
        .malformed("Not valid JSON at byte \(offset): nested deeper than \(WireFormat.maxNestingDepth) levels.")
    }
}
