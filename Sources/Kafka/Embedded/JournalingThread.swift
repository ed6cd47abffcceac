import Foundation
import Threads

/// One consumer and one thread journaling the topics of several `EmbeddedKafkaJournal`s of one
/// embedded cluster: each record goes to its journal's file of its partition, until each journal
/// has been stopped and has journaled the log as it stood then (or journaling failed).
///
/// One consumer rather than one a journal: an idle client costs the process its own threads
/// (a consumer of a 3-broker cluster has six) and its own timers whatever it reads, and an idle
/// `recipes dev` journals three topics.
final class JournalingThread: Sendable {
    private let consumer: KafkaConsumer
    /// The journals by topic.
    private let journals: [String: EmbeddedKafkaJournal]
    private let thread = OwnedThread(name: "kafka-journal")

    private init(consumer: KafkaConsumer, journals: [EmbeddedKafkaJournal]) {
        self.consumer = consumer
        self.journals = Dictionary(uniqueKeysWithValues: journals.map { ($0.topic, $0) })
    }

    /// Reads each journal's topic from where the journal ends, on a new thread.
    static func start(_ journals: [EmbeddedKafkaJournal], kafka: EmbeddedKafka) throws {
        var config = KafkaConfig(bootstrapServers: kafka.bootstrapServers)
        // The embedded broker answers a fetch only when its wait ends: a short one keeps the journal moments behind.
        config["fetch.wait.max.ms"] = String(EmbeddedKafka.fetchWaitMilliseconds)
        // Idle, it fetches nothing; records this process appends wake it (`KafkaConfig.stopsFetchingWhenIdle`).
        config.stopsFetchingWhenIdle = true
        // Alone, it looks for other processes' records once a second, not four times (with other
        // idle consumers of the cluster, at their shared peeks): no reader waits on a journal,
        // and `stop` fetches at once.
        config.idlePeekInterval = .seconds(1)
        let consumer = try KafkaConsumer(config: config)
        var files: [KafkaTopicPartition: FileHandle] = [:]
        do {
            var from: [KafkaTopicPartition: KafkaOffset] = [:]
            for journal in journals {
                let next = journal.state.withLock { $0.next }
                for partition in 0..<Int32(journal.partitions) {
                    let topicPartition = KafkaTopicPartition(topic: journal.topic, partition: partition)
                    from[topicPartition] = next[partition].map { .offset($0) } ?? .beginning
                    let path = EmbeddedKafkaJournal.path(journal.folder, journal.topic, partition)
                    if !FileManager.default.fileExists(atPath: path), !FileManager.default.createFile(atPath: path, contents: nil) {
                        throw KafkaError(.embeddedBroker, "cannot create \(path)")
                    }
                    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                    files[topicPartition] = handle
                    try handle.seekToEnd()
                }
            }
            try consumer.assign(from.keys.sorted(), from: from)
        } catch {
            for file in files.values { try? file.close() }
            consumer.close()
            throw error
        }
        let journaling = JournalingThread(consumer: consumer, journals: journals)
        for journal in journals {
            journal.journaling.withLock { $0 = journaling }
            journal.state.withLock { $0.running = true }
        }
        let openFiles = files
        journaling.thread.start { journaling.run(openFiles) }
    }

    /// A journal was asked to stop: its thread looks at once, even while its consumer is idle.
    func stopRequested() {
        consumer.fetchAgainIfIdle()
    }

    /// Once no journal is left running: waits for the thread to end (true), or `deadline` (false).
    /// True at once while others still run.
    func joinIfDone(deadline: ContinuousClock.Instant) -> Bool {
        guard journals.values.allSatisfy({ !$0.state.withLock { $0.running } }) else { return true }
        return thread.join(deadline: deadline)
    }

    private func run(_ files: [KafkaTopicPartition: FileHandle]) {
        var files = files
        defer {
            for file in files.values { try? file.close() }
            consumer.close()
            // Its journals and it no longer hold each other.
            for journal in journals.values { journal.journaling.withLock(wake: .nobody) { $0 = nil } }
        }
        do {
            try journal(into: &files)
        } catch {
            let failure = error as? KafkaError ?? KafkaError(.embeddedBroker, "journal: \(error)")
            for journal in journals.values {
                journal.state.withLock { state in
                    guard state.running else { return }
                    state.failure = failure
                    state.running = false
                }
            }
        }
    }

    private func journal(into files: inout [KafkaTopicPartition: FileHandle]) throws {
        // Where each stopping journal's partitions ended when it was asked to stop.
        var ends: [String: [Int32: Int64]] = [:]
        var running = Set(journals.keys)
        while !running.isEmpty {
            // Records end the wait at once: it only paces the look at the stops, and an idle dev's wake-ups.
            let records = try consumer.poll(maxRecords: 10_000, timeout: .milliseconds(200))
            if !records.isEmpty { try write(records, to: files) }
            for topic in running.sorted() {
                let journal = journals[topic]!
                let (stopping, next) = journal.state.withLock(wake: .nobody) { ($0.stopRequested, $0.next) }
                guard stopping else { continue }
                // Stopping: journal up to the ends as they are when asked to stop, then end.
                if ends[topic] == nil {
                    // Idle, it would look for other processes' records only at its next peek.
                    consumer.fetchAgainIfIdle()
                    ends[topic] = try (0..<Int32(journal.partitions)).reduce(into: [:]) { ends, partition in
                        ends[partition] = try consumer.watermarks(KafkaTopicPartition(topic: topic, partition: partition)).high
                    }
                }
                guard ends[topic]!.allSatisfy({ next[$0.key] ?? 0 >= $0.value }) else { continue }
                let partitions = (0..<Int32(journal.partitions)).map { KafkaTopicPartition(topic: topic, partition: $0) }
                // Nothing more of its topic is read: its files are done with.
                try consumer.pause(partitions)
                for partition in partitions {
                    try files[partition]?.synchronize()
                    try files.removeValue(forKey: partition)?.close()
                }
                journal.state.withLock { $0.running = false }
                running.remove(topic)
            }
        }
    }

    /// Appends each record to its partition's file (records of a journal already stopped are not
    /// its), then counts them in its journal.
    private func write(_ records: [KafkaConsumerRecord], to files: [KafkaTopicPartition: FileHandle]) throws {
        var frames: [KafkaTopicPartition: [UInt8]] = [:]
        var added: [KafkaTopicPartition: Int] = [:]
        var next: [KafkaTopicPartition: Int64] = [:]
        for record in records {
            let partition = KafkaTopicPartition(topic: record.topic, partition: record.partition)
            guard files[partition] != nil else { continue }
            frames[partition, default: []] += EmbeddedKafkaJournal.frame(record)
            added[partition, default: 0] += record.value.count + (record.key?.count ?? 0)
            next[partition] = record.offset + 1
        }
        for (partition, bytes) in frames { try files[partition]!.write(contentsOf: bytes) }
        for topic in Set(next.keys.map(\.topic)) {
            // Nobody waits on these counts: the waiters (`stop`) wait for `running`.
            journals[topic]!.state.withLock(wake: .nobody) { state in
                for (partition, size) in added where partition.topic == topic { state.bytes[partition.partition, default: 0] += size }
                for (partition, offset) in next where partition.topic == topic { state.next[partition.partition] = offset }
            }
        }
    }
}
