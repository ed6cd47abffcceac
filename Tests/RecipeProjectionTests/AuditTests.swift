import Foundation
import Kafka
import RecipeAudit
import RecipeDomain
import RecipeGenerators
import RecipeProjection
import RecipeTestSupport
import RecipeWire
import Testing

@Suite("Audit: history, as-of, diff and export of the recorded decisions, straight from the logs")
struct AuditTests {
    @Test("as-of at every position of a random stream equals folding the prefix up to that position")
    func asOfEqualsFoldedPrefix() throws {
        let fixture = try ProjectionFixture(partitions: 2)
        let stream = commandStream(count: 300, recipes: 3, seed: 31)
        let reports = try fixture.send(stream)
        let auditor = try LogAuditor(kafka: fixture.config, topics: RecipeTopics())
        for id in Set(stream.map(\.recipeID)) {
            let placed = zip(stream, reports).filter { $0.0.recipeID == id }
            let partition = try #require(placed.first).1.partition
            #expect(auditor.reader.partition(of: id) == partition, "the key decides the partition")
            func folded(through offset: Int64) -> Recipe {
                placed.filter { $0.1.offset <= offset }.reduce(Recipe(id: id)) { state, item in
                    if case .accepted(let next, _) = RecipeDecider.fold(state, item.0) { return next }
                    return state
                }
            }
            let trail = try auditor.trail(of: id)
            #expect(trail.records.map(\.entry.offset) == placed.map(\.1.offset), "every record of the recipe, nothing else")
            let end = try auditor.reader.end(of: partition)
            for offset in 0..<end {
                #expect(trail.state(throughOffset: offset).recipe == folded(through: offset), "at \(partition):\(offset)")
            }
            // Through Kafka, at a few positions and at a time.
            for offset in [placed[placed.count / 3].1.offset, placed[placed.count * 2 / 3].1.offset, end - 1] {
                let asOf = try auditor.asOf(id, .position(partition: partition, offset: offset))
                let expected = folded(through: offset)
                #expect(asOf.revision == expected.revision)
                #expect(asOf.committed?.version == expected.versions.last?.number)
                #expect(asOf.committed?.title == expected.versions.last?.content.title)
                #expect(asOf.draft?.title == expected.draft?.content.title)
                #expect(asOf.draft?.ingredients.map(\.id) == expected.draft?.content.ingredients.map(\.id))
            }
            let middle = trail.records[trail.records.count / 2].entry
            let atTime = try auditor.asOf(id, .time(try #require(middle.logTime)))
            let lastAtThatTime = trail.records.last { ($0.entry.logTime ?? 0) <= middle.logTime! }!.entry.offset
            #expect(atTime.revision == folded(through: lastAtThatTime).revision)
            #expect(throws: LogAuditor.AuditError.self) {
                try auditor.asOf(id, .position(partition: 1 - partition, offset: 0))
            }
        }
    }

    @Test("history shows a rejected command with its reason and a duplicate as duplicate; diff shows a changed amount")
    func historyAndDiff() throws {
        let fixture = try ProjectionFixture(partitions: 3)
        let id = newRecipeID()
        try fixture.send(id, [.draftStarted, .titleChanged(title: "Pancakes"),
                                    .ingredientAdded(name: "Flour", amount: 200, metric: "g", ingredientID: "flour"),
                                    .recipeSaved])
        let retitle = CommandEnvelope(commandID: UUID().uuidString, recipeID: id, actor: "bob",
                                      time: Timestamp(millisecondsSinceEpoch: 1_796_000_100_000),
                                      command: .ingredientUpdated(ingredientID: "flour", name: nil, amount: 250, metric: nil))
        try fixture.send([retitle])
        try fixture.send(id, [.recipeSaved, .recipeSaved])
        try fixture.send([retitle])
        let brokers = fixture.kafka.bootstrapServers

        let history = try runRecipes(["audit", "history", id.text, "--brokers", brokers, "--json"])
        #expect(history.status == 0, "\(history.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(history.out.utf8)) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items.map { $0["outcome"] as? String } == ["accepted", "accepted", "accepted", "accepted", "accepted",
                                                           "accepted", "rejected", "duplicate"])
        let rejected = items[6]
        #expect(rejected["type"] as? String == "RecipeSaved")
        #expect((rejected["reason"] as? [String: Any])?["code"] as? String == "noDraft")
        #expect((items[4]["data"] as? [String: Any])?["amount"] as? Double == 250)
        #expect(items[4]["actor"] as? String == "bob")

