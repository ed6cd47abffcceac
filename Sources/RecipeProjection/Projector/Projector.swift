import Foundation
import Kafka
import Threads

/// Consumes the decisions topic and keeps a store's read models current: it folds
/// the effective decisions (`EffectiveDecisions`) as they were recorded, with no rule.
///
/// It assigns itself every partition and starts each from the store's own
/// positions: no consumer group, every store holds the full read model (the
/// deciders divide the partitions; projectors do not). It holds its store
/// alone (`StoreLock`): it judges against positions only it moves, so another
/// projector or a replay on the same store is refused.
///
/// Threads: `run` and `catchUp` block their caller, which judges; a thread of
/// the projector's polls ahead (`RecordSource`) and another commits the judged
/// batches meanwhile (`BatchPipeline`). `stop` may be set from any thread: the
/// loop commits what it judged and returns.
public final class Projector: Sendable {
    public struct Progress: Sendable {
        /// Totals since `run` started.
        public var totals: BatchSummary
        /// Next offset of each partition, as stored.
        public var positions: [Int32: Int64]
        /// Records behind the high watermark as the consumer last saw it, per partition (omitted before its first fetch).
        public var lag: [Int32: Int64]
    }

    /// Where `catchUp` stops.
    public enum LogEnd: Sendable, Equatable {
        /// The high watermarks seen when it starts.
        case latest
        /// These next offsets of the decisions topic (`partition: offset`, each
        /// capped at the high watermark); partitions not named are not read.
        case positions([Int32: Int64])
        /// The decisions of the commands before these next offsets of the edits log
        /// (`partition: offset`): each partition's decisions up to the first about a
        /// command at or past its offset. Partitions not named are not read.
        case commands([Int32: Int64])
        /// Each partition's last record logged at or before this time
        /// (milliseconds since the epoch, Kafka record timestamps). The cut is
        /// a prefix of each partition, so it is a state the log really had.
        case time(Int64)
    }

    /// How far `catchUp` has come, counted from where it started.
    public struct CatchUpProgress: Sendable {
        public var totals: BatchSummary
        /// Records behind the start positions that are now applied.
        public var done: Int64
        /// Records from the start positions to the end (an upper bound for `.time`).
        public var total: Int64
    }

    /// Signalled after every transaction this projector commits, and when `run` ends
    /// (unless it was given one: then its owner says when projecting has ended for good).
    public let commits: CommitSignal
    private let ownsCommitSignal: Bool
    private let storePath: String
    private let logName: String?
    private let allowMissingHead: Bool
    private let lock: StoreLock
    private let writer: LockedWriter
    private let consumer: KafkaConsumer
    private let topic: String
    private let batchSize: Int
    /// What `checkLog()` found, for `run` to check again (and record) without asking the brokers twice.
    private let checkedLog = Locked<LogState?>(nil)

    /// - Parameter batchSize: records per transaction at most. A transaction
    ///   takes what was judged while the previous one committed (see
    ///   `BatchPipeline`), so each touched recipe's rows are written once for
    ///   many commands.
    /// - Parameter logName: what identifies the log instead of the cluster's id,
    ///   for a log that outlives its cluster (`recipes dev`'s journal).
    /// - Parameter allowMissingHead: reads a partition the store has not read
    ///   from its first offset even when that is past 0, and marks the store
    ///   partial; otherwise such a log is refused (`LogMismatch.missingHead`).
    /// - Parameter commits: a signal shared by the projectors one after another
    ///   over the same store (`ProjectorSupervisor`'s), so that waiters outlive each.
    public convenience init(storePath: String, kafka: KafkaConfig, topic: String, batchSize: Int = 200_000,
                            logName: String? = nil, allowMissingHead: Bool = false, commits: CommitSignal? = nil) throws {
        try self.init(storePath: storePath, kafka: kafka, topic: topic, batchSize: batchSize, logName: logName,
                      allowMissingHead: allowMissingHead, commits: commits, cacheLimit: 20_000)
    }

