import Foundation
import Kafka
import RecipeAudit
import RecipeDecisions
import RecipeDomain
import RecipeGenerators
import RecipeProjection
import RecipeTestSupport
import RecipeWire
import Testing

@Suite("The decider stage, against the embedded broker")
struct DeciderTests {
    @Test("a stream is decided once, every outcome; a decider started again adds nothing")
    func streamDecidedOnce() throws {
        let fixture = try DecisionFixture(partitions: 4)
        var stream = commandStream(count: 400, recipes: 30, seed: 11)
        stream.append(stream[10])  // sent again: a duplicate
        try fixture.send(stream)
        let recipe = stream[0].recipeID.text
        let keyPartition = KafkaPartitioner.partition(forKey: Array(recipe.utf8), partitionCount: 4)
        try fixture.sendRaw(key: recipe, value: "{not json")
        try fixture.sendRaw(key: recipe, value: "{}", partition: (keyPartition + 1) % 4)

        try decide(fixture, until: stream.count + 2)
        let log = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        #expect(log.ignored == 0, "one decider alone writes only decisions that count")
        try expectOneEffectiveDecisionPerCommand(log, fixture)
        let outcomes = Set(log.effective.values.joined().map { $0.outcome.rejection?.code.rawValue ?? $0.outcome.name })
        for expected in ["accepted", "duplicate", "malformed", "wrongPartition"] {
            #expect(outcomes.contains(expected), "no \(expected) decision among \(outcomes.sorted())")
        }
        #expect(outcomes.count > 4, "rejections by rules too: \(outcomes.sorted())")
        let wrong = try #require(log.effective.values.joined().first { $0.outcome.rejection?.code == .wrongPartition })
        #expect(wrong.recipeID == recipe && wrong.partition == (keyPartition + 1) % 4)

        // Started again, a decider adopts what is there and has nothing to decide.
        let decisionsBefore = try fixture.records(of: fixture.topics.decisions).count
        try fixture.send(Array(commandStream(count: 20, recipes: 3, seed: 12)))
        try decide(fixture, until: stream.count + 22)
        let after = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        #expect(after.ignored == 0)
        #expect(after.count == stream.count + 22 && decisionsBefore == stream.count + 2)
        try expectOneEffectiveDecisionPerCommand(after, fixture)
    }

    @Test("a decision already on the chain is adopted, not decided again; one off the chain changes nothing")
    func adoptsWhatCounts() throws {
        let fixture = try DecisionFixture(partitions: 1)
        let recipe = RecipeID(made: "soup")
        let commands = ["Older", "Soup", "Stew"].enumerated().map { index, title in
            CommandEnvelope(commandID: "c\(index)", recipeID: recipe, actor: "alice",
                            time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000 + Int64(index)), command: .titleChanged(title: title))
        }
        try fixture.send(Array(commands[0..<2]))
        // As an older build might have decided c0: rejected, where today's rules accept it.
        let older = DecisionRecord(partition: 0, offset: 0, recipeID: recipe.text, commandID: "c0", commandKind: .titleChanged,
                                   actor: "alice", actorRole: nil, time: commands[0].time,
                                   outcome: .rejected(Rejection(.invalid, "an older rule"), revision: 0), decider: "older")
        try appendDecision(older, fixture)

        try decide(fixture, until: 2)
        var log = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        let adopted = try #require(log.effective[0]?.first)
        #expect(adopted == older, "the decision there counts, as it was written")
        let next = try #require(log.effective[0]?.last)
        #expect(next.offset == 1 && next.follows == older.link)
        // Decided against the state the recorded decision left: c0 was not applied, so c1 opens the recipe.
        #expect(next.outcome.revision == 1 && next.events.contains(.ownerAssigned(owner: "alice")), "\(next.outcome)")

