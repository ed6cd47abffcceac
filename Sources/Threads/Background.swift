/// A value computed on a thread of its own while the caller goes on, and taken when it is
/// needed: a chunk validated ahead of its turn, a call in a test that blocks until the test has
/// done something.
public final class Background<Value: Sendable>: Sendable {
    private let what: String
    private let result = Locked<Result<Value, any Error>?>(nil)

    /// Starts `body` now, on an `OwnedThread` named after `what`; `what` also names it in the
    /// error of a `value` that waited too long.
    public init(_ what: String, _ body: @escaping @Sendable () throws -> Value) {
        self.what = what
        let result = self.result
        _ = OwnedThread(name: "background") {
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
        }
    }

    /// Whether it has returned (or thrown) yet.
    public var isDone: Bool { result.withLock { $0 != nil } }

    /// What it returned, once it has (blocking until then); throws what it threw.
    public func value() throws -> Value {
        try result.withLock(when: { $0 != nil }) { result, _ in try result!.get() }
    }

    /// What it returned, once it has; throws what it threw, or `WaitTimedOut` after `deadline`.
    public func value(deadline: Duration) throws -> Value {
        try result.withLock(when: { $0 != nil }, deadline: .now + deadline) { result, done in
            guard done else { throw WaitTimedOut(description: "waited \(deadline) for \(what) to return") }
            return try result!.get()
        }
    }
}

/// A wait that ended at its deadline, naming what it waited for.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}
