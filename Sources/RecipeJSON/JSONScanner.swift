// MARK: - JSON scanner
//
// A byte-level scanner of RFC 8259 JSON over a borrowed buffer. It builds no tree:
// the envelope's members are read one at a time, and each member's value is laid
// down as a tape (`JSONTape`), its tokens in document order, which the readers of
// `data` then index instead of scanning the bytes again at every level of nesting.
// Whatever it accepts is valid JSON — strict grammar, UTF-8 checked byte by byte,
// escapes and surrogate pairs checked — so tokens can be converted later without
// checking again. Containers deeper than the caller's `maxNestingDepth` are refused,
// which bounds the recursion, so no input can exhaust the stack; the caller bounds
// the input size.
//
// Its callers, the record decoders of other modules, call it per token and per byte:
// what they reach is `@inlinable`, compiled into them as if it were their own code;
// only the building of an error (bad input) is a call.

/// A value found in the buffer, not yet converted.
public struct JSONToken: Sendable {
    public enum Kind: UInt8, Sendable {
        case string, number, object, array, bool, null

        /// How messages name it.
        public var article: String {
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

    public let kind: Kind
    /// String: holds a backslash escape. Number: a plain integer (no fraction or
    /// exponent). Bool: true.
    public let flag: Bool
    // Offsets in 32 bits: a scanner reads at most one record (`JSONScanner.init`
    // checks), which keeps a token at 16 bytes, half what 64-bit offsets would take:
    // 64 of them fit the kibibyte of stack a decoder lends its tape.
    @usableFromInline let start32: Int32
    @usableFromInline let end32: Int32
    @usableFromInline let next32: Int32

    /// String: the first byte after the opening quote. Others: the first byte.
    @inlinable public var start: Int { Int(start32) }
    /// String: the closing quote. Others: one past the last byte.
    @inlinable public var end: Int { Int(end32) }
    /// On a tape, the index of the token after this value and all it holds: a
    /// container's members or elements are the tokens up to it. 0 off a tape.
    @inlinable public var next: Int { Int(next32) }

    @inlinable
    public init(kind: Kind, start: Int, end: Int, flag: Bool, next: Int) {
        self.kind = kind
        self.flag = flag
        start32 = Int32(truncatingIfNeeded: start)
        end32 = Int32(truncatingIfNeeded: end)
        next32 = Int32(truncatingIfNeeded: next)
    }
}

public struct JSONScanner {
    public let bytes: UnsafeRawBufferPointer
    /// How deep containers may nest: the value `value(depth:onto:)` is first called with
    /// is at `depth` 1 (or more), and a container deeper than this is refused.
    public let maxNestingDepth: Int
    /// Where the next byte to read is.
    @usableFromInline var offset = 0
    /// Where the first escape of a C0 control character other than tab and newline
    /// (`\u0000`, `\b`, `\r`…) starts, if any: valid JSON, but no string of a record
    /// may hold one (RecipeWire's `controlCharacterError`). Raw ones are bad JSON.
    @inlinable public var firstControlEscape: Int? { firstControlEscapeOffset }
    @usableFromInline var firstControlEscapeOffset: Int?

    /// The largest input: every offset of a token must fit in 32 bits.
    @inlinable public static var maxInputSize: Int { Int(Int32.max) }

    /// `bytes` may be at most `maxInputSize` long (callers read one record, a few MiB at most).
    @inlinable
    public init(_ bytes: UnsafeRawBufferPointer, maxNestingDepth: Int) {
        precondition(bytes.count <= Self.maxInputSize, "the scanner reads at most 2 GiB")
        self.bytes = bytes
        self.maxNestingDepth = maxNestingDepth
    }

    // MARK: - Structure

