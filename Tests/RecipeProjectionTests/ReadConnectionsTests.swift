import Foundation
@testable import RecipeProjection
import RecipeTestSupport
import Testing
import Threads

/// Reads of the store run side by side, each on a connection of its own, and a thread that
/// must not wait is told at once when none is free.
@Suite("Read connections")
struct ReadConnectionsTests {
    /// An empty store of the current schema, removed when `body` returns.
    private func withStore(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("readers-\(UUID().uuidString).db").path
        defer { removeStore(path) }
        try StoreSchema.migrate(SQLiteConnection(path: path))
        try body(path)
    }

    @Test("a read is answered while another read is still in progress")
    func readsRunSideBySide() throws {
        try withStore { path in
            let model = try ReadModel(path: path, readers: 2)
            let state = Locked((inRead: false, released: false))
            let held = Background("a read held open") {
                try model.read { _ in
                    state.withLock { $0.inRead = true }
                    _ = state.wait(until: { $0.released })
                }
            }
            defer {
                state.withLock { $0.released = true }
                try? held.value(deadline: .seconds(30))
            }
            try waitFor("the first read to start", deadline: .seconds(30)) { state.withLock { $0.inRead } }
            // With one connection for all reads this one would wait for the first to end.
            let list = Background("a list") { try model.list(limit: 5) }
            #expect(try list.value(deadline: .seconds(30)).items.isEmpty)
            #expect(state.withLock { !$0.released })
        }
    }

    @Test("without waiting: answered on an idle connection, nil when every connection is taken")
    func withoutWaitingGivesUpWhenNoneIsIdle() throws {
        try withStore { path in
            let model = try ReadModel(path: path, readers: 1)
            // The first read opens the one connection; then it is idle.
            _ = try model.list(limit: 5)
            #expect(try model.withoutWaiting { try model.list(limit: 5).items.count } == 0)

            let state = Locked((inRead: false, released: false))
            let held = Background("the only connection held") {
                try model.read { _ in
                    state.withLock { $0.inRead = true }
                    _ = state.wait(until: { $0.released })
                }
            }
            defer {
                state.withLock { $0.released = true }
                try? held.value(deadline: .seconds(30))
            }
            try waitFor("the read to start", deadline: .seconds(30)) { state.withLock { $0.inRead } }
            var ran = false
            #expect(try model.withoutWaiting { ran = true } == nil)
            #expect(!ran)
        }
    }
}
