import CRdKafka
import Threads

/// Stops a consumer of a cluster embedded in this process (`EmbeddedKafka`) from fetching while
/// nothing arrives, and starts it again the moment a producer of this process has a record
/// acknowledged on a topic it reads, or when the cluster's peek (`IdleCluster`), every
/// `peekInterval`, finds records from other processes past where it reads.
///
/// Why: the embedded broker holds a fetch at a partition's end for the whole `fetch.wait.max.ms`,
/// never answering it sooner, so a consumer either waits long (records are seen late) or fetches
/// all the time (an idle `recipes dev` spent a tenth of a core on it). Paused, it sends no fetch;
/// resumed by an acknowledgement, its first fetch finds the record at once.
///
/// Nothing read changes: a partition is paused with librdkafka's own pause, which goes on from
/// the next record not yet returned (records fetched but not polled are fetched again), so
/// records come in the log's order, none skipped. Partitions its owner paused stay paused.
///
/// Threads: `wake`, `wakeAll` and `found` from any thread (a producer's delivery reports, another
/// consumer's peek); the rest from the thread that polls, inside `KafkaConsumer.poll`.
final class IdleFetching: Sendable {
    /// How long it keeps fetching after its last record or wake-up.
    static let activeWindow = Duration.milliseconds(100)
    /// How often the cluster asks where paused partitions end, for records appended by other
    /// processes, unless a consumer's config says otherwise (`KafkaConfig.idlePeekInterval`).
    static let peekInterval = Duration.milliseconds(250)

    /// The consumer's handle and queue, which librdkafka lets any thread use; valid until `close`.
    private nonisolated(unsafe) let handle: OpaquePointer
    private nonisolated(unsafe) let queue: OpaquePointer
    /// How long a peek fetches where the consumer has read nothing yet (so where it reads is not
    /// known): the broker answers an empty fetch after its wait.
    private let peekWindow: Duration
    let peekInterval: Duration
    /// The idle consumers of its cluster, which share one peek.
    private let cluster: IdleCluster
    private let state: Locked<State>

    private struct State {
        /// What it paused; empty while it fetches.
        var paused: [KafkaTopicPartition] = []
        /// Fetching until then, once nothing arrives.
        var activeUntil: ContinuousClock.Instant
        /// A producer of this process appended to a paused topic: the polling thread resumes.
        var woken = false
        /// What the cluster's last peek found past where it reads, until the polling thread acts on it.
        var found: IdleCluster.Peek?
        /// Partitions the consumer's owner paused: never resumed here.
        var ownerPaused: Set<KafkaTopicPartition> = []
        /// Where the owner had it start reading a partition (an `assign` or `seek` to an offset):
        /// where it reads until it returns a record of the partition. Without it, a partition
        /// read to its end before this assignment fetched at every peek.
        var startOffsets: [KafkaTopicPartition: Int64] = [:]
        /// Set before the consumer closes: the handle is not touched after.
        var closed = false
    }

    init(handle: OpaquePointer, queue: OpaquePointer, fetchWait: Duration, cluster: IdleCluster,
         peekInterval: Duration = IdleFetching.peekInterval) {
        (self.handle, self.queue, self.cluster) = (handle, queue, cluster)
        peekWindow = fetchWait * 2 + .milliseconds(20)
        self.peekInterval = peekInterval
        state = Locked(State(activeUntil: .now + Self.activeWindow))
        cluster.add(self)
    }

    /// Whether it has paused the consumer's partitions (for tests and the benchmark).
    var isPaused: Bool { state.withLock(wake: .nobody) { !$0.paused.isEmpty } }

    /// Records of `topic` were acknowledged: if it paused a partition of that topic, the polling
    /// thread is interrupted to fetch again; while fetching, it goes on for a while. Never blocks.
    func wake(topic: String) {
        state.withLock(wake: .nobody) { state in
            if state.paused.isEmpty {
                state.activeUntil = max(state.activeUntil, .now + Self.activeWindow)
            } else if !state.closed, state.paused.contains(where: { $0.topic == topic }) {
                state.woken = true
                rd_kafka_queue_yield(queue)
            }
        }
    }

    /// The consumer's assignment changed, or its owner resumed partitions: fetch again at the next poll.
    func wakeAll() {
        state.withLock(wake: .nobody) { state in
            if state.paused.isEmpty {
                state.activeUntil = max(state.activeUntil, .now + Self.activeWindow)
            } else if !state.closed {
                state.woken = true
                rd_kafka_queue_yield(queue)
            }
        }
    }

    /// The cluster's peek found records past where it reads (or could not tell): its polling
    /// thread is interrupted to fetch, unless it is the thread that peeked.
    func found(_ peek: IdleCluster.Peek, interrupting: Bool) {
        state.withLock(wake: .nobody) { state in
            guard !state.closed, !state.paused.isEmpty else { return }
            state.found = state.found == .more ? .more : peek
            if interrupting { rd_kafka_queue_yield(queue) }
        }
    }

    /// Before the consumer closes: from now on the handle is left alone.
    func close() {
        state.withLock(wake: .nobody) { $0.closed = true }
        cluster.remove(self)
    }

    /// A poll returned records: go on fetching.
    func noteRecords() {
        state.withLock(wake: .nobody) { $0.activeUntil = max($0.activeUntil, .now + Self.activeWindow) }
    }

    func ownerPaused(_ partitions: [KafkaTopicPartition]) {
        state.withLock(wake: .nobody) { state in
            state.ownerPaused.formUnion(partitions)
            state.paused.removeAll { partitions.contains($0) }
            cluster.setPaused(self, at: positions(of: state.paused, starts: state.startOffsets))
        }
    }

