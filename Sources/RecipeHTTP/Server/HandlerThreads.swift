import Foundation

/// The threads that run the handler for complete requests, off libmicrohttpd's polling threads,
/// which must never block. A thread is started when a request finds none idle (up to `maxThreads`;
/// beyond, requests queue in arrival order) and ends after `idleTimeout` without work, so the
/// threads follow the requests in progress, not the connections: an idle or slow client holds none.
final class HandlerThreads: @unchecked Sendable {
    let maxThreads: Int
    let idleTimeout: TimeInterval
    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [@Sendable () -> Void] = []
    private var queueStart = 0
    private var threads = 0
    private var idle = 0
    private var stopping = false

    init(maxThreads: Int, idleTimeout: TimeInterval = 30) {
        precondition(maxThreads >= 1)
        self.maxThreads = maxThreads
        self.idleTimeout = idleTimeout
    }

    /// Runs `job` on a handler thread; false (and `job` is not run) once `stop` has begun.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return false }
        queue.append(job)
        if idle > queue.count - queueStart - 1 {
            condition.signal()
        } else if threads < maxThreads {
            threads += 1
            let thread = Thread { [self] in work() }
            thread.name = "recipes-http-handler"
            thread.start()
        }
        return true
    }

    /// Takes no more jobs, lets those taken finish, and returns once every thread has ended.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while threads > 0 { condition.wait() }
        condition.unlock()
    }

    private func work() {
        condition.lock()
        while true {
            if queueStart < queue.count {
                let job = queue[queueStart]
                queueStart += 1
                if queueStart == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    queueStart = 0
                }
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            if stopping { break }
            idle += 1
            let woken = condition.wait(until: Date(timeIntervalSinceNow: idleTimeout))
            idle -= 1
            if !woken && queueStart == queue.count { break }
        }
        threads -= 1
        condition.broadcast()
        condition.unlock()
    }
}
