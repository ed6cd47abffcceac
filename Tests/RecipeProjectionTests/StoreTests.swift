import Foundation
import RecipeDomain
@testable import RecipeProjection
import RecipeTestSupport
import RecipeWire
import Testing

@Suite("The store's schema")
struct StoreTests {
    @Test("a store of schema version 1 is migrated to the current version, its history kept")
    func migratesOlderStores() throws {
        let fixture = try ProjectionFixture(partitions: 2)
        let id = newRecipeID()
        do {
            // A store as version 1 of the code left it, with one record applied.
            let db = try SQLiteConnection(path: fixture.storePath)
            try db.execute(StoreSchema.migrations[0])
            try db.execute("""
                INSERT INTO store_meta(key, value) VALUES('schema_version', '1');
                INSERT INTO history(partition, offset, recipe_id, command_id, time, actor, type, outcome, revision)
                    VALUES(1, 0, '\(id)', 'c-1', 1796000000000, 'alice', 'DraftStarted', 'accepted', 1);
                INSERT INTO history(partition, offset, recipe_id, command_id, time, actor, type, outcome,
                                    reason_code, reason_message, revision)
                    VALUES(1, 1, '\(id)', 'c-2', 1796000001000, 'alice', 'RecipeSaved', 'rejected',
                           'notSavable', 'A recipe needs a title.', 1);
                INSERT INTO positions(topic, partition, next_offset) VALUES('\(fixture.topic)', 1, 2);
                """)
        }
        _ = try Projector(storePath: fixture.storePath, kafka: fixture.config, topic: fixture.decisions)
        let db = try SQLiteConnection(path: fixture.storePath)
        #expect(try StoreSchema.installedVersion(db) == StoreSchema.version)
        let history = try fixture.readModel().history(id).items
        #expect(history.map(\.position) == ["1:0", "1:1"])
        #expect(history.map(\.commandId) == ["c-1", "c-2"])
        #expect(history.map(\.outcome) == [.accepted, .rejected])
        #expect(history[1].reason == ReasonView(code: "notSavable", message: "A recipe needs a title."))
        #expect(history[1].time == RFC3339.string(Timestamp(millisecondsSinceEpoch: 1_796_000_001_000)))
        #expect(history.map(\.rulesVersion) == [nil, nil], "entries folded before stores kept the rules version name none")
        #expect(try fixture.readModel().outcome(partition: 1, offset: 1)?.outcome == .rejected)
    }

