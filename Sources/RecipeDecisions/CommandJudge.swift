import Kafka
import RecipeDomain
import RecipeWire

/// Decides one record of the edits topic: where it must be, whether it is a
/// command, and what the rules say about it against its recipe's state, as a
/// decision record. The one place that decides a record: the decider's use of the
/// rules (and `audit redecide`'s, to compare), through `RecipeJudge`, the rules' one
/// door (RecipeDomain); every other reader folds the decisions.
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
        record.withBorrowed { decide($0, recipes: &recipes) }
    }

    /// The same, for a record read where it lies, as a poll lends it: the decider copies no
    /// record. Whether it sits where its key hashes, the command it holds, and what the rules
    /// say of it.
    public func decide(_ record: KafkaBorrowedRecord, recipes: inout [RecipeID: Recipe]) -> DecisionRecord {
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
        // Thrown, not a `Result`: matching one copied the command out of it and destroyed both, and
        // a value of our own in between (the command or the refusal) did so once more.
        let decoded: DecodedRecord
        do throws(WireError) {
            decoded = try decoder.decoded(key: record.key, value: record.value)
        } catch {
            return DecisionRecord(undecodable: error, key: record.key.map { [UInt8]($0) },
                                  partition: record.partition, offset: record.offset)
        }
        // In place: a recipe taken out and put back was copied whole on the way back in. (The id
        // apart: the default's closure would hold a copy of all that was decoded.)
        let recipeID = decoded.envelope.recipeID
        return decide(decoded.envelope, partition: record.partition, offset: record.offset,
                      recipe: &recipes[recipeID, default: Recipe(id: recipeID)])
    }

    private func decide(_ envelope: borrowing CommandEnvelope, partition: Int32, offset: Int64, recipe: inout Recipe) -> DecisionRecord {
        let decision = RecipeJudge.decide(envelope, recipe: &recipe)
        return DecisionRecord(decision, of: envelope, revision: recipe.revision, partition: partition, offset: offset)
    }
}
