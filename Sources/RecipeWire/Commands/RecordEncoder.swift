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

    /// The `data` object, as the command's kind describes it (`CommandDescription`).
    private func writeData(_ command: RecipeCommand, to writer: inout JSONWriter) {
        writer.data(of: command, CommandDescription.all[command.kind.ordinal])
    }
}
