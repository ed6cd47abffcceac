import RecipeDomain
import RecipeJSON

// MARK: - Records a producer spliced together

/// A producer that writes a command's record itself (`CommandBuilder`: the envelope's
/// attributes written by it, the user's `id`, `expectedRevision` and `data` copied in as
/// given) checks it here without reading back what it wrote: only the copied parts are
/// read, by the decoder's own steps and limits. The answer is the record `decode` gives
/// for the whole record, or nil where `decode` refuses it, which then says why: one
/// place for each error's text. `SplicedCheckTests` holds the two to the same verdicts.
extension RecordDecoder {
    /// The attributes a producer writes into each command record, as it writes them,
    /// and whether the decoder reads them back the same and accepts them: checked once
    /// for all the records that share them (a chunk of `send --stdin`, a batch).
    public struct ProducerAttributes: Sendable {
        public let source: String
        public let actor: String
        public let actorRole: ActorRole?
        public let time: Timestamp
        /// Whether `decode` reads these attributes, written as `CommandBuilder` writes them
        /// (`timeText` for `time`), back as they are and accepts them.
        public let areAccepted: Bool

        public init(source: String, actor: String, actorRole: ActorRole?, time: Timestamp, timeText: String) {
            self.source = source
            self.actor = actor
            self.actorRole = actorRole
            self.time = time
            var timeText = timeText
            areAccepted = RecordDecoder.sourceProblem(source) == nil && RecordLimits.violation(actor: actor) == nil
                && timeText.withUTF8 { RFC3339.parse(UnsafeRawBufferPointer($0)) } == time
        }
    }

    /// The command id of a spliced record.
    public enum SplicedID {
        /// Copied from the producer's input: the JSON value as written (`"…"`).
        case given(UnsafeRawBufferPointer)
        /// Made by the producer (`CommandBuilder.newCommandID()`): an id of the form.
        case made(String)
    }

    /// The record `decode(key:value:)` reads from a record of `kind` at its current version
    /// for `recipeID`, keyed by it, that holds `attributes` as the producer writes them,
    /// `id`, and `expectedRevision` and `data` as the JSON values copied into it (nil: the
    /// record has no `expectedrevision`), and is `recordSize` bytes long; nil when
    /// `decode` refuses that record or `attributes` are not accepted.
    public func decode(spliced kind: RecipeCommand.Kind, recipeID: RecipeID, id: SplicedID,
                       expectedRevision: UnsafeRawBufferPointer?, data: UnsafeRawBufferPointer,
                       recordSize: Int, attributes: ProducerAttributes) -> DecodedRecord? {
        guard attributes.areAccepted, recordSize <= WireFormat.maxRecordSize,
              let format = formats.format(kind, version: formats.currentVersion(of: kind)) else { return nil }
        let commandID: String
        switch id {
        case .made(let made):
            commandID = made
        case .given(let given):
            guard let text = Self.scanned(given, { tape, index in tape[index].kind == .string ? tape.text(index) : nil }),
                  RecordLimits.violation(commandID: text) == nil else { return nil }
            commandID = text
        }
        var revision: Int?
        if let expectedRevision {
            let value = Self.scanned(expectedRevision) { tape, index -> Int? in
                let token = tape[index]
                guard token.kind == .number else { return nil }
                let digits = UnsafeRawBufferPointer(rebasing: tape.bytes[token.start..<token.end])
                guard case .value(let value) = JSONNumber.integer(digits, isPlainInteger: token.flag) else { return nil }
                return value
            }
            guard let value, RecordLimits.violation(expectedRevision: value) == nil else { return nil }
            revision = value
        }
        guard let command = Self.scanned(data, { tape, index in try? Self.command(data: index, on: tape, format: format) }),
              RecordLimits.violation(in: command) == nil else { return nil }
        let envelope = CommandEnvelope(
            commandID: commandID, recipeID: recipeID, actor: attributes.actor, time: attributes.time,
            expectedRevision: revision, actorRole: attributes.actorRole, command: command)
        return DecodedRecord(envelope: envelope, source: attributes.source, typeVersion: format.version)
    }

    /// `read` of `value`, one JSON value as a record's attribute (nested from depth 2 as the
    /// record's scan nests it) on a tape; nil when it is not JSON or holds an escaped
    /// control character (which no record may).
    private static func scanned<Value>(_ value: UnsafeRawBufferPointer,
                                       _ read: (JSONTape, Int) -> Value?) -> Value? {
        withUnsafeTemporaryAllocation(of: JSONToken.self, capacity: 64) { stack -> Value? in
            var scanner = JSONScanner(value, maxNestingDepth: WireFormat.maxNestingDepth)
            var tape = JSONTapeWriter(startingIn: stack)
            guard let index = try? scanner.value(depth: 2, onto: &tape), (try? scanner.expectEnd()) != nil,
                  scanner.firstControlEscape == nil else { return nil }
            return read(JSONTape(bytes: value, tokens: tape.tokens), index)
        }
    }
}
