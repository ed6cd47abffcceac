import Foundation
import Kafka
import RecipeDomain
import RecipeWire

/// The decider stage: consumes the edits topic, decides each command against its recipe's
/// state, and appends one decision per command to the decisions topic, with the command's key,
/// on the partition of the same number; and, for each decision known to count that changes what
/// a recipe's detail shows, its document (or a tombstone) to the committed topic (`CommittedRecipe`).
///
/// ```swift
/// let decider = try Decider(kafka: config, topics: RecipeTopics(), mode: .group("deciders"))
/// try decider.run(until: { stop.isSet }) { progress in print(progress.totals.decided) }
/// ```
///
/// It keeps to `EffectiveDecisions`'s rule, trusting the broker for order within a partition
/// alone: it starts each partition from its decisions (never from group offsets), names in each
/// decision its writer and the decision it follows, and writes a document only for a decision
/// known on the chain. `run` blocks its caller, which polls (rebalance callbacks run inside),
/// decides on two threads and settles. docs/architecture.md, "The decider", says how and why.
public final class Decider: @unchecked Sendable {
    public enum Mode: Sendable, Equatable {
        case all
        case group(String)
    }

    public struct Progress: Sendable {
        public var totals: Totals
        /// Commands not yet decided, per partition this decider holds, as far as its consumer has seen.
        public var lag: [Int32: Int64]
        /// The partitions it holds but cannot go on with, each with why (`DeciderState`).
        public var stopped: [Int32: String] = [:]
    }

    /// What it does with each partition it holds, for any thread to read while it runs.
    public let status = DeciderStatus()

    let topics: RecipeTopics
    let mode: Mode
    /// Where it keeps a snapshot of each partition it holds or lets go (`PartitionSnapshot`), or nil.
    let snapshots: String?
    /// How often it brings the snapshots of the partitions it holds up to date while it runs.
    let snapshotInterval: Duration
    let edits: KafkaConsumer
    /// Reads back the decisions of the partitions it holds where a gap is to be read (`readGaps`); paused elsewhere.
    let readBack: KafkaConsumer
    /// Reads back the committed topic's partitions it holds (with headers: a tombstone's position is in one).
    let committedReadBack: KafkaConsumer
    /// These two read the decisions, and the committed topic to its end (as the partitions' EOF
    /// says), of the partitions it takes: each assigned once per take and unassigned after.
    /// Long-lived, because librdkafka 2.0.2 can abort closing a consumer moments after it started (its
    /// `rd_kafka_broker_destroy_final` assertion, upstream #3608); apart from the read-back ones,
    /// because it can abort too when a consumer's assignment changes again before the partitions
    /// the last change removed have stopped (`rd_kafka_assignment_partition_stopped`, upstream #5573).
    let decisionsReader: KafkaConsumer
    let committedReader: KafkaConsumer
    let producer: KafkaProducer
    let encoder = DecisionEncoder(source: "recipes-decider")
    let decoder = DecisionDecoder()

    // Used on the thread of `run` alone (rebalance callbacks run inside its polls); the
    // extensions in Decider+*.swift share them.
    var judge = CommandJudge(partitionCount: 1)
    /// Each partition it decides: `lifecycle`'s deciding ones (out of it while a lane decides it).
    var partitions: [Int32: PartitionDecider] = [:]
    /// Where each partition it holds stands, from taking it to letting it go.
    var lifecycle = PartitionLifecycle()
    var totals = Totals()
    /// Records handed to the producer whose acknowledgements are still to be checked, oldest first.
    var pending: [PendingAppend] = []
    /// When each partition last wrote its documents (`writeDocuments`).
    var documentsWritten: [Int32: ContinuousClock.Instant] = [:]
    /// What a rebalance callback, or settling the decisions before a poll's lanes, could not do:
    /// thrown by `run` after the poll.
    var pollFailure: (any Error)?
    /// `run`'s `started`, until it is called.
    var whenStarted: (() -> Void)?

