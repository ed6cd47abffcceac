import Foundation
import Kafka
import RecipeDecisions
import RecipeDomain
import RecipeWire
import Testing

/// A log written before deciders existed holds commands only. The first decider to
/// run decides it from its start, once: here the recorded v1 stream of
/// RecipeWireTests (Fixtures/v1-stream.jsonl, commands as the v1 code appended them),
/// whose outcomes the v1 code wrote down when it folded them (v1-stream-fold.txt).
@Suite("A log of commands only, written before deciders")
struct OlderLogTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("RecipeWireTests/Fixtures")

    @Test("the first decider decides it from its start with the outcomes the v1 code folded; a second one decides nothing")
    func decidedOnceFromItsStart() throws {
        let lines = try String(contentsOf: Self.fixtures.appendingPathComponent("v1-stream.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { Array($0.utf8) }
        let recorded = try String(contentsOf: Self.fixtures.appendingPathComponent("v1-stream-fold.txt"), encoding: .utf8)
            .split(separator: "\n").prefix { $0.hasPrefix("record ") }.map(String.init)
        try #require(lines.count == 595 && recorded.count == lines.count)

        // One partition: the log's order is the order the v1 code folded it in.
        let fixture = try DecisionFixture(partitions: 1)
        let decoder = RecordDecoder()
        let messages = try lines.map { value in
            let recipe = try decoder.decode(value: value).get().envelope.recipeID
            return KafkaProducerMessage(topic: fixture.topics.edits, key: RecordKey.key(forRecipe: recipe), value: value)
        }
        for result in fixture.producer.sendBatch(messages) { _ = try result.get() }

        let first = try Decider(kafka: fixture.config, topics: fixture.topics).catchUp(timeout: .seconds(60))
        #expect(first.decided == lines.count)
        let log = DecisionLog(records: try fixture.records(of: fixture.topics.decisions).map { ($0.partition, $0.key, $0.value) })
        let decided = (log.effective[0] ?? []).map { decision -> String in
            let outcome = switch decision.outcome {
            case .accepted: "accepted"
            case .rejected(let rejection, _): "rejected \(rejection.code.rawValue)"
            case .duplicate: "duplicate"
            case .undecodable(let rejection): "undecodable \(rejection.code.rawValue)"
            }
            return "record \(decision.offset + 1) \(decision.commandKind?.rawValue ?? "?"): \(outcome)"
        }
        #expect(decided == recorded, "first difference: \(zip(decided, recorded).first { $0 != $1 }.map { "\($0) / v1: \($1)" } ?? "in length")")

        let second = try Decider(kafka: fixture.config, topics: fixture.topics).catchUp(timeout: .seconds(60))
        #expect(second.decided == 0, "a decider after the first decides nothing again")
        #expect(try fixture.records(of: fixture.topics.decisions).count == lines.count)
    }
}
