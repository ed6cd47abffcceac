import CSQLite
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// The read model's connections to the store: each read takes one for itself, so reads run
/// side by side (WAL gives each its own snapshot) instead of queueing behind one lock. They are
/// opened as reads need them, up to `limit`; a read that finds all of them taken waits for one
/// to be given back. `ReadModel.withoutWaiting` takes one only if one is idle, and holds it for
/// every read its thread makes meanwhile.
final class ReadConnections: Sendable {
    /// A connection on loan to one reader; only that reader touches it.
    struct Loan: @unchecked Sendable {
        let connection: SQLiteConnection
    }

    let path: String
    let limit: Int
    private let pool: Locked<(idle: [Loan], opened: Int)>

    init(path: String, limit: Int) {
        precondition(limit >= 1)
        self.path = path
        self.limit = limit
        pool = Locked((idle: [], opened: 0))
    }

    /// An idle connection (the most recently used: its pages are the warmest), or a new one
    /// while fewer than `limit` are open, or else the next one given back.
    func take() throws -> Loan {
        let limit = limit
        // Taking frees nothing: no waiter is woken by it.
        let idle: Loan? = pool.withLock(when: { !$0.idle.isEmpty || $0.opened < limit }, wake: .nobody) { pool, _ in
            if let loan = pool.idle.popLast() { return loan }
            pool.opened += 1
            return nil
        }
        if let idle { return idle }
        // A slot was counted for a new connection: opened outside the lock.
        do {
            return Loan(connection: try SQLiteConnection(path: path))
        } catch {
            pool.withLock(wake: .one) { $0.opened -= 1 }
            throw error
        }
    }

    /// An idle connection, or nil at once (none is opened here: opening reads the file).
    func takeIdle() -> Loan? {
        pool.withLock(wake: .nobody) { $0.idle.popLast() }
    }

    /// Gives a connection back: one waiting reader may take it.
    func giveBack(_ loan: Loan) {
        pool.withLock(wake: .one) { $0.idle.append(loan) }
    }

    // MARK: - Held by a thread

    /// What a thread holds inside `ReadModel.withoutWaiting`: its reads of this pool use it.
    final class Held {
        unowned let pool: ReadConnections
        let loan: Loan
        init(pool: ReadConnections, loan: Loan) {
            self.pool = pool
            self.loan = loan
        }
    }

    /// The connection the calling thread holds of this pool, if any.
    func heldByThisThread() -> SQLiteConnection? {
        guard let pointer = pthread_getspecific(heldKey) else { return nil }
        let held = Unmanaged<Held>.fromOpaque(pointer).takeUnretainedValue()
        return held.pool === self ? held.loan.connection : nil
    }

    /// Runs `body` with an idle connection held by the calling thread, SQLite's busy wait off on
    /// it (a lock another connection holds is `SQLITE_BUSY` at once); nil, without running `body`,
    /// when none is idle or the thread holds one already.
    func holdingIdle<T>(_ body: () throws -> T) rethrows -> T? {
        guard pthread_getspecific(heldKey) == nil, let loan = takeIdle() else { return nil }
        let held = Held(pool: self, loan: loan)
        sqlite3_busy_timeout(loan.connection.handle, 0)
        pthread_setspecific(heldKey, Unmanaged.passUnretained(held).toOpaque())
        defer {
            pthread_setspecific(heldKey, nil)
            sqlite3_busy_timeout(loan.connection.handle, SQLiteConnection.busyTimeoutMilliseconds)
            giveBack(loan)
            withExtendedLifetime(held) {}
        }
        return try body()
    }
}

/// The thread-specific slot of `ReadConnections.Held`.
private let heldKey: pthread_key_t = {
    var key = pthread_key_t()
    precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
    return key
}()
