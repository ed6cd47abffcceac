import RecipeDomain
import RecipeJSON

// MARK: - Decision decoder

/// Reads a record of the decisions topic back into a `DecisionRecord`. Total and
/// bounded as `RecordDecoder` is: any bytes give a decision or a `WireError`, the
/// size checked first (`DecisionFormat.maxRecordSize`, `tooLarge`), nesting capped.
///
/// ```swift
/// switch DecisionDecoder().decode(key: record.key, value: record.value) {
/// case .success(let decision): recipe.record(decision.events, ofCommand: decision.commandID!) // when accepted
/// case .failure(let error): … // error.code, error.message
/// }
/// ```
///
/// What it checks, and what it reads of older rules versions: docs/architecture.md, "What the
/// decoders check".
public struct DecisionDecoder: Sendable {
    let formats: DecisionFormats

    public init() {
        formats = .standard
    }

    /// With another table of versions (tests of future versions).
    init(formats: DecisionFormats) {
        self.formats = formats
    }

    /// Decodes a record as consumed from Kafka: when both the key and `subject` are
    /// there they must be equal (a decision has its command's key, which may be
    /// absent or not UTF-8 for an undecodable command).
    public func decode(key: [UInt8]?, value: [UInt8]) -> Result<DecisionRecord, WireError> {
        value.withUnsafeBytes { value in
            guard let key else { return decode(value, key: nil) }
            return key.withUnsafeBytes { decode(value, key: $0) }
        }
    }

    /// Decodes a record without a key to compare with (files, tests).
    public func decode(value: [UInt8]) -> Result<DecisionRecord, WireError> {
        value.withUnsafeBytes { decode($0, key: nil) }
    }

    /// Decodes a record where it lies (a consumer's message), without copying it first.
    public func decode(_ bytes: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer?) -> Result<DecisionRecord, WireError> {
        Result { () throws(WireError) in try decoded(bytes, key: key) }
    }

    /// The same, throwing what it fails with: for a reader that keeps the decision (a
    /// `Result`'s `get()` copies the decision out, then destroys the one it held).
    public func decoded(_ bytes: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer?) throws(WireError) -> DecisionRecord {
        guard bytes.count <= DecisionFormat.maxRecordSize else {
            throw WireError(.tooLarge, "The decision is \(bytes.count) bytes; at most \(DecisionFormat.maxRecordSize) are read.")
        }
        return try AttributeReader.reading(bytes) { reader throws(WireError) in try decode(reader, key: key) }
    }

    private func decode(_ reader: AttributeReader, key: UnsafeRawBufferPointer?) throws(WireError) -> DecisionRecord {
        guard try reader.stringToken(.specversion, equals: "1.0") else {
            throw WireError(.unsupportedVersion, "specversion \(quoted(try reader.string(.specversion))) is not supported; decisions are CloudEvents 1.0.",
                            field: "specversion")
        }
        let format = try dataFormat(reader)
        // Read where it lies: a String is made for an id only when it is no position.
        let id = try reader.string(.id, parsedBy: { Optional(DecisionID(utf8: $0)) }) { text in
            preconditionFailure("every id reads as a DecisionID, not \(text)")
        }
        try reader.checkNonEmpty(.source)
        let subject = try reader.optionalString(.subject)
        if subject?.isEmpty == true { throw .malformed("subject must not be empty; leave it out when no recipe is named.", field: "subject") }
        let time = try reader.optionalTime()
        if let contentType = reader.token(.datacontenttype) {
            guard try reader.stringToken(.datacontenttype, equals: "application/json") else {
                throw .malformed("datacontenttype must be application/json, not \(quoted(contentType.text(in: reader.tape.bytes))).",
                                 field: "datacontenttype")
            }
        }
        try reader.checkNonEmptyIfPresent(.dataschema)
        // Compared in place, not by the generic comparison of a UTF-8 view.
        if let key, var subject, !subject.withUTF8({ JSONScanner.same(UnsafeRawBufferPointer($0), key) }) {
            throw WireError(.keyMismatch,
                            "subject \(quoted(subject)) differs from the record key \(quoted(String(decoding: key, as: UTF8.self))).",
                            field: "subject")
        }
        guard let data = reader.attributes[.data] else { throw .missing("data") }
        let dataToken = reader.tape[data]
        guard dataToken.kind == .object else { throw .wrongType("data", expected: "an object, not \(dataToken.kind.article)") }
        let fields = try DataFields(object: data, on: reader.tape, fields: format.fields)
        var decision = try format.read(fields, DecisionEnvelope(id: id, subject: subject, time: time))
        try Self.checkNames(&decision, controlEscape: reader.firstControlEscape, reader)
        return decision
    }

