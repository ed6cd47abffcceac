// MARK: - Envelope attributes

/// The top-level members of a record, found in one pass: a token for each
/// attribute the decoder knows, extensions checked and skipped, `data` located
/// but not read (its format depends on `type`, which may come after it).
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

    private var tokens = Tokens()

    subscript(name: Name) -> JSONToken? { tokens[name.rawValue] }

    /// Scans the whole record. Throws `malformed` for bad JSON, a top level that is
    /// not an object, an attribute given twice, or an extension whose name is not a
    /// CloudEvents attribute name.
    init(scanning scanner: inout JSONScanner) throws(WireError) {
        try scanner.openObject(depth: 1)
        var first = true
        var extensions: [[UInt8]] = []
        // Canonical records list the attributes in order; guessing the next one
        // first makes matching a single comparison for them.
        var expected = 0
        while let (key, isExpected) = try scanner.nextKey(first: &first, expecting: expected < Name.spellings.count ? Name.spellings[expected] : nil) {
            let value = try scanner.value(depth: 2)
            if let index = isExpected ? expected : Self.match(key, scanner, hint: expected) {
                guard tokens[index] == nil else {
                    let name = Name.spellings[index]
                    throw .malformed("\(name) appears twice.", field: "\(name)")
                }
                tokens[index] = value
                expected = index + 1
            } else {
                // Extensions are allowed and ignored, but their names must follow
                // CloudEvents (lowercase letters and digits): that turns away
                // mistakes such as `expectedRevision` or `data_base64`, which would
                // otherwise be ignored silently.
                let name = scanner.textBytes(key)
                guard !name.isEmpty, name.allSatisfy({ $0 &- UInt8(ascii: "a") < 26 || $0 &- UInt8(ascii: "0") < 10 }) else {
                    throw .malformed(
                        "\(quoted(scanner.text(key))) is not a CloudEvents attribute name (lowercase letters and digits only).")
                }
                guard !extensions.contains(name) else {
                    throw .malformed("\(quoted(scanner.text(key))) appears twice.")
                }
                extensions.append(name)
            }
        }
        try scanner.expectEnd()
    }

    private static func match(_ key: JSONToken, _ scanner: JSONScanner, hint: Int) -> Int? {
        if hint < Name.spellings.count, scanner.text(key, equals: Name.spellings[hint]) { return hint }
        for index in Name.spellings.indices where index != hint && scanner.text(key, equals: Name.spellings[index]) {
            return index
        }
        return nil
    }

    /// Twelve optional tokens inline, not in an array: no allocation per record.
    private struct Tokens {
        private var storage: (
            JSONToken?, JSONToken?, JSONToken?, JSONToken?, JSONToken?, JSONToken?,
            JSONToken?, JSONToken?, JSONToken?, JSONToken?, JSONToken?, JSONToken?
        ) = (nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil)

        subscript(index: Int) -> JSONToken? {
            get {
                // Element by element: reading through a pointer to the tuple copied all
                // twelve tokens to a temporary on every read, a twelfth of decoding.
                switch index {
                case 0: storage.0
                case 1: storage.1
                case 2: storage.2
                case 3: storage.3
                case 4: storage.4
                case 5: storage.5
                case 6: storage.6
                case 7: storage.7
                case 8: storage.8
                case 9: storage.9
                case 10: storage.10
                case 11: storage.11
                default: preconditionFailure("attribute index \(index) out of 0..<12")
                }
            }
            set {
                precondition(index >= 0 && index < 12)
                // A homogeneous tuple is laid out like an array; the last element has no
                // tail padding, so the buffer is shorter than 12 strides: index the pointer.
                withUnsafeMutableBytes(of: &storage) { $0.baseAddress!.assumingMemoryBound(to: JSONToken?.self)[index] = newValue }
            }
        }
    }
}
