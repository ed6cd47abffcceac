import Foundation
import Kafka
import RecipeDomain
import RecipeHTTP
import RecipeProcess
import RecipeProjection
import RecipeTestSupport
import RecipeWire
import RecipeWriteSide
import Testing

@Suite("Appends under faults: bounded answers, nothing acknowledged lost")
struct AppendFaultTests {
    private func service(_ kafka: EmbeddedKafka, store: String, configure: (inout RecipeService.Options) -> Void = { _ in })
        throws -> RecipeService {
        var options = RecipeService.Options(kafka: KafkaConfig(bootstrapServers: kafka.bootstrapServers),
                                            topics: RecipeTopics(), storePath: store)
        options.port = 0
        options.fetchWaitMilliseconds = 10
        configure(&options)
        let service = try RecipeService(options: options)
        try service.start()
        return service
    }

    private func temporaryStore() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("append-\(UUID().uuidString).db").path
    }

    @Test("with the broker refusing appends, a POST answers 503 unavailable within the append timeout; the retry with its id is applied once")
    func brokerAway() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        try kafka.createTopic(RecipeTopics().edits, partitions: 2)
        for decided in [RecipeTopics().decisions, RecipeTopics().committed] { try kafka.createTopic(decided, partitions: 2) }
        let store = temporaryStore()
        defer { removeStore(store) }
        let service = try service(kafka, store: store) {
            $0.appendTimeout = .seconds(1)
            $0.api.waitTimeout = .seconds(30) // the consumer takes a moment to find the broker again
        }
        #expect(service.waitUntilReady(timeout: .seconds(30)))
        let port = service.port
        let draft = try HTTPClient.request(port: port, method: "POST", path: "/v1/drafts?wait=true", body: nil)
        let id = try #require(draft.object["recipeId"] as? String)
        let body = Array(#"{"type":"TitleChanged","id":"retried-1","data":{"title":"Soup"}}"#.utf8)

        // Every produce request fails with an error librdkafka retries, until the append timeout gives up
        // on the record: a broker that takes no writes. (Not a broker taken down: librdkafka 2.0.2's mock
        // re-listens on the same port when it comes back, and aborts if another socket holds it.)
        kafka.pushRequestErrors(.produce, Array(repeating: .notEnoughReplicas, count: 60))
        let refused = try HTTPClient.request(port: port, method: "POST", path: "/v1/recipes/\(id)/commands", body: body)
        #expect(refused.status == 503, "\(refused.text)")
        #expect((refused.object["error"] as? [String: Any])?["code"] as? String == "unavailable")

        // The client retries with the same command id until the brokers take it (they come back moments later).
        var retried = try HTTPClient.request(port: port, method: "POST", path: "/v1/recipes/\(id)/commands?wait=true", body: body)
        let deadline = ContinuousClock.now + .seconds(30)
        while retried.status == 503, ContinuousClock.now < deadline {
            retried = try HTTPClient.request(port: port, method: "POST", path: "/v1/recipes/\(id)/commands?wait=true", body: body)
        }
        // Appended (202, or 200 when projected within the wait); then projected exactly once.
        #expect(retried.status == 200 || retried.status == 202, "\(retried.text)")
        let position = try #require(retried.object["position"] as? String)
        let history = try HTTPClient.request(port: port, method: "GET", path: "/v1/recipes/\(id)/history?after=\(position)",
                                                   body: nil)
        let applied = try history.items.filter { $0["commandId"] as? String == "retried-1" && $0["outcome"] as? String == "accepted" }
        #expect(applied.count == 1, "\(history.text)")
        #expect(service.shutdown())
    }

    @Test("a log that drops its oldest records when full refuses appends with 507 logFull before it would; nothing is dropped")
    func logFull() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = RecipeTopics().edits
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journal = try EmbeddedKafkaJournal(folder: folder, kafka: kafka, topic: topic, partitions: 1)
        try journal.start()
        for decided in [RecipeTopics().decisions, RecipeTopics().committed] { try kafka.createTopic(decided, partitions: 1) }
        defer { try? journal.stop() }
        let store = temporaryStore()
        defer { removeStore(store) }
        // A small log, so that it fills in moments; dev gives the broker's own 5 MiB and 100,000 records.
        let service = try service(kafka, store: store) {
            $0.logCapacity = LogCapacity(partitionCount: 1, bytesPerPartition: 64 << 10, recordsPerPartition: 100_000) { partition in
                (journal.bytes(of: partition), journal.records(of: partition))
            }
        }
        let port = service.port
        let draft = try HTTPClient.request(port: port, method: "POST", path: "/v1/drafts", body: nil)
        let id = try #require(draft.object["recipeId"] as? String)
        let name = String(repeating: "Long ingredient name ", count: 9)
        var accepted = 1
        var refusal: HTTPResult?
        for index in 0..<1_000 {
            let body = Array(#"{"type":"IngredientAdded","data":{"name":"\#(name)\#(index)","amount":1,"metric":"g"}}"#.utf8)
            let sent = try HTTPClient.request(port: port, method: "POST", path: "/v1/recipes/\(id)/commands", body: body)
            if sent.status == 202 {
                accepted += 1
                // The journal counts what the broker holds moments later: let it catch up, as time does between requests.
                let next = Int64(accepted)
                try waitFor("the journal to count the record", deadline: .seconds(10)) { journal.records(of: 0) >= next }
            } else {
                refusal = sent
                break
            }
        }
        let refused = try #require(refusal, "the log filled up")
        #expect(refused.status == 507)
        #expect((refused.object["error"] as? [String: Any])?["code"] as? String == "logFull", "\(refused.text)")
        let consumer = try KafkaConsumer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
        defer { consumer.close() }
        let marks = try consumer.watermarks(KafkaTopicPartition(topic: topic, partition: 0))
        #expect(marks.low == 0 && marks.high == Int64(accepted), "every acknowledged record is still there")
        #expect(service.shutdown())
    }
}

/// Removes a store and the files SQLite keeps beside it.
private func removeStore(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
