import Foundation
import Kafka
import RecipeDomain
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

    @Test("a decision appended by hand for a command past its partition's end: /readyz 503 deciderStopped naming the partition, /healthz 200, /metrics its state and lag, after= there 503 notDecided however far the store went, ?wait=true there 202 without an outcome, and the other partitions go on")
    func stoppedPartitionIsSeen() throws {
        let fixture = try ServiceFixture()
        let (recipe, position) = try fixture.savedRecipe(title: "Soup")
        let stopped = try #require(Int32(position.split(separator: ":")[0]))
        let config = KafkaConfig(bootstrapServers: fixture.kafka.bootstrapServers)
        let consumer = try KafkaConsumer(config: config)
        defer { consumer.close() }
        let end = try consumer.watermarks(KafkaTopicPartition(topic: fixture.topic, partition: stopped)).high
        #expect(try fixture.get("/v1/recipes/\(recipe)?after=\(stopped):\(end - 1)").status == 200)

        // The tail of the partition's decisions, followed by a decision of command 105: it counts.
        try consumer.assign([KafkaTopicPartition(topic: RecipeTopics().decisions, partition: stopped)], defaultOffset: .beginning)
        var rule = EffectiveDecisions()
        var tail: DecisionRecord?
        try waitFor("the partition's \(end) decisions", deadline: .seconds(30)) {
            for record in try consumer.poll(maxRecords: 1_000, timeout: .milliseconds(50)) {
                if case .success(let decision) = DecisionDecoder().decode(key: record.key, value: record.value),
                   rule.admit(decision, onPartition: record.partition) { tail = decision }
            }
            return tail?.offset == end - 1
        }
        let forged = DecisionRecord(partition: stopped, offset: 105, recipeID: recipe, commandID: "forged", commandKind: .titleChanged,
                                    actor: "mallory", actorRole: nil, time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000),
                                    outcome: .rejected(Rejection(.invalid, "by hand"), revision: 0), decider: "forger", follows: tail?.link)
        let producer = try KafkaProducer(config: config)
        _ = try producer.send(KafkaProducerMessage(topic: RecipeTopics().decisions, key: Array(recipe.utf8),
                                                   value: DecisionEncoder(source: "by-hand").encode(forged), partition: stopped))
        try producer.shutdown()

        let port = fixture.port
        try waitFor("the store to fold the forged decision", deadline: .seconds(30)) {
            try HTTPClient.request(port: port, method: "GET", path: "/metrics", body: nil).text
                .contains("recipes_projector_position{partition=\"\(stopped)\"} 106\n")
        }
        // The store says 106, the decider has not seen the forged decision yet: its word counts.
        let folded = try fixture.get("/v1/recipes/\(recipe)?after=\(stopped):50")
        #expect(folded.status == 503 && folded.errorCode == "notDecided", "\(folded.status) \(folded.text)")

        // The decider's next decision there lands after the forged one, which counts: it takes the partition again.
        try fixture.command(recipe, #"{"type":"TitleChanged","data":{"title":"Broth"}}"#)
        try waitFor("readyz to name the stopped partition", deadline: .seconds(30)) {
            let ready = try HTTPClient.request(port: port, method: "GET", path: "/readyz", body: nil)
            return ready.status == 503 && ready.errorCode == "deciderStopped" && ready.text.contains("partition \(stopped) (")
                && ready.text.contains("up to offset 105")
        }
        #expect(try fixture.get("/healthz").status == 200, "alive: a restart does not mend a decision on the log")

        // Stopped: not decided, whatever the store shows.
        let ahead = try fixture.get("/v1/recipes/\(recipe)?after=\(stopped):50")
        #expect(ahead.status == 503 && ahead.errorCode == "notDecided", "\(ahead.status) \(ahead.text)")
        #expect(try fixture.get("/v1/recipes/\(recipe)?after=\(stopped):\(end - 1)").status == 200, "decided before it stopped")

        // New recipes: the stopped partition's answer 202 at once without an outcome; the others' are decided.
        var seen: (stopped: Int64?, other: Int32?) = (nil, nil)
        for _ in 0..<60 where seen.stopped == nil || seen.other == nil {
            let created = try fixture.post("/v1/drafts?wait=true", "")
            let partition = try #require(created.object["partition"] as? Int)
            if Int32(partition) == stopped {
                #expect(created.status == 202 && created.object["outcome"] == nil, "\(created.status) \(created.text)")
                seen.stopped = try #require(created.object["offset"] as? Int).map(Int64.init)
            } else {
                #expect(created.status == 200 && created.object["outcome"] as? String == "accepted", "\(created.status) \(created.text)")
                seen.other = Int32(partition)
            }
        }
        let (undecided, other) = (try #require(seen.stopped), try #require(seen.other))
        let waited = try fixture.get("/v1/recipes?after=\(stopped):\(undecided)")
        #expect(waited.status == 503 && waited.errorCode == "notDecided", "\(waited.status) \(waited.text)")

        try waitFor("metrics to show the partition stopped and behind", deadline: .seconds(30)) {
            let metrics = try HTTPClient.request(port: port, method: "GET", path: "/metrics", body: nil).text
            return metrics.contains("recipes_decider_partition_state{partition=\"\(stopped)\",state=\"stopped\"} 1")
                && metrics.contains("recipes_decider_partition_state{partition=\"\(other)\",state=\"deciding\"} 1")
                && metrics.contains("recipes_decider_lag_records{partition=\"\(stopped)\"} \(undecided + 1 - end)\n")
                && metrics.contains("recipes_decider_lag_records{partition=\"\(other)\"} 0\n")
        }
    }
}
