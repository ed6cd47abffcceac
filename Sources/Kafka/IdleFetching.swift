import CRdKafka
import Threads

/// Stops a consumer of a cluster embedded in this process (`EmbeddedKafka`) from fetching while
/// nothing arrives, and starts it again the moment a producer of this process has a record
/// acknowledged on a topic it reads (`AppendSignal`), or every `peekInterval` for records from
/// other processes.
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
/// Threads: `wake` from any thread (a producer's delivery reports); the rest from the thread
/// that polls, inside `KafkaConsumer.poll`.
final class IdleFetching: Sendable {
    /// How long it keeps fetching after its last record or wake-up.
    static let activeWindow = Duration.milliseconds(100)
    /// How often a paused consumer asks where its partitions end, for records appended by other
    /// processes, unless its config says otherwise (`KafkaConfig.idlePeekInterval`).
    static let peekInterval = Duration.milliseconds(250)

    /// The consumer's handle and queue, which librdkafka lets any thread use; valid until `close`.
    private nonisolated(unsafe) let handle: OpaquePointer
    private nonisolated(unsafe) let queue: OpaquePointer
    /// How long a peek fetches where the consumer has read nothing yet (so where it reads is not
    /// known): the broker answers an empty fetch after its wait.
    private let peekWindow: Duration
    private let peekInterval: Duration
    private let state: Locked<State>

    private struct State {
        /// What it paused; empty while it fetches.
        var paused: [KafkaTopicPartition] = []
        /// Fetching until then, once nothing arrives.
        var activeUntil: ContinuousClock.Instant
        /// Paused until then, unless woken.
        var nextPeek: ContinuousClock.Instant
        /// A producer of this process appended to a paused topic: the polling thread resumes.
        var woken = false
        /// Partitions the consumer's owner paused: never resumed here.
        var ownerPaused: Set<KafkaTopicPartition> = []
        /// Set before the consumer closes: the handle is not touched after.
        var closed = false
    }

    init(handle: OpaquePointer, queue: OpaquePointer, fetchWait: Duration, peekInterval: Duration = IdleFetching.peekInterval) {
        (self.handle, self.queue) = (handle, queue)
        peekWindow = fetchWait * 2 + .milliseconds(20)
        self.peekInterval = peekInterval
        let now = ContinuousClock.now
        state = Locked(State(activeUntil: now + Self.activeWindow, nextPeek: now + peekInterval))
    }

    /// Whether it has paused the consumer's partitions (for tests and the benchmark).
    var isPaused: Bool { state.withLock { !$0.paused.isEmpty } }

    /// Records of `topic` were acknowledged: if it paused a partition of that topic, the polling
    /// thread is interrupted to fetch again; while fetching, it goes on for a while. Never blocks.
    func wake(topic: String) {
        state.withLock { state in
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
        state.withLock { state in
            if state.paused.isEmpty {
                state.activeUntil = max(state.activeUntil, .now + Self.activeWindow)
            } else if !state.closed {
                state.woken = true
                rd_kafka_queue_yield(queue)
            }
        }
    }

    /// Before the consumer closes: from now on the handle is left alone.
    func close() {
        state.withLock { $0.closed = true }
    }

    /// A poll returned records: go on fetching.
    func noteRecords() {
        state.withLock { $0.activeUntil = max($0.activeUntil, .now + Self.activeWindow) }
    }

    func ownerPaused(_ partitions: [KafkaTopicPartition]) {
        state.withLock { state in
            state.ownerPaused.formUnion(partitions)
            state.paused.removeAll { partitions.contains($0) }
        }
    }

    func ownerResumed(_ partitions: [KafkaTopicPartition]) {
        state.withLock { $0.ownerPaused.subtract(partitions) }
        wakeAll()
    }

    /// On the polling thread, before it waits: pauses the consumer once it has been idle for
    /// `activeWindow`; resumes it when woken, or when a peek finds records past what it read.
    /// Returns when to look again.
    func act() -> ContinuousClock.Instant {
        state.withLock { state in
            let now = ContinuousClock.now
            guard !state.closed else { return now + peekInterval }
            if state.paused.isEmpty {
                guard now >= state.activeUntil else { return state.activeUntil }
                pauseAssignment(&state)
                state.nextPeek = now + peekInterval
                return state.paused.isEmpty ? now + Self.activeWindow : state.nextPeek
            }
            if state.woken {
                resume(&state)
                return state.activeUntil
            }
            guard now >= state.nextPeek else { return state.nextPeek }
            state.nextPeek = now + peekInterval
            switch peek(state.paused) {
            case .more: resume(&state)
            case .unknown: resume(&state, for: peekWindow)
            case .nothing: break
            }
            return state.paused.isEmpty ? state.activeUntil : state.nextPeek
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
        state.activeUntil = .now + window
    }

    private enum Peek { case more, unknown, nothing }

    /// Whether any partition ends past where the consumer reads it, as far as it knows: where it
    /// reads is known once it has returned a record of the partition.
    private func peek(_ partitions: [KafkaTopicPartition]) -> Peek {
        guard let ends = ends(of: partitions) else { return .unknown }
        let list = RDKafkaTopicPartitionList.make(partitions.map { ($0, Int64(RD_KAFKA_OFFSET_INVALID)) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        guard rd_kafka_position(handle, list) == RD_KAFKA_RESP_ERR_NO_ERROR else { return .unknown }
        var result = Peek.nothing
        for (partition, position, _) in RDKafkaTopicPartitionList.entries(list) {
            guard let end = ends[partition], end > 0 else { continue }
            if position >= 0, end > position { return .more }
            if position < 0 { result = .unknown }
        }
        return result
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

/// What producers of this process tell the idle consumers of one embedded cluster: a topic had
/// records acknowledged. One per `EmbeddedKafka`, found by its bootstrap servers.
final class AppendSignal: Sendable {
    private let consumers = Locked<[WeakIdleFetching]>([])

    private struct WeakIdleFetching {
        weak var fetching: IdleFetching?
    }

    func add(_ fetching: IdleFetching) {
        consumers.withLock { consumers in
            consumers.removeAll { $0.fetching == nil }
            consumers.append(WeakIdleFetching(fetching: fetching))
        }
    }

    func appended(topic: String) {
        let listening = consumers.withLock { $0.compactMap(\.fetching) }
        for fetching in listening { fetching.wake(topic: topic) }
    }

    /// The signal of the cluster embedded in this process at `bootstrapServers`, if there is one.
    static func of(_ bootstrapServers: String) -> AppendSignal? {
        embedded.withLock { $0[bootstrapServers] }
    }

    static func register(_ signal: AppendSignal, for bootstrapServers: String) {
        embedded.withLock { $0[bootstrapServers] = signal }
    }

    static func unregister(_ bootstrapServers: String) {
        embedded.withLock { $0[bootstrapServers] = nil }
    }

    private static let embedded = Locked<[String: AppendSignal]>([:])
}