    /// - Parameters:
    ///   - snapshots: a folder private to the user it runs as (made so here: `SnapshotFolder`), where
    ///     it keeps what it knew of each partition it holds, so that a
    ///     decider taking the partition later reads only the decisions appended since. Written
    ///     when it lets a partition go (a revoke, a stop) and every `snapshotInterval` while it
    ///     runs (a decider killed falls back that far at most). Nil reads every partition's
    ///     decisions from the start.
    ///   - snapshotInterval: see `snapshots`.
    public init(kafka: KafkaConfig, topics: RecipeTopics, mode: Mode = .all, snapshots: String? = nil,
                snapshotInterval: Duration = .seconds(60)) throws {
        self.topics = topics
        self.mode = mode
        self.snapshots = snapshots
        self.snapshotInterval = snapshotInterval
        if let snapshots { try SnapshotFolder.makePrivate(snapshots) }
        var consumerConfig = kafka
        if consumerConfig["fetch.max.bytes"] == nil { consumerConfig["fetch.max.bytes"] = String(32 << 20) }
        // A command the log no longer holds is not skipped: the decider stops.
        consumerConfig["auto.offset.reset"] = "error"
        // A decider that dies holds its partitions, and nothing new becomes visible on them, until
        // its group session runs out: 10 s rather than librdkafka's 45.
        if consumerConfig["session.timeout.ms"] == nil { consumerConfig["session.timeout.ms"] = "10000" }
        if consumerConfig["heartbeat.interval.ms"] == nil { consumerConfig["heartbeat.interval.ms"] = "2000" }
        // Prefetch as the projector does (Projector.init says why): a catch-up stalls on
        // librdkafka's defaults.
        var editsConfig = consumerConfig
        if editsConfig["queued.min.messages"] == nil { editsConfig["queued.min.messages"] = String(1_000_000) }
        if editsConfig["queued.max.messages.kbytes"] == nil { editsConfig["queued.max.messages.kbytes"] = String(128 << 10) }
        // Only the edits consumer and the committed topic's read-back may stop fetching while idle
        // (`KafkaConfig.stopsFetchingWhenIdle`): the readers of a take read to an end they wait for, and
        // the decisions' read-back is paused but where it reads a gap.
        let stopsWhenIdle = consumerConfig.stopsFetchingWhenIdle
        consumerConfig.stopsFetchingWhenIdle = false
        if case .group(let name) = mode {
            edits = try KafkaConsumer(config: editsConfig, groupID: name, readsHeaders: false)
        } else {
            edits = try KafkaConsumer(config: editsConfig, readsHeaders: false)
        }
        readBack = try KafkaConsumer(config: consumerConfig, readsHeaders: false)
        var committedReadBackConfig = consumerConfig
        committedReadBackConfig.stopsFetchingWhenIdle = stopsWhenIdle
        committedReadBack = try KafkaConsumer(config: committedReadBackConfig)
        decisionsReader = try KafkaConsumer(config: consumerConfig, readsHeaders: false)
        var committedConfig = consumerConfig
        committedConfig["enable.partition.eof"] = "true"
        committedReader = try KafkaConsumer(config: committedConfig)
        var producerConfig = kafka
        producerConfig["fetch.wait.max.ms"] = nil // the consumers' (the service sets it), which a producer warns about
        producerConfig.setDefaults(EditsTopicSettings.deciderProducerProperties)
        // A command waits for its decision before anyone sees it: hold a decision 1 ms for others
        // to share its request, not librdkafka's 5 (a catch-up hands over thousands at once anyway).
        if producerConfig["linger.ms"] == nil, producerConfig["queue.buffering.max.ms"] == nil { producerConfig["linger.ms"] = "1" }
        producer = try KafkaProducer(config: producerConfig)
    }

    /// Decides until `shouldStop` says so, then waits for the decisions written to be
    /// acknowledged, reads them back and writes the documents of those that count
    /// (`letGo`), and closes its clients. `progress` is called at most once per
    /// `progressInterval`; `started` once, when it has read the decisions of the first
    /// partitions it holds (in a group, at its first assignment, which may hold none)
    /// and decides from then on.
    public func run(until shouldStop: () -> Bool, progressInterval: Duration = .seconds(5),
                    progress: (Progress) -> Void = { _ in }, started: @escaping () -> Void = {}) throws {
        defer { close() }
        do {
            try decide(until: shouldStop, progressInterval: progressInterval, progress: progress, started: started)
        } catch {
            status.update { state in
                state.stoppedWhole = "\(error)"
                for partition in state.partitions.keys { state.partitions[partition]!.state = .stopped(why: "\(error)") }
            }
            throw error
        }
    }

