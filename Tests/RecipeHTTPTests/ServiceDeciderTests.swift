import Foundation
import Kafka
import RecipeTestSupport
import RecipeWire
import Testing

/// The decider `recipes dev` and `recipes serve` run beside the projector.
@Suite("A decider inside the service")
struct ServiceDeciderTests {
    @Test("every command POSTed gets one decision that counts, and the service stops with its decider")
    func commandsAreDecidedInProcess() throws {
        let fixture = try ServiceFixture()
        let (first, _) = try fixture.savedRecipe(title: "Soup")
        _ = try fixture.savedRecipe(title: "Stew")
        try fixture.command(first, #"{"type":"RecipeSaved","data":{}}"#)  // rejected: no draft is open

        let consumer = try KafkaConsumer(config: KafkaConfig(bootstrapServers: fixture.kafka.bootstrapServers))
        defer { consumer.close() }
        var commands: Int64 = 0
        for partition in Int32(0)..<4 {
            commands += try consumer.watermarks(KafkaTopicPartition(topic: fixture.topic, partition: partition)).high
        }
        try consumer.assign(topic: RecipeTopics().decisions)
        var rule = EffectiveDecisions()
        var effective: [DecisionRecord] = []
        try waitFor("a decision for each of the \(commands) commands (have \(effective.count))", deadline: .seconds(30)) {
            for record in try consumer.poll(maxRecords: 1_000, timeout: .milliseconds(50)) {
                if case .success(let decision) = DecisionDecoder().decode(key: record.key, value: record.value),
                   rule.admit(decision, onPartition: record.partition) { effective.append(decision) }
            }
            return effective.count >= commands
        }
        #expect(effective.count == commands)
        #expect(effective.contains { $0.recipeID == first && $0.outcome.rejection?.code == .noDraft }, "\(effective.filter { $0.recipeID == first }.map(\.outcome))")
        #expect(fixture.service.shutdown(timeout: .seconds(15)), "the projector and the decider stop within the timeout")
    }
}
