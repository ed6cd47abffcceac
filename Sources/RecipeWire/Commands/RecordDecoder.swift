import RecipeDomain
import RecipeJSON

// MARK: - Record decoder

/// Reads a record of `recipes.edits` back into a command. Total: any bytes give
/// either a `DecodedRecord` or a `WireError`, never a crash, and the work and
/// memory are bounded by the record size cap (2 MiB, `WireFormat.maxRecordSize`, checked first) and the
/// nesting cap (32).
///
/// ```swift
/// switch RecordDecoder().decode(key: record.key, value: record.value) {
/// case .success(let decoded): RecipeJudge.decide(decoded.envelope, recipe: &recipe)
/// case .failure(let error): rejections.add(partition, offset, error.code, error.message)
/// }
/// ```
///
/// What it checks, in order and with each code, and what it accepts beyond the canonical
/// form: docs/architecture.md, "What the decoders check".
public struct RecordDecoder: Sendable {
    let formats: VersionTable<RecipeCommand.Kind, RecipeCommand>

    public init() {
        formats = DataFormats.standard
    }

    /// With another upcasting table (tests of future versions).
    init(formats: VersionTable<RecipeCommand.Kind, RecipeCommand>) {
        self.formats = formats
    }

    /// Decodes a record as consumed from Kafka. The key must be present, a recipe id,
    /// and equal the record's `subject` byte for byte.
    public func decode(key: [UInt8]?, value: [UInt8]) -> Result<DecodedRecord, WireError> {
        value.withUnsafeBytes { value in
            guard let key else { return decode(value, key: .absent) }
            return key.withUnsafeBytes { decode(value, key: .present($0)) }
        }
    }

    /// Decodes a record without a key to compare with: for records read from files,
    /// `recipes send` input, tests.
    public func decode(value: [UInt8]) -> Result<DecodedRecord, WireError> {
        value.withUnsafeBytes { decode($0, key: .unchecked) }
    }

    /// Decodes straight from borrowed memory (a consumer's own buffers), a nil key an
    /// absent key as above, throwing what it fails with: the decider's, which takes the
    /// command out of the record decoded (a `Result` matched was copied out and destroyed).
    public func decoded(key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer) throws(WireError) -> DecodedRecord {
        try decoded(value, key: key.map(KeyCheck.present) ?? .absent)
    }

    /// Decodes from borrowed memory without a key to compare with.
    public func decode(value: UnsafeRawBufferPointer) -> Result<DecodedRecord, WireError> {
        decode(value, key: .unchecked)
    }

    // MARK: - Steps

    enum KeyCheck {
        case present(UnsafeRawBufferPointer)
        case absent
        case unchecked
    }

    func decode(_ bytes: UnsafeRawBufferPointer, key: KeyCheck) -> Result<DecodedRecord, WireError> {
        Result { () throws(WireError) in try decoded(bytes, key: key) }
    }

    private func decoded(_ bytes: UnsafeRawBufferPointer, key: KeyCheck) throws(WireError) -> DecodedRecord {
        guard bytes.count <= WireFormat.maxRecordSize else {
            throw WireError(.tooLarge, "The record is \(bytes.count) bytes; at most \(WireFormat.maxRecordSize) are read.")
        }
        return try AttributeReader.reading(bytes) { reader throws(WireError) in
            do throws(WireError) {
                return try decode(reader, key: key)
            } catch {
                // Say which command and recipe the record meant, where it says so, so
                // the rejection can be shown beside that recipe.
                var error = error
                // An id holding a control character is none to show or to store again.
                error.commandID = (try? reader.string(.id)).flatMap { $0.utf8.contains { $0 < 0x20 } ? nil : $0 }
                error.recipeID = try? reader.recipeID()
                throw error
            }
        }
    }