    /// The owner assigned partitions, these from these offsets.
    func assigned(from offsets: [KafkaTopicPartition: Int64]) {
        state.withLock(wake: .nobody) { $0.startOffsets = offsets }
    }

    /// The owner moved where it reads a partition (nil: to its start or end, not an offset).
    func sought(_ partition: KafkaTopicPartition, to offset: Int64?) {
        state.withLock(wake: .nobody) { $0.startOffsets[partition] = offset }
    }

    func ownerResumed(_ partitions: [KafkaTopicPartition]) {
        state.withLock(wake: .nobody) { $0.ownerPaused.subtract(partitions) }
        wakeAll()
    }

    /// On the polling thread, before it waits: pauses the consumer once it has been idle for
    /// `activeWindow`; resumes it when woken, or when a peek found records past what it read;
    /// peeks for the whole cluster when that is due. Returns when to look again.
    func act() -> ContinuousClock.Instant {
        guard var paused = step() else { return .now + peekInterval }
        // Whichever paused consumer of the cluster comes first once the peek is due asks, with
        // its own handle, where every paused partition ends; each consumer with records past where
        // it reads (this one too) is told. One that fetches has no part in it: nothing is added to
        // a busy consumer's polls.
        if paused, let partitions = cluster.claimPeek() {
            let ends = ends(of: partitions)
            for (consumer, peek) in cluster.peeked(ends) { consumer.found(peek, interrupting: consumer !== self) }
            guard let pausedNow = step() else { return .now + peekInterval }
            paused = pausedNow
        }
        return paused ? cluster.nextPeek : state.withLock(wake: .nobody) { $0.activeUntil }
    }

    /// Pauses, or resumes, as the state says; returns whether it is paused now (nil: closed).
    private func step() -> Bool? {
        state.withLock(wake: .nobody) { state in
            guard !state.closed else { return nil }
            if state.paused.isEmpty {
                guard ContinuousClock.now >= state.activeUntil else { return false }
                pauseAssignment(&state)
                if state.paused.isEmpty { state.activeUntil = .now + Self.activeWindow }
                return !state.paused.isEmpty
            }
            if state.woken || state.found == .more {
                resume(&state)
            } else if state.found == .unknown {
                resume(&state, for: peekWindow)
            }
            return !state.paused.isEmpty
        }
    }

    private func pauseAssignment(_ state: inout State) {
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        guard rd_kafka_assignment(handle, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list else { return }
        let assigned = RDKafkaTopicPartitionList.entries(list).map(\.0)
        rd_kafka_topic_partition_list_destroy(list)
        let paused = assigned.filter { !state.ownerPaused.contains($0) }
        guard !paused.isEmpty, pauseOrResume(paused, pause: true) else { return }
        state.paused = paused
        state.found = nil
        cluster.setPaused(self, at: positions(of: paused, starts: state.startOffsets))
    }

    /// Resumes what it paused. librdkafka looks at a resumed partition only when its broker's
    /// thread next wakes (up to a second later, in 2.0.2): a request to each partition's
    /// leader wakes them, and asking where the partitions end is the cheapest there is.
    private func resume(_ state: inout State, for window: Duration = activeWindow) {
        let paused = state.paused
        _ = pauseOrResume(paused, pause: false)
        _ = ends(of: paused)
        state.paused = []
        state.woken = false
        state.found = nil
        state.activeUntil = .now + window
        cluster.setPaused(self, at: [:])
    }

    /// Where the consumer reads each partition: after the last record it returned, else where its
    /// owner had it start (nil: not known).
    private func positions(of partitions: [KafkaTopicPartition], starts: [KafkaTopicPartition: Int64]) -> [KafkaTopicPartition: Int64?] {
        guard !partitions.isEmpty else { return [:] }
        let list = RDKafkaTopicPartitionList.make(partitions.map { ($0, Int64(RD_KAFKA_OFFSET_INVALID)) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let known = rd_kafka_position(handle, list) == RD_KAFKA_RESP_ERR_NO_ERROR
        var positions: [KafkaTopicPartition: Int64?] = [:]
        for (partition, position, _) in RDKafkaTopicPartitionList.entries(list) {
            positions[partition] = known && position >= 0 ? position : starts[partition]
        }
        return positions
    }

    /// Where each partition ends, asked of its leader (one request per broker); nil when that failed.
    @discardableResult
    private func ends(of partitions: [KafkaTopicPartition]) -> [KafkaTopicPartition: Int64]? {
        guard !partitions.isEmpty else { return [:] }
        // A time of -1 asks for the end (ListOffsets LATEST).
        let list = RDKafkaTopicPartitionList.make(partitions.map { ($0, -1) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        guard rd_kafka_offsets_for_times(handle, list, 1_000) == RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
        var ends: [KafkaTopicPartition: Int64] = [:]
        for (partition, end, err) in RDKafkaTopicPartitionList.entries(list) where err == RD_KAFKA_RESP_ERR_NO_ERROR { ends[partition] = end }
        return ends
    }

    private func pauseOrResume(_ partitions: [KafkaTopicPartition], pause: Bool) -> Bool {
        guard !partitions.isEmpty else { return true }
        let list = RDKafkaTopicPartitionList.make(partitions.map { ($0, 0) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        return (pause ? rd_kafka_pause_partitions(handle, list) : rd_kafka_resume_partitions(handle, list)) == RD_KAFKA_RESP_ERR_NO_ERROR
    }
}
