import Foundation
import Kafka
import RecipeAudit
import RecipeDecisions
import RecipeDomain
import RecipeGenerators
import RecipeTestSupport
import RecipeWire
import Testing

@Suite("audit redecide: this build's rules against the recorded decisions, on the embedded broker")
struct RedecideTests {
    @Test("a log a real decider decided, every outcome among it, redecides with no difference; commands not decided yet are counted apart")
    func untamperedLogHasNoDifference() throws {
        let fixture = try DecisionFixture(partitions: 4)
        var stream = commandStream(count: 600, recipes: 40, seed: 41)
        stream.append(stream[20])  // sent again: a duplicate
        try fixture.send(stream)
        let recipe = stream[0].recipeID.text
        let home = KafkaPartitioner.partition(forKey: Array(recipe.utf8), partitionCount: 4)
        try fixture.sendRaw(key: recipe, value: "{not json")
        try fixture.sendRaw(key: recipe, value: #"{"specversion":"1.0","id":"x","type":"recipes.NoSuchThing.v1"}"#)
        try fixture.sendRaw(key: recipe, value: "{}", partition: (home + 1) % 4)
        let decided = stream.count + 3
        try decide(fixture, until: decided)
        let log = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        #expect(Set(log.effective.values.joined().map(\.outcome.name)) == ["accepted", "rejected", "duplicate", "undecodable"],
                "the log holds every outcome")

        var progress: [(Int64, Int64)] = []
        let report = try Redecider(kafka: fixture.config, topics: fixture.topics).run { progress.append(($0, $1)) }
        #expect(report.compared == decided && report.undecided == 0, "compared \(report.compared), undecided \(report.undecided)")
        #expect(report.differences.isEmpty, "\(report.differences.prefix(3))")
        #expect(report.rulesVersion == RecipeDecider.rulesVersion)
        #expect(progress.last.map { $0 == (Int64(decided), Int64(decided)) } == true, "progress ends at every command: \(progress.suffix(2))")

        // Appended after the decider stopped: no decision yet, so counted and not compared.
        try fixture.send(commandStream(count: 15, recipes: 3, seed: 42))
        let later = try Redecider(kafka: fixture.config, topics: fixture.topics).run()
        #expect(later.compared == decided && later.undecided == 15 && later.differences.isEmpty,
                "compared \(later.compared), undecided \(later.undecided), differing \(later.differences.count)")
    }

    @Test("an acceptance an older build recorded, which today's rules reject, is named with both outcomes and counted under its code")
    func olderAcceptanceIsNamed() throws {
        let fixture = try DecisionFixture(partitions: 1)
        let recipe = RecipeID(made: "soup")
        func titled(_ index: Int, _ actor: String, _ title: String, expectedRevision: Int? = nil) -> CommandEnvelope {
            CommandEnvelope(commandID: "c\(index)", recipeID: recipe, actor: actor,
                            time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000 + Int64(index)),
                            expectedRevision: expectedRevision, actorRole: .writer, command: .titleChanged(title: title))
        }
        // c1 is by someone the owner never shared the recipe with; c2 expects the revision c1's acceptance made.
        let commands = [titled(0, "alice", "Soup"), titled(1, "mallory", "Stew"), titled(2, "alice", "Pie", expectedRevision: 2)]
        try fixture.send(Array(commands[0..<2]))
        // As an older build, without access rules, would have written them: c0 as today, c1 accepted.
        var state = Recipe(id: recipe)
        let decided = RecipeJudge.decide(commands[0], recipe: &state)
        var first = DecisionRecord(decided, of: commands[0], revision: state.revision, partition: 0, offset: 0)
        first.decider = "older"
        let olderRules = max(1, RecipeDecider.rulesVersion - 1)
        let accepted = DecisionRecord(partition: 0, offset: 1, recipeID: recipe.text, commandID: "c1", commandKind: .titleChanged,
                                      actor: "mallory", actorRole: .writer, time: commands[1].time,
                                      outcome: .accepted([.titleChanged("Stew")], revision: 2), rulesVersion: olderRules,
                                      decider: "older", follows: first.link)
        try appendDecision(first, fixture)
        try appendDecision(accepted, fixture)
        try fixture.send([commands[2]])
        try decide(fixture, until: 3)
        let log = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        #expect(log.effective[0]?.map(\.offset) == [0, 1, 2])
        #expect(log.effective[0]?.last?.outcome.revision == 3, "the decider accepted c2 on the state the recorded c1 left")

        let report = try Redecider(kafka: fixture.config, topics: fixture.topics).run()
        // c2 is judged on the recorded state (revision 2), not on one where c1 was rejected: it does not differ.
        #expect(report.compared == 3 && report.undecided == 0)
        #expect(report.differences.count == 1, "\(report.differences)")
        let difference = try #require(report.differences.first)
        #expect(difference.position == "0:1" && difference.recipeID == "soup" && difference.commandID == "c1")
        #expect(difference.commandKind == .titleChanged)
        #expect(difference.recorded == accepted.outcome && difference.recordedRulesVersion == olderRules)
        #expect(difference.today.rejection?.code == .forbidden && difference.today.revision == 1, "\(difference.today)")
        #expect(difference.aspects == [.outcome, .code, .events, .revision])
        #expect(report.outcomeChanges.map { "\($0.key.recorded) → \($0.key.today): \($0.value)" } == ["accepted → rejected: 1"])
        #expect(report.codes.count == 1 && report.codes[.forbidden] == Redecider.CodeCount(recorded: 0, today: 1), "\(report.codes)")

        // Through the program: the position, both outcomes with the recorded rules version, the counts.
        let brokers = fixture.kafka.bootstrapServers
        let text = try runRecipes(["audit", "redecide", "--brokers", brokers])
        #expect(text.status == 0, "\(text.err)")
        let lines = text.out.split(separator: "\n").map(String.init)
        let row = lines.first { $0.hasPrefix("0:1 ") }
        #expect(row.map { ["soup", "c1", "TitleChanged", "accepted (rules \(olderRules))", "rejected forbidden"].allSatisfy($0.contains) } == true,
                "\(text.out)")
        #expect(lines.contains("compared 3 commands with rules version \(RecipeDecider.rulesVersion): 1 differs"), "\(text.out)")
        #expect(lines.contains { $0.hasPrefix("forbidden ") && $0.split(separator: " ") == ["forbidden", "0", "1"] }, "\(text.out)")

        let json = try runRecipes(["audit", "redecide", "--brokers", brokers, "--json"])
        #expect(json.status == 0, "\(json.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["compared"] as? Int == 3 && object["differing"] as? Int == 1 && object["undecided"] as? Int == 0)
        let item = try #require((object["differences"] as? [[String: Any]])?.first)
        #expect(item["position"] as? String == "0:1" && item["commandId"] as? String == "c1")
        #expect((item["recorded"] as? [String: Any])?["outcome"] as? String == "accepted")
        #expect((item["recorded"] as? [String: Any])?["rulesVersion"] as? Int == olderRules)
        #expect(((item["today"] as? [String: Any])?["reason"] as? [String: Any])?["code"] as? String == "forbidden")
        #expect((object["codes"] as? [[String: Any]])?.map { "\($0["code"]!) \($0["recorded"]!) \($0["today"]!)" } == ["forbidden 0 1"])
    }

    @Test("recipes audit redecide: help, a bad flag in one line, a missing decisions topic in one clear line")
    func commandLine() throws {
        let help = try runRecipes(["audit", "redecide", "--help"])
        #expect(help.status == 0)
        for option in ["--brokers", "--topic-prefix", "--kafka-config", "--json"] { #expect(help.out.contains("  \(option)"), "\(option)") }
        let bad = try runRecipes(["audit", "redecide", "--brokers", "x:1", "--since", "now"])
        #expect(bad.status == 2 && bad.err.split(separator: "\n").count == 1, "\(bad.err)")

        let undecided = try DecisionFixture(partitions: 2, decisionsPartitions: 0)
        let refused = try runRecipes(["audit", "redecide", "--brokers", undecided.kafka.bootstrapServers])
        #expect(refused.status == 1)
        let lines = refused.err.split(separator: "\n").filter { !$0.hasPrefix("%") }
        #expect(lines == ["recipes: error: the decisions topic recipes.decisions does not exist, so there are no recorded decisions "
                          + "(a decider writes them: recipes decide)"], "\(refused.err)")
    }
}
