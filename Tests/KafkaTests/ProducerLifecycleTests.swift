import Foundation
import Kafka
import RecipeTestSupport
import Testing

@Suite("Producer lifecycle and failures")
struct ProducerLifecycleTests {
    @Test("shutdown waits for outstanding deliveries, and sends after it fail as closed")
    func shutdownWaits() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 2)
        let producer = try KafkaProducer(config: .embedded(kafka))
        _ = try producer.send(topic: topic, key: "warm", value: [0])
        // Slow answers keep the batch in flight long enough to see it there.
        kafka.setRoundTripTime(1, milliseconds: 3_000)
        let messages = (0..<500).map { KafkaProducerMessage(topic: topic, key: "k\($0)", value: [UInt8($0 % 256)]) }
        // Enqueued on this thread, so all 500 are in the producer before it shuts down (a count of
        // what is outstanding also counts librdkafka's own requests, so it cannot tell).
        let pending = producer.enqueue(messages)
        try producer.shutdown()
        let delivered = pending.results()
        #expect(delivered.count == 500)
        #expect(delivered.allSatisfy { if case .success = $0 { true } else { false } }, "\(delivered.filter { (try? $0.get()) == nil })")
        // Each one landed where no other did: 500 records on the log, none lost or doubled.
        let positions = Set(delivered.compactMap { try? $0.get() }.map { "\($0.partition):\($0.offset)" })
        #expect(positions.count == 500)
        #expect { _ = try producer.send(topic: topic, key: "late", value: [1]) } throws: { error in
            (error as? KafkaError)?.code == .closed
        }
    }

    @Test("a record over the size limit is a typed error for that record only")
    func oversizedRecord() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 1)
        var config = KafkaConfig.embedded(kafka)
        config["message.max.bytes"] = "10000"
        let producer = try KafkaProducer(config: config)
        let results = producer.sendBatch([
            KafkaProducerMessage(topic: topic, key: "a", value: [1]),
            KafkaProducerMessage(topic: topic, key: "b", value: [UInt8](repeating: 7, count: 20_000)),
            KafkaProducerMessage(topic: topic, key: "c", value: [3]),
        ])
        #expect(try results[0].get().offset == 0)
        #expect(throws: KafkaError.self) { try results[1].get() }
        if case .failure(let error) = results[1] { #expect(error.code == .produceFailed) }
        #expect(try results[2].get().offset == 1)
        try producer.shutdown()
    }

    @Test("a shutdown that cannot deliver in time fails the records instead of hanging")
    func shutdownTimeout() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 1)
        let producer = try KafkaProducer(config: .embedded(kafka))
        _ = try producer.send(topic: topic, key: "warm", value: [0])
        // Every produce request fails with an error librdkafka retries: the records stay undelivered
        // however soon they are sent (a round-trip delay is applied by the broker's own thread, so a
        // fast enqueue could beat it).
        kafka.pushRequestErrors(.produce, Array(repeating: .notEnoughReplicas, count: 500))
        kafka.setRoundTripTime(1, milliseconds: 5_000)
        let pending = producer.enqueue((0..<10).map { KafkaProducerMessage(topic: topic, key: "k", value: [UInt8($0)]) })
        #expect { try producer.shutdown(timeout: .milliseconds(300)) } throws: { error in
            (error as? KafkaError)?.code == .timedOut
        }
        let failed = pending.results()
        #expect(failed.count == 10)
        #expect(failed.allSatisfy { if case .failure(let error) = $0 { error.code == .deliveryFailed } else { false } })
    }
}
