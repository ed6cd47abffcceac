import Kafka
import RecipeWire

/// The effective decisions (`EffectiveDecisions`) of one partition of the decisions
/// topic, in order, read as they are asked for, up to the end the partition had when
/// reading began, or up to a cut of it. The audit tools' one way to the decisions.
struct EffectiveDecisionReader {
    /// Where reading stops: a prefix of the partition, as `recipes replay` cuts it.
    enum Cut: Sendable, Equatable {
        /// The end the partition had when reading began.
        case end
        /// Up to the first decision about a command past this offset of the edits log.
        case commandsThrough(Int64)
        /// Up to the first record stamped after this time (ms since the epoch): a
        /// decision's Kafka timestamp is its command's time in the edits log.
        case loggedThrough(Int64)
    }

    /// An effective decision and the record that holds it (its key, its timestamp).
    struct Read {
        var decision: DecisionRecord
        var record: KafkaConsumerRecord
    }

    private let consumer: KafkaConsumer
    private let place: KafkaTopicPartition
    private let end: Int64
    private let cut: Cut
    private let decoder = DecisionDecoder()
    private var rule = EffectiveDecisions()
    /// Whether the partition's first records are gone and no decision was read yet:
    /// the chain then starts at the first one read, as a partial projector's does.
    private var startsPastHead: Bool
    private var buffer: [KafkaConsumerRecord] = []
    private var index = 0
    private var next: Int64
    private var cutReached = false
    private var head: Read?
    /// How long the partition may deliver nothing before reading gives up.
    private static let stallTimeout: Duration = .seconds(30)

    /// - Parameter allowMissingHead: reads a partition whose first records are gone from
    ///   what is left; otherwise that throws `MissingHead`.
    init(consumer: KafkaConsumer, topic: String, partition: Int32, cut: Cut = .end, allowMissingHead: Bool = false) throws {
        self.consumer = consumer
        self.cut = cut
        place = KafkaTopicPartition(topic: topic, partition: partition)
        let marks = try consumer.watermarks(place)
        if marks.low > 0, !allowMissingHead { throw MissingHead(topic: topic, partition: partition, first: marks.low) }
        (end, next, startsPastHead) = (marks.high, marks.low, marks.low > 0)
        try consumer.assign([place], from: [place: .offset(marks.low)]) // not `.beginning`: see `KafkaOffset`
    }

    /// The next effective decision, left in place; nil after the last.
    mutating func peek() throws -> Read? {
        while head == nil, let record = try nextRecord() {
            guard case .success(let decision) = decoder.decode(key: record.key, value: record.value) else { continue }
            if case .commandsThrough(let last) = cut, decision.offset > last {
                cutReached = true
                return nil
            }
            if startsPastHead {
                startsPastHead = false
                if let follows = decision.follows { rule = EffectiveDecisions(tails: [place.partition: follows]) }
            }
            if rule.admit(decision, onPartition: place.partition) { head = Read(decision: decision, record: record) }
        }
        return head
    }

    /// Passes the decision `peek` gave.
    mutating func take() {
        head = nil
    }

    private mutating func nextRecord() throws -> KafkaConsumerRecord? {
        guard !cutReached else { return nil }
        var lastProgress = ContinuousClock.now
        while index == buffer.count {
            guard next < end else { return nil }
            buffer = try consumer.poll(maxRecords: 10_000, timeout: .milliseconds(200)).filter {
                $0.partition == place.partition && $0.offset >= next && $0.offset < end
            }
            index = 0
            if !buffer.isEmpty {
                lastProgress = .now
            } else if ContinuousClock.now - lastProgress > Self.stallTimeout {
                throw KafkaError(.timedOut, "\(place) delivered nothing for \(Self.stallTimeout) at offset \(next), before \(end)")
            }
        }
        let record = buffer[index]
        if case .loggedThrough(let time) = cut, (record.timestamp ?? 0) > time {
            cutReached = true
            return nil
        }
        index += 1
        next = record.offset + 1
        return record
    }
}

/// Checks that the decisions topic is there, with as many partitions as the edits
/// topic (each decision is on its command's partition number).
func checkDecisionsTopic(kafka: KafkaConfig, topics: RecipeTopics, editsPartitions: Int) throws {
    // Every topic is asked for, not this one: a broker that creates topics on demand (as the
    // embedded one does) would make an empty decisions topic by being asked about it.
    guard let count = try KafkaAdmin(config: kafka).listTopics()[topics.decisions] else {
        throw DecisionsTopicError.noDecisionsTopic(topics.decisions)
    }
    guard count == editsPartitions else {
        throw DecisionsTopicError.partitionMismatch(edits: topics.edits, editsPartitions: editsPartitions,
                                                    decisions: topics.decisions, decisionsPartitions: count)
    }
}

public enum DecisionsTopicError: Error, CustomStringConvertible, Sendable, Equatable {
    case noDecisionsTopic(String)
    case partitionMismatch(edits: String, editsPartitions: Int, decisions: String, decisionsPartitions: Int)

    public var description: String {
        switch self {
        case .noDecisionsTopic(let topic):
            "the decisions topic \(topic) does not exist, so there are no recorded decisions (a decider writes them: recipes decide)"
        case .partitionMismatch(let edits, let editsCount, let decisions, let decisionsCount):
            "\(decisions) has \(decisionsCount) partitions and \(edits) \(editsCount): each decision is on its command's partition number, so they must be equal"
        }
    }
}
