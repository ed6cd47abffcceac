import RecipeDomain

// MARK: - Decision data versions
//
// Upcasting as for commands: each data version of a decision (`recipes.decision.v<N>`)
// has one `DecisionDataFormat`, the fields of its `data` and a reader that makes
// *today's* `DecisionRecord` from them. Version 1 is the only one. A version 2
// would be a second format listed in `DecisionFormats.standard`, a schema file
// Schemas/decisions/decision.v2.schema.json, and the encoder writing the new
// shape; the v1 reader stays, since decisions are kept forever.

/// What a decision's envelope says, for the data reader.
struct DecisionEnvelope {
    var id: DecisionID
    var subject: String?
    var time: Timestamp?
}

/// How to read one version of a decision's `data`.
struct DecisionDataFormat: Sendable {
    typealias Reader = @Sendable (DataFields, DecisionEnvelope) throws(WireError) -> DecisionRecord

    let version: Int
    let fields: [DataField]
    let read: Reader
}

struct DecisionFormats: Sendable {
    static let standard = DecisionFormats([version1])

    /// By version - 1.
    private let formats: [DecisionDataFormat]

    init(_ formats: [DecisionDataFormat]) {
        precondition(formats.indices.allSatisfy { formats[$0].version == $0 + 1 }, "decision formats are versions 1...n in order")
        precondition(formats.allSatisfy { $0.fields.count <= DataFields.capacity })
        self.formats = formats
    }

    func format(version: Int) -> DecisionDataFormat? {
        version >= 1 && version <= formats.count ? formats[version - 1] : nil
    }

    var currentVersion: Int { formats.count }
    var versions: [Int] { formats.map(\.version) }
}

// MARK: - Version 1

extension DecisionFormats {
    static let version1 = DecisionDataFormat(version: 1, fields: [
        .integer("partition"), .integer("offset"), .optionalString("commandId"), .optionalString("commandType"),
        .optionalString("actor"), .optionalString("actorRole"), .string("outcome"), .optionalArray("events"),
        .optionalObject("reason"), .optionalInteger("revision"), .integer("rulesVersion"),
        .optionalString("decider"), .optionalString("follows"),
    ], read: readVersion1)

