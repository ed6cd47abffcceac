import Foundation
import Kafka
import Threads

/// Wakes the waiters of this process when a projector commits a transaction,
/// so that a wait for the store to reach a position looks at the store again
/// only when it may have changed. SQLite tells no connection that another one
/// committed; within one process the projector can.
///
/// ```swift
/// let reached = projector.commits.wait(until: { try readModel.hasReached([0: 41]) }, deadline: .now + .seconds(5))
/// ```
///
/// Threads: any; `wait` blocks its caller (a connection thread, never a Swift concurrency thread).
public final class CommitSignal: Sendable {
    private let state = Locked((commits: UInt64(0), stopped: false))

    public init() {}

    /// Called after each committed transaction.
    public func committed() {
        state.withLock { $0.commits += 1 }
    }

    /// Called when the projector stops: no commit will come, so waits end at once.
    public func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Waits until `condition` holds, evaluating it once now and again after
    /// each commit; false when `deadline` passes or the projector stops first.
    public func wait(until reached: () throws -> Bool, deadline: ContinuousClock.Instant) rethrows -> Bool {
        while true {
            // Read before the condition, so that a commit while it runs is not missed.
            let seen = state.withLock { $0.commits }
            if try reached() { return true }
            guard waitForCommit(after: seen, deadline: deadline) else { return try reached() }
        }
    }

    /// Commits so far: what `waitForCommit(after:deadline:)` takes.
    public var count: UInt64 { state.withLock { $0.commits } }

    /// Blocks until the commit count passes `seen`; false at the deadline or once stopped.
    public func waitForCommit(after seen: UInt64, deadline: ContinuousClock.Instant) -> Bool {
        state.withLock(when: { $0.commits != seen || $0.stopped }, deadline: deadline) { state, _ in state.commits != seen }
    }
}