    @inlinable
    public mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset &+= 1
            default: return
            }
        }
    }

    /// Consumes `{` (after whitespace) as a container at `depth`.
    @inlinable
    public mutating func openObject(depth: Int) throws(JSONSyntaxError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "{") else { throw syntaxError("expected an object") }
        guard depth <= maxNestingDepth else { throw tooDeep() }
        offset &+= 1
    }

    /// The next member's key of an object opened with `openObject`, with its `:`
    /// consumed; nil once the closing `}` is consumed. `first` tracks whether a comma
    /// is due. Told the name most likely next (records list their members in a known
    /// order), a key that is `expected` as written, without escapes, is matched where
    /// it lies instead of scanned then compared (`isExpected`).
    @inlinable
    public mutating func nextKey(first: inout Bool, expecting expected: StaticString?) throws(JSONSyntaxError) -> (key: JSONToken, isExpected: Bool)? {
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
    @inlinable
    mutating func key(writtenAs name: StaticString) -> JSONToken? {
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
    @inlinable
    mutating func memberStart(first: inout Bool) throws(JSONSyntaxError) -> Bool {
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

    @inlinable
    mutating func colon() throws(JSONSyntaxError) {
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw syntaxError("expected : after a member name") }
        offset &+= 1
    }

    /// Scans one value at `depth` onto `tape` with all it holds and returns its index.
    /// A container's token comes first, its `next` the index after its last member or
    /// element; an object's members follow as key, value, key, value….
    @inlinable @discardableResult
    public mutating func value(depth: Int, onto tape: inout JSONTapeWriter) throws(JSONSyntaxError) -> Int {
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
            guard depth <= maxNestingDepth else { throw tooDeep() }
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
    @inlinable
    public mutating func expectEnd() throws(JSONSyntaxError) {
        skipWhitespace()
        guard offset == bytes.count else { throw syntaxError("unexpected bytes after the record") }
    }

    /// The elements of an array at `depth` whose `[` is consumed, through its `]`.
    @inlinable
    mutating func elements(depth: Int, onto tape: inout JSONTapeWriter) throws(JSONSyntaxError) {
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

    @inlinable
    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count &- offset >= count else { throw syntaxError("expected a value") }
        for index in 0..<count where bytes[offset &+ index] != word.utf8Start[index] {
            throw syntaxError("expected a value")
        }
        offset &+= count
    }

    // MARK: - Numbers

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    @inlinable
    mutating func number(next: Int) throws(JSONSyntaxError) -> JSONToken {
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

    @inlinable
    mutating func skipDigits() {
        while offset < bytes.count, isDigit(bytes[offset]) { offset &+= 1 }
    }

    @inlinable
    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    // MARK: - Strings

    /// A string starting at the opening quote under `offset`; leaves `offset` after
    /// the closing quote.
    @inlinable
    mutating func string(next: Int) throws(JSONSyntaxError) -> JSONToken {
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
    @inlinable
    mutating func escape() throws(JSONSyntaxError) {
        guard offset &+ 1 < bytes.count else { throw syntaxError("unterminated string") }
        switch bytes[offset &+ 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "n"), UInt8(ascii: "t"):
            offset &+= 2
        case UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "r"):
            if firstControlEscapeOffset == nil { firstControlEscapeOffset = offset }
            offset &+= 2
        case UInt8(ascii: "u"):
            let unit = try hex4(at: offset &+ 2)
            if unit < 0x20, unit != 0x09, unit != 0x0A, firstControlEscapeOffset == nil { firstControlEscapeOffset = offset }
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

    @inlinable
    func hex4(at index: Int) throws(JSONSyntaxError) -> UInt16 {
        guard index &+ 4 <= bytes.count else { throw syntaxError("unterminated \\u escape") }
        var unit: UInt16 = 0
        for position in index..<(index &+ 4) {
            guard let digit = Self.hexValue(bytes[position]) else { throw syntaxError("bad hex digit in a \\u escape") }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    @inlinable
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// One well-formed UTF-8 sequence (Unicode 15, table 3-7): no overlong forms,
    /// no surrogates, nothing above U+10FFFF.
    @inlinable
    mutating func utf8Sequence(lead: UInt8) throws(JSONSyntaxError) {
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
    @usableFromInline
    func syntaxError(_ reason: StaticString) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, reason: "\(reason)")
    }

    @usableFromInline
    func tooDeep() -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, reason: "nested deeper than \(maxNestingDepth) levels")
    }
}

/// Why the bytes are not JSON, and where.
public struct JSONSyntaxError: Error, Sendable, Hashable {
    /// The offset of the byte where the scanner stopped.
    public let offset: Int
    /// What was expected or found there, e.g. `expected , or ] after an element`.
    public let reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// `Not valid JSON at byte 12: expected a value.`
    public var message: String { "Not valid JSON at byte \(offset): \(reason)." }
}
