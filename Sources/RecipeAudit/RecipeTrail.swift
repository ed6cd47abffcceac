import Kafka
import RecipeDomain
import RecipeProjection

/// One recipe's records in log order, each with the outcome the projector
/// gives it, and the recipe's state after any of them.
public struct RecipeTrail: Sendable {
    public let recipeID: String
    /// The partition the recipe's key hashes to: where all its records are.
    public let partition: Int32
    public private(set) var records: [AuditRecord] = []
    /// The state after the last record added.
    public private(set) var state: ProjectedRecipe
    /// The offset of the last record of the partition read (this recipe's or another's).
    public internal(set) var lastOffsetRead: Int64?

    public init(recipeID: String, partition: Int32) {
        self.recipeID = recipeID
        self.partition = partition
        state = ProjectedRecipe(id: recipeID)
    }

    /// Judges the next record of the partition; a record of another recipe only moves `lastOffsetRead`.
    public mutating func add(_ record: KafkaConsumerRecord, judge: RecordJudge) {
        lastOffsetRead = record.offset
        // Another recipe's key: not ours, whatever its value says (the projector files it under the key).
        if let key = record.key, !key.elementsEqual(recipeID.utf8) { return }
        guard let added = Self.fold(record, judge: judge, into: &state), added.entry.recipeID == recipeID else { return }
        records.append(added)
    }

    /// The state after the records at or before `offset` of the partition.
    public func state(throughOffset offset: Int64) -> ProjectedRecipe {
        var state = ProjectedRecipe(id: recipeID)
        for record in records where record.entry.offset <= offset {
            var entry = record.entry
            if let envelope = record.envelope {
                state.apply(envelope, entry: &entry)
            } else if let rejection = record.unreadable, rejection.code != .wrongPartition {
                state.noteRejection(rejection, entry: entry)
            }
        }
        return state
    }

    /// Judges one record and, when it names `state`'s recipe, folds it in.
    /// Returns the record with its outcome (nil for another recipe's command).
    static func fold(_ record: KafkaConsumerRecord, judge: RecordJudge, into state: inout ProjectedRecipe) -> AuditRecord? {
        let reading = judge.read(record)
        switch reading.content {
        case .rejected(let rejection):
            let entry = reading.entry
            if rejection.code != .wrongPartition, entry.recipeID == state.recipe.id {
                state.noteRejection(rejection, entry: entry)
            }
            return AuditRecord(record, entry: entry, envelope: nil, unreadable: rejection)
        case .command(let decoded):
            guard decoded.envelope.recipeID == state.recipe.id else { return nil }
            var entry = reading.entry
            state.apply(decoded.envelope, entry: &entry)
            return AuditRecord(record, entry: entry, envelope: decoded.envelope, unreadable: nil)
        }
    }
}
