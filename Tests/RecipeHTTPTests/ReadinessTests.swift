import Foundation
import Kafka
import RecipeDomain
import RecipeHTTP
@testable import RecipeProjection
import RecipeProcess
import RecipeTestSupport
import RecipeWire
import Testing

@Suite("Readiness")
struct ReadinessTests {
    @Test("/readyz answers 503 until the store has applied the log as it was at start, then 200")
    func readyOnceCaughtUp() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = RecipeTopics().edits
        try kafka.createTopic(topic, partitions: 2)
        for decided in [RecipeTopics().decisions, RecipeTopics().committed] { try kafka.createTopic(decided, partitions: 2) }
        let config = KafkaConfig(bootstrapServers: kafka.bootstrapServers)
        let producer = try KafkaProducer(config: config)
        let envelope = CommandEnvelope(commandID: UUID().uuidString, recipeID: RecipeID(made: UUID().uuidString.lowercased()), actor: "alice",
                                       time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000), command: .draftStarted)
        _ = try producer.send(topic: topic, key: envelope.recipeID.text, value: RecordEncoder(source: "tests").encode(envelope))
        try producer.shutdown()

        let store = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        _ = try Projector(storePath: store, kafka: config, topic: RecipeTopics().decisions) // creates the store
        // Holding the store's write lock keeps the service's projector from committing.
        let blocker = try SQLiteConnection(path: store)
        try blocker.execute("BEGIN IMMEDIATE")
        var options = RecipeService.Options(kafka: config, topics: RecipeTopics(), storePath: store)
        options.port = 0
        options.fetchWaitMilliseconds = 10
        let service = try RecipeService(options: options)
        try service.start()
        let behind = try HTTPClient.request(port: service.port, method: "GET", path: "/readyz", body: nil)
        #expect(behind.status == 503, "\(behind.text)")
        try blocker.execute("ROLLBACK")

        #expect(service.waitUntilReady(timeout: .seconds(30)))
        let ready = try HTTPClient.request(port: service.port, method: "GET", path: "/readyz", body: nil)
        #expect(ready.status == 200, "\(ready.text)")
        #expect(service.shutdown())
    }

    @Test("a projector that fails with what may pass: /readyz 503 with the cause at once, /healthz 200, and ready again by itself")
    func retryingIsSeen() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = RecipeTopics().edits
        try kafka.createTopic(topic, partitions: 2)
        for decided in [RecipeTopics().decisions, RecipeTopics().committed] { try kafka.createTopic(decided, partitions: 2) }
        let config = KafkaConfig(bootstrapServers: kafka.bootstrapServers)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = RecipeService.Options(kafka: config, topics: RecipeTopics(), storePath: folder + "/recipes.db")
        options.port = 0
        options.fetchWaitMilliseconds = 10
        options.progressInterval = .milliseconds(20)
        let service = try RecipeService(options: options)
        try service.start()
        #expect(service.waitUntilReady(timeout: .seconds(30)))

        // The store's folder goes away under the projector (moved, so that nothing can make it again
        // meanwhile): its writes would be lost.
        try FileManager.default.moveItem(atPath: folder, toPath: folder + ".away")
        defer { try? FileManager.default.removeItem(atPath: folder + ".away") }
        let port = service.port
        try waitFor("readyz to say the projector is retrying", deadline: .seconds(30)) {
            let ready = try? HTTPClient.send(port: port, method: "GET", path: "/readyz", headers: [:], body: nil)
            return ready?.status == 503 && ready?.text.contains("projectorRetrying") == true && ready?.text.contains(folder) == true
        }
        let health = try HTTPClient.request(port: service.port, method: "GET", path: "/healthz", body: nil)
        #expect(health.status == 200, "alive and retrying: a restart would not help")
        let metrics = try HTTPClient.request(port: service.port, method: "GET", path: "/metrics", body: nil)
        #expect(metrics.text.contains("recipes_projector_failing 1"))

        try FileManager.default.moveItem(atPath: folder + ".away", toPath: folder)
        try waitFor("ready again", deadline: .seconds(30)) {
            (try? HTTPClient.send(port: port, method: "GET", path: "/readyz", headers: [:], body: nil))?.status == 200
        }
        #expect(service.shutdown())
    }
}