    /// Keeps at most about `cacheLimit` recipes in memory between batches
    /// (tests make it small, so that recipes are loaded from the store again).
    init(storePath: String, kafka: KafkaConfig, topic: String, batchSize: Int, logName: String? = nil,
         allowMissingHead: Bool = false, commits: CommitSignal? = nil, cacheLimit: Int,
         pageLimit: Int? = nil) throws {
        self.commits = commits ?? CommitSignal()
        ownsCommitSignal = commits == nil
        self.storePath = storePath
        self.logName = logName
        self.allowMissingHead = allowMissingHead
        lock = try StoreLock(storePath: storePath)
        writer = LockedWriter(try ProjectionWriter(path: storePath, topic: topic, cacheLimit: cacheLimit, pageLimit: pageLimit),
                              commits: self.commits)
        var config = kafka
        if config["fetch.max.bytes"] == nil { config["fetch.max.bytes"] = String(32 << 20) }
        // Prefetch. The consumer's queue counts the records and bytes of all its
        // partitions together, and librdkafka 2.0.2 looks at a full queue again only
        // about once a second, so it must hold a second of reading or a catch-up
        // stalls (docs/benchmarks.md, "Figures moved out of comments"). 128 MiB is about 350,000 records
        // of the usual size; the queue is that full only while catching up.
        if config["queued.min.messages"] == nil { config["queued.min.messages"] = String(1_000_000) }
        if config["queued.max.messages.kbytes"] == nil { config["queued.max.messages.kbytes"] = String(128 << 10) }
        // A stored position the log does not hold stops the projector; librdkafka would move it to an end.
        config["auto.offset.reset"] = "error"
        // The decision decoder reads key and value only.
        consumer = try KafkaConsumer(config: config, readsHeaders: false)
        self.topic = topic
        self.batchSize = batchSize
    }

    /// Consumes until `stop` is set, committing one transaction per batch.
    /// `progress` is called after each batch at most once per `progressInterval`.
    public func run(until stop: StopSignal, progressInterval: Duration = .seconds(5),
                    progress: (Progress) -> Void = { _ in }) throws {
        defer { if ownsCommitSignal { commits.stop() } }
        let log = try checkedLog.withLock { $0.take() } ?? logState()
        try check(log, recording: true)
        let partitions = log.partitions
        try start(partitions)
        let pipeline = try makePipeline()
        let source = makeSource()
        defer {
            source.stop()
            consumer.close()
        }
        var lastReport = ContinuousClock.now
        while !stop.isSet {
            // A chunk ends the wait at once: idle, it only paces the look at `stop` and the progress.
            let chunk = try source.next(timeout: .milliseconds(pipeline.isHolding ? 2 : 250))
            let backlog = chunk?.backlog ?? false
            var records = (consume chunk)?.readings ?? []
            try pipeline.add(&records, backlog: backlog)
            source.recycle(consume records)
            if ContinuousClock.now - lastReport >= progressInterval {
                lastReport = ContinuousClock.now
                // SQLite goes on writing to a removed file without a word: what it writes would be lost.
                guard lock.isStillInPlace else { throw StoreError.removed(storePath) }
                progress(try report(pipeline, partitions: partitions))
            }
        }
        try pipeline.finish()
        progress(try report(pipeline, partitions: partitions))
    }

    /// Checks, before `run`, that the log is the one the store was built from
    /// (`run` checks again), so that a service refuses to start on another log
    /// instead of serving a store that would never show what it appends.
    /// It only reads the store: what the store must record, `run` writes.
    public func checkLog() throws {
        let log = try logState()
        try check(log, recording: false)
        checkedLog.withLock { $0 = log }
    }