    @Test("text is bound and read with its length: two keys that differ after a NUL stay two rows, each read back whole")
    func textKeepsWhatFollowsANUL() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nul-\(UUID().uuidString).db").path
        defer { removeStore(path) }
        let db = try SQLiteConnection(path: path)
        try db.execute("CREATE TABLE t(key TEXT PRIMARY KEY, value TEXT)")
        // Bound as C strings, both keys were "r", and the second insert replaced the first.
        for (key, value) in [("r\0x", "first\0one"), ("r\0y", "second"), ("r", "plain")] {
            try db.statement("INSERT OR REPLACE INTO t(key, value) VALUES(?, ?)").bind(.text(key), .text(value)).run()
        }
        let rows = try db.statement("SELECT key, value FROM t ORDER BY key").rows { [$0.text(0), $0.text(1)] }
        #expect(rows == [["r", "plain"], ["r\0x", "first\0one"], ["r\0y", "second"]])
        let found = try db.statement("SELECT value FROM t WHERE key = ?").bind(.text("r\0y")).rows { $0.optionalText(0) }
        #expect(found == ["second"])
    }

    @Test("a store of schema version 4 gets each open draft's summary, which the drafts list reads")
    func migratesDraftsToTheirSummaries() throws {
        let fixture = try ProjectionFixture(partitions: 1)
        let id = newRecipeID()
        do {
            let db = try SQLiteConnection(path: fixture.storePath)
            for step in 0..<4 { try db.execute(StoreSchema.migrations[step]) }
            try db.execute("""
                INSERT INTO store_meta(key, value) VALUES('schema_version', '4');
                INSERT INTO drafts(recipe_id, content, base_version, revision, updated_at, last_rejection)
                    VALUES('\(id)', '{"title":"Leek soup","servings":null,"image":null,"ingredients":[{"id":"i1","name":"Leek"},
                        {"id":"i2","name":"Stock"}],"instructions":[{"id":"s1","order":1,"description":"Simmer."}],"tags":[]}',
                        0, 4, 1796000000000, NULL);
                """)
        }
        _ = try Projector(storePath: fixture.storePath, kafka: fixture.config, topic: fixture.decisions)
        let drafts = try fixture.readModel().drafts()
        #expect(drafts.map(\.id) == [id.text])
        #expect(drafts.first.map { [$0.title, "\($0.ingredientCount)", "\($0.instructionCount)", "\($0.revision)"] }
                == ["Leek soup", "2", "1", "4"])
        #expect(drafts.first?.missing == [])
        #expect(try fixture.readModel().draft(id).ingredients.map(\.name) == ["Leek", "Stock"])
    }

    @Test("the checkpoint thread copies the log into the store as commits go, so the log stays short")
    func checkpointsKeepTheLogShort() throws {
        let fixture = try ProjectionFixture(partitions: 1)
        let db = try SQLiteConnection(path: fixture.storePath)
        try StoreSchema.migrate(db)
        try db.execute("CREATE TABLE filler(body BLOB NOT NULL)")
        let checkpointer = try WALCheckpointer(writer: db, bytes: 64 << 10)
        defer { checkpointer.close() }
        func size(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        }
        let transactions = 100, rowBytes = 256 << 10
        for _ in 0..<transactions {
            let (before, checkpoints) = (size(fixture.storePath), checkpointer.completedCheckpoints)
            try db.transaction {
                try db.statement("INSERT INTO filler(body) VALUES(?)").bind(.blob(Array(repeating: 7, count: rowBytes))).run()
            }
            // A whole checkpoint lets the next commit start the log again; one still copying would not.
            // Only a checkpoint writes to the store's own file in WAL mode.
            try waitFor("a whole checkpoint after the commit", deadline: .seconds(30)) {
                checkpointer.completedCheckpoints > checkpoints && size(fixture.storePath) > before
            }
        }
        #expect(size(fixture.storePath) >= transactions * rowBytes)
        // Without checkpoints the log would hold all 25 MiB; each restart reuses it from the start.
        #expect(size(fixture.storePath + "-wal") < transactions * rowBytes / 4)
    }

    @Test("content the store holds in another shape is reported as corruption, never read with defaults")
    func corruptContentIsAnError() throws {
        let fixture = try ProjectionFixture(partitions: 1)
        let id = newRecipeID()
        try fixture.send(id, [.titleChanged(title: "Soup"), .ingredientAdded(name: "Leek", amount: 2, metric: "pcs", ingredientID: nil),
                                    .recipeSaved])
        try fixture.project()
        #expect(try fixture.readModel().detail(id).ingredients.map(\.amount) == [2])
        let db = try SQLiteConnection(path: fixture.storePath)
        // The name is required; the members content v2 added may be absent, but not of another type.
        try db.execute("UPDATE versions SET content = replace(content, '\"name\":\"Leek\",', '') WHERE recipe_id = '\(id)'")
        #expect(throws: StoreError.corrupted("recipe content: ingredients[0]: no member name")) {
            try fixture.readModel().detail(id)
        }
        // The name back, and a note that is a number: that note, not the name, is what is reported.
        try db.execute("UPDATE versions SET content = replace(content, '\"amount\":2,', '\"name\":\"Leek\",\"amount\":2,\"note\":7,') WHERE recipe_id = '\(id)'")
        #expect {
            try fixture.readModel().detail(id)
        } throws: { error in
            guard case StoreError.corrupted(let message) = error else { return false }
            return message.hasPrefix("recipe content: ingredients[0]") && message.contains("note") && !message.contains("name")
        }
    }

    @Test("a store in a folder that does not exist is refused as such, and a projection leaves no lock file behind")
    func storeFiles() throws {
        let fixture = try ProjectionFixture(partitions: 1)
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        let path = missing.appendingPathComponent("recipes.db").path
        let config = fixture.config
        #expect(throws: StoreError.noSuchFolder(missing.path)) {
            try Projector(storePath: path, kafka: config, topic: fixture.decisions)
        }
        try fixture.send(newRecipeID(), [.titleChanged(title: "Soup")])
        try fixture.project()
        let folder = URL(fileURLWithPath: fixture.storePath).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: fixture.storePath).lastPathComponent
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name) }
        #expect(beside.sorted() == [name], "only the store itself: a closed store keeps no -wal, -shm or .lock file")
    }
}
