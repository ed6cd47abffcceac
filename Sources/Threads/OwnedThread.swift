import Foundation

/// A thread that belongs to one owner: named (seen in `top -H`, `perf` and a debugger), started
/// once, stopped by its owner, and joined, within a deadline, before what it uses goes.
///
/// The thread has no stop flag of its own: what it waits on is its owner's state (a `Locked`),
/// so the owner stops it by changing that state (`stopping = true`, which wakes it) and then
/// calls `join`. docs/architecture.md, "Threads", lists every one.
///
/// ```swift
/// private let reader = OwnedThread(name: "projector-read")
/// init(…) { …; reader.start { [self] in readAhead() } }
/// func stop() { state.withLock { $0.stopping = true }; reader.join() }
/// ```
public final class OwnedThread: Sendable {
    public let name: String
    private let phase = Locked(Phase.notStarted)

    private enum Phase { case notStarted, running, ended }

    /// A thread named `name`, not started yet: an owner makes it with its other stored
    /// properties, and starts it once the body may use them. Linux keeps names of at most 15
    /// bytes and sets none of a longer one, so a longer one is refused here.
    public init(name: String) {
        precondition(name.utf8.count <= 15, "a thread's name is at most 15 bytes: \(name)")
        self.name = name
    }

    /// A thread named `name`, running `body` from now on.
    public convenience init(name: String, _ body: sending @escaping () -> Void) {
        self.init(name: name)
        start(body)
    }

    /// Starts `body` on the thread (once). `body` is sent there: what it holds that is not
    /// Sendable (a connection the thread alone uses from now on) the caller no longer uses.
    public func start(_ body: sending @escaping () -> Void) {
        phase.withLock { phase in
            precondition(phase == .notStarted, "\(name) is started once")
            phase = .running
        }
        let (phase, sent, threadName) = (phase, Sent(body), name)
        let thread = Thread {
            // Foundation gives the kernel a name set on the thread itself only (not one set before `start`).
            Thread.current.name = threadName
            sent.run()
            phase.withLock { $0 = .ended }
        }
        thread.name = name
        thread.start()
    }

    /// Whether `body` has returned (or was never started).
    public var hasEnded: Bool { phase.withLock { $0 != .running } }

    /// Blocks until `body` has returned and been released (true; at once for a thread never started), or `deadline`
    /// passes first (false; nil: no deadline).
    @discardableResult
    public func join(deadline: ContinuousClock.Instant? = nil) -> Bool {
        phase.wait(until: { $0 != .running }, deadline: deadline)
    }

    /// A `sending` closure, which no other thread holds, in the form `Thread` takes.
    private final class Sent: @unchecked Sendable {
        private var body: (() -> Void)?
        init(_ body: sending @escaping () -> Void) { self.body = body }

        /// Runs the body and lets it go, with what it holds, before returning: what the thread
        /// owned (a connection) is released before `join` returns, on the thread itself.
        func run() {
            let body = self.body.take()
            body?()
        }
    }
}
