import CRdKafka
import Synchronization
import Threads

/// Records handed to the producer whose delivery reports may still be coming.
public struct KafkaPendingBatch: Sendable {
    let batch: BatchDelivery

    /// One result per record, in the order given, blocking the calling thread until
    /// every record has its report.
    public func results() -> [Result<KafkaDeliveryReport, KafkaError>] {
        batch.results()
    }

    /// Whether every record has its report: `results()` would not block.
    public var isComplete: Bool { batch.isComplete }

    /// Where each record landed, in the order given, once every record has its report (blocking
    /// until then), without building the reports; or the first record's error, before any is given.
    public func landed(_ body: (_ partition: Int32, _ offset: Int64) throws -> Void) throws {
        try batch.landed(body)
    }

    /// The first failed record's error, once every record has its report; nil before, and when
    /// every record landed.
    public var failure: KafkaError? { batch.failure }

    /// Where the records at `indexes` landed, in order, for a batch complete without a `failure`:
    /// a batch read a part at a time, each part on the thread that handles it.
    public func landed(_ indexes: Range<Int>, _ body: (_ partition: Int32, _ offset: Int64) -> Void) {
        batch.landed(indexes, body)
    }
}

/// The results of one batch, filled in by delivery reports.
///
/// Each record's opaque points into `slots`, one allocation per batch, whose
/// entries name the batch and the record's index. The batch keeps itself
/// alive (a retain taken at creation) until its last record completes.
///
/// A delivered record takes no lock and allocates nothing: its partition and offset are
/// written once, by the one thread that completes it, into its own cell of `cells`, and an
/// atomic count of the records left (`Atomic`, not `Locked`: it is the one thing every
/// report touches) tells the thread that completes the last one (whose acquiring decrement
/// sees every other cell's write). Only failures (rare) take the lock, and the last record,
/// once per batch, to wake whoever waits. The results themselves (a
/// `KafkaDeliveryReport` with its topic per record) are built by the waiter, on its own
/// thread, which also frees them: the producer's poll thread allocates nothing for them.
final class BatchDelivery: @unchecked Sendable {
    typealias Results = [Result<KafkaDeliveryReport, KafkaError>]
    /// The records' topic when they share one (the usual case), else each record's. The batch
    /// keeps no message: librdkafka has copied them (`RD_KAFKA_MSG_F_COPY`), so their buffers
    /// are freed by the caller's thread, not by a delivery report's; and a report reads the
    /// topic from here, not from a message that has long left the cache.
    private let topic: String
    private let topics: [String]
    let count: Int
    /// Where each delivered record landed, written by `delivered`.
    private let cells: UnsafeMutablePointer<Cell>
    private let remaining: Atomic<Int>
    private let state = Locked(State())
    private let slots: UnsafeMutablePointer<DeliverySlot>
    /// Told of the batch's topics once it is complete, when the cluster is embedded here (`IdleFetching`).
    private let appendSignal: IdleCluster?

    private struct Cell {
        var partition: Int32
        var offset: Int64
    }

    private struct State {
        var failures: [Int: KafkaError] = [:]
        var done = false
        /// Built by the first waiter after `done`, for any later one.
        var results: Results?
    }

    convenience init(messages: [KafkaProducerMessage], appendSignal: IdleCluster? = nil) {
        let first = messages.first?.topic ?? ""
        let same = messages.allSatisfy { $0.topic == first }
        self.init(count: messages.count, topic: first, topics: same ? [] : messages.map(\.topic), appendSignal: appendSignal)
    }

    /// The records of `parts`, in order.
    convenience init(packed parts: [KafkaPackedRecords], appendSignal: IdleCluster? = nil) {
        let first = parts.first?.topic ?? ""
        let same = parts.allSatisfy { $0.topic == first }
        self.init(count: parts.reduce(0) { $0 + $1.count }, topic: first,
                  topics: same ? [] : parts.flatMap { Array(repeating: $0.topic, count: $0.count) }, appendSignal: appendSignal)
    }

    /// `topics`: each record's, or empty when all are `topic`.
    private init(count: Int, topic: String, topics: [String], appendSignal: IdleCluster?) {
        self.count = count
        (self.topic, self.topics) = (topic, topics)
        self.appendSignal = appendSignal
        remaining = Atomic(count)
        cells = .allocate(capacity: max(1, count))
        slots = .allocate(capacity: max(1, count))
        if count == 0 {
            state.withLock { $0.done = true }
            return
        }
        let retained = Unmanaged.passRetained(self)
        for index in 0 ..< count {
            (slots + index).initialize(to: DeliverySlot(batch: retained, index: index))
        }
    }

