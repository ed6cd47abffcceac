import Foundation
import Kafka
@testable import RecipeDecisions
import RecipeDomain
import RecipeGenerators
import RecipeTestSupport
import RecipeWire
import Testing

@Suite("A decider's snapshots of the partitions it lets go")
struct SnapshotTests {
    @Test("a recipe's state comes back from a snapshot equal, whatever commands made it")
    func recipesRoundTrip() throws {
        var recipes: [RecipeID: Recipe] = [:]
        for envelope in commandStream(count: 3_000, recipes: 40, seed: 31) {
            _ = recipes[envelope.recipeID, default: Recipe(id: envelope.recipeID)].apply(envelope)
        }
        #expect(recipes.values.contains { $0.versions.count > 1 && $0.hasOpenDraft && !$0.grants.isEmpty },
                "the stream makes recipes with versions, open drafts and grants")
        let snapshot = PartitionSnapshot(topic: "t", partition: 0, end: 1, lastDecision: [1], tail: nil,
                                         recipes: recipes.values.sorted { $0.id < $1.id }, changedAt: [:])
        let read = try #require(PartitionSnapshot(bytes: snapshot.bytes))
        #expect(read == snapshot)
        #expect(Dictionary(uniqueKeysWithValues: read.recipes.map { ($0.id, $0) }) == recipes)
    }

    @Test("a snapshot file cut short, changed on disk or of another format reads as none")
    func damagedFiles() throws {
        var recipes: [RecipeID: Recipe] = [:]
        for envelope in commandStream(count: 200, recipes: 5, seed: 71) {
            _ = recipes[envelope.recipeID, default: Recipe(id: envelope.recipeID)].apply(envelope)
        }
        let bytes = PartitionSnapshot(topic: "t", partition: 3, end: 200, lastDecision: [7, 8], tail: "d:199",
                                      recipes: recipes.values.sorted { $0.id < $1.id }, changedAt: ["r1": 4]).bytes
        #expect(PartitionSnapshot(bytes: bytes) != nil)
        for cut in [0, 5, bytes.count / 2, bytes.count - 1] {
            #expect(PartitionSnapshot(bytes: Array(bytes.prefix(cut))) == nil, "cut to \(cut) bytes")
        }
        for place in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 40)) {
            var changed = bytes
            changed[place] ^= 0x10
            #expect(PartitionSnapshot(bytes: changed) == nil, "byte \(place) changed")
        }
        // Format 1 was JSON: a file of it is no snapshot of this build.
        #expect(PartitionSnapshot(bytes: Array(#"{"format":1,"end":200}"#.utf8)) == nil)
    }

    /// Set RECIPEDECISIONS_UPDATE_GOLDEN=1 to write it again, after raising `PartitionSnapshot.currentFormat`.
    static let updating = ProcessInfo.processInfo.environment["RECIPEDECISIONS_UPDATE_GOLDEN"] == "1"

    @Test("the recipes a fixed stream makes snapshot to exactly the golden file: a change of the fold or of what a recipe holds fails here")
    func goldenSnapshot() throws {
        var recipes: [RecipeID: Recipe] = [:]
        for envelope in commandStream(count: 150, recipes: 4, seed: 61) {
            _ = recipes[envelope.recipeID, default: Recipe(id: envelope.recipeID)].apply(envelope)
        }
        let snapshot = PartitionSnapshot(topic: "recipes.decisions", partition: 0, end: 150, lastDecision: Array("the last decision".utf8),
                                         tail: "0123456789abcdef:149", recipes: recipes.values.sorted { $0.id < $1.id },
                                         changedAt: ["r1": 7])
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Golden/snapshot.v\(PartitionSnapshot.currentFormat).bin")
        if Self.updating { try Data(snapshot.bytes).write(to: file) }
        let golden = [UInt8](try Data(contentsOf: file))
        #expect(snapshot.bytes == golden && PartitionSnapshot(bytes: golden) == snapshot, """
            a snapshot no longer reads as the golden file says: deciders would start from snapshots an older build \
            wrote as if this one had. A change of the fold, of what a recipe holds or of the encoding: raise \
            PartitionSnapshot.currentFormat, then run this test once with RECIPEDECISIONS_UPDATE_GOLDEN=1 \
            (docs/extending.md, "An event kind"). A change of a rule: raise RecipeDecider.rulesVersion and run \
            scripts/regenerate-rules-golden, which writes this file too ("Changing a rule").
            """)
    }

    @Test("a decider taking partitions again starts from their snapshots, reads none of the decisions before, and decides as one that read them all")
    func startsFromSnapshots() throws {
        let fixture = try DecisionFixture(partitions: 4)
        let folder = temporaryPath("snapshots")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = commandStream(count: 400, recipes: 30, seed: 41)
        try fixture.send(first)
        // A file of format 1 (JSON), as an older build left it: not read, deleted once its partition's snapshot is written.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"{"format":1,"end":3}"#.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(fixture.topics.decisions)-2.snapshot.json"))
        let before = try Decider(kafka: fixture.config, topics: fixture.topics, snapshots: folder).catchUp()
        #expect(before.fromSnapshots == 0 && before.readTaking == 0, "the first decider finds no decision and no snapshot")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(kept == (0..<4).map { "\(fixture.topics.decisions)-\($0).snapshot" })

        // What comes next depends on what the snapshots hold: edits of the same recipes, and
        // commands sent again, which only the ids a recipe applied tell apart as duplicates.
        try fixture.send(commandStream(count: 500, recipes: 30, seed: 41).suffix(100) + Array(first[100..<140]))
        let after = try Decider(kafka: fixture.config, topics: fixture.topics, snapshots: folder).catchUp()
        #expect(after.fromSnapshots == 4 && after.readTaking == 0, "started from 4 snapshots, no decision read: \(after)")
        #expect(after.duplicates > 0, "commands sent again, found duplicates by the ids the snapshots restored: \(after)")

        let log = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        #expect(log.ignored == 0 && log.count == first.count + 140)
        try expectOneEffectiveDecisionPerCommand(log, fixture)
        try fixture.expectStoreOfOneUninterruptedDecider()
    }

    @Test("a partition whose commands never stop coming is snapshotted while the decider runs, and a decider taking it from that snapshot decides as one that read every decision")
    func busyPartitionSnapshottedWhileRunning() throws {
        let fixture = try DecisionFixture(partitions: 1)
        let folder = temporaryPath("snapshots")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Few enough for the embedded broker's size cap on a partition (5 MiB of decisions, about 30,000).
        let stream = commandStream(count: 15_000, recipes: 100, seed: 61)
        // Sent thousands ahead of the decider, from before it starts: every poll brings it
        // commands, so that its decisions are always on their way.
        try fixture.send(Array(stream[0..<6_000]))
        var sent = 6_000
        let (stop, deciding) = (StopFlag(), StopFlag())
        // A snapshot due at every poll: one comes due again while the partition is still held.
        let decider = try Decider(kafka: fixture.config, topics: fixture.topics, snapshots: folder, snapshotInterval: .milliseconds(1))
        let run = Background("the decider") { () -> Decider.Totals in
            var totals = Decider.Totals()
            try decider.run(until: { stop.isSet }, progressInterval: .seconds(60), progress: { totals = $0.totals }, started: { deciding.set() })
            return totals
        }
        defer { stop.set() }
        try waitFor("the decider to start", deadline: .seconds(30)) { deciding.isSet }

        let watcher = try DecisionWatcher(fixture)
        try waitFor("a snapshot while commands keep coming", deadline: .seconds(60)) {
            try #require(sent + 1_000 <= 14_000, "\(sent) commands sent and no snapshot of the busy partition yet")
            if sent - (try watcher.poll()) < 6_000 {
                try fixture.send(Array(stream[sent..<(sent + 1_000)]))
                sent += 1_000
            }
            return PartitionSnapshot.read(folder, topic: fixture.topics.decisions, partition: 0) != nil
        }
        // Kept aside as it is now (the decider goes on writing it, and the stop writes it at its end).
        let kept = temporaryPath("kept")
        defer { try? FileManager.default.removeItem(atPath: kept) }
        try FileManager.default.copyItem(atPath: folder, toPath: kept)
        let snapshot = try #require(PartitionSnapshot.read(kept, topic: fixture.topics.decisions, partition: 0))
        try fixture.send(Array(stream[sent..<(sent + 500)]))
        try watcher.waitFor(sent + 500)
        stop.set()
        let running = try run.value(deadline: .seconds(60))
        #expect(running.rebuilds == 0, "held still, the partition lost no command, so none of its decisions failed to count: \(running)")

        // Commands sent again among the new ones: only the ids the snapshot restored tell them apart.
        try fixture.send(Array(stream[(sent + 500)..<(sent + 1_000)]) + Array(stream[0..<100]))
        let decisions = try fixture.records(of: fixture.topics.decisions).count
        let after = try Decider(kafka: fixture.config, topics: fixture.topics, snapshots: kept).catchUp()
        #expect(after.fromSnapshots == 1, "taken from the snapshot written while running: \(after)")
        #expect(after.readTaking == decisions - Int(snapshot.end), "read only the decisions after the snapshot's end (\(snapshot.end)): \(after)")
        #expect(after.duplicates > 0, "the commands sent again found duplicates: \(after)")
        let log = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        #expect(log.ignored == 0, "every decision written counts: none was decided past a command left undecided")
        try expectOneEffectiveDecisionPerCommand(log, fixture)
        try fixture.expectStoreOfOneUninterruptedDecider()
    }

    @Test("a snapshot the decisions topic does not bear out is not used: another log's, an unreadable one; the next stop replaces it, and one that went no further writes none")
    func snapshotOfAnotherLog() throws {
        let folder = temporaryPath("snapshots")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stream = commandStream(count: 300, recipes: 20, seed: 51)
        let elsewhere = try DecisionFixture(partitions: 2)
        try elsewhere.send(stream)
        _ = try Decider(kafka: elsewhere.config, topics: elsewhere.topics, snapshots: folder).catchUp()

        // The same commands decided by another decider: the same outcomes, other names in every decision.
        let fixture = try DecisionFixture(partitions: 2)
        try fixture.send(stream)
        _ = try Decider(kafka: fixture.config, topics: fixture.topics).catchUp()
        try Data("{not a snapshot".utf8).write(to: URL(fileURLWithPath: PartitionSnapshot.path(folder, topic: fixture.topics.decisions, partition: 1)))
        try fixture.send(commandStream(count: 350, recipes: 20, seed: 51).suffix(50))
        let decisions = try fixture.records(of: fixture.topics.decisions).count
        let taking = try Decider(kafka: fixture.config, topics: fixture.topics, snapshots: folder).catchUp()
        #expect(taking.fromSnapshots == 0 && taking.readTaking == decisions, "every decision read from the start: \(taking)")
        let log = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        try expectOneEffectiveDecisionPerCommand(log, fixture)

        let written = try fileNumbers(folder)
        #expect(written.count == 2)
        let again = try Decider(kafka: fixture.config, topics: fixture.topics, snapshots: folder).catchUp()
        #expect(again.fromSnapshots == 2 && again.readTaking == 0, "the stop wrote snapshots of this log: \(again)")
        // Written whole in place of the old (a new file each time), so an unchanged number is a file not written.
        #expect(try fileNumbers(folder) == written, "a decider that went no further than its snapshots writes none again")
    }

    @Test("snapshots are private to the user the decider runs as: a folder left open to others is made 0700 and its files 0600 when the decider is made, and every snapshot is written 0600")
    func snapshotsArePrivate() throws {
        let folder = temporaryPath("snapshots")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let left = folder + "/left-open.snapshot"
        #expect(FileManager.default.createFile(atPath: left, contents: Data([1, 2, 3]), attributes: [.posixPermissions: 0o644]))
        let fixture = try DecisionFixture(partitions: 2)
        try fixture.send(commandStream(count: 100, recipes: 10, seed: 81))

        let decider = try Decider(kafka: fixture.config, topics: fixture.topics, snapshots: folder)
        #expect(try mode(folder) == 0o700, "the folder, checked and closed when the decider is made")
        #expect(try mode(left) == 0o600, "a file in it, too")
        _ = try decider.catchUp()
        let written = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(fixture.topics.decisions) }
        #expect(written.count == 2, "\(written)")
        for name in written { #expect(try mode(folder + "/" + name) == 0o600, "\(name)") }
    }

    /// A file's permission bits.
    private func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }

    /// Each file's inode number, by name.
    private func fileNumbers(_ folder: String) throws -> [String: UInt64] {
        try FileManager.default.contentsOfDirectory(atPath: folder).reduce(into: [:]) { numbers, name in
            var info = stat()
            try #require(stat(folder + "/" + name, &info) == 0, "\(name): \(String(cString: strerror(errno)))")
            numbers[name] = UInt64(info.st_ino)
        }
    }
}
