import Foundation
import Glibc
import Threads

/// Keeps every record of one topic of an embedded cluster in a folder, and
/// puts them back into a new embedded cluster, each at its partition and
/// offset. The embedded broker lives in memory and forgets everything when
/// its process ends: with a journal, a development session survives a
/// restart, and a read-model store beside it stays valid (same log, same
/// positions).
///
/// The folder holds `journal.properties` (the journal's name, topic and
/// partitions) and one file per partition of length-prefixed records, each
/// with its offset, so that a gap or a torn write is seen on restore.
/// A record is journaled after the broker has it: one appended moments before
/// the process is killed (not stopped) may be missing on restart.
public final class EmbeddedKafkaJournal: Sendable {
    /// Stays the same across restarts: names the log where the cluster's id cannot (it is new each start).
    public let name: String
    public let topic: String
    public let partitions: Int
    /// Records put back into the cluster when the journal was opened.
    public let restoredRecords: Int
    public let folder: String

    let kafka: EmbeddedKafka
    /// An exclusive `flock` on the folder until `stop`: one journal at a time writes a folder.
    private let lockDescriptor: Locked<Int32?>
    let state = Locked(State())
    /// What journals it, once started (with the other journals started with it).
    let journaling = Locked<JournalingThread?>(nil)

    struct State {
        /// Started, and neither stopped at the log's end nor failed.
        var running = false
        var stopRequested = false
        var failure: KafkaError?
        /// Bytes journaled per partition (key, value and headers), as the broker counts them roughly.
        var bytes: [Int32: Int] = [:]
        var next: [Int32: Int64] = [:]
    }

