import Kafka
import RecipeDomain
import RecipeWire

/// Reads a topic straight from Kafka, one partition at a time: the audit tools
/// ask the logs, not a read model. A recipe's commands, and their decisions, all
/// sit in the partition its key hashes to, so one recipe's questions read one partition.
///
/// Threads: use from one thread.
public final class LogReader {
    private let consumer: KafkaConsumer
    public let topic: String
    /// The topic's partition ids.
    public let partitions: [Int32]

    /// Whether a partition whose first records are gone is read from what is left.
    public let allowMissingHead: Bool

    /// - Parameter allowMissingHead: reads a partition whose first offset is past 0
    ///   from that offset; otherwise reading it throws `MissingHead`, since every
    ///   answer from it would leave out what the lost records did.
    public init(kafka: KafkaConfig, topic: String, allowMissingHead: Bool = false) throws {
        consumer = try KafkaConsumer(config: Self.consumerConfig(kafka), readsHeaders: false)
        self.topic = topic
        self.allowMissingHead = allowMissingHead
        partitions = try consumer.partitions(of: topic)
    }

    deinit { consumer.close() }

    /// How the audit tools' consumers read: up to an end known beforehand, never past it. A
    /// record gone before it is read is an error (`auto.offset.reset`), not a jump. And a fetch
    /// at the end of a partition returns within 10 ms: the broker holds it up to `fetch.wait.max.ms`
    /// (librdkafka's default is half a second), and what is asked next on that connection, the
    /// next partition's fetch or watermarks, is answered after it (an export of 32 partitions
    /// waited ten seconds). A config that sets the wait keeps its own.
    static func consumerConfig(_ kafka: KafkaConfig) -> KafkaConfig {
        var config = kafka
        config["auto.offset.reset"] = "error"
        if config["fetch.wait.max.ms"] == nil { config["fetch.wait.max.ms"] = "10" }
        return config
    }

    /// The partition holding a recipe's records.
    public func partition(of recipeID: RecipeID) -> Int32 {
        KafkaPartitioner.partition(forKey: RecordKey.key(forRecipe: recipeID), partitionCount: partitions.count)
    }

    /// The high watermark of a partition: the offset the next record will get.
    public func end(of partition: Int32) throws -> Int64 {
        try consumer.watermarks(KafkaTopicPartition(topic: topic, partition: partition)).high
    }

    /// Hands `body` the records of `partition` in order, from its first to the
    /// one before `end` (the high watermark when nil), in batches. `body`
    /// returns false to stop early.
    /// - Parameter stallTimeout: how long the log may deliver nothing before this gives up.
    public func read(partition: Int32, until end: Int64? = nil, stallTimeout: Duration = .seconds(30),
                     _ body: ([KafkaConsumerRecord]) throws -> Bool) throws {
        let place = KafkaTopicPartition(topic: topic, partition: partition)
        let watermarks = try consumer.watermarks(place)
        if watermarks.low > 0, !allowMissingHead {
            throw MissingHead(topic: topic, partition: partition, first: watermarks.low)
        }
        let end = min(end ?? watermarks.high, watermarks.high)
        guard end > watermarks.low else { return }
        // From the offset just asked for, not `.beginning`: see `KafkaOffset`.
        try consumer.assign([place], from: [place: .offset(watermarks.low)])
        defer { try? consumer.assign([]) }
        var next = watermarks.low
        var lastProgress = ContinuousClock.now
        while next < end {
            let records = try consumer.poll(maxRecords: 10_000, timeout: .milliseconds(200)).filter { $0.offset < end }
            guard let last = records.last else {
                if ContinuousClock.now - lastProgress > stallTimeout {
                    throw KafkaError(.timedOut, "partition \(partition) delivered nothing for \(stallTimeout) at offset \(next), before \(end)")
                }
                continue
            }
            lastProgress = ContinuousClock.now
            next = last.offset + 1
            if try !body(records) { return }
        }
    }
}

/// A partition whose first records are gone: an audit of it would be partial.
public struct MissingHead: Error, Sendable, Equatable, CustomStringConvertible {
    public let topic: String
    public let partition: Int32
    public let first: Int64

    public var description: String {
        "partition \(partition) of topic \(topic) starts at offset \(first), not 0: records 0..<\(first) are gone "
            + "(retention or the embedded broker's size cap), so the answer would be partial; --allow-missing-head reads what is left"
    }
}