    deinit {
        cells.deallocate()
        slots.deallocate()
    }

    /// The opaque to hand librdkafka with record `index`.
    func slot(_ index: Int) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(slots + index) }

    func topic(_ index: Int) -> String { topics.isEmpty ? topic : topics[index] }

    /// Record `index` (once per index) is in the log at `partition`, `offset`.
    func delivered(_ index: Int, partition: Int32, offset: Int64) {
        (cells + index).initialize(to: Cell(partition: partition, offset: offset))
        completed()
    }

    /// Record `index` (once per index) failed.
    func failed(_ index: Int, _ error: KafkaError) {
        state.withLock { $0.failures[index] = error }
        completed()
    }

    /// The last record wakes the waiters and drops the self-retain.
    private func completed() {
        // Releasing: this cell's write is seen by the last one; acquiring: the last one sees all.
        guard remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        state.withLock { $0.done = true }
        if let appendSignal {
            for topic in topics.isEmpty ? [topic] : Array(Set(topics)) { appendSignal.appended(topic: topic) }
        }
        Unmanaged.passUnretained(self).release()
    }

    var isComplete: Bool { remaining.load(ordering: .acquiring) == 0 }

    func results() -> Results {
        waitUntilDone()
        return built()
    }

    private func waitUntilDone() {
        state.wait(until: { $0.done })
    }

    func landed(_ body: (_ partition: Int32, _ offset: Int64) throws -> Void) throws {
        waitUntilDone()
        // Every cell is written once `done` is seen under the lock (`completed`).
        if let first = state.withLock({ $0.failures.min { $0.key < $1.key }?.value }) { throw first }
        for index in 0..<count { try body(cells[index].partition, cells[index].offset) }
    }

    var failure: KafkaError? {
        state.withLock { $0.done ? $0.failures.min { $0.key < $1.key }?.value : nil }
    }

    func landed(_ indexes: Range<Int>, _ body: (_ partition: Int32, _ offset: Int64) -> Void) {
        // The acquiring load sees every cell written (`completed`); a failed record's cell never is.
        precondition(isComplete && indexes.upperBound <= count, "landed(_:_:) reads a complete batch's own records")
        for index in indexes { body(cells[index].partition, cells[index].offset) }
    }

    /// Once every record has completed (the lock orders this after the last `completed`).
    private func built() -> Results {
        state.withLock { state in
            if let results = state.results { return results }
            var results = Results()
            results.reserveCapacity(count)
            for index in 0..<count {
                if let failure = state.failures[index] {
                    results.append(.failure(failure))
                } else {
                    let cell = cells[index]
                    results.append(.success(KafkaDeliveryReport(topic: topic(index), partition: cell.partition, offset: cell.offset)))
                }
            }
            state.results = results
            return results
        }
    }
}

/// What a record's opaque points at: its batch and index.
struct DeliverySlot {
    let batch: Unmanaged<BatchDelivery>
    let index: Int
}

/// `dr_msg_cb`: runs on the producer's poll thread (or a thread inside
/// `rd_kafka_flush`), once per record.
func deliveryReportCallback(_ rk: OpaquePointer?, _ message: UnsafePointer<rd_kafka_message_t>?,
                                    _ opaque: UnsafeMutableRawPointer?) {
    guard let message, let raw = message.pointee._private else { return }
    let slot = raw.assumingMemoryBound(to: DeliverySlot.self).pointee
    let err = message.pointee.err
    if err == RD_KAFKA_RESP_ERR_NO_ERROR {
        // The batch's self-retain holds it until this very call completes its last record:
        // no retain and release of its own per report.
        slot.batch._withUnsafeGuaranteedRef {
            $0.delivered(slot.index, partition: message.pointee.partition, offset: message.pointee.offset)
        }
        return
    }
    let batch = slot.batch.takeUnretainedValue()
    let topic = batch.topic(slot.index)
    let persistence: KafkaError.Persistence = switch rd_kafka_message_status(message) {
    case RD_KAFKA_MSG_STATUS_PERSISTED: .persisted
    case RD_KAFKA_MSG_STATUS_POSSIBLY_PERSISTED: .possiblyPersisted
    default: .notPersisted
    }
    var context = "delivery to \(topic) failed"
    if let opaque {
        context += " (\(Unmanaged<ClientContext>.fromOpaque(opaque).takeUnretainedValue().diagnosis))"
    }
    batch.failed(slot.index, .rdKafka(.deliveryFailed, context, err, persistence: persistence))
}
