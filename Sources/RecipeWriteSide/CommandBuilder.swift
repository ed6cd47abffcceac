import Foundation
import RecipeDomain
import RecipeJSON
import RecipeWire
#if canImport(Glibc)
import Glibc
#endif

/// Why input could not become a command: not JSON at all, or JSON that breaks
/// the command schema (naming the field).
public enum CommandInputError: Error, Sendable, CustomStringConvertible {
    case notJSON(String)
    case invalid(WireError)

    public var description: String {
        switch self {
        case .notJSON(let message): message
        case .invalid(let error): error.field.map { "\(error.code.rawValue) (\($0)): \(error.message)" } ?? error.description
        }
    }

    public var code: String {
        switch self {
        case .notJSON: "malformedJSON"
        case .invalid(let error): error.code.rawValue
        }
    }

    public var message: String {
        switch self {
        case .notJSON(let message): "the body is \(message)"
        case .invalid(let error): error.message
        }
    }

    public var field: String? {
        switch self {
        case .notJSON: nil
        case .invalid(let error): error.field
        }
    }
}

/// Turns what producers write — the HTTP body `{"type","data","id","expectedRevision"}`,
/// or a `recipes send` line — into a command, by building the CloudEvent the
/// server would append and reading it with `RecordDecoder`: a command is
/// accepted here exactly when every projector will be able to decode it.
public struct CommandBuilder: Sendable {
    /// The CloudEvents `source` of what this builder makes (`recipes-http`, `recipes-cli`).
    public var source: String

    public init(source: String) {
        self.source = source
    }

    /// A command from an HTTP body for `recipeID`, written by `actor`: an
    /// `actor` member of the body is ignored, the server decides who writes.
    public func envelope(body: [UInt8], recipeID: RecipeID, actor: String,
                         time: Timestamp = .now) throws(CommandInputError) -> CommandEnvelope {
        if let envelope = body.withUnsafeBytes({ spliced($0, recipeID: recipeID, actor: actor, time: time) }) {
            return envelope
        }
        let members = try Self.object(body)
        return try envelope(members, recipeID: recipeID, actor: actor, time: time,
                            allowed: ["type", "data", "id", "expectedRevision", "actor"])
    }

    /// A new recipe's `DraftStarted` from the body of `POST /v1/drafts`: empty, or
    /// `{"id": "<command id>"}` so that a retry is recognised as the same command.
    public func newDraft(body: [UInt8], actor: String, time: Timestamp = .now) throws(CommandInputError) -> CommandEnvelope {
        var members: [String: JSONValue] = ["type": .string(RecipeCommand.Kind.draftStarted.rawValue), "data": .object([:])]
        if !body.isEmpty {
            let given = try Self.object(body)
            if let unknown = given.keys.sorted().first(where: { $0 != "id" }) {
                throw .invalid(WireError(.malformed, "\(unknown) is not a member of a new draft (only id, the command id).", field: unknown))
            }
            switch given["id"] {
            case nil: break
            case .string(let id)?: members["id"] = .string(id)
            case _?: throw .invalid(WireError(.malformed, "id must be a string.", field: "id"))
            }
        }
        return try envelope(members, recipeID: Self.newRecipeID(), actor: actor, time: time,
                            allowed: ["type", "data", "id"])
    }

    /// One line of `recipes send --stdin`: a whole CloudEvent (has `specversion`;
    /// decoded as is, its own actor and time kept) or `{"type","recipe","data"}`
    /// with optional `id`, `expectedRevision` (written by `actor`).
    public func envelope(line: String, actor: String, time: Timestamp = .now) throws(CommandInputError) -> DecodedRecord {
        try envelope(line: Array(line.utf8), actor: actor, time: time)
    }

    /// A line of `recipes send --stdin` as bytes (see `envelope(line:actor:time:)`).
    public func envelope(line bytes: [UInt8], actor: String, time: Timestamp = .now) throws(CommandInputError) -> DecodedRecord {
        var chunk = Chunk(time: time, commands: 1)
        return try command(line: bytes, actor: actor, chunk: &chunk).decoded
    }

    /// A line of `recipes send --stdin`, one of `chunk`'s, with its record when the bytes the
    /// builder spliced together are already the canonical record (see `Command.record`).
    public func command(line bytes: [UInt8], actor: String, chunk: inout Chunk) throws(CommandInputError) -> Command {
        try bytes.withUnsafeBytes { line in Result { () throws(CommandInputError) in try command(line: line, actor: actor, chunk: &chunk) } }.get()
    }