    /// Opens the journal in `folder` (created if needed) and appends every
    /// record it holds to `topic` in `kafka`, which it creates with the
    /// journal's partition count. A new journal creates the topic with `partitions`.
    /// Throws when the journal names another topic, or its files have a gap.
    /// - Parameter fresh: forgets what the folder journaled before (under the lock, so never another process's journal).
    public init(folder: String, kafka: EmbeddedKafka, topic: String, partitions: Int, replicationFactor: Int = 1,
                fresh: Bool = false) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        self.folder = folder
        self.kafka = kafka
        self.topic = topic
        let lockDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard lockDescriptor >= 0 else {
            throw KafkaError(.embeddedBroker, "cannot open \(folder): \(String(cString: strerror(errno)))")
        }
        guard FileLock.take(lockDescriptor, LOCK_EX) else {
            close(lockDescriptor)
            throw KafkaError(.embeddedBroker, "the journal in \(folder) is in use by another process (another recipes dev?)")
        }
        do {
            if fresh {
                for file in try FileManager.default.contentsOfDirectory(atPath: folder)
                where file == "journal.properties" || file.hasSuffix(".records") {
                    try FileManager.default.removeItem(atPath: folder + "/" + file)
                }
            }
            (name, self.partitions) = try Self.properties(folder: folder, topic: topic, partitions: partitions)
            try kafka.createTopic(topic, partitions: self.partitions, replicationFactor: replicationFactor)
            let restored = try Self.restore(folder: folder, topic: topic, partitions: self.partitions, into: kafka)
            restoredRecords = restored.records
            state.withLock { state in
                state.bytes = restored.bytes
                state.next = restored.next
            }
        } catch {
            close(lockDescriptor)
            throw error
        }
        self.lockDescriptor = Locked(lockDescriptor)
    }

    /// The journal's name and partitions from `journal.properties`, written first for a new journal.
    private static func properties(folder: String, topic: String, partitions: Int) throws -> (name: String, partitions: Int) {
        let path = folder + "/journal.properties"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            let name = "journal-\(UUID().uuidString.lowercased())"
            try "name=\(name)\ntopic=\(topic)\npartitions=\(partitions)\n".write(toFile: path, atomically: true, encoding: .utf8)
            return (name, partitions)
        }
        let properties = Dictionary(text.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { first, _ in first })
        guard let name = properties["name"], let journaled = properties["topic"],
              let count = properties["partitions"].flatMap({ Int($0) }) else {
            throw KafkaError(.embeddedBroker, "\(path) is not a journal's properties file")
        }
        guard journaled == topic else {
            throw KafkaError(.embeddedBroker, "the journal in \(folder) holds topic \(journaled), not \(topic)")
        }
        return (name, count)
    }

    deinit { releaseLock() }

    private func releaseLock() {
        lockDescriptor.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
    }

    /// Bytes journaled for a partition: what the embedded broker holds of it (it drops the oldest past 5 MiB).
    public func bytes(of partition: Int32) -> Int {
        state.withLock { $0.bytes[partition] ?? 0 }
    }

    /// Records journaled for a partition: an upper bound of the message sets the broker keeps of it.
    public func records(of partition: Int32) -> Int64 {
        state.withLock { $0.next[partition] ?? 0 }
    }

    /// The error that stopped journaling, if one did.
    public var failure: KafkaError? { state.withLock { $0.failure } }

    // MARK: - Journaling

    /// Starts journaling: a thread reads the topic from where the journal ends and appends each
    /// record to its file. `start(_:)` journals several topics with one consumer.
    public func start() throws {
        try Self.start([self])
    }

    /// Starts journaling these journals, all of one embedded cluster, with one consumer and one
    /// thread: each client of a cluster costs the process its own threads and timers while idle
    /// (a consumer six threads, each waking every second), whatever it reads.
    public static func start(_ journals: [EmbeddedKafkaJournal]) throws {
        guard let kafka = journals.first?.kafka else { return }
        precondition(journals.allSatisfy { $0.kafka === kafka }, "journals started together are of one cluster")
        precondition(Set(journals.map(\.topic)).count == journals.count, "one journal a topic")
        try JournalingThread.start(journals, kafka: kafka)
    }

    /// Journals what the broker holds now, then stops and lets another journal
    /// open the folder. Throws what stopped journaling early, or `timedOut` when the
    /// log's end was not journaled within `timeout` (the folder then stays locked
    /// until the process ends: the journal's thread may still write to it).
    public func stop(timeout: Duration = .seconds(30)) throws {
        let deadline = ContinuousClock.now + timeout
        let journaling = state.withLock { state in
            state.stopRequested = true
            return state.running ? self.journaling.withLock { $0 } : nil
        }
        guard let journaling else { return releaseLock() }
        journaling.stopRequested()
        guard state.wait(until: { !$0.running }, deadline: deadline), journaling.joinIfDone(deadline: deadline) else {
            throw KafkaError(.timedOut, "the journal did not reach the log's end within \(timeout): the last records may be missing from \(folder)")
        }
        releaseLock()
        if let failure { throw failure }
    }

    // MARK: - The files

    static func path(_ folder: String, _ topic: String, _ partition: Int32) -> String {
        "\(folder)/\(topic)-\(partition).records"
    }

    /// `[u32 length of the rest][i64 offset][i64 timestamp or -1][i32 key length or -1][key]
    /// [u32 value length, or 0xFFFFFFFF for a null value][value][u16 headers]([u16 name length][name]
    /// [i32 value length or -1][value])*`, little-endian.
    static func frame(_ record: KafkaConsumerRecord) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(32 + record.value.count + (record.key?.count ?? 0))
        append(record.offset, to: &body)
        append(record.timestamp ?? -1, to: &body)
        append(Int32(record.key.map { $0.count } ?? -1), to: &body)
        body += record.key ?? []
        append(record.hasNullValue ? Self.nullValueLength : UInt32(record.value.count), to: &body)
        body += record.value
        append(UInt16(record.headers.count), to: &body)
        for header in record.headers {
            let name = Array(header.key.utf8)
            append(UInt16(name.count), to: &body)
            body += name
            append(Int32(header.value.map { $0.count } ?? -1), to: &body)
            body += header.value ?? []
        }
        var frame: [UInt8] = []
        append(UInt32(body.count), to: &frame)
        return frame + body
    }

    /// The value length that stands for a null value (a tombstone).
    static let nullValueLength = UInt32.max

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    /// Appends every journaled record back, partition by partition, at its partition;
    /// cuts a torn last frame off its file. Returns how many records it appended.
    private static func restore(folder: String, topic: String, partitions: Int, into kafka: EmbeddedKafka) throws
        -> (records: Int, bytes: [Int32: Int], next: [Int32: Int64]) {
        let producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
        var (restored, bytesJournaled, next) = (0, [Int32: Int](), [Int32: Int64]())
        for partition in 0..<Int32(partitions) {
            let path = Self.path(folder, topic, partition)
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let bytes = [UInt8](data)
            var reader = FrameReader(bytes: bytes)
            var messages: [KafkaProducerMessage] = []
            var size = 0
            while let record = try reader.next() {
                guard record.offset == Int64(messages.count) else {
                    throw KafkaError(.embeddedBroker, "\(path): record \(messages.count) has offset \(record.offset): the journal has a gap")
                }
                size += record.value.count + (record.key?.count ?? 0)
                var message = KafkaProducerMessage(topic: topic, key: record.key, value: record.value, headers: record.headers,
                                                   partition: partition, timestamp: record.timestamp)
                message.hasNullValue = record.hasNullValue
                messages.append(message)
            }
            if reader.position < bytes.count {
                // A frame cut short by a crash: the broker never acknowledged it to the journal.
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.truncate(atOffset: UInt64(reader.position))
                try handle.close()
            }
            // In order, in batches: one producer, one partition, so the offsets come out as they were.
            for start in stride(from: 0, to: messages.count, by: 10_000) {
                for result in producer.sendBatch(Array(messages[start..<min(start + 10_000, messages.count)])) {
                    let report = try result.get()
                    guard report.partition == partition else {
                        throw KafkaError(.embeddedBroker, "restoring \(path): a record landed in partition \(report.partition)")
                    }
                }
            }
            restored += messages.count
            bytesJournaled[partition] = size
            if !messages.isEmpty { next[partition] = Int64(messages.count) }
        }
        try producer.shutdown()
        return (restored, bytesJournaled, next)
    }
}

