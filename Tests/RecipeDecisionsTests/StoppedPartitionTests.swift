import Foundation
import Kafka
import RecipeDecisions
import RecipeDomain
import RecipeTestSupport
import RecipeWire
import Testing

@Suite("A partition the decider cannot go on with")
struct StoppedPartitionTests {
    @Test("a decision appended by hand for a command past the end of its edits partition stops that partition, named with why and where what is decided ends; the other partitions go on deciding")
    func onePartitionStopsTheOthersGoOn() throws {
        let fixture = try DecisionFixture(partitions: 2)
        let recipes = recipeOnEachPartition()
        func commands(_ range: Range<Int>) -> [CommandEnvelope] {
            recipes.flatMap { recipe in
                range.map { index in
                    CommandEnvelope(commandID: "\(recipe.text)-\(index)", recipeID: recipe, actor: "alice",
                                    time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000 + Int64(index)),
                                    command: .titleChanged(title: "Soup \(index)"))
                }
            }
        }
        let stop = StopFlag()
        let decider = try Decider(kafka: fixture.config, topics: fixture.topics)
        let run = Background("the decider") { try decider.run(until: { stop.isSet }, progressInterval: .seconds(60)) }
        defer { stop.set() }
        let watcher = try DecisionWatcher(fixture)
        try fixture.send(commands(0..<3))
        try watcher.waitFor(6)

        // Follows partition 0's tail, so it counts: the decider takes the partition again and finds it past the log.
        let tail = try #require(DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
            .effective[0]?.last?.link)
        let forged = DecisionRecord(partition: 0, offset: 105, recipeID: recipes[0].text, commandID: "forged", commandKind: .titleChanged,
                                    actor: "mallory", actorRole: nil, time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000),
                                    outcome: .rejected(Rejection(.invalid, "by hand"), revision: 0), decider: "forger", follows: tail)
        try appendDecision(forged, fixture)
        try fixture.send(commands(3..<5))
        // The forged one, and partition 1's two new commands: partition 1 goes on.
        try watcher.waitFor(9)
        try waitFor("partition 0 named stopped with its lag", deadline: .seconds(30)) {
            decider.status.current.partitions[0]?.lag == 2
        }
        let state = decider.status.current
        let stopped = try #require(state.partitions[0])
        guard case .stopped(let why) = stopped.state else {
            Issue.record("partition 0 is \(stopped.state), not stopped")
            return
        }
        #expect(why.contains("up to offset 105") && why.contains("ends at offset 5"), "\(why)")
        #expect(stopped.nextCommand == 3, "what is decided ends where the forged decision begins: \(stopped)")
        #expect(state.partitions[1] == DeciderState.Partition(state: .deciding, nextCommand: 5, editsEnd: 5), "\(state)")
        #expect(state.stoppedWhole == nil)
        #expect(state.stoppedSummary?.contains("partition 0 (") == true, "\(state.stoppedSummary ?? "")")
        #expect(state.undecided([0: 3, 1: 4]).map(\.partition) == [0], "only partition 0's command 3 is undecided")
        #expect(state.undecided([0: 2]).isEmpty, "commands decided before the forged decision stay decided")

        let log = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        #expect(log.effective[1]?.map(\.offset) == [0, 1, 2, 3, 4])
        #expect(log.effective[0]?.map(\.offset) == [0, 1, 2, 105], "partition 0 decides nothing after the forged decision")
        stop.set()
        try run.value(deadline: .seconds(30))
    }

    @Test("a decider started once the edits partition has grown past a decision appended by hand does not skip the commands before it: the partition stops, the other is decided")
    func aDecisionThatSkipsCommandsStopsThePartition() throws {
        let fixture = try DecisionFixture(partitions: 2)
        let recipes = recipeOnEachPartition()
        func commands(_ range: Range<Int>) -> [CommandEnvelope] {
            recipes.flatMap { recipe in
                range.map { index in
                    CommandEnvelope(commandID: "\(recipe.text)-\(index)", recipeID: recipe, actor: "alice",
                                    time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000 + Int64(index)),
                                    command: .titleChanged(title: "Soup \(index)"))
                }
            }
        }
        try fixture.send(commands(0..<3))
        try decide(fixture, until: 6)
        let tail = try #require(DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
            .effective[0]?.last?.link)
        let forged = DecisionRecord(partition: 0, offset: 5, recipeID: recipes[0].text, commandID: "forged", commandKind: .titleChanged,
                                    actor: "mallory", actorRole: nil, time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000),
                                    outcome: .rejected(Rejection(.invalid, "by hand"), revision: 0), decider: "forger", follows: tail)
        try appendDecision(forged, fixture)
        // The edits partition grows past the forged decision's command: it is no longer past the log.
        try fixture.send(commands(3..<8))

        #expect {
            _ = try Decider(kafka: fixture.config, topics: fixture.topics).catchUp(timeout: .seconds(30))
        } throws: { error in
            "\(error)".contains("partition 0") && "\(error)".contains("skips commands 3..<5")
        }
        let log = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        #expect(log.effective[1]?.map(\.offset) == Array(0..<8), "partition 1 decided on")
        #expect(log.effective[0]?.map(\.offset) == [0, 1, 2, 5], "nothing decided after the forged decision")
    }

    /// A recipe of each of two partitions, in partition order.
    private func recipeOnEachPartition() -> [RecipeID] {
        var found: [Int32: RecipeID] = [:]
        var index = 0
        while found.count < 2 {
            let recipe = RecipeID(made: "soup-\(index)")
            index += 1
            found[KafkaPartitioner.partition(forKey: Array(recipe.text.utf8), partitionCount: 2)] = recipe
        }
        return [found[0]!, found[1]!]
    }
}
