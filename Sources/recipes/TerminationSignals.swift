import Foundation
import Threads

/// The pipe's write end, for the signal handler: a handler may only make
/// async-signal-safe calls, such as `write`.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// SIGINT and SIGTERM, caught from the moment this is made, for a command that
/// stops cleanly (commits, flushes) instead of dying. The handlers are in place
/// when `init` returns: a signal that comes before anyone waits for it is kept,
/// not lost. (A dispatch signal source registers its handler later, on another
/// thread; a SIGTERM sent in between was ignored, and a test waited for ever.)
/// Make one per process, before the command says it is ready.
final class TerminationSignals: Sendable {
    private let state = Locked((handler: (@Sendable () -> Void)?.none, signalled: false))
    /// Waits for the first signal's byte, then ends; lives with the process.
    private let reader = OwnedThread(name: "recipes-signals")

    init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("cannot make the signal pipe: errno \(errno)") }
        signalPipeWriteEnd = ends[1]
        var signals = sigset_t()
        sigemptyset(&signals)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { _ in
                var byte: UInt8 = 1
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
            sigaddset(&signals, signalNumber)
        }
        // Taken on this thread (the main one, which works synchronously) and the threads it starts
        // from now on. A process inherits its parent's blocked signals: one started from a thread of
        // a dispatch queue (as the tests start it) has them blocked everywhere, and they would wait
        // pending for ever.
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        let readEnd = ends[0]
        reader.start { [self] in
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
            fire()
        }
    }

    /// Calls `handler` once, on the first SIGINT or SIGTERM (at once if it came already).
    convenience init(_ handler: @escaping @Sendable () -> Void) {
        self.init()
        onFirst(handler)
    }

    /// Blocks the calling thread until the first SIGINT or SIGTERM (returns at once if it came already).
    func wait() {
        state.wait(until: { $0.signalled })
    }

    private func onFirst(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            if !state.signalled { state.handler = body }
            return state.signalled
        }
        if now { body() }
    }

    private func fire() {
        let pending = state.withLock { state in
            state.signalled = true
            defer { state.handler = nil }
            return state.handler
        }
        pending?()
    }
}
