import Foundation
import Kafka
import RecipeWire
import Threads

/// Judges the decisions a projector polls and commits them in batches.
///
/// It pipelines: a batch commits on a thread of its own while the next is
/// polled and judged. While the consumer has a backlog (a catch-up, a
/// replay) batches fill up to `batchSize`: each transaction rewrites the rows
/// of every recipe it touched, so the fewer transactions, the less work.
/// Once the log is read to its end, what was judged is handed over as soon
/// as the commit thread is free, so a record that trickles in is visible in
/// one transaction's time. The projector is the only writer of its store
/// (`StoreLock`), so the positions it judged against stay true.
///
/// Used from the projector's thread; the commit thread only runs `commit`.
final class BatchPipeline {
    private let writer: LockedWriter
    private let committer: CommitThread
    private let batchSize: Int
    /// Positions after the records judged so far.
    private(set) var judged: [Int32: Int64]
    /// Each partition's last effective decision among those judged.
    private var effective: EffectiveDecisions
    /// Positions after the records committed so far.
    private(set) var committed: [Int32: Int64]
    private(set) var totals = BatchSummary()
    private var collecting = PendingBatch()
    private var inFlight: [Int32: Int64]?

    init(writer: LockedWriter, batchSize: Int) throws {
        self.writer = writer
        self.batchSize = batchSize
        (committed, effective) = try writer.withLock { try $0.writer.storedState() }
        judged = committed
        committer = CommitThread(writer: writer)
    }

    deinit { committer.close() }

    /// Whether judged records wait to be handed over: the next poll should be short.
    var isHolding: Bool { collecting.records > 0 }

    /// Judges the records read (each partition's in order) and commits what is due.
    /// - Parameter backlog: whether the consumer has more records at hand (its poll came back full).
    func add(_ records: inout [DecisionReading], backlog: Bool) throws {
        // A failed commit stops the projector at once, not when the next batch is handed over:
        // in a quiet period that could be never, and the store would fall behind unseen.
        if !committer.isBusy { try settle() }
        if !records.isEmpty {
            totals += try writer.withLock { try $0.writer.judge(&records, positions: &judged, effective: &effective, into: &collecting) }
        }
        if collecting.records >= batchSize || (collecting.records > 0 && !backlog && !committer.isBusy) {
            try handOver()
        }
    }

    /// Commits everything judged and waits for it. The cache is let go while
    /// the last batch commits, rather than after: a projector that finishes is
    /// done with it, and freeing a replay's recipes takes a quarter second.
    func finish() throws {
        if collecting.records > 0 { try handOver() }
        writer.withLock { $0.writer.dropCache() }
        try settle()
    }

    private func handOver() throws {
        var batch = collecting
        collecting = PendingBatch()
        // Sealed (and its rows encoded) while the batch before may still be committing.
        writer.withLock { $0.writer.seal(&batch) }
        try settle()
        // Every earlier batch is committed now: the cache may be trimmed.
        writer.withLock { $0.writer.trimCache() }
        inFlight = judged
        committer.submit(batch)
    }

    /// Waits for the batch in flight; a failed commit leaves cached states ahead of the store.
    private func settle() throws {
        do {
            try committer.wait()
        } catch {
            writer.withLock { $0.writer.dropCache() }
            throw error
        }
        if let inFlight { committed = inFlight }
        inFlight = nil
    }
}

/// The thread that commits judged batches, one at a time.
private final class CommitThread: Sendable {
    private let state: Locked<State>
    private let thread = OwnedThread(name: "projector-store")

    private struct State {
        var job: PendingBatch?
        var busy = false
        var failure: (any Error)?
        var closed = false
        /// Dropped when the thread ends, so that the store closes on the thread
        /// that lets the projector go, not whenever this thread's last reference goes.
        var writer: LockedWriter?
    }

    init(writer: LockedWriter) {
        let state = Locked(State(writer: writer))
        self.state = state
        thread.start {
            while let (batch, writer) = Self.nextJob(state) {
                let error = Result { try writer.commitUnlocked(batch) }.failure
                state.withLock { state in
                    state.busy = false
                    state.failure = error
                }
            }
        }
    }

    /// Looks without waking the commit thread: an idle projector asks this every poll.
    var isBusy: Bool { state.withLock(wake: .nobody) { $0.busy } }

    func submit(_ batch: PendingBatch) {
        state.withLock { state in
            state.job = batch
            state.busy = true
        }
    }

    /// Waits until no batch is in flight; throws the error its commit met.
    func wait() throws {
        // Takes only the failure, which the commit thread does not wait on: it is not woken.
        try state.withLock(when: { !$0.busy }, wake: .nobody) { state, _ in
            if let failure = state.failure {
                state.failure = nil
                throw failure
            }
        }
    }

    /// Ends the thread once its batch is committed, and waits for that.
    func close() {
        state.withLock { $0.closed = true }
        thread.join()
    }

    private static func nextJob(_ state: Locked<State>) -> (PendingBatch, LockedWriter)? {
        state.withLock(when: { $0.job != nil || $0.closed }) { state, _ in
            guard let batch = state.job, let writer = state.writer else {
                state.writer = nil
                return nil
            }
            state.job = nil
            return (batch, writer)
        }
    }
}

private extension Result where Success == Void {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