    private func decode(_ reader: AttributeReader, key: KeyCheck) throws(WireError) -> DecodedRecord {
        guard try reader.stringToken(.specversion, equals: "1.0") else {
            let version = quoted(try reader.string(.specversion))
            throw WireError(.unsupportedVersion, "specversion \(version) is not supported; records are CloudEvents 1.0.",
                            field: "specversion")
        }
        let format = try dataFormat(reader)
        let commandID = try reader.string(.id)
        let recipeID = try reader.recipeID()
        if let offset = reader.firstControlEscape { throw reader.controlCharacterError(at: offset) }
        let source = try reader.string(.source)
        if let problem = Self.sourceProblem(source) { throw problem }
        let time = try reader.time()
        let actor = try reader.string(.actor)
        if let contentType = reader.token(.datacontenttype) {
            guard try reader.stringToken(.datacontenttype, equals: "application/json") else {
                throw .malformed("datacontenttype must be application/json, not \(quoted(contentType.text(in: reader.tape.bytes))).",
                                 field: "datacontenttype")
            }
        }
        try reader.checkNonEmptyIfPresent(.dataschema)
        let expectedRevision = try reader.optionalInteger(.expectedrevision)
        // Written by a gateway that checked a token; no record before roles existed has one.
        var actorRole: ActorRole?
        if let roleName = try reader.optionalString(.actorrole) {
            guard let role = ActorRole(rawValue: roleName) else {
                throw .malformed("actorrole must be admin, writer or reader, not \(quoted(roleName)).", field: "actorrole")
            }
            actorRole = role
        }

        switch key {
        case .unchecked:
            break
        case .absent:
            throw WireError(.keyMismatch, "The record has no key; it must equal subject \(quoted(recipeID.text)), the recipe id.",
                            field: "subject")
        case .present(let key):
            // Compared in place, not by the generic comparison of a UTF-8 view.
            let same = recipeID.text.utf8.withContiguousStorageIfAvailable { JSONScanner.same(UnsafeRawBufferPointer($0), key) }
            guard same ?? recipeID.text.utf8.elementsEqual(key) else {
                // Equal to the subject, the key is an id; else one that is none names no recipe at all.
                guard RecipeID.isID(key) else {
                    throw .malformed("The record key \(RecipeID.quoted(utf8: key)) is not a recipe id (\(RecipeID.form)).")
                }
                throw WireError(.keyMismatch,
                                "subject \(quoted(recipeID.text)) differs from the record key \(quoted(String(decoding: key, as: UTF8.self))).",
                                field: "subject")
            }
        }

        guard let data = reader.attributes[.data] else { throw .missing("data") }
        let command = try Self.command(data: data, on: reader.tape, format: format)

        let envelope = CommandEnvelope(
            commandID: commandID, recipeID: recipeID, actor: actor, time: time,
            expectedRevision: expectedRevision, actorRole: actorRole, command: command)
        if let violation = RecordLimits.violation(in: envelope) { throw violation }
        return DecodedRecord(envelope: envelope, source: source, typeVersion: format.version)
    }

    /// Why `source` is no record's source (empty, or holding a control character), or nil.
    @inline(__always) // as a call of its own, it cost the decoder about 150 instructions a record
    static func sourceProblem(_ source: String) -> WireError? {
        if source.isEmpty { return .malformed("source must not be empty.", field: "source") }
        var source = source
        if source.withUTF8({ $0.contains { $0 < 0x20 } }) { return .invalid("source", "must not hold control characters, tab and newline included") }
        return nil
    }

    /// The command `data`, the value at `index` on `tape`, holds in `format`.
    @inline(__always) // as a call of its own, its format's fields were retained and released per record
    static func command(data index: Int, on tape: JSONTape, format: DataFormat) throws(WireError) -> RecipeCommand {
        let token = tape[index]
        guard token.kind == .object else { throw .wrongType("data", expected: "an object, not \(token.kind.article)") }
        return try format.read(try DataFields(object: index, on: tape, fields: format.fields))
    }

    // MARK: - Type and version

    /// `recipes.<Command>.v<N>` → the format that reads it.
    private func dataFormat(_ reader: AttributeReader) throws(WireError) -> DataFormat {
        // Read where it lies, without a copy (two arrays per record were a twentieth of decoding).
        let (kind, version) = try reader.string(.type, parsedBy: Self.kindAndVersion) { text in
            WireError(.unknownType, "type \(quoted(text)) is not a recipes command (recipes.<Command>.v<N>).", field: "type")
        }
        guard let format = formats.format(kind, version: version) else {
            let known = formats.versions(of: kind).map { "v\($0)" }.joined(separator: ", ")
            throw WireError(.unsupportedVersion,
                            "type \(quoted(try reader.string(.type))): this reader knows \(kind.rawValue) \(known) only.",
                            field: "type")
        }
        return format
    }

    private static let typePrefix = Array(WireFormat.typePrefix.utf8)

    /// The command and version a type names, nil if it is not `recipes.<Command>.v<N>` with a known command.
    private static func kindAndVersion(_ text: UnsafeRawBufferPointer) -> (RecipeCommand.Kind, Int)? {
        let prefixCount = typePrefix.count
        guard text.count > prefixCount,
              typePrefix.withUnsafeBytes({ JSONScanner.same($0, UnsafeRawBufferPointer(rebasing: text[..<prefixCount])) }),
              let dot = text.lastIndex(of: UInt8(ascii: ".")), dot >= prefixCount,
              let kind = DataFormats.kind(named: UnsafeRawBufferPointer(rebasing: text[prefixCount..<dot])),
              let version = version(UnsafeRawBufferPointer(rebasing: text[(dot + 1)...]))
        else { return nil }
        return (kind, version)
    }

    /// `v` and a positive decimal without leading zeros, at most six digits.
    private static func version(_ text: UnsafeRawBufferPointer) -> Int? {
        guard text.first == UInt8(ascii: "v"), text.count >= 2, text.count <= 7 else { return nil }
        let digits = text.dropFirst()
        guard digits.first != UInt8(ascii: "0"), digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
