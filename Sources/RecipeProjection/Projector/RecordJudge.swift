import Kafka
import RecipeDomain
import RecipeWire

/// How one record of the log is judged: where it belongs, whether it decodes,
/// and what folding it into its recipe gives. The projector and the audit
/// tools share it, so a record has one outcome wherever it is asked about.
public struct RecordJudge: Sendable {
    private let decoder = RecordDecoder()
    /// Partitions of the topic: a record must sit where its key hashes.
    public let partitionCount: Int

    public init(partitionCount: Int) {
        self.partitionCount = partitionCount
    }

    /// A record as read: where it is and what it names (`entry`), and whether
    /// it is a command to fold. A struct, so the entry's fields are read in place.
    public struct Reading: Sendable {
        public var entry: HistoryEntry
        public var content: Content

        public enum Content: Sendable {
            /// Not applicable: in the wrong partition, or undecodable. The entry
            /// names the recipe the record claims, when it says.
            case rejected(Rejection)
            /// A command to fold into `entry.recipeID`'s recipe (see `apply`).
            case command(DecodedRecord)
        }

        /// The recipe whose open draft this record marks as rejected: the one a
        /// rejected record names, unless it sits in another partition than that
        /// recipe's. Such a record is not ordered with the recipe's own records,
        /// so where it fell among them would depend on how the partitions were
        /// interleaved: marking the draft would let two replicas disagree.
        public var marksDraftOf: RecipeID? {
            guard case .rejected(let rejection) = content, rejection.code != .wrongPartition else { return nil }
            return entry.recipeID
        }
    }

    /// The first half of judging a record: everything that does not need the recipe's state.
    public func read(_ record: KafkaConsumerRecord) -> Reading {
        record.value.withUnsafeBytes { value in
            guard let key = record.key else {
                return read(KafkaBorrowedRecord(topic: record.topic, partition: record.partition, offset: record.offset,
                                                key: nil, value: value, timestamp: record.timestamp))
            }
            return key.withUnsafeBytes {
                read(KafkaBorrowedRecord(topic: record.topic, partition: record.partition, offset: record.offset,
                                         key: $0, value: value, timestamp: record.timestamp))
            }
        }
    }

    /// Judges a record where it lies in the consumer's message: the reading copies
    /// what it keeps, so it outlives the record.
    public func read(_ record: KafkaBorrowedRecord) -> Reading {
        // The key as text only where it is the answer: a decoded record names its recipe itself.
        var entry = HistoryEntry(partition: record.partition, offset: record.offset, recipeID: nil,
                                 type: "unknown", outcome: .rejected, logTime: record.timestamp)
        if let rawKey = record.key {
            let expected = KafkaPartitioner.partition(forKey: rawKey, partitionCount: partitionCount)
            if expected != record.partition {
                // A key that is no recipe id names no recipe, and is shown escaped.
                let key = RecordKey.recipeID(fromKey: rawKey)
                let rejection = Rejection(.wrongPartition, "key \(key?.text ?? RecipeID.quoted(utf8: rawKey)) hashes to partition "
                                          + "\(expected), not \(record.partition)")
                entry.recipeID = key
                entry.reject(rejection)
                return Reading(entry: entry, content: .rejected(rejection))
            }
        }
        switch decoder.decode(key: record.key, value: record.value) {
        case .failure(let error):
            entry.commandID = error.commandID
            // Filed under the key (the partition's recipe), under the subject only when there is no key.
            if let key = record.key {
                entry.recipeID = RecordKey.recipeID(fromKey: key)
            } else {
                entry.recipeID = error.recipeID
            }
            entry.reject(error.rejection)
            return Reading(entry: entry, content: .rejected(error.rejection))
        case .success(let decoded):
            let envelope = decoded.envelope
            entry.recipeID = envelope.recipeID
            entry.commandID = envelope.commandID
            entry.time = envelope.time.millisecondsSinceEpoch
            entry.actor = envelope.actor
            entry.actorRole = envelope.actorRole?.rawValue
            entry.type = envelope.command.name
            return Reading(entry: entry, content: .command(decoded))
        }
    }

    /// The second half: folds the command into the recipe's state before it and
    /// completes the entry with the outcome and the revision after it.
    @discardableResult
    public static func apply(_ envelope: CommandEnvelope, to recipe: inout Recipe, entry: inout HistoryEntry) -> RecipeDecision {
        let decision = recipe.apply(envelope)
        switch decision {
        case .accepted: entry.outcome = .accepted
        case .duplicate: entry.outcome = .duplicate
        case .rejected(let rejection): entry.reject(rejection)
        }
        entry.revision = recipe.revision
        return decision
    }
}
