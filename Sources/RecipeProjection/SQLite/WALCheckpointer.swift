import CSQLite
import Foundation
import Threads

/// Copies a store's write-ahead log into the database on a thread and a
/// connection of its own, so that the writer never stops for it.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its
/// threshold, and the next batch would wait for it. A passive
/// checkpoint elsewhere copies what is committed while the writer goes on;
/// once it has copied everything, the writer's next transaction starts the
/// log from its beginning again, so the log stays short.
final class WALCheckpointer: @unchecked Sendable {
    private let state = Locked(State())
    private let pages: Int32
    /// The writer's handle only (hence `@unchecked`: used on the writer's thread alone): the
    /// writer's owner closes it, after `close`.
    private let writer: OpaquePointer
    private let thread: OwnedThread

    private struct State {
        var due = false
        var closed = false
        var completed = 0
    }

    /// Watches the commits of `writer` (whose own automatic checkpoints stop)
    /// and checkpoints once its log holds `bytes` or more.
    init(writer: SQLiteConnection, bytes: Int) throws {
        let connection = try SQLiteConnection(path: writer.path)
        // A connection learns that the store is in WAL mode when it first reads it.
        try connection.execute("SELECT count(*) FROM sqlite_master")
        self.writer = writer.handle
        let pageSize = try connection.statement("PRAGMA page_size").rows { $0.int(0) }.first ?? 4096
        pages = Int32(clamping: bytes / pageSize)
        // The thread closes its connection as it ends: were the last connection to close it, it
        // would checkpoint the rest of the log and delete it, whenever that is.
        let state = state
        thread = OwnedThread(name: "wal-checkpoint") { Self.run(connection, state) }
        // Unretained: `close` removes the hook before this object can go.
        sqlite3_wal_hook(writer.handle, { context, _, _, pages in
            let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue()
            if pages >= checkpointer.pages { checkpointer.request() }
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Stops watching and waits for a checkpoint in progress. Call on the writer's thread.
    func close() {
        sqlite3_wal_hook(writer, nil, nil)
        state.withLock { $0.closed = true }
        thread.join()
    }

    /// Checkpoints that copied the whole log: after each, the writer's next
    /// transaction starts the log from its beginning again.
    var completedCheckpoints: Int { state.withLock { $0.completed } }

    private func request() {
        state.withLock { $0.due = true }
    }

    private static func run(_ connection: SQLiteConnection, _ state: Locked<State>) {
        let handle = connection.handle
        while state.withLock(when: { $0.due || $0.closed }, { state, _ in
            state.due = false
            return !state.closed
        }) {
            // Passive: copies what no reader still needs, waits for no one. A
            // checkpoint that cannot finish (a long reader) is tried again on a later commit.
            var (logFrames, copiedFrames): (Int32, Int32) = (0, 0)
            let result = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logFrames, &copiedFrames)
            if result == SQLITE_OK, copiedFrames == logFrames {
                state.withLock { $0.completed += 1 }
            }
        }
    }
}