    /// Every member is checked against the outcome: what an outcome has must be
    /// there, what it cannot have must not be, so one decision has one meaning.
    @Sendable static func readVersion1(_ data: DataFields, _ envelope: DecisionEnvelope) throws(WireError) -> DecisionRecord {
        let partition = try data.integer("partition")
        let offset = try data.integer("offset")
        guard (0...Int(Int32.max)).contains(partition) else { throw data.error(.invalid, "partition", "must be from 0 to \(Int32.max)") }
        guard offset >= 0 else { throw data.error(.invalid, "offset", "must not be negative") }
        guard envelope.id.isPosition(partition: partition, offset: offset) else {
            throw .malformed("id \(quoted(envelope.id.text)) must be the command's position, \(partition):\(offset).", field: "id")
        }
        let rulesVersion = try data.integer("rulesVersion")
        guard rulesVersion >= 1 else { throw data.error(.invalid, "rulesVersion", "must be at least 1") }

        let events = try data.optionalObjects("events", fields: DecisionFormat.eventFields)
        let reason = try data.optionalObject("reason", fields: DecisionFormat.reasonFields).map(readReason)
        let revision = try data.optionalInteger("revision")
        // Looked up where it lies: the name is kept as a String only in messages.
        let outcomeKind = try data.string("outcome", parsedBy: outcomeNames.value(named:)) { text in
            data.error(.malformed, "outcome", "must be accepted, rejected, duplicate or undecodable, not \(quoted(text))")
        }
        let outcomeName = outcomeKind.rawValue
        let outcome: DecisionRecord.Outcome
        switch outcomeKind {
        case .accepted:
            guard let events, !events.isEmpty else { throw .malformed("data.events must hold the events of an accepted command.", field: "data.events") }
            outcome = .accepted(try events.map(readEvent), revision: try required(revision, "revision", outcomeName))
        case .rejected:
            outcome = .rejected(try required(reason, "reason", outcomeName), revision: try required(revision, "revision", outcomeName))
        case .duplicate:
            outcome = .duplicate(revision: try required(revision, "revision", outcomeName))
        case .undecodable:
            outcome = .undecodable(try required(reason, "reason", outcomeName))
        }
        if events != nil, !outcome.isAccepted { throw absent("events", outcomeName) }
        if reason != nil, outcome.rejection == nil { throw absent("reason", outcomeName) }
        if revision != nil, outcome.revision == nil { throw absent("revision", outcomeName) }

        let commandKind = try data.optionalString("commandType", parsedBy: DataFormats.kind(named:)) { name in
            WireError(.unknownType, "data.commandType \(quoted(name)) is no command this reader knows.", field: "data.commandType")
        }
        let actorRole = try data.optionalString("actorRole", parsedBy: roles.value(named:)) { name in
            data.error(.malformed, "actorRole", "must be admin, writer or reader, not \(quoted(name))")
        }
        let decider = try data.optionalString("decider")
        if let decider, !DecisionLink.isDeciderName(decider) {
            throw data.error(.malformed, "decider", "must be 1 to \(DecisionLink.maxDeciderLength) ASCII letters, digits, '.', '_' or '-'")
        }
        // Read from its bytes, its decider's name shared with `decider` when it is the same
        // (a decider follows its own decisions): one string made for the two, not three.
        let follows = try data.optionalString("follows", parsedBy: { DecisionLink(utf8: $0, sameNameAs: decider) }) { text in
            data.error(.malformed, "follows", "must be <decider>:<offset>, not \(quoted(text))")
        }
        if let follows {
            guard decider != nil else { throw .malformed("data.follows needs data.decider: a decision that names no decider follows none.", field: "data.follows") }
            guard follows.offset < offset else { throw data.error(.invalid, "follows", "must name an earlier command than offset \(offset)") }
        }
        let commandID = try data.optionalString("commandId")
        let actor = try data.optionalString("actor")

        // A command that was decided was read whole: what it said is all there. One
        // that was not said nothing a reader could trust beyond its id. (Checked before
        // the record is made: checked on the record, the record was copied.)
        if case .undecodable = outcome {
            if commandKind != nil { throw absent("commandType", outcomeName) }
            if actor != nil { throw absent("actor", outcomeName) }
            if actorRole != nil { throw absent("actorRole", outcomeName) }
        } else {
            if envelope.subject == nil { throw .malformed("subject is missing: a \(outcomeName) command names its recipe.", field: "subject") }
            if envelope.time == nil { throw .malformed("time is missing: a \(outcomeName) command has its time.", field: "time") }
            _ = try required(commandID, "commandId", outcomeName)
            _ = try required(commandKind, "commandType", outcomeName)
            _ = try required(actor, "actor", outcomeName)
        }
        return DecisionRecord(
            partition: Int32(partition), offset: Int64(offset), recipeID: envelope.subject, commandID: commandID,
            commandKind: commandKind, actor: actor, actorRole: actorRole, time: envelope.time, outcome: outcome,
            rulesVersion: rulesVersion, decider: decider, follows: follows)
    }

    private static let roles = CaseNames<ActorRole>()

    /// The outcomes by their names on the wire (`DecisionRecord.Outcome.name`).
    private enum OutcomeKind: String, CaseIterable, Sendable {
        case accepted, rejected, duplicate, undecodable
    }

    private static let outcomeNames = CaseNames<OutcomeKind>()

    private static func readReason(_ reason: DataFields) throws(WireError) -> Rejection {
        let code = try reason.string("code")
        guard let rejectionCode = RejectionCode(rawValue: code) else {
            throw WireError(.unknownType, "data.reason.code \(quoted(code)) is no rejection code this reader knows.", field: "data.reason.code")
        }
        return Rejection(rejectionCode, try reason.string("message"))
    }

    /// One event: its type names the kind and version of its data.
    private static func readEvent(_ item: DataFields) throws(WireError) -> RecipeEvent {
        func kindAndVersion(_ bytes: UnsafeRawBufferPointer) -> (RecipeEvent.Kind, Int)? {
            guard let (name, version) = VersionedName.split(bytes), let kind = EventFormats.kind(named: name) else { return nil }
            return (kind, version)
        }
        let (kind, version) = try item.string("type", parsedBy: kindAndVersion) { text in
            item.error(.unknownType, "type", "\(quoted(text)) is no event this reader knows (<Event>.v<N>)")
        }
        guard let format = EventFormats.standard.format(kind, version: version) else {
            let known = EventFormats.standard.versions(of: kind).map { "v\($0)" }.joined(separator: ", ")
            throw item.error(.unsupportedVersion, "type", "\(quoted(try item.string("type"))): this reader knows \(kind.rawValue) \(known) only")
        }
        return try format.read(try item.object("data", fields: format.fields))
    }

    private static func required<Value>(_ value: Value?, _ name: String, _ outcome: String) throws(WireError) -> Value {
        guard let value else { throw .malformed("data.\(name) is missing: a \(outcome) decision has one.", field: "data.\(name)") }
        return value
    }

    private static func absent(_ name: String, _ outcome: String) -> WireError {
        .malformed("data.\(name) must be absent: a \(outcome) decision has none.", field: "data.\(name)")
    }
}
