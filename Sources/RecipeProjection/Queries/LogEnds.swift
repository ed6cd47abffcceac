import Foundation
import Kafka
import Threads

/// The end of the log (each partition's high watermark) as the brokers last told
/// it, asked again when a caller needs an answer newer than the one kept. The
/// question goes out without a lock held, so a slow broker delays only the
/// queries that asked it, never the others.
public final class LogEndSource: Sendable {
    private let consumer: KafkaConsumer
    private let topic: String
    /// Each partition's end and when it was asked for (before the question went out).
    private let ends = Locked<[Int32: (end: Int64, askedAt: ContinuousClock.Instant)]>([:])
    private let partitions = Locked<[Int32]?>(nil)

    /// `consumer` is used only to ask for watermarks; the source closes it in `close`.
    public init(consumer: KafkaConsumer, topic: String) {
        self.consumer = consumer
        self.topic = topic
    }

    /// The topic's partitions, asked once: they are fixed for the topic's life.
    public func topicPartitions() throws -> [Int32] {
        if let known = partitions.withLock({ $0 }) { return known }
        let asked = try consumer.partitions(of: topic, timeout: .seconds(5))
        partitions.withLock { $0 = asked }
        return asked
    }

    /// The next offset of each of `wanted` (every partition when nil), as asked of the
    /// brokers at `notBefore` or later. A partition the topic does not have is absent.
    public func ends(of wanted: [Int32]? = nil, notBefore: ContinuousClock.Instant) throws -> [Int32: Int64] {
        let all = try topicPartitions()
        var answer: [Int32: Int64] = [:]
        for partition in wanted.map({ $0.filter(all.contains) }) ?? all {
            if let kept = ends.withLock({ $0[partition] }), kept.askedAt >= notBefore {
                answer[partition] = kept.end
                continue
            }
            let asking = ContinuousClock.now
            let end = try consumer.watermarks(KafkaTopicPartition(topic: topic, partition: partition), timeout: .seconds(2)).high
            ends.withLock { ends in
                if (ends[partition]?.askedAt).map({ $0 < asking }) ?? true { ends[partition] = (end, asking) }
            }
            answer[partition] = end
        }
        return answer
    }

    public func close() { consumer.close() }
}
