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

    /// A record of the edits topic as read, before any state: its command, or the
    /// decision that it holds none.
    public enum Reading: Sendable {
        case command(CommandEnvelope, partition: Int32, offset: Int64)
        case undecodable(DecisionRecord)
    }

    /// The decision about `record`, with no decider or chain yet; `recipes` (the
    /// states of the record's partition) moves on when it is accepted.
    public func decide(_ record: KafkaConsumerRecord, recipes: inout [RecipeID: Recipe]) -> DecisionRecord {
        decide(record.withBorrowed { read($0) }, recipes: &recipes)
    }

    /// Whether `record` sits where its key hashes, and the command it holds. Read where it
    /// lies, as a poll lends it: the decider copies no record.
    public func read(_ record: KafkaBorrowedRecord) -> Reading {
        if let key = record.key {
            let expected = KafkaPartitioner.partition(forKey: key, partitionCount: partitionCount)
            if expected != record.partition {
                let recipeID = RecordKey.recipeID(fromKey: key)
                let rejection = Rejection(.wrongPartition, "key \(recipeID?.text ?? RecipeID.quoted(utf8: key)) hashes to partition "
                                          + "\(expected), not \(record.partition)")
                return .undecodable(DecisionRecord(undecodable: rejection, recipeID: recipeID?.text, commandID: nil,
                                                   partition: record.partition, offset: record.offset))
            }
        }
        switch decoder.decode(key: record.key, value: record.value) {
        case .failure(let error):
            return .undecodable(DecisionRecord(undecodable: error, key: record.key.map { [UInt8]($0) },
                                               partition: record.partition, offset: record.offset))
        case .success(let decoded):
            return .command(decoded.envelope, partition: record.partition, offset: record.offset)
        }
    }

    /// The decision about a record read by `read`, against the states of its partition.
    public func decide(_ reading: consuming Reading, recipes: inout [RecipeID: Recipe]) -> DecisionRecord {
        // Consumed: the envelope is moved out, not copied (a copy and a destroy of each reading
        // retained and released every string of its command).
        switch consume reading {
        case .undecodable(let decision):
            return decision
        case .command(let envelope, let partition, let offset):
            // In place: a recipe taken out and put back was copied whole on the way back in.
            return DecisionRecord(deciding: envelope, partition: partition, offset: offset,
                                  recipe: &recipes[envelope.recipeID, default: Recipe(id: envelope.recipeID)])
        }
    }
}
