import RecipeDomain
import RecipeJSON

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

    /// Whether `bytes` are exactly the `data` object this encoder writes for `command`: a producer
    /// that spliced a record around data it was given (`CommandBuilder`) appends its bytes as they
    /// are when they are, instead of encoding the decoded command again.
    public func isCanonicalData(_ bytes: UnsafeRawBufferPointer, of command: RecipeCommand) -> Bool {
        var writer = JSONWriter(capacity: bytes.count)
        writeData(command, to: &writer)
        return writer.withBytes { $0.elementsEqual(bytes) }
    }

    // MARK: - Envelope

    private func write(_ envelope: CommandEnvelope, to writer: inout JSONWriter) {
        let kind = envelope.command.kind
        let version = WireFormat.currentVersion(of: kind)
        writer.raw(#"{"specversion":"1.0","id":"#)
        writer.string(envelope.commandID)
        writer.key("source")
        writer.string(source)
        writer.key("type")
        writer.typeName(kind, version: version)
        writer.raw(#","subject":"#)
        writer.string(envelope.recipeID.text)
        writer.raw(#","time":""#)
        RFC3339.write(envelope.time, to: &writer)
        writer.raw(#"","datacontenttype":"application/json","dataschema":"#)
        writer.dataSchema(kind, version: version)
        writer.raw(#","actor":"#)
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
        case .ingredientAdded(let line, let ingredientID):
            writeLine(line, to: &writer)
            if let ingredientID {
                writer.key("ingredientId")
                writer.string(ingredientID)
            }
        case .ingredientUpdated(let ingredientID, let changes):
            writer.key("ingredientId", first: true)
            writer.string(ingredientID)
            if let name = changes.name {
                writer.key("name")
                writer.string(name)
            }
            writeUpdate(changes.amount, "amount", to: &writer) { $0.number($1) }
            writeUpdate(changes.amountMax, "amountMax", to: &writer) { $0.number($1) }
            writeUpdate(changes.unit, "unit", to: &writer) { $0.string($1) }
            writeUpdate(changes.note, "note", to: &writer) { $0.string($1) }
            writeUpdate(changes.section, "section", to: &writer) { $0.string($1) }
            writeUpdate(changes.text, "text", to: &writer) { $0.string($1) }
        case .ingredientRemoved(let ingredientID):
            writer.key("ingredientId", first: true)
            writer.string(ingredientID)
        case .instructionAdded(let description, let position, let instructionID, let section):
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
            writeOptional(section, "section", to: &writer)
        case .instructionUpdated(let instructionID, let description, let section):
            writer.key("instructionId", first: true)
            writer.string(instructionID)
            writeOptional(description, "description", to: &writer)
            writeUpdate(section, "section", to: &writer) { $0.string($1) }
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
        case .descriptionChanged(let description):
            writer.key("description", first: true)
            if let description { writer.string(description) } else { writer.raw("null") }
        case .yieldChanged(let yield):
            writer.key("yield", first: true)
            if let yield { writer.string(yield) } else { writer.raw("null") }
        case .timesChanged(let prepTime, let cookTime, let totalTime):
            // The first member written opens the object; with none given (which the
            // fold refuses) the object is empty.
            var first = true
            for (update, name) in [(prepTime, "prepTime" as StaticString), (cookTime, "cookTime"), (totalTime, "totalTime")] {
                if case .keep = update { continue }
                writer.key(name, first: first)
                first = false
                if case .set(let value) = update { writer.string(value) } else { writer.raw("null") }
            }
            if first { writer.raw("{") }
        case .sourceChanged(let url):
            writer.key("url", first: true)
            if let url { writer.string(url) } else { writer.raw("null") }
        case .draftContentSet(let draft):
            writeDraftContent(draft, to: &writer)
        }
        writer.raw("}")
    }

    // MARK: - Content version 2

    /// An ingredient line's members in v2 order, the object opened (`name` first).
    private func writeLine(_ line: IngredientLine, to writer: inout JSONWriter, first: Bool = true) {
        writer.key("name", first: first)
        writer.string(line.name)
        if let amount = line.amount {
            writer.key("amount")
            writer.number(amount)
        }
        if let amountMax = line.amountMax {
            writer.key("amountMax")
            writer.number(amountMax)
        }
        writeOptional(line.unit, "unit", to: &writer)
        writeOptional(line.note, "note", to: &writer)
        writeOptional(line.section, "section", to: &writer)
        writeOptional(line.text, "text", to: &writer)
    }

    private func writeOptional(_ value: String?, _ name: StaticString, to writer: inout JSONWriter) {
        guard let value else { return }
        writer.key(name)
        writer.string(value)
    }

    /// Absent keeps, `null` clears, a value sets.
    private func writeUpdate<Value>(
        _ update: FieldUpdate<Value>, _ name: StaticString, to writer: inout JSONWriter,
        _ write: (inout JSONWriter, Value) -> Void
    ) {
        switch update {
        case .keep: return
        case .clear:
            writer.key(name)
            writer.raw("null")
        case .set(let value):
            writer.key(name)
            write(&writer, value)
        }
    }

    private func writeDraftContent(_ draft: DraftContent, to writer: inout JSONWriter) {
        writer.key("title", first: true)
        writer.string(draft.title)
        if let servings = draft.servings {
            writer.key("servings")
            writer.integer(servings)
        }
        writeOptional(draft.image, "image", to: &writer)
        writeOptional(draft.description, "description", to: &writer)
        writeOptional(draft.yield, "yield", to: &writer)
        writeOptional(draft.prepTime, "prepTime", to: &writer)
        writeOptional(draft.cookTime, "cookTime", to: &writer)
        writeOptional(draft.totalTime, "totalTime", to: &writer)
        writeOptional(draft.sourceUrl, "sourceUrl", to: &writer)
        writer.key("ingredients")
        writer.raw("[")
        for (index, item) in draft.ingredients.enumerated() {
            if index > 0 { writer.raw(",") }
            if let id = item.id {
                writer.key("ingredientId", first: true)
                writer.string(id)
                writeLine(item.line, to: &writer, first: false)
            } else {
                writeLine(item.line, to: &writer)
            }
            writer.raw("}")
        }
        writer.raw("]")
        writer.key("instructions")
        writer.raw("[")
        for (index, item) in draft.instructions.enumerated() {
            if index > 0 { writer.raw(",") }
            if let id = item.id {
                writer.key("instructionId", first: true)
                writer.string(id)
                writer.key("description")
            } else {
                writer.key("description", first: true)
            }
            writer.string(item.description)
            writeOptional(item.section, "section", to: &writer)
            writer.raw("}")
        }
        writer.raw("]")
        writer.key("tags")
        writer.raw("[")
        for (index, tag) in draft.tags.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(tag)
        }
        writer.raw("]")
    }
}
