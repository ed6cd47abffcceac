import Foundation
import Kafka
import RecipeDomain
import RecipeProjection
import RecipeWire

/// One record of the log with the outcome the fold gives it: a line of
/// `audit history` and of `audit export`.
public struct AuditRecord: Sendable {
    /// Partition, offset, ids, actor, type, outcome and reason, as the history read model has them.
    public var entry: HistoryEntry
    /// The record's key as text.
    public var key: String?
    /// The command, when the record decoded.
    public var envelope: CommandEnvelope?
    /// Why it could not be applied at all (wrong partition, undecodable).
    public var unreadable: Rejection?
    /// The record's `data` member, when the value is a JSON object with one.
    public var data: JSONValue?
    /// `data` as JSON text with sorted keys.
    public var dataJSON: String?

    init(_ record: KafkaConsumerRecord, entry: HistoryEntry, envelope: CommandEnvelope?, unreadable: Rejection?) {
        self.entry = entry
        key = record.keyString
        self.envelope = envelope
        self.unreadable = unreadable
        data = Self.data(of: record.value)
        dataJSON = data.flatMap { try? Self.encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) }
    }

    public var position: String { "\(entry.partition):\(entry.offset)" }

    /// Judges a record as the projector does and folds it into the state of the
    /// recipe it names in `recipes` (made on the recipe's first command; a
    /// rejection only marks a recipe already there).
    static func fold(_ record: KafkaConsumerRecord, judge: RecordJudge, into recipes: inout [RecipeID: ProjectedRecipe]) -> AuditRecord {
        let reading = judge.read(record)
        switch reading.content {
        case .rejected(let rejection):
            let entry = reading.entry
            if let id = reading.marksDraftOf { recipes[id]?.noteRejection(rejection, entry: entry) }
            return AuditRecord(record, entry: entry, envelope: nil, unreadable: rejection)
        case .command(let decoded):
            var entry = reading.entry
            let id = decoded.envelope.recipeID
            recipes[id, default: ProjectedRecipe(id: id)].apply(decoded.envelope, entry: &entry)
            return AuditRecord(record, entry: entry, envelope: decoded.envelope, unreadable: nil)
        }
    }

    /// One JSON object: position, times, ids, type, outcome, reason and data.
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
        if dataJSON != nil { writer.key("data") }
        // The data object is JSON already: spliced in as it is.
        return String(decoding: writer.bytes, as: UTF8.self) + (dataJSON ?? "") + "}"
    }

    private func optional(_ name: StaticString, _ value: String?, _ writer: inout JSONWriter) {
        guard let value else { return }
        writer.key(name)
        writer.string(value)
    }

    /// The `data` member of a JSON object value; nil when the value is not
    /// such an object (what an undecodable record may be).
    static func data(of value: [UInt8]) -> JSONValue? {
        struct Record: Decodable { let data: JSONValue? }
        return (try? decoder.decode(Record.self, from: Data(value)))?.data
    }

    private static let decoder = JSONDecoder()
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
