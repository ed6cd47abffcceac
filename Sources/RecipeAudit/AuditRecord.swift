import Foundation
import Kafka
import RecipeDomain
import RecipeJSON
import RecipeProjection
import RecipeWire

/// One command of the edits log with its effective decision, as recorded: a line
/// of `audit history` and of `audit export`.
public struct AuditRecord: Sendable {
    /// The command's position, ids, actor, type, outcome, reason and revision, as the
    /// history read model has them (`HistoryEntry(decision, logTime:)`).
    public var entry: HistoryEntry
    /// The decision, as the decisions topic holds it (its rules version among the rest).
    public var decision: DecisionRecord
    /// The command's key as text.
    public var key: String?
    /// The command's `data` member, when its value is a JSON object with one; nil also
    /// when the command's record is gone (a head read with `--allow-missing-head`).
    public var data: JSONValue?
    /// `data` as JSON text with sorted keys.
    public var dataJSON: String?

    /// - Parameter command: the command's record on the edits log, when it is still there.
    init(_ read: EffectiveDecisionReader.Read, command: KafkaConsumerRecord?) {
        decision = read.decision
        entry = HistoryEntry(read.decision, logTime: read.record.timestamp)
        // The decision's record has its command's key.
        key = (command ?? read.record).keyString
        data = command.flatMap { JSONValue.data(ofRecord: $0.value) }
        dataJSON = data.flatMap { try? Self.encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The command's position, `partition:offset` of the edits log.
    public var position: String { "\(entry.partition):\(entry.offset)" }

    /// One JSON object: position, times, ids, type, outcome, reason, revision, rules version and data.
    public var json: String {
        var writer = JSONWriter(capacity: 256)
        writer.key("position", first: true)
        writer.string(position)
        writer.key("partition")
        writer.integer(Int(entry.partition))
        writer.key("offset")
        writer.integer(Int(entry.offset))
        optional("logTime", entry.logTime.map { RFC3339.string(Timestamp(millisecondsSinceEpoch: $0)) }, &writer)
        optional("key", key, &writer)
        optional("recipeId", entry.recipeID?.text, &writer)
        optional("commandId", entry.commandID, &writer)
        optional("time", entry.time.map { RFC3339.string(Timestamp(millisecondsSinceEpoch: $0)) }, &writer)
        optional("actor", entry.actor, &writer)
        writer.key("type")
        writer.string(entry.type)
        writer.key("outcome")
        writer.string(entry.outcome.rawValue)
        if let code = entry.reasonCode {
            writer.key("reason")
            writer.key("code", first: true)
            writer.string(code)
            writer.key("message")
            writer.string(entry.reasonMessage ?? "")
            writer.raw("}")
        }
        if let revision = entry.revision {
            writer.key("revision")
            writer.integer(revision)
        }
        writer.key("rulesVersion")
        writer.integer(decision.rulesVersion)
        if dataJSON != nil { writer.key("data") }
        // The data object is JSON already: spliced in as it is.
        return String(decoding: writer.bytes, as: UTF8.self) + (dataJSON ?? "") + "}"
    }

    private func optional(_ name: StaticString, _ value: String?, _ writer: inout JSONWriter) {
        guard let value else { return }
        writer.key(name)
        writer.string(value)
    }

    /// The recipe a command names as its decision would: its key's, else (no key) its `subject`'s.
    static func recipeID(of command: KafkaConsumerRecord) -> String? {
        struct Record: Decodable { let subject: String? }
        let claimed = command.key == nil ? (try? decoder.decode(Record.self, from: Data(command.value)))?.subject : nil
        return DecisionRecord.recipeID(key: command.key, claimed: claimed.flatMap { try? RecipeID($0) })
    }

    private static let decoder = JSONDecoder()
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
