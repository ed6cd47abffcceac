import Foundation
import Kafka
import RecipeDomain
import RecipeWire
import Threads

/// The committed topic: reading its partitions when taking them, and writing the documents of
/// decisions known to count (docs/architecture.md, "The committed topic").
extension Decider {
    /// Reads the committed topic's partitions from their start to their end, with one assignment
    /// of one consumer for all of them (see `decisionsReader`): each recipe's last and newest
    /// position, and each partition's end. A compacted partition may end in offsets that hold
    /// no record (tombstones removed): the consumer's end-of-partition says it is read.
    func readCommitted(_ taken: [Int32]) throws -> (onTopic: [Int32: [RecipeID: CommittedOnTopic]], ends: [Int32: Int64]) {
        let reader = committedReader
        var onTopic: [Int32: [RecipeID: CommittedOnTopic]] = [:]
        var ends: [Int32: Int64] = [:]
        var next: [Int32: Int64] = [:]
        for partition in taken {
            let marks = try producer.watermarks(KafkaTopicPartition(topic: topics.committed, partition: partition))
            ends[partition] = marks.high
            if marks.high > marks.low { next[partition] = marks.low }
        }
        guard !next.isEmpty else { return (onTopic, ends) }
        try reader.assign(next.keys.map { KafkaTopicPartition(topic: topics.committed, partition: $0) }, defaultOffset: .beginning)
        defer { try? reader.assign([]) }
        func unread(_ partition: Int32, _ offset: Int64) -> Bool {
            offset < ends[partition]! && reader.endReached(KafkaTopicPartition(topic: topics.committed, partition: partition)) ?? -1 < ends[partition]!
        }
        var lastRead = ContinuousClock.now
        while let (partition, offset) = next.first(where: { unread($0.key, $0.value) }) {
            guard ContinuousClock.now - lastRead < .seconds(60) else {
                throw DeciderError.readTimedOut(KafkaTopicPartition(topic: topics.committed, partition: partition), at: offset, end: ends[partition]!)
            }
            for record in try reader.poll(maxRecords: 10_000, timeout: .milliseconds(200)) where record.offset >= next[record.partition] ?? .max {
                next[record.partition] = record.offset + 1
                lastRead = .now
                guard let key = record.key, let recipeID = RecordKey.recipeID(fromKey: key),
                      let position = record.header(CommittedRecipe.positionHeaderName).flatMap({ CommittedRecipe.position(fromHeader: $0) }),
                      position.partition == record.partition else { continue }
                onTopic[record.partition, default: [:]][recipeID, default: CommittedOnTopic()].add(position.offset)
            }
        }
        return (onTopic, ends)
    }

    /// A partition this many commands behind the end its consumer last saw is catching up.
    static let catchingUp: Int64 = 1_000
    /// The longest a partition catching up holds its documents.
    static let longestHold: Duration = .seconds(10)

    /// Hands the documents the held partitions have to write to the producer. A partition
    /// catching up holds them (`holding`), for at most `longestHold`: a recipe's newest
    /// replaces the older ones meanwhile, so that deciding a long backlog writes each recipe
    /// about once, not at every save.
    func writeDocuments(holding: Bool = true) throws {
        var documents: [CommittedRecipe] = []
        let now = ContinuousClock.now
        for partition in partitions.keys {
            if holding, let written = documentsWritten[partition], now - written < Self.longestHold,
               let high = edits.lastSeenWatermarks(KafkaTopicPartition(topic: topics.edits, partition: partition))?.high,
               high - partitions[partition]!.nextCommand > Self.catchingUp { continue }
            documentsWritten[partition] = now
            documents += partitions[partition]!.takeDocuments()
        }
        guard !documents.isEmpty else { return }
        // Written on two threads: a document's detail and JSON are thousands of instructions,
        // on the thread that the lanes wait for.
        let topic = topics.committed
        let messages = TwoThreads.map(documents, minimum: 16) { Self.record(of: $0, topic: topic) }
        totals.committed += messages.count
        pending.append(PendingAppend(batch: producer.enqueue(messages)))
    }

    /// A document's record on the committed topic, in its recipe's partition.
    static func record(of document: CommittedRecipe, topic: String) -> KafkaProducerMessage {
        let key = RecordKey.key(forRecipe: document.recipeID)
        let position = KafkaHeader(key: CommittedRecipe.positionHeaderName, value: document.position)
        guard let value = document.value() else {
            return .tombstone(topic: topic, key: key, headers: [position], partition: document.partition)
        }
        return KafkaProducerMessage(topic: topic, key: key, value: value, headers: [committedContentType, position],
                                    partition: document.partition)
    }

    static let committedContentType = KafkaHeader(key: WireFormat.contentTypeHeaderName, value: CommittedRecipe.contentType)
}