        let table = try runRecipes(["audit", "history", id.text, "--brokers", brokers])
        #expect(table.out.split(separator: "\n").contains { $0.contains(" rejected ") && $0.contains(" noDraft: ") },
                "\(table.out)")

        let diff = try runRecipes(["audit", "diff", id.text, "--brokers", brokers, "--from-version", "1", "--to-version", "2"])
        #expect(diff.status == 0, "\(diff.err)")
        #expect(diff.out.contains("~ ingredient flour Flour: 200 g → 250 g"), "\(diff.out)")
        let json = try runRecipes(["audit", "diff", id.text, "--brokers", brokers, "--from-version", "1", "--to-version", "2", "--json"])
        let changes = try JSONDecoder().decode(VersionDiff.self, from: Data(json.out.utf8))
        #expect(changes.ingredients.changed.map(\.id) == ["flour"])
        #expect(changes.ingredients.changed.first?.from.amount == 200)
        #expect(changes.ingredients.changed.first?.to.amount == 250)
        #expect(changes.title == nil && changes.ingredients.added.isEmpty && changes.ingredients.removed.isEmpty)

        let missing = try runRecipes(["audit", "diff", id.text, "--brokers", brokers, "--from-version", "1", "--to-version", "3"])
        #expect(missing.status == 1)
        #expect(missing.err.contains("has versions 1…2, not 3"), "\(missing.err)")
        let asOf = try runRecipes(["audit", "as-of", id.text, "--brokers", brokers, "--json", "--position", "x"])
        #expect(asOf.status == 2, "a bad position is a usage error")
    }

    @Test("export gives every decided command one JSON line with the outcome the projector gave it")
    func exportMatchesProjector() throws {
        let fixture = try ProjectionFixture(partitions: 3)
        try fixture.send(commandStream(count: 1_500, recipes: 20, seed: 32))
        _ = try fixture.producer.send(KafkaProducerMessage(topic: fixture.topic, key: newRecipeID().text, value: Array("{not json".utf8)))
        try fixture.project()
        let export = try runRecipes(["audit", "export", "--brokers", fixture.kafka.bootstrapServers])
        #expect(export.status == 0, "\(export.err)")
        let lines = export.out.split(separator: "\n")
        #expect(lines.count == 1_501)
        let readModel = try fixture.readModel()
        var outcomes: [String: Int] = [:]
        for line in lines {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let (partition, offset) = (try #require(record["partition"] as? Int), try #require(record["offset"] as? Int))
            let projected = try #require(try readModel.outcome(partition: Int32(partition), offset: Int64(offset)))
            #expect(record["outcome"] as? String == projected.outcome.rawValue, "\(line)")
            #expect((record["reason"] as? [String: Any])?["code"] as? String == projected.reason?.code, "\(line)")
            #expect(record["revision"] as? Int == projected.revision, "\(line)")
            #expect(record["rulesVersion"] as? Int == RecipeDecider.rulesVersion, "\(line)")
            outcomes[projected.outcome.rawValue, default: 0] += 1
        }
        #expect(outcomes.keys.sorted() == ["accepted", "duplicate", "rejected"], "the stream exercises every outcome")

        let later = RFC3339.string(Timestamp(millisecondsSinceEpoch: Int64(Date().timeIntervalSince1970 * 1000) + 60_000))
        let none = try runRecipes(["audit", "export", "--brokers", fixture.kafka.bootstrapServers, "--since", later])
        #expect(none.status == 0 && none.out.isEmpty, "nothing was logged after \(later)")
        #expect(none.err.contains("exported 0 records"))
    }
    @Test("a decision another build recorded, which today's rules would not make, is what history, as-of and export show, with its rules version; undecided commands are named")
    func recordedDecisionIsShownAsRecorded() throws {
        let fixture = try ProjectionFixture(partitions: 1)
        let recipe = newRecipeID()
        let long = String(repeating: "Pie ", count: RecipeLimits.maxTitleLength / 4 + 1)
        // c0's log time, a minute before the others': a cut at it leaves them out.
        let logTime = Int64(Date().timeIntervalSince1970 * 1000) - 60_000
        let commands: [RecipeCommand] = [.titleChanged(title: long), .ingredientAdded(name: "Apple", amount: 3, metric: "pcs", ingredientID: nil),
                                         .recipeSaved, .titleChanged(title: "Apple pie")]
        let envelopes = commands.enumerated().map { index, command in
            CommandEnvelope(commandID: "c\(index)", recipeID: recipe, actor: "alice",
                            time: Timestamp(millisecondsSinceEpoch: logTime + Int64(index)), command: command)
        }
        var today = Recipe(id: recipe)
        guard case .rejected(let rejection) = today.apply(envelopes[0]) else {
            Issue.record("today's rules take a title of \(long.count) characters: the test needs one they refuse")
            return
        }
        // As a build whose rules took longer titles decided c0: accepted, with the events today's rules give a title they take.
        var probe = Recipe(id: recipe)
        var short = envelopes[0]
        short.command = .titleChanged(title: "Pie")
        guard case .accepted(let events) = probe.apply(short) else { Issue.record("a short title is refused"); return }
        let recorded = events.map { event -> RecipeEvent in if case .titleChanged = event { .titleChanged(long) } else { event } }
        // That build's rules version: an older one once there is one, else another.
        let otherRules = RecipeDecider.rulesVersion > 1 ? RecipeDecider.rulesVersion - 1 : RecipeDecider.rulesVersion + 1
        let key = RecordKey.key(forRecipe: recipe)
        func append(_ envelope: CommandEnvelope, loggedAt time: Int64? = nil) throws {
            _ = try fixture.producer.send(KafkaProducerMessage(topic: fixture.topic, key: key, value: RecordEncoder(source: "audit-tests").encode(envelope),
                                                               timestamp: time))
        }
        // c0 and the other build's decision of it, stamped with c0's log time as a decider stamps it.
        try append(envelopes[0], loggedAt: logTime)
        let older = DecisionRecord(partition: 0, offset: 0, recipeID: recipe.text, commandID: "c0", commandKind: .titleChanged, actor: "alice",
                                   actorRole: nil, time: envelopes[0].time, outcome: .accepted(recorded, revision: probe.revision),
                                   rulesVersion: otherRules, decider: "older")
        _ = try fixture.producer.send(KafkaProducerMessage(topic: fixture.decisions, key: key, value: DecisionEncoder(source: "older").encode(older),
                                                           partition: 0, timestamp: logTime))
        // c1 and c2 decided by today's decider, after the recorded c0; c3 appended and not decided.
        try fixture.send(Array(envelopes[1...2]))
        try append(envelopes[3])
        let brokers = fixture.kafka.bootstrapServers

        let history = try runRecipes(["audit", "history", recipe.text, "--brokers", brokers, "--json"])
        #expect(history.status == 0, "\(history.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(history.out.utf8)) as? [String: Any])
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items.map { $0["position"] as? String } == ["0:0", "0:1", "0:2"], "\(history.out)")
        #expect(items.map { $0["outcome"] as? String } == ["accepted", "accepted", "accepted"], "today's rules would say \(rejection.code)")
        #expect(items.map { $0["rulesVersion"] as? Int } == [otherRules, RecipeDecider.rulesVersion, RecipeDecider.rulesVersion])
        #expect(items[0]["reason"] == nil && (items[0]["data"] as? [String: Any])?["title"] as? String == long)
        #expect(object["undecided"] as? [String] == ["0:3"], "\(history.out)")
        let table = try runRecipes(["audit", "history", recipe.text, "--brokers", brokers])
        let lines = table.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("0:0 ") && $0.split(separator: " ").contains("\(otherRules)") && $0.contains(" accepted ") },
                "\(table.out)")
        #expect(lines.last == "1 command not decided yet: 0:3", "\(table.out)")

        // As of the recorded c0, by position and by its log time; as of the save; as of c3, which is not decided.
        let auditor = try LogAuditor(kafka: fixture.config, topics: RecipeTopics())
        for moment in [LogAuditor.Moment.position(partition: 0, offset: 0), .time(logTime)] {
            let first = try auditor.asOf(recipe, moment)
            #expect(first.position == "0:0" && first.draft?.title == long && first.committed == nil, "\(moment): \(first)")
            #expect(first.revision == probe.revision)
        }
        let saved = try auditor.asOf(recipe, .position(partition: 0, offset: 2))
        #expect(saved.committed?.title == long && saved.committed?.version == 1 && saved.undecided.isEmpty, "\(saved)")
        let asOf = try runRecipes(["audit", "as-of", recipe.text, "--brokers", brokers, "--position", "0:3"])
        #expect(asOf.status == 0, "\(asOf.err)")
        #expect(asOf.out.hasPrefix("recipe \(recipe) as of 0:2: revision \(saved.revision)\n1 command not decided yet (not in this state): 0:3\n"),
                "\(asOf.out)")

        // Export agrees with the projector's history of the same decisions, and names what is not decided.
        _ = try Projector(storePath: fixture.storePath, kafka: fixture.config, topic: fixture.decisions).catchUp(timeout: .seconds(30))
        let projected = try fixture.readModel().history(recipe).items
        let export = try runRecipes(["audit", "export", "--brokers", brokers])
        #expect(export.status == 0, "\(export.err)")
        #expect(export.err.contains("exported 3 records; 1 command not decided yet, not exported"), "\(export.err)")
        let exported = try export.out.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(exported.map { $0["position"] as? String } == projected.map(\.position))
        for (line, item) in zip(exported, projected) {
            #expect(line["outcome"] as? String == item.outcome.rawValue && line["revision"] as? Int == item.revision, "\(line) \(item)")
            #expect(line["type"] as? String == item.type && line["commandId"] as? String == item.commandId && line["actor"] as? String == item.actor)
            #expect((line["reason"] as? [String: Any])?["code"] as? String == item.reason?.code)
        }
        #expect(exported.map { $0["rulesVersion"] as? Int } == [otherRules, RecipeDecider.rulesVersion, RecipeDecider.rulesVersion])

        // Once c3 is decided, nothing is left undecided.
        try fixture.decide()
        let decided = try auditor.trail(of: recipe)
        #expect(decided.records.map(\.position) == ["0:0", "0:1", "0:2", "0:3"] && decided.undecided.isEmpty)
    }
}