    /// The same, from a line in a larger buffer (a chunk's).
    public func command(line: UnsafeRawBufferPointer, actor: String, chunk: inout Chunk) throws(CommandInputError) -> Command {
        let time = chunk.time
        if let command = splicedLine(line, actor: actor, chunk: &chunk) { return command }
        let bytes = Array(line)
        let members = try Self.object(bytes)
        if members["specversion"] != nil {
            switch RecordDecoder().decode(value: bytes) {
            case .success(let decoded): return Command(decoded)
            case .failure(let error): throw .invalid(error)
            }
        }
        let envelope = try envelope(members, recipeID: try Self.recipeID(members), actor: actor, time: time,
                                    allowed: ["type", "recipe", "data", "id", "expectedRevision"])
        return Command(DecodedRecord(envelope: envelope, source: source, typeVersion: WireFormat.currentVersion(of: envelope.command.kind)))
    }

    /// One command of a batch (`POST /v1/commands`): `{"type","recipe","data"}` with
    /// optional `id` and `expectedRevision`, written by `actor` in `actorRole`. As in the single
    /// POST an `actor` member is ignored; a whole CloudEvent is not a command here. The batch's
    /// commands share `chunk` (their time, their ids' random bits); the record comes with the
    /// command when the spliced bytes are canonical.
    public func command(batchItem bytes: UnsafeRawBufferPointer, actor: String, actorRole: ActorRole?,
                        chunk: inout Chunk) throws(CommandInputError) -> Command {
        let time = chunk.time
        if let members = JSONSlices.members(bytes), let recipe = Self.recipeMember(bytes, members),
           let command = spliced(bytes, members: members, recipeID: recipe, actor: actor, actorRole: actorRole,
                                 chunk: &chunk, allowsRecipe: true) {
            return command
        }
        let members = try Self.object(Array(bytes))
        var envelope = try envelope(members, recipeID: try Self.recipeID(members), actor: actor, time: time,
                                    allowed: ["type", "recipe", "data", "id", "expectedRevision", "actor"])
        envelope.actorRole = actorRole
        return Command(DecodedRecord(envelope: envelope, source: source, typeVersion: WireFormat.currentVersion(of: envelope.command.kind)))
    }

    /// A command of `kind` with `data` given as a JSON object's members.
    public func envelope(kind: RecipeCommand.Kind, data: [String: any Sendable], recipeID: RecipeID, actor: String,
                         commandID: String? = nil, time: Timestamp = .now) throws(CommandInputError) -> CommandEnvelope {
        guard let data = JSONValue(data) else {
            throw .invalid(WireError(.malformed, "the data of \(kind.rawValue) has a value JSON cannot hold.", field: "data"))
        }
        var members: [String: JSONValue] = ["type": .string(kind.rawValue), "data": data]
        if let commandID { members["id"] = .string(commandID) }
        return try envelope(members, recipeID: recipeID, actor: actor, time: time,
                            allowed: ["type", "data", "id"])
    }

    // MARK: - The fast path

    // The members are spliced into the CloudEvent as the producer wrote them, and
    // the event is read with `RecordDecoder` as on the slow path: the same
    // commands are accepted. Whatever is unusual (escapes in the type or recipe,
    // a repeated member, an event the decoder refuses) answers nil, and the slow
    // path (`Foundation`'s JSON) runs to give the precise error.

    /// An HTTP body for `recipeID`; nil: take the slow path.
    private func spliced(_ bytes: UnsafeRawBufferPointer, recipeID: RecipeID, actor: String, time: Timestamp) -> CommandEnvelope? {
        guard let members = JSONSlices.members(bytes) else { return nil }
        var chunk = Chunk(time: time, commands: 1)
        return spliced(bytes, members: members, recipeID: recipeID, actor: actor, chunk: &chunk, allowsRecipe: false)?.decoded.envelope
    }