    /// Applies the log up to `end` and returns once every partition's stored
    /// position reaches it, or when `stop` is set (after its transaction).
    /// A store already past `end` cannot go back: that throws.
    public func catchUp(to end: LogEnd = .latest, timeout: Duration? = .seconds(60), stop: StopSignal? = nil,
                        progress: (CatchUpProgress) -> Void = { _ in }) throws -> BatchSummary {
        let log = try logState()
        try check(log, recording: true)
        let (partitions, watermarks) = (log.partitions, log.watermarks)
        let start = try writer.withLock { try $0.writer.storedPositions() }
        var targets: [Int32: Int64] = [:]
        for partition in partitions {
            let high = watermarks[partition]!.high
            switch end {
            case .latest, .time: targets[partition] = high
            case .positions(let positions): targets[partition] = min(positions[partition] ?? 0, high)
            case .commands(let commands): targets[partition] = commands[partition] == nil ? 0 : high
            }
            let stored = start[partition] ?? 0
            if let target = targets[partition], target < stored {
                throw ProjectorError.storeIsPast(partition: partition, stored: stored, end: target)
            }
        }
        let total = targets.reduce(Int64(0)) { $0 + max(0, $1.value - (start[$1.key] ?? 0)) }
        let open = partitions.filter { (start[$0] ?? 0) < targets[$0]! }
        try self.start(open)
        let pipeline = try makePipeline()
        let source = makeSource()
        defer {
            source.stop()
            consumer.close()
        }
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while !reached(targets, pipeline.committed), stop?.isSet != true {
            if let deadline, ContinuousClock.now >= deadline {
                throw KafkaError(.timedOut, "projector did not catch up with \(targets) within \(timeout!)")
            }
            let chunk = try source.next(timeout: .milliseconds(pipeline.isHolding ? 2 : 100))
            // Taken out of the chunk, so the filter below works in place, not on a copy.
            var records = (consume chunk)?.readings ?? []
            // A cut is a prefix of each partition's decisions: it ends at the first record past it.
            switch end {
            case .time(let until):
                for index in records.indices where (records[index].logTime ?? 0) > until {
                    targets[records[index].partition] = min(targets[records[index].partition]!, records[index].offset)
                }
            case .commands(let commands):
                for index in records.indices {
                    guard let command = records[index].commandOffset, command >= commands[records[index].partition] ?? 0 else { continue }
                    targets[records[index].partition] = min(targets[records[index].partition]!, records[index].offset)
                }
            case .latest, .positions: break
            }
            records.removeAll { $0.offset >= targets[$0.partition] ?? 0 }
            let before = pipeline.judged
            // Until its end, a catch-up always has more to read: it fills whole batches
            // (each rewrites every recipe it touched), and `finish` commits the last.
            try pipeline.add(&records, backlog: true)
            source.recycle(consume records)
            // A partition at its end is paused, so the rest of it is not fetched for nothing.
            let ended = open.filter { (before[$0] ?? 0) < targets[$0]! && (pipeline.judged[$0] ?? 0) >= targets[$0]! }
            try consumer.pause(ended.map { KafkaTopicPartition(topic: topic, partition: $0) })
            if reached(targets, pipeline.judged) { try pipeline.finish() }
            progress(CatchUpProgress(totals: pipeline.totals, done: done(pipeline.committed, from: start, to: targets),
                                     total: total))
        }
        try pipeline.finish()
        return pipeline.totals
    }

    private func reached(_ targets: [Int32: Int64], _ positions: [Int32: Int64]) -> Bool {
        targets.allSatisfy { partition, target in positions[partition] ?? 0 >= target }
    }

    /// Records applied since `start`, counting none past `targets`.
    private func done(_ positions: [Int32: Int64], from start: [Int32: Int64], to targets: [Int32: Int64]) -> Int64 {
        var done: Int64 = 0
        for (partition, position) in positions {
            done += max(0, min(position, targets[partition] ?? 0) - (start[partition] ?? 0))
        }
        return done
    }

    /// Records asked of one poll.
    static let pollRecords = 10_000

    /// While judged records wait to be handed over, the wait for more is
    /// short, so they go as soon as the commit thread is free.
    private func makePipeline() throws -> BatchPipeline {
        try BatchPipeline(writer: writer, batchSize: batchSize)
    }

    private func makeSource() -> RecordSource {
        RecordSource(consumer: consumer, topic: topic, pollSize: min(batchSize, Self.pollRecords))
    }

    /// The log as the brokers describe it now: its partitions, identity and watermarks.
    private struct LogState: Sendable {
        var partitions: [Int32]
        var identity: LogIdentity
        var watermarks: [Int32: KafkaWatermarks]
    }

