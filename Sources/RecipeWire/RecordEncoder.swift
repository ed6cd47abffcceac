import RecipeDomain

// MARK: - Record encoder

/// Writes a command as one CloudEvents 1.0 record in structured-mode JSON, the
/// value of a record on `recipes.edits`.
///
/// The output is canonical: members in the fixed order below, no whitespace,
/// strings escaped one way, integers without `.0`, other amounts in their shortest
/// round-trip form, the time in UTC with milliseconds only when not zero, and the
/// newest data version of each command. The same envelope always gives the same
/// bytes, so records can be compared and hashed.
///
/// ```swift
/// let encoder = RecordEncoder(source: "recipes-http")
/// let value = encoder.encode(envelope)
/// // {"specversion":"1.0","id":"0b0e…","source":"recipes-http","type":"recipes.IngredientAdded.v1",
/// //  "subject":"5a8f…","time":"2026-12-01T10:15:00Z","datacontenttype":"application/json",
/// //  "dataschema":"Schemas/commands/IngredientAdded.v1.schema.json","actor":"alice",
/// //  "expectedrevision":4,"data":{"name":"Flour","amount":250,"metric":"g"}}
/// let message = KafkaProducerMessage(
///     topic: RecipeTopics(prefix: prefix).edits, key: RecordKey.key(forRecipe: envelope.recipeID), value: value,
///     headers: [KafkaHeader(key: WireFormat.contentTypeHeaderName, value: WireFormat.contentType)])
/// ```
///
/// The encoder writes whatever the envelope holds. Check `RecordLimits.violation(in:)`
/// first to refuse, before appending, a command every reader would reject.
public struct RecordEncoder: Sendable {
    /// The CloudEvents `source`: which producer wrote the record (`recipes-cli`,
    /// `recipes-http`…). Must not be empty.
    public var source: String

    public init(source: String) {
        precondition(!source.isEmpty, "a CloudEvents source must not be empty")
        self.source = source
    }

    /// The record's bytes.
    public func encode(_ envelope: CommandEnvelope) -> [UInt8] {
        var writer = JSONWriter(capacity: 384)
        write(envelope, to: &writer)
        return writer.bytes
    }

    /// The record's bytes, written into `buffer` (emptied first) so a producer
    /// loop can reuse one allocation.
    public func encode(_ envelope: CommandEnvelope, into buffer: inout [UInt8]) {
        var writer = JSONWriter(capacity: 0)
        swap(&writer.bytes, &buffer)
        writer.bytes.removeAll(keepingCapacity: true)
        write(envelope, to: &writer)
        swap(&writer.bytes, &buffer)
    }

    // MARK: - Envelope

    private func write(_ envelope: CommandEnvelope, to writer: inout JSONWriter) {
        let kind = envelope.command.kind
        let version = WireFormat.currentVersion(of: kind)
        writer.raw(#"{"specversion":"1.0","id":"#)
        writer.string(envelope.commandID)
        writer.key("source")
        writer.string(source)
        // Type and schema names are plain ASCII by construction: no escaping needed.
        writer.raw(#","type":"recipes."#)
        writer.bytes.append(contentsOf: kind.rawValue.utf8)
        writer.raw(".v")
        writer.integer(version)
        writer.raw(#"","subject":"#)
        writer.string(envelope.recipeID)
        writer.raw(#","time":""#)
        RFC3339.write(envelope.time, to: &writer.bytes)
        writer.raw(#"","datacontenttype":"application/json","dataschema":"Schemas/commands/"#)
        writer.bytes.append(contentsOf: kind.rawValue.utf8)
        writer.raw(".v")
        writer.integer(version)
        writer.raw(#".schema.json","actor":"#)
        writer.string(envelope.actor)
        if let actorRole = envelope.actorRole {
            writer.key("actorrole")
            writer.string(actorRole.rawValue)
        }
        if let expectedRevision = envelope.expectedRevision {
            writer.key("expectedrevision")
            writer.integer(expectedRevision)
        }
        writer.key("data")
        writeData(envelope.command, to: &writer)
        writer.raw("}")
    }

    // MARK: - Data (newest version of each command)

    /// The `data` object. When a command gets a new data version, its case here
    /// changes to the new shape and `DataFormats` gains the matching reader; the
    /// readers of older versions stay.
    private func writeData(_ command: RecipeCommand, to writer: inout JSONWriter) {
        switch command {
        case .draftStarted, .recipeSaved, .draftDiscarded, .recipeDeleted:
            writer.raw("{}")
            return
        case .accessGranted(let grantee, let role):
            writer.key("grantee", first: true)
            writer.string(grantee)
            writer.key("role")
            writer.string(role.rawValue)
        case .accessRevoked(let grantee):
            writer.key("grantee", first: true)
            writer.string(grantee)
        case .ownershipTransferred(let newOwner):
            writer.key("newOwner", first: true)
            writer.string(newOwner)
        case .titleChanged(let title):
            writer.key("title", first: true)
            writer.string(title)
        case .servingsChanged(let servings):
            writer.key("servings", first: true)
            writer.integer(servings)
        case .imageChanged(let url):
            writer.key("url", first: true)
            if let url { writer.string(url) } else { writer.raw("null") }
        case .ingredientAdded(let name, let amount, let metric, let ingredientID):
            writer.key("name", first: true)
            writer.string(name)
            writer.key("amount")
            writer.number(amount)
            writer.key("metric")
            writer.string(metric)
            if let ingredientID {
                writer.key("ingredientId")
                writer.string(ingredientID)
            }
        case .ingredientUpdated(let ingredientID, let name, let amount, let metric):
            writer.key("ingredientId", first: true)
            writer.string(ingredientID)
            if let name {
                writer.key("name")
                writer.string(name)
            }
            if let amount {
                writer.key("amount")
                writer.number(amount)
            }
            if let metric {
                writer.key("metric")
                writer.string(metric)
            }
        case .ingredientRemoved(let ingredientID):
            writer.key("ingredientId", first: true)
            writer.string(ingredientID)
        case .instructionAdded(let description, let position, let instructionID):
            writer.key("description", first: true)
            writer.string(description)
            if let position {
                writer.key("position")
                writer.integer(position)
            }
            if let instructionID {
                writer.key("instructionId")
                writer.string(instructionID)
            }
        case .instructionUpdated(let instructionID, let description):
            writer.key("instructionId", first: true)
            writer.string(instructionID)
            writer.key("description")
            writer.string(description)
        case .instructionRemoved(let instructionID):
            writer.key("instructionId", first: true)
            writer.string(instructionID)
        case .instructionMoved(let instructionID, let position):
            writer.key("instructionId", first: true)
            writer.string(instructionID)
            writer.key("position")
            writer.integer(position)
        case .tagAdded(let text):
            writer.key("text", first: true)
            writer.string(text)
        case .tagChanged(let name, let text):
            writer.key("name", first: true)
            writer.string(name)
            writer.key("text")
            writer.string(text)
        case .tagRemoved(let name):
            writer.key("name", first: true)
            writer.string(name)
        }
        writer.raw("}")
    }
}