    /// A `recipes send` line: a whole CloudEvent is decoded as it is.
    private func splicedLine(_ bytes: UnsafeRawBufferPointer, actor: String, chunk: inout Chunk) -> Command? {
        guard let members = JSONSlices.members(bytes) else { return nil }
        if members.contains(where: { JSONSlices.equal(bytes, $0.key, "specversion") }) {
            return (try? RecordDecoder().decode(value: bytes).get()).map { Command($0) }
        }
        guard members.allSatisfy({ !JSONSlices.equal(bytes, $0.key, "actor") }),
              let recipe = Self.recipeMember(bytes, members) else {
            return nil
        }
        return spliced(bytes, members: members, recipeID: recipe, actor: actor, chunk: &chunk, allowsRecipe: true)
    }

    /// The `recipe` member when it is a recipe id written without escapes. Checked as a `String`
    /// (`RecipeID.init(_:)` walks its contiguous bytes): the generic `init(utf8:)` is not
    /// specialized across modules, and walking a slice through it cost most of a line's CPU.
    private static func recipeMember(_ bytes: UnsafeRawBufferPointer, _ members: [JSONSlices.Member]) -> RecipeID? {
        guard let member = members.first(where: { JSONSlices.equal(bytes, $0.key, "recipe") }),
              member.isString, !member.escaped else { return nil }
        let inner = UnsafeRawBufferPointer(rebasing: bytes[(member.value.lowerBound + 1)..<(member.value.upperBound - 1)])
        return try? RecipeID(String(decoding: inner, as: UTF8.self))
    }

    /// The `recipe` member of a line or a batch item: a recipe id, else `malformed`
    /// naming `recipe` and the form (a NUL, a control character, a non-ASCII letter).
    private static func recipeID(_ members: [String: JSONValue]) throws(CommandInputError) -> RecipeID {
        guard case .string(let recipe)? = members["recipe"] else {
            throw .invalid(WireError(.malformed, "recipe must be a string: the recipe id.", field: "recipe"))
        }
        do throws(RecipeID.Invalid) {
            return try RecipeID(recipe)
        } catch {
            throw .invalid(WireError(.malformed, error.message, field: "recipe"))
        }
    }

