import Kafka

/// How much a log holds, for a log that drops its oldest records when full
/// (the embedded broker of `recipes dev`): appends are refused before a
/// record would push another out, so nothing acknowledged is ever lost.
public struct LogCapacity: Sendable {
    public let partitionCount: Int
    /// What each partition may hold; refusals start at `margin` of it, since
    /// what is counted (the journal) trails what the broker holds by moments.
    public let bytesPerPartition: Int
    public let recordsPerPartition: Int64
    public let margin: Double
    /// Bytes and records a partition holds now.
    public let usage: @Sendable (Int32) -> (bytes: Int, records: Int64)

    public init(partitionCount: Int, bytesPerPartition: Int, recordsPerPartition: Int64, margin: Double = 0.9,
                usage: @escaping @Sendable (Int32) -> (bytes: Int, records: Int64)) {
        (self.partitionCount, self.bytesPerPartition, self.recordsPerPartition, self.margin, self.usage) =
            (partitionCount, bytesPerPartition, recordsPerPartition, margin, usage)
    }

    /// What a batch admitted so far adds to each partition.
    struct Pending {
        var bytes: [Int32: Int] = [:]
        var records: [Int32: Int64] = [:]
    }

    /// Throws `LogFull` when the message would take its partition past the margin.
    func admit(_ message: KafkaProducerMessage) throws(LogFull) {
        var pending = Pending()
        try admit(message, after: &pending)
    }

    /// The same, counting `pending` too, and adding the message to it when admitted.
    func admit(_ message: KafkaProducerMessage, after pending: inout Pending) throws(LogFull) {
        let partition = KafkaPartitioner.partition(forKey: message.key ?? [], partitionCount: partitionCount)
        let (bytes, records) = usage(partition)
        let size = message.value.count + (message.key?.count ?? 0)
        let (newBytes, newRecords) = (bytes + (pending.bytes[partition] ?? 0) + size, records + (pending.records[partition] ?? 0) + 1)
        if Double(newBytes) > margin * Double(bytesPerPartition) || Double(newRecords) > margin * Double(recordsPerPartition) {
            throw LogFull(partition: partition)
        }
        pending.bytes[partition, default: 0] += size
        pending.records[partition, default: 0] += 1
    }
}

/// A partition of a log with a size cap is full, with the ways out.
public struct LogFull: Error {
    public let partition: Int32
    public var code: String { "logFull" }
    public var message: String {
        "partition \(partition) of the embedded broker's log is nearly full (it keeps 5 MiB and 100,000 records a partition, "
            + "then drops the oldest): nothing more is appended there; run recipes dev with more --partitions (--fresh), "
            + "or point recipes serve at a real Kafka cluster"
    }
}