    /// The first rules version whose decoder refuses control characters (but tab and
    /// newline) in a command's strings and actor names out of their one spelling
    /// (`ActorName`): no decision it made can hold either.
    static let firstRulesVersionWithCanonicalNames = 2

    /// A decision is read by the rules that made it. From `firstRulesVersionWithCanonicalNames`
    /// on, a control character or an actor name out of its spelling is no decision those
    /// rules could make: `invalid`, and no reader counts it. An earlier decision was decided
    /// and stays so, its actor names put in their one spelling (NFC): the fold compared them
    /// with `==`, which is canonical equivalence, so it folds them as before, and the store,
    /// which compares bytes, now agrees with it.
    private static func checkNames(_ decision: inout DecisionRecord, controlEscape: Int?, _ reader: AttributeReader) throws(WireError) {
        guard decision.rulesVersion >= firstRulesVersionWithCanonicalNames else {
            decision.actor = decision.actor.map(ActorName.canonical)
            if case .accepted(let events, let revision) = decision.outcome, events.contains(where: \.namesAnActor) {
                decision.outcome = .accepted(events.map(\.withCanonicalActor), revision: revision)
            }
            return
        }
        if let controlEscape { throw reader.controlCharacterError(at: controlEscape) }
        if let actor = decision.actor, let problem = ActorName.problem(actor) {
            throw WireError(.invalid, "data.actor \(problem).", field: "data.actor")
        }
        guard case .accepted(let events, _) = decision.outcome else { return }
        for (index, event) in events.enumerated() {
            if let name = event.actorNamed, let problem = ActorName.problem(name) {
                throw WireError(.invalid, "data.events[\(index)] \(problem).", field: "data.events[\(index)]")
            }
        }
    }

    /// `recipes.decision.v<N>` → the format that reads it.
    private func dataFormat(_ reader: AttributeReader) throws(WireError) -> DecisionDataFormat {
        let version = try reader.string(.type, parsedBy: Self.version(ofType:)) { text in
            WireError(.unknownType, "type \(quoted(text)) is not a decision (recipes.decision.v<N>).", field: "type")
        }
        guard let format = formats.format(version: version) else {
            let known = formats.versions.map { "v\($0)" }.joined(separator: ", ")
            throw WireError(.unsupportedVersion, "type \(quoted(try reader.string(.type))): this reader knows decisions \(known) only.",
                            field: "type")
        }
        return format
    }

    /// N of `recipes.decision.v<N>`, nil for any other type.
    private static func version(ofType type: UnsafeRawBufferPointer) -> Int? {
        let count = typePrefix.count
        guard type.count > count,
              typePrefix.withUnsafeBytes({ JSONScanner.same($0, UnsafeRawBufferPointer(rebasing: type[..<count])) })
        else { return nil }
        // From the `v` on, as `VersionedName.version` reads it.
        return VersionedName.version(UnsafeRawBufferPointer(rebasing: type[(count - 1)...]))
    }

    private static let typePrefix = Array(DecisionFormat.typePrefix.utf8)
}

private extension RecipeEvent {
    /// The actor an access event names.
    var actorNamed: String? {
        switch self {
        case .accessGranted(let grant): grant.actor
        case .accessRevoked(let actor): actor
        case .ownershipTransferred(let newOwner): newOwner
        default: nil
        }
    }

    var namesAnActor: Bool { actorNamed != nil }

    /// The event with the actor it names in its one spelling.
    var withCanonicalActor: RecipeEvent {
        switch self {
        case .accessGranted(let grant): .accessGranted(AccessGrant(actor: ActorName.canonical(grant.actor), role: grant.role))
        case .accessRevoked(let actor): .accessRevoked(actor: ActorName.canonical(actor))
        case .ownershipTransferred(let newOwner): .ownershipTransferred(newOwner: ActorName.canonical(newOwner))
        default: self
        }
    }
}