    private func spliced(_ bytes: UnsafeRawBufferPointer, members: [JSONSlices.Member], recipeID: RecipeID, actor: String,
                         actorRole: ActorRole? = nil, chunk: inout Chunk, allowsRecipe: Bool) -> Command? {
        var kind: RecipeCommand.Kind?
        var data: Range<Int>?, id: JSONSlices.Member?, expectedRevision: Range<Int>?
        for member in members {
            if JSONSlices.equal(bytes, member.key, "type") {
                guard member.isString, !member.escaped,
                      let known = WireFormat.kind(named: UnsafeRawBufferPointer(
                        rebasing: bytes[(member.value.lowerBound + 1)..<(member.value.upperBound - 1)])) else { return nil }
                kind = known
            } else if JSONSlices.equal(bytes, member.key, "data") {
                data = member.value
            } else if JSONSlices.equal(bytes, member.key, "id") {
                id = member
            } else if JSONSlices.equal(bytes, member.key, "expectedRevision") {
                expectedRevision = member.value
            } else if JSONSlices.equal(bytes, member.key, "actor") || (allowsRecipe && JSONSlices.equal(bytes, member.key, "recipe")) {
                continue
            } else {
                return nil
            }
        }
        guard let kind else { return nil }
        func raw(_ range: Range<Int>, into writer: inout JSONWriter) {
            writer.append(UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
        let commandID = id == nil ? chunk.newCommandID() : nil
        let timeText = chunk.timeText
        func event(version: Int) -> [UInt8] {
            // The fixed parts in runs, as `RecordEncoder` writes them.
            var writer = JSONWriter(capacity: bytes.count + 320)
            writer.raw(#"{"specversion":"1.0","id":"#)
            if let id { raw(id.value, into: &writer) } else { writer.string(commandID!) }
            writer.key("source")
            writer.string(source)
            writer.key("type")
            writer.typeName(kind, version: version)
            writer.raw(#","subject":"#)
            writer.string(recipeID.text)
            writer.raw(#","time":"#)
            writer.string(timeText)
            writer.raw(#","datacontenttype":"application/json","dataschema":"#)
            writer.dataSchema(kind, version: version)
            writer.raw(#","actor":"#)
            writer.string(actor)
            if let actorRole {
                writer.key("actorrole")
                writer.string(actorRole.rawValue)
            }
            if let expectedRevision {
                writer.key("expectedrevision")
                raw(expectedRevision, into: &writer)
            }
            writer.key("data")
            if let data { raw(data, into: &writer) } else { writer.raw("{}") }
            writer.raw("}")
            return writer.bytes
        }
        let key = RecordKey.key(forRecipe: recipeID)
        let current = WireFormat.currentVersion(of: kind)
        func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[range]) }
        // Today's version checked without reading back what was written here: only the members
        // copied from the producer are read (`RecordDecoder.decode(spliced:…)`, which accepts
        // exactly the records `decode` accepts).
        let currentValue = event(version: current)
        let checked = RecordDecoder().decode(
            spliced: kind, recipeID: recipeID, id: id.map { .given(slice($0.value)) } ?? .made(commandID!),
            expectedRevision: expectedRevision.map(slice), data: data.map(slice) ?? Self.emptyObjectBytes,
            recordSize: currentValue.count, attributes: chunk.attributes(source: source, actor: actor, actorRole: actorRole))
        assert(checked == (try? RecordDecoder().decode(key: key, value: currentValue).get()),
               "the check of a spliced record and the record decoder disagree")
        // Else the whole record read, and a body in an earlier shape (v1's `metric`) read as the log
        // reads an old record, as the slow path does, so that clients of v1 stay on this path.
        func decoded(_ version: Int) -> (DecodedRecord, [UInt8])? {
            let value = version == current ? currentValue : event(version: version)
            return (try? RecordDecoder().decode(key: key, value: value).get()).map { ($0, value) }
        }
        guard let (decoded, value) = checked.map({ ($0, currentValue) }) ?? decoded(current)
                ?? WireFormat.knownVersions(of: kind).reversed().lazy.filter({ $0 < current }).compactMap(decoded).first else {
            return nil
        }
        // The bytes just read are the record itself when each member the producer wrote is
        // already as the encoder writes it (everything else was written here the encoder's way):
        // then they are appended as they are, without encoding the decoded command again.
        let canonical = decoded.typeVersion == current
            && (id.map { Self.isPlain(bytes, $0, equalTo: decoded.envelope.commandID) } ?? true)
            && (expectedRevision.map { Self.isCanonical(bytes[$0], integer: decoded.envelope.expectedRevision) } ?? true)
            && RecordEncoder(source: source).isCanonicalData(
                data.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) }
                    ?? Self.emptyObjectBytes,
                of: decoded.envelope.command)
        let record = canonical ? value : nil
        assert(record == nil || record == RecordEncoder(source: source).encode(decoded.envelope),
               "a spliced record taken as canonical is not what the encoder writes")
        return Command(decoded, key: key, record: record)
    }

    private static let emptyObject: StaticString = "{}"
    private static var emptyObjectBytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: emptyObject.utf8Start, count: emptyObject.utf8CodeUnitCount)
    }

    /// A string member written without escapes or control characters, whose text is `text`.
    private static func isPlain(_ bytes: UnsafeRawBufferPointer, _ member: JSONSlices.Member, equalTo text: String) -> Bool {
        guard member.isString, !member.escaped else { return false }
        let inner = bytes[(member.value.lowerBound + 1)..<(member.value.upperBound - 1)]
        return !inner.contains(where: { $0 < 0x20 }) && inner.elementsEqual(text.utf8)
    }

    /// Digits as `JSONWriter.integer` writes `value` (no `+`, leading zero, fraction or exponent).
    private static func isCanonical(_ slice: Slice<UnsafeRawBufferPointer>, integer value: Int?) -> Bool {
        guard let value else { return false }
        var writer = JSONWriter(capacity: 20)
        writer.integer(value)
        return slice.elementsEqual(writer.bytes)
    }

    /// A random (version 4) UUID in lowercase, as `UUID().uuidString.lowercased()` makes, from
    /// the system's generator: Foundation's `UUID()` opens and reads `/dev/urandom` each time,
    /// which was a fifth of `recipes send --stdin`'s CPU. Many at once: `Chunk.newCommandID()`.
    public static func newCommandID() -> String {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { arc4random_buf($0.baseAddress!, $0.count) }
        return commandID(words.0, words.1)
    }

    /// A new recipe's id: a `newCommandID()`, which is of the form.
    public static func newRecipeID() -> RecipeID {
        RecipeID(made: newCommandID())
    }

    /// The UUID text of 128 random bits.
    static func commandID(_ high: UInt64, _ low: UInt64) -> String {
        let high = (high & ~0xF000) | 0x4000                       // version 4
        let low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        return String(unsafeUninitializedCapacity: 36) { text in
            let digits: StaticString = "0123456789abcdef"
            var position = 0
            for word in [high, low] {
                for nibble in (0..<16).reversed() {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = digits.utf8Start[Int((word >> (UInt64(nibble) * 4)) & 0xF)]
                    position += 1
                }
            }
            return 36
        }
    }

    // MARK: - Steps

    private static func object(_ bytes: [UInt8]) throws(CommandInputError) -> [String: JSONValue] {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .notJSON("not valid UTF-8") }
        guard !bytes.isEmpty else { throw .notJSON("empty; expected a JSON object") }
        let parsed: JSONValue
        do {
            parsed = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw .notJSON("not JSON; expected a JSON object")
        }
        guard case .object(let members) = parsed else {
            throw .invalid(WireError(.malformed, "expected a JSON object."))
        }
        return members
    }

