import Foundation
import Kafka
import RecipeAudit
import RecipeDomain
import RecipeGenerators
@testable import RecipeProjection
import RecipeTestSupport
import RecipeWire
import Testing

@Suite("Replay and verify: rebuilding read models from the log, checking a store against it")
struct ReplayTests {
    @Test("replaying the same log twice gives byte-identical dumps, equal to the live projector's")
    func replayIsDeterministic() throws {
        let fixture = try ProjectionFixture(partitions: 4)
        try fixture.send(commandStream(count: 3_000, recipes: 50, seed: 21))
        try fixture.project()
        let (first, second) = (fixture.storePath + ".first.db", fixture.storePath + ".second.db")
        defer { removeStore(first); removeStore(second) }
        for store in [first, second] {
            let run = try runRecipes(["replay", "--brokers", fixture.kafka.bootstrapServers, "--into", store])
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out.contains("replayed 3000 records"), "\(run.out)")
            // Closed before the command ends: the store is one file, whole, to copy anywhere.
            #expect(!FileManager.default.fileExists(atPath: store + "-wal"))
        }
        let firstDump = try StoreDump.string(storeAt: first)
        #expect(firstDump.contains("\nversions\t"), "the log saved recipes")
        #expect(firstDump == (try StoreDump.string(storeAt: second)))
        #expect(firstDump == (try StoreDump.string(storeAt: fixture.storePath)))
    }

    @Test("a projector that keeps only a few recipes in memory, in small batches, ends with the store of one that keeps them all")
    func smallCacheLoadsRecipesFromTheStore() throws {
        let fixture = try ProjectionFixture(partitions: 4)
        let stream = commandStream(count: 3_000, recipes: 40, seed: 24)
        try fixture.send(stream)
        try fixture.project()
        let store = fixture.storePath + ".small-cache.db"
        defer { removeStore(store) }
        let (config, topic) = (fixture.config, fixture.decisions)
        let totals = try Projector(storePath: store, kafka: config, topic: topic, batchSize: 50, cacheLimit: 3).catchUp(timeout: .seconds(30))
        #expect(totals.records == 3_000)
        #expect(try StoreDump.string(storeAt: store) == (try StoreDump.string(storeAt: fixture.storePath)))

        // The tag index (rewritten only when a batch changes a recipe's listed tags)
        // holds the tags of each listed recipe's latest version, as the domain folds them.
        var recipes: [RecipeID: Recipe] = [:]
        for envelope in stream { _ = recipes[envelope.recipeID, default: Recipe(id: envelope.recipeID)].apply(envelope) }
        var expected: Set<String> = []
        for (id, recipe) in recipes where !recipe.isDeleted {
            for tag in recipe.latestVersion?.content.tags ?? [] { expected.insert("\(id) \(ListOrder.tagKey(tag.name))") }
        }
        let indexed = try SQLiteConnection(path: store).statement("SELECT recipe_id, tag FROM recipe_tags").rows {
            "\($0.text(0)) \($0.text(1))"
        }
        #expect(Set(indexed) == expected)
        #expect(expected.count > 20, "the stream lists tagged recipes")
    }

    @Test("a replay interrupted with SIGINT resumes and ends with the store of an uninterrupted one")
    func interruptedReplayResumes() throws {
        let fixture = try ProjectionFixture(partitions: 8)
        let stream = commandStream(count: 12_000, recipes: 300, seed: 22)
        try fixture.send(stream)
        let store = fixture.storePath + ".interrupted.db"
        defer { removeStore(store) }
        // Small transactions, so that the replay is caught in the middle.
        let process = try recipesProcess(["replay", "--brokers", fixture.kafka.bootstrapServers, "--into", store, "--batch", "120"])
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try waitFor("the replay's first commit", deadline: .seconds(30)) {
            (try? ReadModel(path: store).positions().values.reduce(0, +)) ?? 0 > 0
        }
        // Holding the write lock keeps the replay from finishing while it is interrupted.
        var blocker: SQLiteConnection? = try SQLiteConnection(path: store)
        try blocker?.execute("BEGIN IMMEDIATE")
        let interrupted = process.isRunning
        kill(process.processIdentifier, SIGINT)
        try waitFor("the replay to take the interrupt", deadline: .seconds(30)) {
            stderrOf(process, lines: 100).contains("interrupted: committing what was read")
        }
        try blocker?.execute("ROLLBACK")
        blocker = nil // the replay's own close is then the last: it folds the log into the store
        process.waitUntilExit()
        #expect(interrupted, "the replay ended before it could be interrupted: \(stderrOf(process))")
        #expect(process.terminationStatus == 130, "an interrupted replay says so: \(stderrOf(process))")
        #expect(!FileManager.default.fileExists(atPath: store + "-wal"), "an interrupted replay leaves one file too")
        let applied = try ReadModel(path: store).decisionPositions().values.reduce(0, +)
        #expect(applied > 0 && applied < Int64(stream.count), "interrupted after \(applied) decisions")

        let resumed = try runRecipes(["replay", "--brokers", fixture.kafka.bootstrapServers, "--into", store])
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(resumed.out.contains("resuming: \(store) already holds \(applied) decisions"), "\(resumed.out)")
        try fixture.project()
        #expect(try StoreDump.string(storeAt: store) == (try StoreDump.string(storeAt: fixture.storePath)))
    }

    @Test("a store a projector is using is refused to a replay and to a second projector, and taken once the projector is gone (even killed)")
    func storeInUseIsRefused() throws {
        let fixture = try ProjectionFixture(partitions: 2)
        try fixture.send(commandStream(count: 200, recipes: 5, seed: 23))
        let store = fixture.storePath + ".live.db"
        defer { removeStore(store) }
        let projector = try startProjectorProcess(fixture, storePath: store)
        try waitUntilCaughtUp(fixture, storePath: store)
        let refused = try runRecipes(["replay", "--brokers", fixture.kafka.bootstrapServers, "--into", store])
        #expect(refused.status == 1)
        #expect(refused.err.contains("\(store) is in use by another projector"), "\(refused.err)")
        // Each projector judges against positions it alone moves: a second one would apply the log twice.
        let second = try runRecipes(["project", "--brokers", fixture.kafka.bootstrapServers, "--db", store])
        #expect(second.status == 1)
        #expect(second.err.contains("\(store) is in use by another projector"), "\(second.err)")
        kill(projector.processIdentifier, SIGKILL)
        projector.waitUntilExit()
        let accepted = try runRecipes(["replay", "--brokers", fixture.kafka.bootstrapServers, "--into", store])
        #expect(accepted.status == 0, "\(accepted.err)")
    }

    @Test("replay --until-position stops after the records at the given positions; a store already past them is refused")
    func replayToPositions() throws {
        let fixture = try ProjectionFixture(partitions: 2)
        try fixture.send(commandStream(count: 400, recipes: 10, seed: 24))
        let store = fixture.storePath + ".partial.db"
        defer { removeStore(store) }
        let partial = try runRecipes(["replay", "--brokers", fixture.kafka.bootstrapServers, "--into", store, "--until-position", "0:49,1:6"])
        #expect(partial.status == 0, "\(partial.err)")
        #expect(try ReadModel(path: store).positions() == [0: 50, 1: 7], "offsets 0…49 and 0…6: the named records included")
        #expect(partial.out.contains("; through 0:49,1:6"), "\(partial.out)")
        let back = try runRecipes(["replay", "--brokers", fixture.kafka.bootstrapServers, "--into", store, "--until-position", "0:9"])
        #expect(back.status == 1)
        #expect(back.err.contains("already holds partition 0 through offset 49, past --until-position 0:9"), "\(back.err)")
        let bad = try runRecipes(["replay", "--brokers", fixture.kafka.bootstrapServers, "--into", store, "--until-position", "zero:1"])
        #expect(bad.status == 2)
        #expect(bad.err.contains("--until-position needs PARTITION:OFFSET"), "\(bad.err)")
    }

    @Test("replay --until-time stops each partition after its last record logged at or before that time")
    func replayUntilTime() throws {
        let fixture = try ProjectionFixture(partitions: 2)
        let stream = commandStream(count: 300, recipes: 8, seed: 26)
        let firstHalf = try fixture.send(Array(stream[..<150]))
        // The cut is the last time the log gave the first half (its own timestamps), and the second
        // half is logged after it: the replay must keep the first half and leave the second out.
        let reader = try LogReader(kafka: fixture.config, topic: fixture.topic)
        var cut: Int64 = 0
        for partition in reader.partitions {
            try reader.read(partition: partition) { records in
                cut = max(cut, records.compactMap(\.timestamp).max() ?? 0)
                return true
            }
        }
        try waitFor("the clock to pass the first half's last log time", deadline: .seconds(5)) {
            Int64(Date().timeIntervalSince1970 * 1000) > cut
        }
        try fixture.send(Array(stream[150...]))
        let expected = Dictionary(grouping: firstHalf, by: \.partition).mapValues { Int64($0.count) }
        let store = fixture.storePath + ".until.db"
        defer { removeStore(store) }
        let until = RFC3339.string(Timestamp(millisecondsSinceEpoch: cut))
        let run = try runRecipes(["replay", "--brokers", fixture.kafka.bootstrapServers, "--into", store, "--until-time", until])
        #expect(run.status == 0, "\(run.err)")
        #expect(try ReadModel(path: store).positions() == expected, "cut at \(until): the first half, none of the 150 logged after it")
    }

    @Test("verify passes on a good store and fails naming the recipe after a row is changed by hand")
    func verifyDetectsHandEdits() throws {
        let fixture = try ProjectionFixture(partitions: 4)
        try fixture.send(commandStream(count: 2_000, recipes: 40, seed: 25))
        try fixture.project()
        let brokers = fixture.kafka.bootstrapServers
        let good = try runRecipes(["audit", "verify", "--brokers", brokers, "--db", fixture.storePath])
        #expect(good.status == 0, "\(good.out) \(good.err)")
        #expect(good.out.contains("agrees with a replay of the decisions"))

        let victim = try #require(try fixture.readModel().list(limit: 1).items.first).id
        let db = try SQLiteConnection(path: fixture.storePath)
        try db.statement("UPDATE recipes SET title = 'Edited by hand' WHERE recipe_id = ?").bind(.text(victim)).run()
        // A history row changed inside its chunk: verify reads the chunks of recipes whose entries
        // differ, and finds the row among them.
        let (edited, other) = try { () throws -> (Int, String) in
            let chunk = try db.statement("SELECT chunk, recipe_id FROM history_chunks WHERE recipe_id != ? ORDER BY chunk LIMIT 1")
                .bind(.text(victim))
            #expect(try chunk.step())
            return (chunk.int(0), chunk.text(1))
        }()
        try db.statement("UPDATE history_chunks SET entries = json_set(entries, '$[0][3]', 'Mallory') WHERE chunk = ?").bind(.integer(Int64(edited))).run()
        let bad = try runRecipes(["audit", "verify", "--brokers", brokers, "--db", fixture.storePath])
        #expect(bad.status == 1)
        #expect(bad.out.contains("recipe \(victim):"), "\(bad.out)")
        #expect(bad.out.contains("live:   recipes\t\(victim)") && bad.out.contains("Edited by hand"), "\(bad.out)")
        #expect(bad.out.contains("recipe \(other):"), "\(bad.out)")
        #expect(bad.out.contains("live:   history\t") && bad.out.contains("\tMallory\t"), "\(bad.out)")
        #expect(bad.out.contains("2 rows in 2 recipes"), "one row of recipes and one of history: \(bad.out)")

        let missing = try runRecipes(["audit", "verify", "--brokers", brokers, "--db", fixture.storePath + ".nowhere"])
        #expect(missing.status == 2, "not comparing is not differing")
        #expect(missing.err.contains("could not compare: no store at"), "\(missing.err)")
    }
}
