import Foundation
import Threads

/// The threads that run the handler for complete requests, off libmicrohttpd's polling threads,
/// which must never block. A thread is started when a request finds none idle (up to `maxThreads`;
/// beyond, requests queue in arrival order) and ends after `idleTimeout` without work, so the
/// threads follow the requests in progress, not the connections: an idle or slow client holds none.
final class HandlerThreads: Sendable {
    typealias Job = @Sendable () -> Void
    let maxThreads: Int
    let idleTimeout: Duration
    private let state = Locked(State())

    private struct State {
        var queue: [Job] = []
        var queueStart = 0
        var threads = 0
        var idle = 0
        var stopping = false

        var hasJob: Bool { queueStart < queue.count }

        mutating func takeJob() -> Job? {
            guard hasJob else { return nil }
            let job = queue[queueStart]
            queueStart += 1
            if queueStart == queue.count {
                queue.removeAll(keepingCapacity: true)
                queueStart = 0
            }
            return job
        }
    }

    init(maxThreads: Int, idleTimeout: Duration = .seconds(30)) {
        precondition(maxThreads >= 1)
        self.maxThreads = maxThreads
        self.idleTimeout = idleTimeout
    }

    /// Runs `job` on a handler thread; false (and `job` is not run) once `stop` has begun.
    func submit(_ job: @escaping Job) -> Bool {
        let maxThreads = maxThreads
        // One job wakes one idle thread, not all of them.
        let (accepted, startsThread) = state.withLock(wake: .one) { state in
            guard !state.stopping else { return (false, false) }
            state.queue.append(job)
            guard state.idle <= state.queue.count - state.queueStart - 1, state.threads < maxThreads else { return (true, false) }
            state.threads += 1
            return (true, true)
        }
        if startsThread { OwnedThread(name: "http-handler").start { [self] in work() } }
        return accepted
    }

    /// Takes no more jobs, lets those taken finish, and returns once every thread has ended.
    func stop() {
        state.withLock { $0.stopping = true }
        state.wait(until: { $0.threads == 0 })
    }

    private func work() {
        while true {
            // Waking nobody: the other waiters are idle threads, which neither a job taken nor a
            // thread counted idle concerns.
            let job = state.withLock(wake: .nobody) { state in
                if let job = state.takeJob() { return job }
                state.idle += 1
                return nil
            } ?? state.withLock(when: { $0.hasJob || $0.stopping }, deadline: .now + idleTimeout, wake: .nobody) { state, _ in
                state.idle -= 1
                if let job = state.takeJob() { return job }
                // Stopping, or idle for `idleTimeout`: counted out in the same hold, so that a
                // request queued meanwhile starts a thread of its own.
                state.threads -= 1
                return nil
            }
            guard let job else {
                // Wakes `stop`, which waits for the count to reach zero.
                return state.withLock { _ in }
            }
            job()
        }
    }
}