    private func envelope(_ members: [String: JSONValue], recipeID: RecipeID, actor: String,
                          time: Timestamp, allowed: Set<String>) throws(CommandInputError) -> CommandEnvelope {
        if let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .invalid(WireError(.malformed, "\(unknown) is not a member of a command (expected \(allowed.sorted().joined(separator: ", "))).",
                                     field: unknown))
        }
        guard case .string(let typeName)? = members["type"] else {
            throw .invalid(WireError(.malformed, "type must be a string naming the command, e.g. \"IngredientAdded\".", field: "type"))
        }
        guard let kind = RecipeCommand.Kind(rawValue: typeName) else {
            let known = RecipeCommand.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalid(WireError(.unknownType, "type \"\(typeName)\" is not a command; one of: \(known).", field: "type"))
        }
        let version = WireFormat.currentVersion(of: kind)
        var event: [String: JSONValue] = [
            "specversion": .string(WireFormat.specVersion),
            "id": members["id"] ?? .string(UUID().uuidString.lowercased()),
            "source": .string(source),
            "type": .string(WireFormat.typeName(kind, version: version)),
            "subject": .string(recipeID.text),
            "time": .string(RFC3339.string(time)),
            "datacontenttype": .string(WireFormat.dataContentType),
            "dataschema": .string(WireFormat.dataSchema(kind, version: version)),
            "actor": .string(actor),
            "data": members["data"] ?? .object([:]),
        ]
        if let expected = members["expectedRevision"] { event["expectedrevision"] = expected }
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder().encode(event))
        } catch {
            throw .invalid(WireError(.malformed, "the command cannot be written as JSON: \(error)."))
        }
        switch RecordDecoder().decode(key: RecordKey.key(forRecipe: recipeID), value: bytes) {
        case .success(let decoded):
            return decoded.envelope
        case .failure(var error):
            // A body in an earlier shape of the command (IngredientAdded with v1's `metric`) is read as
            // the log reads an old record, and appended at today's version: clients of v1 keep working.
            for older in WireFormat.knownVersions(of: kind).reversed() where older < version {
                event["type"] = .string(WireFormat.typeName(kind, version: older))
                event["dataschema"] = .string(WireFormat.dataSchema(kind, version: older))
                guard let olderBytes = try? JSONEncoder().encode(event) else { continue }
                switch RecordDecoder().decode(key: RecordKey.key(forRecipe: recipeID), value: Array(olderBytes)) {
                case .success(let decoded):
                    return decoded.envelope
                case .failure(let olderError):
                    // The shape was the older one (today's refused one of its members), but a value
                    // broke a rule: that rule is the answer, not the member.
                    if error.code == .malformed, error.field == "data", olderError.field != "data" { error = olderError }
                }
            }
            // Name the field as the producer wrote it, not as the CloudEvent spells it.
            if error.field == "expectedrevision" {
                error.field = "expectedRevision"
                error.message = error.message.replacingOccurrences(of: "expectedrevision", with: "expectedRevision")
            }
            throw .invalid(error)
        }
    }
}

extension Timestamp {
    /// The wall clock, for commands made now.
    public static var now: Timestamp {
        Timestamp(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
    }
}