    private func decide(until shouldStop: () -> Bool, progressInterval: Duration, progress: (Progress) -> Void,
                        started: @escaping () -> Void) throws {
        let partitionCount = try checkTopics()
        judge = CommandJudge(partitionCount: partitionCount)
        whenStarted = started
        try start(partitionCount: partitionCount)
        var lastReport = ContinuousClock.now
        var snapshotRounds = SnapshotRounds(interval: snapshotInterval)
        while !shouldStop() {
            // The poll's records are decided where they lie in the consumer's messages: copying
            // each into arrays of its own, and freeing them, cost more than enqueueing its decision.
            // (A rebalance callback runs inside the poll, before the records are lent: what it
            // could not do is thrown before any of them is decided.)
            // Idle, the wait only paces the look at `shouldStop` and the progress: records end it at once.
            let polled = try edits.poll(maxRecords: 5_000, timeout: .milliseconds(pending.isEmpty && !lifecycle.hasReleased ? 250 : 1)) {
                if pollFailure == nil { decide(LentRecords(records: $0)) }
            }
            if let failure = pollFailure { throw failure }
            if polled == 0, lifecycle.hasReleased { decide(LentRecords(records: [])) }
            if let failure = pollFailure { throw failure }
            try readWhatLanded()
            keepStilledSnapshots()
            pauseStoppedAndAskEnds()
            if polled == 0 { publishStatus() }
            // A few polls' decisions in flight; all of them settled whenever the log is quiet.
            while pending.count > 64 || (polled == 0 && !pending.isEmpty) {
                try settle(pending.removeFirst())
            }
            if ContinuousClock.now - lastReport >= progressInterval {
                progress(report())
                lastReport = .now
            }
            if snapshots != nil { try keepNextSnapshot(&snapshotRounds) }
        }
        try letGo(Set(partitions.keys))
        progress(report())
    }

    /// Decides every command the edits topic holds when it is called, returns once
    /// their decisions are acknowledged, and closes the decider: for a log that no
    /// decider runs beside (tests, deciding an older log once before a replay).
    /// Only in mode `.all`, which holds every partition.
    public func catchUp(timeout: Duration = .seconds(60)) throws -> Totals {
        precondition(mode == .all, "catchUp decides every partition: mode .all")
        var ends: [Int32: Int64] = [:]
        for partition in try readBack.partitions(of: topics.edits) {
            ends[partition] = try readBack.watermarks(KafkaTopicPartition(topic: topics.edits, partition: partition)).high
        }
        let deadline = ContinuousClock.now + timeout
        var late = false
        try run(until: { [self] in
            late = ContinuousClock.now >= deadline
            return late || ends.allSatisfy { partition, end in
                lifecycle.isStopped(partition) || (partitions[partition]?.nextCommand ?? 0) >= end
            }
        }, progressInterval: .seconds(3600))
        if late { throw DeciderError.catchUpTimedOut(ends, after: timeout) }
        // From what it kept: its clients are closed by now.
        if !lifecycle.reasons.isEmpty { throw DeciderError.partitionsStopped(lifecycle.reasons) }
        return totals
    }

    // MARK: - Progress

    private func report() -> Progress {
        var lag: [Int32: Int64] = [:]
        for (partition, decider) in partitions {
            if let high = edits.lastSeenWatermarks(KafkaTopicPartition(topic: topics.edits, partition: partition))?.high {
                lag[partition] = max(0, high - decider.nextCommand)
            }
        }
        for (partition, status) in lifecycle.stopped { lag[partition] = status.lag }
        return Progress(totals: totals, lag: lag, stopped: lifecycle.reasons)
    }

    private func close() {
        edits.close()
        readBack.close()
        committedReadBack.close()
        decisionsReader.close()
        committedReader.close()
        try? producer.shutdown(timeout: .seconds(10))
    }
}
