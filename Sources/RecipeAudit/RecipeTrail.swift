import Kafka
import RecipeDomain
import RecipeProjection

/// One recipe's records in log order, each with the outcome the projector
/// gives it, and the recipe's state after any of them.
public struct RecipeTrail: Sendable {
    public let recipeID: RecipeID
    /// The partition the recipe's key hashes to: where all its records are.
    public let partition: Int32
    public private(set) var records: [AuditRecord] = []
    /// The state after the last record added (the one entry of the states `AuditRecord.fold` keeps).
    public var state: ProjectedRecipe { states[recipeID]! }
    private var states: [RecipeID: ProjectedRecipe]
    /// The offset of the last record of the partition read (this recipe's or another's).
    public internal(set) var lastOffsetRead: Int64?

    public init(recipeID: RecipeID, partition: Int32) {
        self.recipeID = recipeID
        self.partition = partition
        states = [recipeID: ProjectedRecipe(id: recipeID)]
    }

    /// Judges the next record of the partition; a record of another recipe only moves `lastOffsetRead`.
    public mutating func add(_ record: KafkaConsumerRecord, judge: RecordJudge) {
        lastOffsetRead = record.offset
        // Another recipe's key: not ours, whatever its value says (the projector files it under the key).
        if let key = record.key, !key.elementsEqual(recipeID.text.utf8) { return }
        let added = AuditRecord.fold(record, judge: judge, into: &states)
        if added.entry.recipeID == recipeID { records.append(added) }
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
}
