import Kafka
import RecipeDomain
import RecipeWire

/// Decides one record of the edits topic: where it must be, whether it is a
/// command, and what the rules say about it against its recipe's state, as a
/// decision record. The one place that decides: the decider's use of the rules
/// (and `audit redecide`'s, to compare); every other reader folds the decisions.
///
/// ```swift
/// let judge = CommandJudge(partitionCount: 6)
/// var recipes: [RecipeID: Recipe] = [:]   // one partition's
/// let decision = judge.decide(record, recipes: &recipes)
/// ```
public struct CommandJudge: Sendable {
    private let decoder = RecordDecoder()
    /// Partitions of the edits topic: a record must sit where its key hashes.
    public let partitionCount: Int

    public init(partitionCount: Int) {
        self.partitionCount = partitionCount
    }

    /// The decision about `record`, with no decider or chain yet; `recipes` (the
    /// states of the record's partition) moves on when it is accepted.
    public func decide(_ record: KafkaConsumerRecord, recipes: inout [RecipeID: Recipe]) -> DecisionRecord {
        if let key = record.key {
            let expected = KafkaPartitioner.partition(forKey: key, partitionCount: partitionCount)
            if expected != record.partition {
                let recipeID = RecordKey.recipeID(fromKey: key)
                let rejection = Rejection(.wrongPartition, "key \(recipeID?.text ?? RecipeID.quoted(utf8: key)) hashes to partition "
                                          + "\(expected), not \(record.partition)")
                return DecisionRecord(undecodable: rejection, recipeID: recipeID?.text, commandID: nil,
                                      partition: record.partition, offset: record.offset)
            }
        }
        switch decoder.decode(key: record.key, value: record.value) {
        case .failure(let error):
            return DecisionRecord(undecodable: error, key: record.key, partition: record.partition, offset: record.offset)
        case .success(let decoded):
            let envelope = decoded.envelope
            var recipe = recipes.removeValue(forKey: envelope.recipeID) ?? Recipe(id: envelope.recipeID)
            defer { recipes[envelope.recipeID] = recipe }
            return DecisionRecord(deciding: envelope, partition: record.partition, offset: record.offset, recipe: &recipe)
        }
    }
}
