import Foundation
import Kafka

/// The end of the log (each partition's high watermark) as the brokers last told
/// it, asked again when a caller needs an answer newer than the one kept. Calls
/// that arrive while one asks wait for it and share its answer, so a burst of
/// queries costs one round trip.
public final class LogEndSource: @unchecked Sendable {
    private let consumer: KafkaConsumer
    private let topic: String
    private let lock = NSLock()
    private var ends: [Int32: Int64] = [:]
    /// When the kept answer was asked for (before the question went out).
    private var askedAt: ContinuousClock.Instant?

    /// `consumer` is used only to ask for watermarks; the source closes it in `close`.
    public init(consumer: KafkaConsumer, topic: String) {
        self.consumer = consumer
        self.topic = topic
    }

    /// Each partition's next offset, as asked of the brokers at `notBefore` or later.
    /// A partition the topic does not have is absent.
    public func ends(notBefore: ContinuousClock.Instant) throws -> [Int32: Int64] {
        try lock.withLock {
            if let askedAt, askedAt >= notBefore { return ends }
            let asking = ContinuousClock.now
            // Partitions are fixed for the topic's life: asked once.
            if partitions == nil { partitions = try consumer.partitions(of: topic, timeout: .seconds(5)) }
            var fresh: [Int32: Int64] = [:]
            for partition in partitions ?? [] {
                fresh[partition] = try consumer.watermarks(KafkaTopicPartition(topic: topic, partition: partition),
                                                           timeout: .seconds(5)).high
            }
            (ends, askedAt) = (fresh, asking)
            return fresh
        }
    }

    private var partitions: [Int32]?

    public func close() { consumer.close() }
}
