#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that one thread at a time reads or changes, and that a thread can wait on: the one
/// lock of this code base (scripts/check-concurrency refuses the others outside this module).
///
/// Every change made through `withLock` wakes the threads waiting in `withLock(when:…)`, which
/// look at the value again; so a waiter never misses the change it waits for, and no one has to
/// remember to signal. A change while no one waits costs nothing but the lock.
///
/// ```swift
/// let queue = Locked<[Job]>([])
/// queue.withLock { $0.append(job) }                                  // wakes a waiting worker
/// let job = queue.withLock(when: { !$0.isEmpty }) { queue, _ in queue.removeFirst() }
/// ```
///
/// Built on one pthread mutex and one condition variable, so that any locked value can be
/// waited on; non-Sendable values go in and out as `Mutex` lets them (`sending`).
public final class Locked<Value>: @unchecked Sendable {
    // Guarded by `mutex`: `value`, `waiters`.
    private var value: Value
    private var waiters = 0
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// Which waiters a change wakes: all (the default, always correct); one, for a queue whose
    /// every waiter waits for the same thing and one change serves one of them; or nobody, for a
    /// change that no waiter waits for (a worker taking the job it was woken for).
    public enum Wake: Sendable { case all, one, nobody }

    public init(_ value: consuming sending Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if canImport(Glibc)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` on the value under the lock, then wakes the waiters (`wake`).
    @inline(__always)
    public func withLock<Result: ~Copyable, E: Error>(wake: Wake = .all,
                                                      _ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer {
            if waiters > 0 { wakeUp(wake) }
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Blocks until `ready` holds of the value or `deadline` passes (nil: no deadline), then runs
    /// `body` on it under the lock, with whether `ready` held; `ready` is looked at now and again
    /// after each change another thread makes. What `body` changes wakes the other waiters too (`wake`).
    public func withLock<Result: ~Copyable, E: Error>(when ready: (borrowing Value) -> Bool, deadline: ContinuousClock.Instant? = nil,
                                                      wake: Wake = .all, _ body: (inout sending Value, _ ready: Bool) throws(E) -> sending Result) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer {
            if waiters > 0 { wakeUp(wake) }
            pthread_mutex_unlock(mutex)
        }
        var met = ready(value)
        if !met {
            let end = deadline.map(Self.absoluteTime(at:))
            waiters += 1
            while !met {
                if var end {
                    if pthread_cond_timedwait(condition, mutex, &end) == ETIMEDOUT {
                        met = ready(value)
                        break
                    }
                } else {
                    pthread_cond_wait(condition, mutex)
                }
                met = ready(value)
            }
            waiters -= 1
        }
        return try body(&value, met)
    }

    /// Blocks until `ready` holds of the value (true) or `deadline` passes (false).
    @discardableResult
    public func wait(until ready: (borrowing Value) -> Bool, deadline: ContinuousClock.Instant? = nil) -> Bool {
        withLock(when: ready, deadline: deadline) { _, met in met }
    }

    @inline(__always)
    private func wakeUp(_ wake: Wake) {
        switch wake {
        case .all: pthread_cond_broadcast(condition)
        case .one: pthread_cond_signal(condition)
        case .nobody: break
        }
    }

    /// `deadline` on the condition's clock (the monotonic one on Linux, the wall clock elsewhere).
    private static func absoluteTime(at deadline: ContinuousClock.Instant) -> timespec {
        let left = max(.zero, deadline - .now).components
        var now = timespec()
        #if canImport(Glibc)
        clock_gettime(CLOCK_MONOTONIC, &now)
        #else
        clock_gettime(CLOCK_REALTIME, &now)
        #endif
        // Capped at a year, so that a distant deadline does not overflow.
        var seconds = Int(now.tv_sec) + Int(min(left.seconds, 365 * 86_400))
        var nanoseconds = Int(now.tv_nsec) + Int(left.attoseconds / 1_000_000_000)
        if nanoseconds >= 1_000_000_000 {
            seconds += 1
            nanoseconds -= 1_000_000_000
        }
        return timespec(tv_sec: .init(seconds), tv_nsec: .init(nanoseconds))
    }
}
