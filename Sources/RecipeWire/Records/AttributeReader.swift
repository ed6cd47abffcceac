import RecipeDomain
import RecipeJSON

// MARK: - Attribute reader

/// Typed access to the envelope attributes found by `EnvelopeAttributes`; every
/// failure names the attribute.
struct AttributeReader {
    typealias Name = EnvelopeAttributes.Name

    let attributes: EnvelopeAttributes
    let tape: JSONTape
    /// Where the record's first escaped control character (not tab or newline) starts, if any.
    let firstControlEscape: Int?

    /// Scans `bytes`, one whole record, and calls `body` with a reader of it. The reader
    /// borrows the record's tape: it is valid only inside `body`. Bad JSON, a top level
    /// that is not an object or an attribute given twice is the scan's failure.
    static func reading<Value>(_ bytes: UnsafeRawBufferPointer,
                               _ body: (AttributeReader) throws(WireError) -> Value) throws(WireError) -> Value {
        // 64 tokens on the stack (1 KiB, as much as the standard library puts there
        // without asking how deep the stack is) hold most records.
        try withUnsafeTemporaryAllocation(of: JSONToken.self, capacity: 64) { stack throws(WireError) -> Value in
            var scanner = JSONScanner(bytes, maxNestingDepth: WireFormat.maxNestingDepth)
            var tape = JSONTapeWriter(startingIn: stack)
            let attributes = try EnvelopeAttributes(scanning: &scanner, onto: &tape)
            return try body(AttributeReader(attributes: attributes, tape: JSONTape(bytes: bytes, tokens: tape.tokens),
                                            firstControlEscape: scanner.firstControlEscape))
        }
    }

    /// The attribute's value, nil when the record has none.
    func token(_ name: Name) -> JSONToken? {
        attributes[name].map { tape[$0] }
    }

    /// A required string attribute.
    func string(_ name: Name) throws(WireError) -> String {
        try stringToken(name).text(in: tape.bytes)
    }

    /// `subject`, which must be a recipe id: a NUL, a control character or a non-ASCII
    /// letter in it is `malformed`, never a recipe of its own.
    func recipeID() throws(WireError) -> RecipeID {
        let text = try string(.subject)
        do throws(RecipeID.Invalid) {
            return try RecipeID(text)
        } catch {
            throw .malformed("subject \(error.message).", field: "subject")
        }
    }

    /// A required string attribute read by `parse` from its UTF-8 (`JSONToken.withText`):
    /// for a name looked up, not kept, without making a String. When `parse` answers nil,
    /// `refusal` of the text is thrown.
    func string<Value>(_ name: Name, parsedBy parse: (UnsafeRawBufferPointer) -> Value?,
                       refusal: (String) -> WireError) throws(WireError) -> Value {
        let token = try stringToken(name)
        guard let value = token.withText(in: tape.bytes, parse) else { throw refusal(token.text(in: tape.bytes)) }
        return value
    }

    func optionalString(_ name: Name) throws(WireError) -> String? {
        guard attributes[name] != nil else { return nil }
        return try string(name)
    }

    /// An optional attribute that, when present, must be a non-empty string (as
    /// CloudEvents says of `dataschema`); checked without making a String.
    func checkNonEmptyIfPresent(_ name: Name) throws(WireError) {
        guard attributes[name] != nil else { return }
        try checkNonEmpty(name)
    }

    /// A required attribute that must be a non-empty string, checked without making a String.
    func checkNonEmpty(_ name: Name) throws(WireError) {
        let token = try stringToken(name)
        guard token.end > token.start else { throw .malformed("\(name.spelling) must not be empty.", field: "\(name.spelling)") }
    }

    /// Whether a required string attribute is exactly `literal`, without making a String.
    func stringToken(_ name: Name, equals literal: StaticString) throws(WireError) -> Bool {
        try stringToken(name).text(in: tape.bytes, equals: literal)
    }

    func optionalInteger(_ name: Name) throws(WireError) -> Int? {
        guard let token = token(name) else { return nil }
        guard token.kind == .number else { throw .wrongType("\(name.spelling)", expected: "an integer, not \(token.kind.article)") }
        switch JSONNumber.integer(UnsafeRawBufferPointer(rebasing: tape.bytes[token.start..<token.end]), isPlainInteger: token.flag) {
        case .value(let value): return value
        case .notInteger: throw .wrongType("\(name.spelling)", expected: "an integer, not a fraction")
        case .outOfRange: throw .invalid("\(name.spelling)", "is out of range")
        }
    }

    /// `time` when present (decisions of records that could not be read have none).
    func optionalTime() throws(WireError) -> Timestamp? {
        guard attributes[.time] != nil else { return nil }
        return try time()
    }

    /// `time`, an RFC 3339 date-time.
    func time() throws(WireError) -> Timestamp {
        try string(.time, parsedBy: RFC3339.parse) { text in
            .malformed("time \(quoted(text)) is not an RFC 3339 date-time (2026-12-01T10:15:00Z).", field: "time")
        }
    }

    private func stringToken(_ name: Name) throws(WireError) -> JSONToken {
        guard let token = token(name) else { throw .missing("\(name.spelling)") }
        guard token.kind == .string else { throw .wrongType("\(name.spelling)", expected: "a string, not \(token.kind.article)") }
        return token
    }
}
