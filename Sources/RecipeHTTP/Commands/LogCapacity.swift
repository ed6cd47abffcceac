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

    /// Throws `LogFull` when the message would take its partition past the margin.
    func admit(_ message: KafkaProducerMessage) throws(LogFull) {
        let partition = KafkaPartitioner.partition(forKey: message.key ?? [], partitionCount: partitionCount)
        let (bytes, records) = usage(partition)
        let size = message.value.count + (message.key?.count ?? 0)
        if Double(bytes + size) > margin * Double(bytesPerPartition) || Double(records + 1) > margin * Double(recordsPerPartition) {
            throw LogFull(partition: partition)
        }
    }
}

/// A partition of a log with a size cap is full: 507, with the ways out.
public struct LogFull: Error, HTTPResponseError {
    public let partition: Int32
    public var status: Int { 507 }
    public var code: String { "logFull" }
    public var message: String {
        "partition \(partition) of the embedded broker's log is nearly full (it keeps 5 MiB and 100,000 records a partition, "
            + "then drops the oldest): nothing more is appended there; run recipes dev with more --partitions (--fresh), "
            + "or point recipes serve at a real Kafka cluster"
    }
}
