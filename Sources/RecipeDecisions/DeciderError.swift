import Kafka

/// Why a decider stopped: as a whole (`Decider.run` throws it), or for one partition, which it then
/// names in its `status` while it goes on with the others.
public enum DeciderError: Error, CustomStringConvertible, Sendable {
    /// The decisions or the committed topic (`role`) does not exist.
    case noTopic(role: String, String, editsPartitions: Int)
    /// The decisions or the committed topic has another partition count than the edits topic; `record` names what it holds.
    case partitionMismatch(edits: String, editsPartitions: Int, other: String, otherPartitions: Int, record: String)
    case missingHead(KafkaTopicPartition, low: Int64)
    case readTimedOut(KafkaTopicPartition, at: Int64, end: Int64)
    case decisionsPastLog(KafkaTopicPartition, next: Int64, editsEnd: Int64)
    /// A decision that counts skips commands `from..<to` where the chain passes to its writer (`RebuiltPartition.skip`).
    case decisionsSkipCommands(KafkaTopicPartition, from: Int64, to: Int64, decider: String)
    case deliveryFailed(KafkaError)
    case catchUpTimedOut([Int32: Int64], after: Duration)
    /// `catchUp` found partitions it cannot go on with, each with why.
    case partitionsStopped([Int32: String])
    /// The snapshots folder cannot be made private to the user the decider runs as (`SnapshotFolder`).
    case snapshotsNotPrivate(String, String)

    public var description: String {
        switch self {
        case .noTopic(let role, let topic, let count):
            "the \(role) topic \(topic) does not exist: create it with \(count) partitions, as many as the edits topic has (recipes topics create)"
        case .partitionMismatch(let edits, let editsCount, let other, let otherCount, let record):
            "\(other) has \(otherCount) partitions and \(edits) \(editsCount): each \(record) goes on its command's partition number, so they must be equal"
        case .missingHead(let partition, let low):
            "\(partition) starts at offset \(low), not 0: its first decisions are gone, so which decisions count cannot be read"
        case .readTimedOut(let partition, let at, let end):
            "reading \(partition) got nothing for a minute at offset \(at) of \(end)"
        case .decisionsPastLog(let partition, let next, let end):
            "\(partition) holds decisions of commands up to offset \(next - 1), but the edits partition ends at offset \(end): "
                + "they are another log's decisions (was the edits topic made again, a journal cut short, or a decision appended by hand?)"
        case .decisionsSkipCommands(let partition, let from, let to, let decider):
            "\(partition) holds a decision of command \(to) by \(decider) that skips commands \(from)..<\(to): a decider decides every "
                + "command in order, so it is not a decider's (was it appended by hand?)"
        case .deliveryFailed(let error):
            "a decision or a committed document could not be appended: \(error)"
        case .catchUpTimedOut(let ends, let timeout):
            "the decider did not decide every command up to \(ends.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")) within \(timeout)"
        case .snapshotsNotPrivate(let path, let why):
            "the snapshots folder \(path) must be private to the user the decider runs as, and \(why)"
        case .partitionsStopped(let stopped):
            "the decider cannot go on with " + stopped.sorted { $0.key < $1.key }.map { "partition \($0.key): \($0.value)" }.joined(separator: "; ")
        }
    }
}