        // A stale decider's decision of c1, on the chain that counted before the live one's: ignored.
        let stale = DecisionRecord(partition: 0, offset: 1, recipeID: recipe.text, commandID: "c1", commandKind: .titleChanged,
                                   actor: "alice", actorRole: nil, time: commands[1].time,
                                   outcome: .rejected(Rejection(.conflict, "stale"), revision: 0), decider: "stale", follows: older.link)
        try appendDecision(stale, fixture)
        try fixture.send([commands[2]])
        try decide(fixture, until: 3)
        log = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        #expect(log.ignored == 1)
        let effective = log.effective[0] ?? []
        #expect(effective.map(\.offset) == [0, 1, 2])
        #expect(effective.last?.follows == next.link && effective.last?.outcome.revision == 2)
    }

    @Test("decisions another writer appends while the decider runs are read in the gap they leave: one off the chain changes nothing, one that counts first makes it take the partition again")
    func readsWhatOthersAppendBetween() throws {
        let fixture = try DecisionFixture(partitions: 1)
        let recipe = RecipeID(made: "soup")
        let commands = (0..<6).map { index in
            CommandEnvelope(commandID: "c\(index)", recipeID: recipe, actor: "alice",
                            time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000 + Int64(index)), command: .titleChanged(title: "Soup \(index)"))
        }
        let stop = StopFlag()
        let decider = try Decider(kafka: fixture.config, topics: fixture.topics)
        let run = Background("the decider") { () -> Decider.Totals in
            var totals = Decider.Totals()
            try decider.run(until: { stop.isSet }, progressInterval: .seconds(60), progress: { totals = $0.totals })
            return totals
        }
        defer { stop.set() }
        let watcher = try DecisionWatcher(fixture)
        func effective() throws -> [DecisionRecord] {
            DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) }).effective[0] ?? []
        }
        try fixture.send(Array(commands[0..<3]))
        try watcher.waitFor(3)

        // A stale decider's decision of c2, on its own chain: the decider's next one lands after it.
        let stale = DecisionRecord(partition: 0, offset: 2, recipeID: recipe.text, commandID: "c2", commandKind: .titleChanged,
                                   actor: "alice", actorRole: nil, time: commands[2].time,
                                   outcome: .rejected(Rejection(.conflict, "stale"), revision: 0), decider: "stale",
                                   follows: DecisionLink(decider: "stale", offset: 1))
        try appendDecision(stale, fixture)
        try fixture.send([commands[3]])
        try watcher.waitFor(4)

        // Another decider's decision of c4 that follows the tail, appended before this one decides c4: it counts, this one's does not.
        let tail = try #require(try effective().last?.link)
        let other = DecisionRecord(partition: 0, offset: 4, recipeID: recipe.text, commandID: "c4", commandKind: .titleChanged,
                                   actor: "alice", actorRole: nil, time: commands[4].time,
                                   outcome: .rejected(Rejection(.invalid, "another decider's rule"), revision: 4), decider: "other", follows: tail)
        try appendDecision(other, fixture)
        try fixture.send([commands[4]])
        // Decided after the partition was taken again: on the chain through the other's decision.
        try fixture.send([commands[5]])
        try watcher.waitFor(6)
        stop.set()
        let totals = try run.value(deadline: .seconds(30))

        #expect(totals.rebuilds == 1, "the decision that counted before its own was found: \(totals)")
        let chain = try effective()
        #expect(chain.map(\.offset) == [0, 1, 2, 3, 4, 5])
        #expect(chain[4] == other, "the other's decision of c4 counts, as it was written")
        #expect(chain[2].decider != stale.decider && chain[3].follows == chain[2].link, "the stale decision changed nothing")
        #expect(chain[5].follows == other.link && chain[5].outcome.revision == 5, "c5 decided on the state the other's decision left: \(chain[5])")
    }

    @Test("a decision written by hand as an older build would have (today's rules reject the command) is what history, list, detail and a replay show")
    func recordedDecisionIsWhatReadersShow() throws {
        let fixture = try DecisionFixture(partitions: 1)
        let recipe = RecipeID(made: "pie")
        let long = OlderBuild.longTitle
        let commands: [RecipeCommand] = [.titleChanged(title: long), .ingredientAdded(name: "Apple", amount: 3, metric: "pcs", ingredientID: nil),
                                         .recipeSaved]
        let envelopes = commands.enumerated().map { index, command in
            CommandEnvelope(commandID: "c\(index)", recipeID: recipe, actor: "alice",
                            time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000 + Int64(index)), command: command)
        }
        // As a build with a longer title limit decided c0: accepted, under a rules version not this build's.
        let otherRules = RecipeDecider.rulesVersion + 1
        let (recorded, rejection) = try #require(OlderBuild.acceptedLongTitle(envelopes[0]), "today's rules take the long title")
        try fixture.send([envelopes[0]])
        try appendDecision(DecisionRecord(partition: 0, offset: 0, recipeID: recipe.text, commandID: "c0", commandKind: .titleChanged,
                                          actor: "alice", actorRole: nil, time: envelopes[0].time,
                                          outcome: .accepted(recorded, revision: 1), rulesVersion: otherRules, decider: "older"), fixture)
        try fixture.send(Array(envelopes[1...]))
        try decide(fixture, until: 3)

        let store = temporaryPath("recorded") + ".db"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        _ = try Projector(storePath: store, kafka: fixture.config, topic: fixture.topics.decisions).catchUp(timeout: .seconds(30))
        let model = try ReadModel(path: store)
        let history = try model.history(recipe).items
        #expect(history.map(\.outcome) == [.accepted, .accepted, .accepted], "\(history)")
        #expect(history.first?.reason == nil, "today's rules would say \(rejection.code)")
        #expect(history.map(\.rulesVersion) == [otherRules, RecipeDecider.rulesVersion, RecipeDecider.rulesVersion], "each as recorded")
        #expect(try model.list().items.map(\.title) == [long])
        #expect(try model.detail(recipe).title == long)
        // A replay of the decisions folds the same store.
        #expect(try fixture.storeDump(folding: fixture.topics.decisions) == (try StoreDump.string(storeAt: store)))
        // `audit redecide` names it, with what today's rules decide.
        let report = try Redecider(kafka: fixture.config, topics: fixture.topics).run()
        #expect(report.compared == 3)
        #expect(report.differences.map(\.position) == ["0:0"])
        #expect(report.differences.first?.recorded.isAccepted == true && report.differences.first?.today.rejection?.code == rejection.code)
    }

    @Test("a decider SIGKILLed five times during a stream leaves one effective decision per command, in order, no gap, and starts again from the snapshots it kept while it ran")
    func killedDeciderKeepsOneDecisionPerCommand() throws {
        let fixture = try DecisionFixture(partitions: 8)
        // RECIPES_DECIDER_COMMANDS=50000 makes the long run of docs/benchmarks.md.
        let count = ProcessInfo.processInfo.environment["RECIPES_DECIDER_COMMANDS"].flatMap { Int($0) } ?? 6_000
        let stream = commandStream(count: count, recipes: max(500, count / 12), seed: 21)
        let batch = count / 100
        let watcher = try DecisionWatcher(fixture)
        let output = temporaryPath("decider-out")
        // Killed, a decider never lets its partitions go: only the snapshots it keeps while it runs are there.
        let snapshots = temporaryPath("snapshots")
        defer { for path in [output, snapshots] { try? FileManager.default.removeItem(atPath: path) } }
        let snapshotting = ["--snapshots", snapshots, "--snapshot-every", "0.2"]
        var random = SplitMix64(seed: 5)
        var sent = 0
        for round in 0..<5 {
            let process = try startDeciderProcess(fixture, output: output, extra: snapshotting)
            try waitUntilDeciding(output: output)
            // The stream goes on while it decides; it is killed after a random part of this round's tenth.
            let killAfter = 2 + Int(random.next() % 7)
            for index in 0..<10 {
                try fixture.send(Array(stream[sent..<sent + batch]))
                sent += batch
                if index == killAfter { break }
            }
            let before = try watcher.poll()
            try waitFor("round \(round)'s decider to decide more", deadline: .seconds(30)) { try watcher.poll() > before || !process.isRunning }
            let ranUntilKilled = process.isRunning
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(ranUntilKilled, "round \(round): the decider stopped on its own: \(stderrOf(process))")
        }
        let last = try startDeciderProcess(fixture, output: output, extra: snapshotting)
        try waitUntilDeciding(output: output)
        try fixture.send(Array(stream[sent...]))
        try watcher.waitFor(stream.count, deadline: .seconds(Int64(60 + count / 1_000)))
        #expect(try stopWithSIGTERM(last), "SIGTERM stops the decider cleanly: \(stderrOf(last))")
        let fromSnapshots = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
            .last { $0.contains(" from snapshots)") }.flatMap { Int($0.split(separator: "(").last!.split(separator: " ").first!) } ?? 0
        #expect(fromSnapshots > 0, "the last decider took no partition from the snapshots the killed ones kept")

        let log = DecisionLog(records: try decisionsReadByKafkaPython(fixture))
        #expect(log.count == stream.count)
        try expectOneEffectiveDecisionPerCommand(log, fixture)
        try fixture.expectStoreOfOneUninterruptedDecider()
        try expectCommittedTopicFollowsTheDecisions(fixture)
    }

    @Test("three deciders sharing snapshots: one paused while the others take its partitions, then resumed, one killed; what counts cannot change")
    func pausedDeciderCannotChangeTheSequence() throws {
        let fixture = try DecisionFixture(partitions: 6)
        let count = (ProcessInfo.processInfo.environment["RECIPES_DECIDER_COMMANDS"].flatMap { Int($0) } ?? 4_000) / 4 * 4
        let stream = commandStream(count: count, recipes: max(300, count / 12), seed: 31)
        let quarter = count / 4
        let wait = Duration.seconds(Int64(60 + count / 1_000))
        let watcher = try DecisionWatcher(fixture)
        let outputs = (1...3).map { temporaryPath("decider-\($0)") }
        // One folder for all three: a partition one lets go at a rebalance is taken by another from its snapshot.
        let snapshots = temporaryPath("snapshots")
        defer { for path in outputs + [snapshots] { try? FileManager.default.removeItem(atPath: path) } }
        let group = ["--group", "deciders", "--snapshots", snapshots]

        let first = try startDeciderProcess(fixture, output: outputs[0], extra: group)
        defer { if first.isRunning { kill(first.processIdentifier, SIGCONT); kill(first.processIdentifier, SIGKILL) } }
        let third = try startDeciderProcess(fixture, output: outputs[2], extra: group)
        defer { if third.isRunning { kill(third.processIdentifier, SIGKILL) } }
        try waitUntilDeciding(output: outputs[0])
        try waitUntilDeciding(output: outputs[2])
        try fixture.send(Array(stream[0..<quarter]))
        try watcher.waitFor(1)
        // Paused while it decides (it has records fetched and not yet decided, as likely as not).
        try fixture.send(Array(stream[quarter..<2 * quarter]))
        kill(first.processIdentifier, SIGSTOP)

        let second = try startDeciderProcess(fixture, output: outputs[1], extra: group)
        defer { if second.isRunning { kill(second.processIdentifier, SIGKILL) } }
        try waitUntilDeciding(output: outputs[1])
        // The group gives the first's partitions to the others once its session runs out.
        try watcher.waitFor(2 * quarter, deadline: wait)
        // Killed while it decides its share of the third quarter: the second takes every partition.
        try fixture.send(Array(stream[2 * quarter..<3 * quarter]))
        let before = try watcher.poll()
        try waitFor("the third quarter being decided", deadline: .seconds(30)) { try watcher.poll() > before }
        kill(third.processIdentifier, SIGKILL)
        third.waitUntilExit()
        try watcher.waitFor(3 * quarter, deadline: wait)

        // Resumed: whatever it writes from where it stopped follows a chain that no longer counts.
        kill(first.processIdentifier, SIGCONT)
        try fixture.send(Array(stream[(3 * quarter)...]))
        try watcher.waitFor(stream.count, deadline: wait)
        #expect(try stopWithSIGTERM(first), "the resumed decider stops cleanly: \(stderrOf(first))")
        #expect(try stopWithSIGTERM(second), "\(stderrOf(second))")
        // The third let its partitions go when the second joined, and they were all taken again.
        let fromSnapshots = try outputs.map { path in
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").last { $0.contains(" from snapshots)") }
                .flatMap { Int($0.split(separator: "(").last!.split(separator: " ").first!) } ?? 0
        }
        #expect(fromSnapshots.reduce(0, +) > 0, "no partition was taken from a snapshot: \(fromSnapshots)")

        let log = DecisionLog(records: try decisionsReadByKafkaPython(fixture))
        #expect(log.count == stream.count)
        try expectOneEffectiveDecisionPerCommand(log, fixture)
        try fixture.expectStoreOfOneUninterruptedDecider()
        try expectCommittedTopicFollowsTheDecisions(fixture)
    }

    // MARK: - The command line

    @Test("recipes decide: help, bad flags in one line with status 2, topics that do not fit refused in one line")
    func commandLine() throws {
        let help = try runRecipes(["decide", "--help"])
        #expect(help.status == 0)
        for option in ["--brokers", "--group", "--progress", "--snapshots", "--snapshot-every", "--topic-prefix"] { #expect(help.out.contains("  \(option)"), "\(option)") }
        let bad = try runRecipes(["decide", "--brokers", "x:1", "--progress", "zero"])
        #expect(bad.status == 2 && bad.err.split(separator: "\n").count == 1, "\(bad.err)")
        let everyWithoutFolder = try runRecipes(["decide", "--brokers", "x:1", "--snapshot-every", "5"])
        #expect(everyWithoutFolder.status == 2 && everyWithoutFolder.err.contains("--snapshots DIR"), "\(everyWithoutFolder.err)")

        let mismatched = try DecisionFixture(partitions: 4, decisionsPartitions: 3)
        let refused = try runRecipes(["decide", "--brokers", mismatched.kafka.bootstrapServers])
        #expect(refused.status == 1)
        let lines = refused.err.split(separator: "\n").filter { !$0.hasPrefix("%") }
        #expect(lines == ["recipes: error: recipes.decisions has 3 partitions and recipes.edits 4: each decision goes on its command's partition number, so they must be equal"])
    }
}