    private func logState() throws -> LogState {
        let partitions = try consumer.partitions(of: topic)
        let identity = LogIdentity(cluster: try logName ?? consumer.clusterID(), topic: topic, partitions: partitions.count)
        var watermarks: [Int32: KafkaWatermarks] = [:]
        for partition in partitions {
            watermarks[partition] = try consumer.watermarks(KafkaTopicPartition(topic: topic, partition: partition))
        }
        return LogState(partitions: partitions, identity: identity, watermarks: watermarks)
    }

    /// Checks that the log is the one the store was built from, and that it
    /// holds every record the store has not read, and, `recording`, records the
    /// log in the store.
    private func check(_ log: LogState, recording: Bool) throws {
        let (identity, watermarks) = (log.identity, log.watermarks)
        try writer.withLock { box in
            try box.writer.db.transaction(writing: recording) {
                let stored = try StoreLog.read(from: box.writer.db)
                let checked = try StoreLog.check(store: storePath, stored: stored, positions: try box.writer.storedPositions(),
                                                 log: identity, watermarks: watermarks, allowMissingHead: allowMissingHead)
                if recording && checked != stored { try checked.write(to: box.writer.db) }
            }
        }
    }

    /// Starts reading these partitions, each from its stored position.
    private func start(_ partitions: [Int32]) throws {
        let stored = try writer.withLock { try $0.writer.storedPositions() }
        let topic = self.topic
        try consumer.assign(partitions.map { KafkaTopicPartition(topic: topic, partition: $0) },
                            from: stored.reduce(into: [:]) { $0[KafkaTopicPartition(topic: topic, partition: $1.key)] = .offset($1.value) })
    }

    private func report(_ pipeline: BatchPipeline, partitions: [Int32]) throws -> Progress {
        let (totals, positions) = (pipeline.totals, pipeline.committed)
        var lag: [Int32: Int64] = [:]
        for partition in partitions {
            if let high = consumer.lastSeenWatermarks(KafkaTopicPartition(topic: topic, partition: partition))?.high {
                lag[partition] = max(0, high - (positions[partition] ?? 0))
            }
        }
        return Progress(totals: totals, positions: positions, lag: lag)
    }
}

public enum ProjectorError: Error, CustomStringConvertible, Sendable {
    /// The store has applied more of a partition than the end asked for.
    case storeIsPast(partition: Int32, stored: Int64, end: Int64)

    public var description: String {
        switch self {
        case .storeIsPast(let partition, let stored, let end):
            "the store is already at \(partition):\(stored), past the end \(partition):\(end): replay into a new store"
        }
    }
}

/// The non-Sendable writer behind a lock, so a Sendable projector can reach
/// it: one thread uses it at a time.
final class LockedWriter: @unchecked Sendable {
    /// Not Sendable: used only while holding `lock` (hence `@unchecked`), or by the commit thread alone.
    private let writer: ProjectionWriter
    private let lock = Locked(())
    private let commits: CommitSignal

    init(_ writer: ProjectionWriter, commits: CommitSignal) {
        self.writer = writer
        self.commits = commits
    }

    func withLock<T>(_ body: (ProjectionWriterAccess) throws -> T) rethrows -> T {
        try lock.withLock { _ in try body(ProjectionWriterAccess(writer: writer)) }
    }

    /// Commits a judged batch without the lock: for the commit thread, which
    /// alone uses the write connection while the projector's thread judges.
    func commitUnlocked(_ batch: PendingBatch) throws {
        try writer.commit(batch)
        commits.committed()
    }
}

struct ProjectionWriterAccess {
    let writer: ProjectionWriter
}

/// A flag set from any thread (a signal handler's queue, a test) to stop a loop.
public final class StopSignal: Sendable {
    private let flag = Locked(false)
    public init() {}
    public var isSet: Bool { flag.withLock { $0 } }

    public func set() {
        flag.withLock { $0 = true }
    }

    /// Waits until the flag is set or `timeout` passes: a pause that a stop cuts short.
    public func wait(timeout: Duration) {
        flag.wait(until: { $0 }, deadline: .now + timeout)
    }
}
