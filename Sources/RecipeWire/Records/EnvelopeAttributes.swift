import RecipeJSON

// MARK: - Envelope attributes

/// The top-level members of a record, found in one pass: each attribute the decoder
/// knows located on the record's tape, extensions checked and skipped, `data` laid
/// down but not read (its format depends on `type`, which may come after it).
struct EnvelopeAttributes {
    /// The attributes the decoder reads, in canonical order.
    enum Name: Int, CaseIterable {
        case specversion, id, source, type, subject, time, datacontenttype, dataschema, actor, actorrole, expectedrevision, data

        static let spellings: [StaticString] = [
            "specversion", "id", "source", "type", "subject", "time", "datacontenttype", "dataschema", "actor",
            "actorrole", "expectedrevision", "data",
        ]

        var spelling: StaticString { Self.spellings[rawValue] }
    }

    /// Each attribute's value as its index on the record's tape, -1 when absent: inline,
    /// no allocation per record.
    private var indexes = InlineArray<12, Int32>(repeating: -1)

    /// The tape index of the attribute's value, nil when the record has none.
    subscript(name: Name) -> Int? {
        let index = indexes[name.rawValue]
        return index < 0 ? nil : Int(index)
    }

    /// Scans the whole record, each member's value onto `tape`. Throws `malformed` for
    /// bad JSON, a top level that is not an object, an attribute given twice, or an
    /// extension whose name is not a CloudEvents attribute name.
    init(scanning scanner: inout JSONScanner, onto tape: inout JSONTapeWriter) throws(WireError) {
        try Self.syntax { () throws(JSONSyntaxError) in try scanner.openObject(depth: 1) }
        var first = true
        var extensions: [[UInt8]] = []
        // Canonical records list the attributes in order; guessing the next one
        // first makes matching a single comparison for them.
        var expected = 0
        while let (key, isExpected) = try Self.syntax({ () throws(JSONSyntaxError) in
            try scanner.nextKey(first: &first, expecting: expected < Name.spellings.count ? Name.spellings[expected] : nil)
        }) {
            let value = try Self.syntax { () throws(JSONSyntaxError) in try scanner.value(depth: 2, onto: &tape) }
            if let index = isExpected ? expected : Self.match(key, scanner.bytes, hint: expected) {
                guard indexes[index] < 0 else {
                    let name = Name.spellings[index]
                    throw .malformed("\(name) appears twice.", field: "\(name)")
                }
                indexes[index] = Int32(truncatingIfNeeded: value)
                expected = index + 1
            } else {
                // Extensions are allowed and ignored, but their names must follow
                // CloudEvents (lowercase letters and digits): that turns away
                // mistakes such as `expectedRevision` or `data_base64`, which would
                // otherwise be ignored silently.
                let name = key.withText(in: scanner.bytes) { Array($0) }
                guard !name.isEmpty, name.allSatisfy({ $0 &- UInt8(ascii: "a") < 26 || $0 &- UInt8(ascii: "0") < 10 }) else {
                    throw .malformed(
                        "\(quoted(key.text(in: scanner.bytes))) is not a CloudEvents attribute name (lowercase letters and digits only).")
                }
                guard !extensions.contains(name) else {
                    throw .malformed("\(quoted(key.text(in: scanner.bytes))) appears twice.")
                }
                extensions.append(name)
            }
        }
        try Self.syntax { () throws(JSONSyntaxError) in try scanner.expectEnd() }
    }

    /// A step of the scanner, its syntax errors thrown as `malformed`.
    @inline(__always)
    private static func syntax<Value>(_ step: () throws(JSONSyntaxError) -> Value) throws(WireError) -> Value {
        do throws(JSONSyntaxError) {
            return try step()
        } catch {
            throw .malformed(error)
        }
    }

    /// The attribute `key` names, looked for from `hint` on first: a record that leaves
    /// out attributes (a decision has no `actor`) still lists the rest in order.
    private static func match(_ key: JSONToken, _ bytes: UnsafeRawBufferPointer, hint: Int) -> Int? {
        let count = Name.spellings.count
        for step in 0..<count {
            let index = (hint &+ step) % count
            if key.text(in: bytes, equals: Name.spellings[index]) { return index }
        }
        return nil
    }
}
