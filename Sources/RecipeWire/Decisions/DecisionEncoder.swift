import RecipeDomain
import RecipeJSON

// MARK: - Decision encoder

/// Writes a decision as one CloudEvents 1.0 record in structured-mode JSON, the
/// value of a record on the decisions topic. Canonical as `RecordEncoder`'s
/// output is: the same decision always gives the same bytes, so a decision made
/// twice (a decider restarted, `audit redecide`) can be compared byte for byte.
///
/// ```swift
/// let value = DecisionEncoder(source: "recipes-decider").encode(decision)
/// // {"specversion":"1.0","id":"3:120",…,"type":"recipes.decision.v1",…,"data":{"partition":3,
/// //  "offset":120,…,"outcome":"accepted","events":[…],"revision":5,"rulesVersion":1,…}}
/// ```
///
/// The CloudEvents `id` is the command's position (`3:120`): one decision per
/// command record, so it is unique on the topic and the same each time the command
/// is decided. `time` is the command's own time, `subject` the recipe; both are
/// left out when the record did not say (an undecodable one).
public struct DecisionEncoder: Sendable {
    /// The CloudEvents `source`: which stage wrote the decision. Must not be empty.
    public var source: String

    public init(source: String) {
        precondition(!source.isEmpty, "a CloudEvents source must not be empty")
        self.source = source
    }

    /// The record's bytes.
    public func encode(_ decision: DecisionRecord) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.raw(#"{"specversion":"1.0","id":""#)
        writePosition(decision, to: &writer)
        writer.raw("\"")
        writer.key("source")
        writer.string(source)
        writer.raw(#","type":"#)
        writer.append(Self.type)
        if let recipeID = decision.recipeID {
            writer.key("subject")
            writer.string(recipeID)
        }
        if let time = decision.time {
            writer.raw(#","time":""#)
            RFC3339.write(time, to: &writer)
            writer.raw("\"")
        }
        writer.raw(#","datacontenttype":"application/json","dataschema":"#)
        writer.append(Self.dataSchema)
        writer.key("data")
        writeData(decision, to: &writer)
        writer.raw("}")
        return writer.bytes
    }

    /// The `type` and `dataschema` of the version written, as JSON strings (plain ASCII).
    private static let type = Array("\"\(DecisionFormat.typeName(version: DecisionFormat.currentVersion))\"".utf8)
    private static let dataSchema = Array("\"\(DecisionFormat.dataSchema(version: DecisionFormat.currentVersion))\"".utf8)

    // MARK: - Data

    private func writeData(_ decision: DecisionRecord, to writer: inout JSONWriter) {
        writer.key("partition", first: true)
        writer.integer(Int(decision.partition))
        writer.key("offset")
        writer.integer(Int(decision.offset))
        writeOptional(decision.commandID, "commandId", to: &writer)
        writeOptional(decision.commandKind?.rawValue, "commandType", to: &writer)
        writeOptional(decision.actor, "actor", to: &writer)
        writeOptional(decision.actorRole?.rawValue, "actorRole", to: &writer)
        writer.key("outcome")
        writer.string(decision.outcome.name)
        switch decision.outcome {
        case .accepted(let events, _):
            writer.key("events")
            writer.raw("[")
            for (index, event) in events.enumerated() {
                if index > 0 { writer.raw(",") }
                EventWriter.write(event, to: &writer)
            }
            writer.raw("]")
        case .rejected(let rejection, _), .undecodable(let rejection):
            writer.key("reason")
            writer.key("code", first: true)
            writer.string(rejection.code.rawValue)
            writer.key("message")
            writer.string(rejection.message)
            writer.raw("}")
        case .duplicate:
            break
        }
        if let revision = decision.outcome.revision {
            writer.key("revision")
            writer.integer(revision)
        }
        writer.key("rulesVersion")
        writer.integer(decision.rulesVersion)
        writeOptional(decision.decider, "decider", to: &writer)
        if let follows = decision.follows {
            // `DecisionLink.description`, written in parts, with no text built for it.
            writer.key("follows")
            writer.raw("\"")
            writer.escaped(follows.decider)
            writer.raw(":")
            writer.integer(Int(follows.offset))
            writer.raw("\"")
        }
        writer.raw("}")
    }

    private func writePosition(_ decision: DecisionRecord, to writer: inout JSONWriter) {
        writer.integer(Int(decision.partition))
        writer.raw(":")
        writer.integer(Int(decision.offset))
    }

    private func writeOptional(_ value: String?, _ name: StaticString, to writer: inout JSONWriter) {
        guard let value else { return }
        writer.key(name)
        writer.string(value)
    }
}