/// Reads the frames `EmbeddedKafkaJournal.frame` writes.
private struct FrameReader {
    let bytes: [UInt8]
    /// Where the next whole frame starts.
    private(set) var position = 0

    struct Record {
        var offset: Int64
        var timestamp: Int64?
        var key: [UInt8]?
        var value: [UInt8]
        var hasNullValue: Bool
        var headers: [KafkaHeader]
    }

    /// The next record, nil at the end or before a torn frame.
    mutating func next() throws -> Record? {
        guard bytes.count - position >= 4 else { return nil }
        let length = Int(read(UInt32.self, at: position))
        guard bytes.count - position - 4 >= length else { return nil }
        var cursor = position + 4
        let end = cursor + length
        func take<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
            guard cursor + MemoryLayout<T>.size <= end else { throw corrupt() }
            defer { cursor += MemoryLayout<T>.size }
            return read(type, at: cursor)
        }
        func take(_ count: Int) throws -> [UInt8] {
            guard count >= 0, cursor + count <= end else { throw corrupt() }
            defer { cursor += count }
            return Array(bytes[cursor..<cursor + count])
        }
        let offset = try take(Int64.self)
        let timestamp = try take(Int64.self)
        let keyLength = try take(Int32.self)
        let key = keyLength < 0 ? nil : try take(Int(keyLength))
        let valueLength = try take(UInt32.self)
        let hasNullValue = valueLength == EmbeddedKafkaJournal.nullValueLength
        let value = hasNullValue ? [] : try take(Int(valueLength))
        var headers: [KafkaHeader] = []
        for _ in 0..<(try take(UInt16.self)) {
            let name = String(decoding: try take(Int(try take(UInt16.self))), as: UTF8.self)
            let valueLength = try take(Int32.self)
            headers.append(KafkaHeader(key: name, value: valueLength < 0 ? nil : try take(Int(valueLength))))
        }
        guard cursor == end else { throw corrupt() }
        position = end
        return Record(offset: offset, timestamp: timestamp < 0 ? nil : timestamp, key: key, value: value, hasNullValue: hasNullValue,
                      headers: headers)
    }

    private func read<T: FixedWidthInteger>(_ type: T.Type, at index: Int) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: index, as: T.self)) }
    }

    private func corrupt() -> KafkaError {
        KafkaError(.embeddedBroker, "the journal's frame at byte \(position) does not hold together")
    }
}
