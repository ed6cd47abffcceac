import Foundation
import Kafka
import RecipeDomain
import RecipeHTTP
@testable import RecipeProjection
import RecipeTestSupport
import RecipeWire
import Testing

@Suite("Readiness")
struct ReadinessTests {
    @Test("/readyz answers 503 until the store has applied the log as it was at start, then 200")
    func readyOnceCaughtUp() async throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = RecipeTopics().edits
        try kafka.createTopic(topic, partitions: 2)
        let config = KafkaConfig(bootstrapServers: kafka.bootstrapServers)
        let producer = try KafkaProducer(config: config)
        let envelope = CommandEnvelope(commandID: UUID().uuidString, recipeID: UUID().uuidString.lowercased(), actor: "alice",
                                       time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000), command: .draftStarted)
        _ = try await producer.send(topic: topic, key: envelope.recipeID, value: RecordEncoder(source: "tests").encode(envelope))
        try await producer.shutdown()

        let store = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        _ = try Projector(storePath: store, kafka: config, topic: topic) // creates the store
        // Holding the store's write lock keeps the service's projector from committing.
        let blocker = try SQLiteConnection(path: store)
        try blocker.execute("BEGIN IMMEDIATE")
        var options = RecipeService.Options(kafka: config, topic: topic, storePath: store)
        options.port = 0
        options.fetchWaitMilliseconds = 10
        let service = try RecipeService(options: options)
        let behind = try await HTTPClient.request(port: service.port, method: "GET", path: "/readyz", body: nil)
        #expect(behind.status == 503, "\(behind.text)")
        try blocker.execute("ROLLBACK")

        #expect(await service.waitUntilReady(timeout: .seconds(30)))
        let ready = try await HTTPClient.request(port: service.port, method: "GET", path: "/readyz", body: nil)
        #expect(ready.status == 200, "\(ready.text)")
        #expect(await service.shutdown())
    }
}
