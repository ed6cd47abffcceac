import Foundation
import Kafka
import RecipeDomain
import RecipeWire

/// The decider stage: consumes the edits topic, decides each command against its
/// recipe's state, and appends one decision per command to the decisions topic,
/// with the command's key, on the partition of the same number; and, for each
/// decision known to count that changes what a recipe's detail shows, its document
/// (or a tombstone) to the committed topic (`CommittedRecipe`).
///
/// ```swift
/// let decider = try Decider(kafka: config, topics: RecipeTopics(), mode: .group("deciders"))
/// try decider.run(until: { stop.isSet }) { progress in print(progress.totals.decided) }
/// ```
///
/// Which decisions count is `EffectiveDecisions`'s rule, and the decider keeps to
/// it without trusting the broker for more than order within a partition:
/// - It starts a partition (at every assignment) by reading the partition's
///   decisions from the start, or from the end of a snapshot the topic bears out
///   (`PartitionSnapshot`), folding the effective ones: its recipe states, and the
///   command after the effective tail, where it seeks the edits topic. Not from
///   consumer-group offsets, which it never commits.
/// - Each decision names its writer (a name new at every start of a partition)
///   and the decision it follows, so a decision counts only on the chain it was
///   decided on. A stale decider (paused while another took its partitions) writes
///   decisions that follow its own chain, which no longer counts: readers skip them.
/// - It knows what lands on its partitions: a decision whose delivery report puts it
///   right after what it knew of the partition is as read back (nothing can lie
///   between); where a report shows a gap (another writer's records), it reads the
///   gap back. When another's decision counts where its own would have, or one of its
///   own does not count, it starts the partition again (`rebuilds`), adopting what counts.
/// - It writes a committed document only for a decision so read back on the chain (or
///   read when starting the partition). Starting a partition, it reads the committed
///   topic's partition and writes again what differs from the documents the effective
///   decisions make (what a killed decider had not written yet); reading back that
///   partition, it writes a recipe's document again after an older one that landed late;
///   letting a partition go (a revoke, a stop), it waits for its last decisions there
///   to land and writes their documents first.
///
/// Modes: `.all` assigns itself every partition; `.group(name)` divides them
/// among the deciders of a consumer group. Two deciders on one partition never
/// make a wrong sequence, only wasted decisions; a group keeps that rare.
///
/// Threads: `run` blocks its caller, which polls, decides and settles deliveries; the
/// rebalance callbacks run on it too (inside `poll`). A poll's partitions are decided
/// on two threads (`TwoThreads.forEach`), each partition on one. The producer's
/// delivery reports come on its own thread.
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

    private let topics: RecipeTopics
    private let mode: Mode
    /// Where it keeps a snapshot of each partition it holds or lets go (`PartitionSnapshot`), or nil.
    private let snapshots: String?
    /// How often it brings the snapshots of the partitions it holds up to date while it runs.
    private let snapshotInterval: Duration
    private let edits: KafkaConsumer
    /// Reads back the decisions of the partitions it holds where a gap is to be read (`readGaps`); paused elsewhere.
    private let readBack: KafkaConsumer
    /// Reads back the committed topic's partitions it holds (with headers: a tombstone's position is in one).
    private let committedReadBack: KafkaConsumer
    /// These two read the decisions, and the committed topic to its end (as the partitions' EOF
    /// says), of the partitions it takes: each assigned once per take and unassigned after.
    /// Long-lived, because librdkafka 2.0.2 can abort closing a consumer moments after it started (its
    /// `rd_kafka_broker_destroy_final` assertion, upstream #3608); apart from the read-back ones,
    /// because it can abort too when a consumer's assignment changes again before the partitions
    /// the last change removed have stopped (`rd_kafka_assignment_partition_stopped`, upstream #5573).
    private let decisionsReader: KafkaConsumer
    private let committedReader: KafkaConsumer
    private let producer: KafkaProducer
    private let encoder = DecisionEncoder(source: "recipes-decider")
    private let decoder = DecisionDecoder()

    // Used on the thread of `run` alone (rebalance callbacks run inside its polls).
    private var judge = CommandJudge(partitionCount: 1)
    private var partitions: [Int32: PartitionDecider] = [:]
    private var totals = Totals()
    /// Records handed to the producer whose acknowledgements are still to be checked, oldest first.
    private var pending: [PendingAppend] = []
    /// Partitions that a delivery report showed lost (`settle`), to be taken again.
    private var foundLost: Set<Int32> = []
    /// Partitions where its decisions landed past what was read back of them (another writer's
    /// between), each with the offset after the one that did: read back up to there (`readGaps`).
    private var gaps: [Int32: Int64] = [:]
    /// Partitions whose decisions the read-back consumer fetches now (`readGaps`); it holds the others paused.
    private var readingBack: Set<Int32> = []
    /// Partitions held still until their decisions on the way are read back, for a snapshot
    /// (`keepStilledSnapshots`): their records polled meanwhile wait here, undecided.
    private var stilled: [Int32: StilledPartition] = [:]
    /// Records of partitions no longer held still, decided before the next poll's.
    private var released: [Int32: [KafkaConsumerRecord]] = [:]
    /// When each partition last wrote its documents (`writeDocuments`).
    private var documentsWritten: [Int32: ContinuousClock.Instant] = [:]
    /// What a rebalance callback, or settling the decisions before a poll's lanes, could not do:
    /// thrown by `run` after the poll.
    private var pollFailure: (any Error)?
    /// `run`'s `started`, until it is called.
    private var whenStarted: (() -> Void)?
    /// Partitions it holds but cannot go on with (`stop`).
    private var stopped = StoppedPartitions()

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
        if case .group(let name) = mode {
            edits = try KafkaConsumer(config: editsConfig, groupID: name, readsHeaders: false)
        } else {
            edits = try KafkaConsumer(config: editsConfig, readsHeaders: false)
        }
        readBack = try KafkaConsumer(config: consumerConfig, readsHeaders: false)
        committedReadBack = try KafkaConsumer(config: consumerConfig)
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
        var snapshotsDue = ContinuousClock.now + snapshotInterval
        // Partitions whose snapshot is to be brought up to date, one per poll: the decider stalls
        // for one partition's snapshot at a time, never for all of them at once.
        var toSnapshot: [Int32] = []
        var allCurrent = true
        while !shouldStop() {
            // The poll's records are decided where they lie in the consumer's messages: copying
            // each into arrays of its own, and freeing them, cost more than enqueueing its decision.
            // (A rebalance callback runs inside the poll, before the records are lent: what it
            // could not do is thrown before any of them is decided.)
            let polled = try edits.poll(maxRecords: 5_000, timeout: .milliseconds(pending.isEmpty && released.isEmpty ? 100 : 1)) {
                if pollFailure == nil { decide(LentRecords(records: $0)) }
            }
            if let failure = pollFailure { throw failure }
            if polled == 0, !released.isEmpty { decide(LentRecords(records: [])) }
            if let failure = pollFailure { throw failure }
            try readWhatLanded()
            keepStilledSnapshots()
            stopped.pauseAndAskEnds(edits: edits, producer: producer, topic: topics.edits)
            if polled == 0 { publishStatus() }
            // A few polls' decisions in flight; all of them settled whenever the log is quiet.
            while pending.count > 64 || (polled == 0 && !pending.isEmpty) {
                try settle(pending.removeFirst())
            }
            if ContinuousClock.now - lastReport >= progressInterval {
                progress(report())
                lastReport = .now
            }
            if snapshots != nil {
                if toSnapshot.isEmpty, ContinuousClock.now >= snapshotsDue {
                    toSnapshot = partitions.keys.sorted(by: >)
                    allCurrent = true
                }
                if let partition = toSnapshot.popLast() {
                    if !keepSnapshot(of: partition) {
                        // Its decisions on their way: held still until they are read back (`keepStilledSnapshots`),
                        // unless it is still already (its records kept meanwhile stay). Else (found lost), soon again.
                        if partitions[partition]?.hasUnread == true {
                            if stilled[partition] == nil { stilled[partition] = StilledPartition() }
                        } else {
                            allCurrent = false
                        }
                    }
                    if toSnapshot.isEmpty { snapshotsDue = .now + (allCurrent ? snapshotInterval : min(snapshotInterval, .seconds(1))) }
                }
            }
        }
        try letGo(Set(partitions.keys))
        progress(report())
    }

    /// A poll's records, lent for the length of the poll's closure; the two deciding threads
    /// only read them, and are done before the closure returns.
    private struct LentRecords: @unchecked Sendable {
        let records: [KafkaBorrowedRecord]
    }

    /// Settles the decisions whose delivery reports are all in, decides a poll's records (after
    /// those `released`) and enqueues their decisions.
    private func decide(_ lent: LentRecords) {
        // Settled in the lanes, each partition's reports on the thread that decides it: on this
        // thread, which both lanes wait for, admitting every decision was a tenth of its work.
        guard let landings = takeLanded() else { return }
        var work = takeWork(lent.records, landings: landings)
        // A partition needs nothing of another: partitions are decided on two threads, each
        // partition's records in order on one, and its decisions made into messages there.
        let (judge, encoder) = (judge, encoder)
        TwoThreads.forEach(&work, weight: { $0.earlier.count + $0.records.count }) { work in
            for landing in landings {
                guard let indexes = landing.parts[work.decider.partition] else { continue }
                landing.batch.landed(indexes) { _, offset in work.settlement.add(work.decider.landed(at: offset)) }
            }
            func decide(_ record: KafkaBorrowedRecord) {
                guard let (value, outcome) = work.decider.decide(record, judge: judge, encoder: encoder) else { return }
                work.totals.count(outcome)
                // Stamped with the command's time in the log, so that a cut of the decisions by time
                // (`recipes replay --until-time`) is the same cut of the commands.
                value.withUnsafeBytes { work.decisions.append(key: record.key, value: $0, timestamp: record.timestamp) }
            }
            // A decision is about its command's size and a few hundred bytes more (its events, outcome and chain).
            var commandBytes = 0
            for record in work.earlier { commandBytes += record.value.count }
            for index in work.records { commandBytes += lent.records[index].value.count }
            let count = work.earlier.count + work.records.count
            work.decisions.reserveCapacity(records: count, bytes: commandBytes + 640 * count)
            for record in work.earlier { record.withBorrowed { decide($0) } }
            for index in work.records { decide(lent.records[index]) }
        }
        // Each partition's decisions handed over packed as the lane made them: as messages, each would
        // have its key and value allocated, and its four buffers retained and released on this thread.
        var parts: [KafkaPackedRecords] = []
        parts.reserveCapacity(work.count)
        var indexes: [Int32: Range<Int>] = [:]
        var count = 0
        for index in work.indices {
            let partition = work[index].decider.partition
            partitions[partition] = work[index].decider
            totals.add(work[index].totals)
            keep(work[index].settlement, of: partition)
            if !work[index].decisions.isEmpty {
                parts.append(work[index].decisions)
                indexes[partition] = count ..< count + work[index].decisions.count
                count += work[index].decisions.count
            }
        }
        publishStatus()
        if !parts.isEmpty { pending.append(PendingAppend(batch: producer.enqueue(packed: parts), parts: indexes)) }
    }

    /// The batches at the front of `pending` whose reports are all in, taken out, those of
    /// decisions returned; nil when one failed (`pollFailure`, as `settle` throws it).
    private func takeLanded() -> [PendingAppend]? {
        var landed: [PendingAppend] = []
        while let oldest = pending.first, oldest.batch.isComplete {
            if let failure = oldest.batch.failure {
                pollFailure = DeciderError.deliveryFailed(failure)
                return nil
            }
            let append = pending.removeFirst()
            if !append.parts.isEmpty { landed.append(append) }
        }
        return landed
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
                stopped.held[partition] != nil || (partitions[partition]?.nextCommand ?? 0) >= end
            }
        }, progressInterval: .seconds(3600))
        if late { throw DeciderError.catchUpTimedOut(ends, after: timeout) }
        // From what it kept: its clients are closed by now.
        if !stopped.held.isEmpty { throw DeciderError.partitionsStopped(stopped.reasons) }
        return totals
    }

    /// One array for every decision (an array literal per message was an allocation each).
    private static let decisionHeaders = [KafkaHeader(key: WireFormat.contentTypeHeaderName, value: WireFormat.contentType)]
    private static let committedContentType = KafkaHeader(key: WireFormat.contentTypeHeaderName, value: CommittedRecipe.contentType)

    // MARK: - Topics

    /// The partition count of the three topics, which must be equal. A missing topic is
    /// refused, not created: its settings (replicas, compaction) are `recipes topics create`'s.
    /// Looked up in the list of every topic, since asking for one by name creates it where
    /// brokers auto-create topics, with their defaults (not compacted, not kept).
    private func checkTopics() throws -> Int {
        let editsCount = try readBack.partitions(of: topics.edits).count
        let existing = try readBack.topics()
        for (role, topic, record) in [("decisions", topics.decisions, "decision"), ("committed", topics.committed, "document")] {
            guard let count = existing[topic] else {
                throw DeciderError.noTopic(role: role, topic, editsPartitions: editsCount)
            }
            guard count == editsCount else {
                throw DeciderError.partitionMismatch(edits: topics.edits, editsPartitions: editsCount, other: topic, otherPartitions: count,
                                                     record: record)
            }
        }
        return editsCount
    }

    /// One poll's records of a partition the decider holds, with the partition taken out of
    /// `partitions` while they are decided (`takeWork`), and what deciding them gave.
    private struct PartitionWork: Sendable {
        var decider: PartitionDecider
        /// Records of earlier polls, held while the partition was still (`released`): decided first.
        var earlier: [KafkaConsumerRecord] = []
        /// Indexes of the poll's records, in order.
        var records: [Int] = []
        var totals = Totals()
        /// The decisions to append, in order.
        var decisions: KafkaPackedRecords
        /// What the delivery reports settled in the lane left to do.
        var settlement = Settlement()

        init(decider: PartitionDecider, topic: String, earlier: [KafkaConsumerRecord] = [], records: [Int] = []) {
            self.decider = decider
            self.earlier = earlier
            self.records = records
            decisions = KafkaPackedRecords(topic: topic, partition: decider.partition, headers: Decider.decisionHeaders)
        }
    }

    /// The poll's records grouped by partition, after those `released`, each with its partition
    /// taken out of `partitions` (the caller puts them back); and the partitions of `landings`, to
    /// settle, with or without records. Records of partitions not held are left out; those of
    /// partitions held still are kept in `stilled`.
    private func takeWork(_ records: [KafkaBorrowedRecord], landings: [PendingAppend]) -> [PartitionWork] {
        var slots: [Int32: Int] = [:]
        var work: [PartitionWork] = []
        for (partition, earlier) in released {
            guard let decider = partitions.removeValue(forKey: partition) else { continue }
            slots[partition] = work.count
            work.append(PartitionWork(decider: decider, topic: topics.decisions, earlier: earlier))
        }
        released = [:]
        for landing in landings {
            for partition in landing.parts.keys where slots[partition] == nil {
                guard let decider = partitions.removeValue(forKey: partition) else { continue }
                slots[partition] = work.count
                work.append(PartitionWork(decider: decider, topic: topics.decisions))
            }
        }
        /// Where a partition's records go: its work's slot, or nil when they are not decided now.
        func slot(_ partition: Int32) -> Int? {
            if stilled[partition] != nil { return nil }
            if let slot = slots[partition] { return slot }
            guard let decider = partitions.removeValue(forKey: partition) else { return nil }
            slots[partition] = work.count
            work.append(PartitionWork(decider: decider, topic: topics.decisions))
            return work.count - 1
        }
        // A poll's records come a partition at a time: its slot is looked up once per run.
        var run: (partition: Int32, slot: Int?) = (-1, nil)
        for (index, record) in records.enumerated() {
            if record.partition != run.partition { run = (record.partition, slot(record.partition)) }
            if let slot = run.slot {
                work[slot].records.append(index)
            } else if stilled[record.partition] != nil {
                stilled[record.partition]!.records.append(KafkaConsumerRecord(copying: record))
            }
        }
        return work
    }

    // MARK: - Snapshots while running

    /// A partition held still for a snapshot: one that is never quiet (every poll's decisions
    /// still on their way when the next poll's are written) would otherwise never have one, and a
    /// decider killed would fall back to its start.
    private struct StilledPartition {
        let since = ContinuousClock.now
        var records: [KafkaConsumerRecord] = []
    }

    /// The longest a partition is held still (what it waits for is its decisions' round trip),
    /// and the most records it holds meanwhile (about 40 MB): past either, it goes on without.
    private static let longestStill: Duration = .seconds(5)
    private static let mostStilled = 100_000

    /// Keeps the snapshot of each partition held still whose decisions are all read back (or
    /// that waited too long), and releases its records, decided with the next poll's. A
    /// partition let go, or found lost and taken again (which seeks its commands anew), drops them.
    private func keepStilledSnapshots() {
        for (partition, still) in stilled {
            guard let decider = partitions[partition] else {
                stilled[partition] = nil
                continue
            }
            if decider.hasUnread, still.records.count < Self.mostStilled, ContinuousClock.now - still.since < Self.longestStill { continue }
            keepSnapshot(of: partition)
            stilled[partition] = nil
            if !still.records.isEmpty { released[partition] = still.records }
        }
    }

    // MARK: - Assignment

    private func start(partitionCount: Int) throws {
        let topic = topics.edits
        switch mode {
        case .all:
            let all = (0..<Int32(partitionCount)).map { KafkaTopicPartition(topic: topic, partition: $0) }
            let offsets = try take(all.map(\.partition))
            try edits.assign(all, from: offsets.reduce(into: [:]) { $0[KafkaTopicPartition(topic: topic, partition: $1.key)] = .offset($1.value) })
            whenStarted?()
            whenStarted = nil
        case .group:
            try edits.subscribe(topics: [topic], rebalance: KafkaRebalanceHandler(
                onAssign: { [self] assigned in
                    do {
                        let offsets = try take(assigned.map(\.partition))
                        whenStarted?()
                        whenStarted = nil
                        return offsets.reduce(into: [:]) { $0[KafkaTopicPartition(topic: topic, partition: $1.key)] = .offset($1.value) }
                    } catch {
                        pollFailure = error
                        return [:]
                    }
                },
                onRevoke: { [self] revoked in
                    do {
                        try letGo(Set(revoked.map(\.partition)))
                        for partition in revoked {
                            partitions[partition.partition] = nil
                            foundLost.remove(partition.partition)
                            gaps[partition.partition] = nil
                            stilled[partition.partition] = nil
                            released[partition.partition] = nil
                            stopped.remove(partition.partition)
                        }
                        try assignReadBack()
                        publishStatus()
                    } catch {
                        pollFailure = error
                    }
                }))
        }
    }

    /// Starts deciding these partitions, each from its decisions: returns where each goes on in the edits topic.
    /// Watermarks are asked of the producer: asked of a read-back consumer while it fetches, each
    /// waited behind a fetch the broker held open (500 ms by default), 16 s for 32 partitions.
    private func take(_ taken: [Int32]) throws -> [Int32: Int64] {
        // Its own decisions still on their way would land after the end read, on the chain it
        // leaves: what it decided under the new name would then not count. Its committed
        // documents too, so that the committed topic is read with them.
        try settleAll()
        foundLost.subtract(taken)
        for partition in taken { gaps[partition] = nil }
        for partition in taken {
            // Its commands are sought anew from where the partition's decisions end.
            stilled[partition] = nil
            released[partition] = nil
        }
        status.update { state in
            for partition in taken {
                state.partitions[partition] = DeciderState.Partition(state: .starting, nextCommand: partitions[partition]?.nextCommand ?? 0, editsEnd: nil)
            }
        }
        let rebuilt = try rebuild(taken)
        let committed = try readCommitted(taken.filter { rebuilt[$0] != nil })
        var offsets: [Int32: Int64] = [:]
        for partition in taken {
            let editsEnd = try producer.watermarks(KafkaTopicPartition(topic: topics.edits, partition: partition)).high
            // Stopped (`rebuild`), or stopped here: its commands wait where the edits partition ends.
            offsets[partition] = editsEnd
            guard let rebuilt = rebuilt[partition] else { continue }
            var decider = PartitionDecider(partition: partition, rebuilt: rebuilt)
            // Decisions of commands the edits topic does not hold are another log's: deciding on would skip commands.
            guard decider.nextCommand <= editsEnd else {
                stop(partition, DeciderError.decisionsPastLog(KafkaTopicPartition(topic: topics.decisions, partition: partition),
                                                              next: decider.nextCommand, editsEnd: editsEnd),
                     decided: rebuilt.decidedOnLog, editsEnd: editsEnd)
                continue
            }
            if let skip = rebuilt.skip {
                stop(partition, .decisionsSkipCommands(KafkaTopicPartition(topic: topics.decisions, partition: partition),
                                                       from: skip.from, to: skip.to, decider: skip.decider),
                     decided: rebuilt.decidedOnLog, editsEnd: editsEnd)
                continue
            }
            stopped.remove(partition)
            decider.reconcile(withTopic: committed.onTopic[partition] ?? [:], end: committed.ends[partition]!)
            partitions[partition] = decider
            offsets[partition] = decider.nextCommand
            documentsWritten[partition] = .now
        }
        try writeDocuments()
        try assignReadBack()
        publishStatus()
        return offsets
    }

    /// Stops deciding a partition it cannot go on with, `decided` the first of its commands not
    /// known to be decided: it is named in `status`, and the others go on.
    private func stop(_ partition: Int32, _ error: DeciderError, decided: Int64, editsEnd: Int64?) {
        partitions[partition] = nil
        foundLost.remove(partition)
        (gaps[partition], stilled[partition], released[partition]) = (nil, nil, nil)
        stopped.stop(partition, why: "\(error)", decided: decided, editsEnd: editsEnd)
    }

    /// Publishes `status`: before any decision it makes is handed to the producer, so that a reader
    /// never finds a decision of its own past the next command it published.
    private func publishStatus() {
        stopped.publish(to: status, edits: edits, topic: topics.edits, deciding: partitions.mapValues(\.nextCommand))
    }

    /// Reads the decisions of these partitions to their end, each from its start or, when a
    /// snapshot of it is kept, from the decision before the snapshot's end: the snapshot is used
    /// when that decision is the very one it names (`PartitionSnapshot`), else the partition is
    /// read from its start. One assignment of one consumer for all of them (see `decisionsReader`).
    private func rebuild(_ taken: [Int32]) throws -> [Int32: RebuiltPartition] {
        let reader = decisionsReader
        var rebuilt: [Int32: RebuiltPartition] = [:]
        var ends: [Int32: Int64] = [:]
        var editsEnds: [Int32: Int64] = [:]
        for partition in taken {
            let topicPartition = KafkaTopicPartition(topic: topics.decisions, partition: partition)
            let marks = try producer.watermarks(topicPartition)
            // Nothing is known decided: its first decisions, which the others follow, are gone.
            guard marks.low == 0 else {
                stop(partition, .missingHead(topicPartition, low: marks.low), decided: 0, editsEnd: nil)
                continue
            }
            // Asked before its decisions are read: a command before it is on the log.
            editsEnds[partition] = try producer.watermarks(KafkaTopicPartition(topic: topics.edits, partition: partition)).high
            rebuilt[partition] = RebuiltPartition(editsEndBefore: editsEnds[partition]!)
            if marks.high > 0 { ends[partition] = marks.high }
        }
        // Taken from a snapshot until the decision before its end says otherwise.
        var unconfirmed: [Int32: PartitionSnapshot] = [:]
        if let snapshots {
            for (partition, end) in ends {
                guard let snapshot = PartitionSnapshot.read(snapshots, topic: topics.decisions, partition: partition),
                      snapshot.end <= end else { continue }
                unconfirmed[partition] = snapshot
                rebuilt[partition] = snapshot.rebuilt(editsEndBefore: editsEnds[partition]!)
                rebuilt[partition]!.end = snapshot.end - 1
            }
        }
        guard !ends.isEmpty else { return rebuilt }
        let from = ends.keys.map { KafkaTopicPartition(topic: topics.decisions, partition: $0) }
        try reader.assign(from, from: Dictionary(uniqueKeysWithValues: from.map { ($0, KafkaOffset.offset(rebuilt[$0.partition]!.end)) }))
        defer { try? reader.assign([]) }
        var lastRead = ContinuousClock.now
        let decoder = self.decoder
        while let (partition, end) = ends.first(where: { rebuilt[$0.key]!.end < $0.value }) {
            guard ContinuousClock.now - lastRead < .seconds(60) else {
                throw DeciderError.readTimedOut(KafkaTopicPartition(topic: topics.decisions, partition: partition),
                                                at: rebuilt[partition]!.end, end: end)
            }
            let records = try reader.poll(maxRecords: 10_000, timeout: .milliseconds(200))
            // Decoded on two threads, folded in order on this one.
            let decisions = TwoThreads.map(records) { try? decoder.decode(key: $0.key, value: $0.value).get() }
            // Partitions sought back to their start: the rest of this poll's records of them come after.
            var readAgain: Set<Int32> = []
            for (record, decision) in zip(records, decisions) where record.offset >= rebuilt[record.partition]?.end ?? .max {
                guard !readAgain.contains(record.partition) else { continue }
                lastRead = .now
                if let snapshot = unconfirmed.removeValue(forKey: record.partition) {
                    if record.offset == snapshot.end - 1, record.value.elementsEqual(snapshot.lastDecision) {
                        rebuilt[record.partition]!.end = snapshot.end
                        rebuilt[record.partition]!.snapshotEnd = snapshot.end
                        totals.fromSnapshots += 1
                    } else {
                        rebuilt[record.partition] = RebuiltPartition(editsEndBefore: editsEnds[record.partition]!)
                        readAgain.insert(record.partition)
                        try reader.seek(KafkaTopicPartition(topic: topics.decisions, partition: record.partition), to: .offset(0))
                    }
                    continue
                }
                rebuilt[record.partition]!.add(decision, value: record.value, partition: record.partition, offset: record.offset)
                totals.readTaking += 1
            }
        }
        return rebuilt
    }

    /// Keeps a snapshot of the partition when its state is what its effective decisions made
    /// and has moved past the one kept; says whether the one kept is now current (or the
    /// partition no longer held). A snapshot that cannot be written only costs the next
    /// decider a longer read.
    @discardableResult
    private func keepSnapshot(of partition: Int32) -> Bool {
        guard let snapshots else { return true }
        if let snapshot = partitions[partition]?.snapshot(topic: topics.decisions), (try? snapshot.write(to: snapshots)) != nil {
            partitions[partition]!.keptSnapshotEnd = snapshot.end
        }
        return partitions[partition]?.isPastSnapshot != true
    }

    /// Reads the committed topic's partitions from their start to their end, with one assignment
    /// of one consumer for all of them (see `decisionsReader`): each recipe's last and newest
    /// position, and each partition's end. A compacted partition may end in offsets that hold
    /// no record (tombstones removed): the consumer's end-of-partition says it is read.
    private func readCommitted(_ taken: [Int32]) throws -> (onTopic: [Int32: [RecipeID: CommittedOnTopic]], ends: [Int32: Int64]) {
        let reader = committedReader
        var onTopic: [Int32: [RecipeID: CommittedOnTopic]] = [:]
        var ends: [Int32: Int64] = [:]
        var next: [Int32: Int64] = [:]
        for partition in taken {
            let marks = try producer.watermarks(KafkaTopicPartition(topic: topics.committed, partition: partition))
            ends[partition] = marks.high
            if marks.high > marks.low { next[partition] = marks.low }
        }
        guard !next.isEmpty else { return (onTopic, ends) }
        try reader.assign(next.keys.map { KafkaTopicPartition(topic: topics.committed, partition: $0) }, defaultOffset: .beginning)
        defer { try? reader.assign([]) }
        func unread(_ partition: Int32, _ offset: Int64) -> Bool {
            offset < ends[partition]! && reader.endReached(KafkaTopicPartition(topic: topics.committed, partition: partition)) ?? -1 < ends[partition]!
        }
        var lastRead = ContinuousClock.now
        while let (partition, offset) = next.first(where: { unread($0.key, $0.value) }) {
            guard ContinuousClock.now - lastRead < .seconds(60) else {
                throw DeciderError.readTimedOut(KafkaTopicPartition(topic: topics.committed, partition: partition), at: offset, end: ends[partition]!)
            }
            for record in try reader.poll(maxRecords: 10_000, timeout: .milliseconds(200)) where record.offset >= next[record.partition] ?? .max {
                next[record.partition] = record.offset + 1
                lastRead = .now
                guard let key = record.key, let recipeID = RecordKey.recipeID(fromKey: key),
                      let position = record.header(CommittedRecipe.positionHeaderName).flatMap({ CommittedRecipe.position(fromHeader: $0) }),
                      position.partition == record.partition else { continue }
                onTopic[record.partition, default: [:]][recipeID, default: CommittedOnTopic()].add(position.offset)
            }
        }
        return (onTopic, ends)
    }

    /// Reads back every partition this decider holds from where it stopped, on both topics it
    /// writes; the decisions only where a gap is to be read (`readGaps`).
    private func assignReadBack() throws {
        let held = partitions.values.map { ($0.partition, $0.nextReadBack, $0.nextCommittedReadBack) }
        let decisions = held.map { KafkaTopicPartition(topic: topics.decisions, partition: $0.0) }
        try readBack.assign(decisions, from: Dictionary(uniqueKeysWithValues: zip(decisions, held.map { KafkaOffset.offset($0.1) })))
        try readBack.pause(decisions)
        readingBack = []
        let committed = held.map { KafkaTopicPartition(topic: topics.committed, partition: $0.0) }
        try committedReadBack.assign(committed, from: Dictionary(uniqueKeysWithValues: zip(committed, held.map { KafkaOffset.offset($0.2) })))
    }

    // MARK: - Reading back

    /// Checks the decisions that landed on held partitions; a partition whose chain
    /// another decider's decisions took over is started again from its decisions.
    private func readWhatLanded() throws {
        let lost = try readBackLanded().union(foundLost)
        guard !lost.isEmpty else { return }
        totals.rebuilds += lost.count
        let offsets = try take(lost.sorted())
        for (partition, offset) in offsets {
            try edits.seek(KafkaTopicPartition(topic: topics.edits, partition: partition), to: .offset(offset))
        }
    }

    /// Reads back what landed on both topics of the held partitions, writes the documents
    /// of its decisions found on the chain, and returns the partitions it found lost.
    private func readBackLanded(waiting timeout: Duration = .zero) throws -> Set<Int32> {
        var lost: Set<Int32> = []
        let decoder = self.decoder
        try readGaps()
        try readBack.poll(maxRecords: 10_000, timeout: timeout) { record in
            guard !lost.contains(record.partition), let held = partitions.index(forKey: record.partition) else { return }
            // Changed where it lies, through `values` (through the subscript by key, the partition's
            // state was copied out and back: a third of what reading a decision back cost).
            let found = partitions.values[held].readBack(record.value, at: record.offset) {
                try? decoder.decode(key: record.key.map { Array($0) }, value: Array(record.value)).get()
            }
            if found == .lost { lost.insert(record.partition) }
        }
        for partition in readingBack where lost.contains(partition) || partitions[partition].map({ $0.nextReadBack >= gaps[partition] ?? 0 }) ?? true {
            try readBack.pause([KafkaTopicPartition(topic: topics.decisions, partition: partition)])
            readingBack.remove(partition)
            gaps[partition] = nil
        }
        for record in try committedReadBack.poll(maxRecords: 10_000, timeout: .zero) where partitions[record.partition] != nil {
            let position = record.header(CommittedRecipe.positionHeaderName).flatMap { CommittedRecipe.position(fromHeader: $0) }
            partitions[record.partition]!.committedLanded(key: record.key, position: position, at: record.offset)
        }
        // Before a lost partition is taken again: these documents are of decisions that count.
        try writeDocuments()
        return lost
    }

    /// Before letting partitions go (a revoke, a stop): waits for its decisions to land, reads
    /// them back and writes the documents of those that count, held ones too, so that a
    /// handover or a stop leaves nothing it knew to the next owner (for at most 10 s of
    /// reading: what is left, the next owner's start writes). A partition found lost has
    /// nothing more to write: its own decisions there do not count.
    private func letGo(_ leaving: Set<Int32>) throws {
        try settleAll()
        var waiting = leaving
        let deadline = ContinuousClock.now + .seconds(10)
        while waiting.contains(where: { partitions[$0]?.hasUnread == true }), ContinuousClock.now < deadline {
            waiting.subtract(try readBackLanded(waiting: .milliseconds(50)).union(foundLost))
        }
        try writeDocuments(holding: false)
        try settleAll()
        for partition in leaving { keepSnapshot(of: partition) }
    }

    /// Has the read-back consumer fetch each partition with a gap to read, from where reading
    /// back stopped. Most decisions need no fetch: their delivery reports say they landed
    /// right after the last one read back (`settle`).
    private func readGaps() throws {
        for (partition, _) in gaps where !readingBack.contains(partition) {
            guard let from = partitions[partition]?.nextReadBack else {
                gaps[partition] = nil
                continue
            }
            let topicPartition = KafkaTopicPartition(topic: topics.decisions, partition: partition)
            // Resumed first: a resume goes on from where the consumer last stood, which the seek then moves.
            try readBack.resume([topicPartition])
            try readBack.seek(topicPartition, to: .offset(from))
            readingBack.insert(partition)
        }
    }

    // MARK: - The committed topic

    /// A partition this many commands behind the end its consumer last saw is catching up.
    private static let catchingUp: Int64 = 1_000
    /// The longest a partition catching up holds its documents.
    private static let longestHold: Duration = .seconds(10)

    /// Hands the documents the held partitions have to write to the producer. A partition
    /// catching up holds them (`holding`), for at most `longestHold`: a recipe's newest
    /// replaces the older ones meanwhile, so that deciding a long backlog writes each recipe
    /// about once, not at every save.
    private func writeDocuments(holding: Bool = true) throws {
        var documents: [CommittedRecipe] = []
        let now = ContinuousClock.now
        for partition in partitions.keys {
            if holding, let written = documentsWritten[partition], now - written < Self.longestHold,
               let high = edits.lastSeenWatermarks(KafkaTopicPartition(topic: topics.edits, partition: partition))?.high,
               high - partitions[partition]!.nextCommand > Self.catchingUp { continue }
            documentsWritten[partition] = now
            documents += partitions[partition]!.takeDocuments()
        }
        guard !documents.isEmpty else { return }
        // Written on two threads: a document's detail and JSON are thousands of instructions,
        // on the thread that the lanes wait for.
        let topic = topics.committed
        let messages = TwoThreads.map(documents, minimum: 16) { Self.record(of: $0, topic: topic) }
        totals.committed += messages.count
        pending.append(PendingAppend(batch: producer.enqueue(messages)))
    }

    /// A document's record on the committed topic, in its recipe's partition.
    private static func record(of document: CommittedRecipe, topic: String) -> KafkaProducerMessage {
        let key = RecordKey.key(forRecipe: document.recipeID)
        let position = KafkaHeader(key: CommittedRecipe.positionHeaderName, value: document.position)
        guard let value = document.value() else {
            return .tombstone(topic: topic, key: key, headers: [position], partition: document.partition)
        }
        return KafkaProducerMessage(topic: topic, key: key, value: value, headers: [committedContentType, position],
                                    partition: document.partition)
    }

    // MARK: - Deliveries

    private func settleAll() throws {
        while !pending.isEmpty { try settle(pending.removeFirst()) }
    }

    /// Records handed to the producer in one `enqueue`.
    private struct PendingAppend: Sendable {
        let batch: KafkaPendingBatch
        /// The indexes in the batch of each partition's decisions; none for committed documents.
        var parts: [Int32: Range<Int>] = [:]
    }

    /// What delivery reports of a partition's decisions left to do.
    struct Settlement {
        var lost = false
        /// Where reading back a gap ends, when there is one to read.
        var gapEnd: Int64?

        mutating func add(_ landing: PartitionDecider.Landing) {
            switch landing {
            case .settled: break
            case .lost: lost = true
            case .gap(let end): gapEnd = max(gapEnd ?? 0, end)
            }
        }
    }

    private func keep(_ settlement: Settlement, of partition: Int32) {
        if settlement.lost { foundLost.insert(partition) }
        if let end = settlement.gapEnd { gaps[partition] = max(gaps[partition] ?? 0, end) }
    }

    /// Waits for a batch's reports, on this thread (a poll's lanes settle those that are in when
    /// it comes). A decision that landed right after what was read back of its partition is as
    /// read back (`PartitionDecider.landed`); any other is left to the read-back consumer.
    private func settle(_ append: PendingAppend) throws {
        do {
            // A batch's reports come a partition at a time: its place in `partitions` is looked up once.
            var last: (partition: Int32, held: Dictionary<Int32, PartitionDecider>.Index?, settlement: Settlement)?
            try append.batch.landed { partition, offset in
                guard !append.parts.isEmpty else { return }
                if last?.partition != partition {
                    if let last { keep(last.settlement, of: last.partition) }
                    last = (partition, partitions.index(forKey: partition), Settlement())
                }
                guard let held = last?.held else { return }
                last?.settlement.add(partitions.values[held].landed(at: offset))
            }
            if let last { keep(last.settlement, of: last.partition) }
        } catch let error as KafkaError {
            // What was written after it follows a decision that is not there: stop, and the next
            // start reads what counts. (Going on would only write decisions that do not count.)
            throw DeciderError.deliveryFailed(error)
        }
    }

    // MARK: - Progress

    private func report() -> Progress {
        var lag: [Int32: Int64] = [:]
        for (partition, decider) in partitions {
            if let high = edits.lastSeenWatermarks(KafkaTopicPartition(topic: topics.edits, partition: partition))?.high {
                lag[partition] = max(0, high - decider.nextCommand)
            }
        }
        for (partition, status) in stopped.held { lag[partition] = status.lag }
        return Progress(totals: totals, lag: lag, stopped: stopped.reasons)
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
