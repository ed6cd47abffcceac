import Foundation
import Kafka
import Testing

@Suite("Delivery under injected faults")
struct FaultTests {
    @Test("through dropped connections, refused produce requests and a leader move, every record lands exactly once and every send returns")
    func exactlyOnceUnderFaults() throws {
        let kafka = try EmbeddedKafka(brokers: 3)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 3, replicationFactor: 3)
        let producer = try KafkaProducer(config: .embedded(kafka))
        let count = 3_000
        let messages = (0..<count).map {
            KafkaProducerMessage(topic: topic, key: "key-\($0 % 31)", value: Array("record-\($0)".utf8))
        }
        // An outage as the producer meets one: brokers dropping the connection on its requests (as one
        // that goes away does) and refusing them with errors it retries. The first produce requests meet
        // these, so no record is taken before the outage is over. (Three drops: each doubles librdkafka's
        // pause before it connects again, up to 10 s.)
        kafka.pushRequestErrors(.produce, [.connectionDropped, .notLeaderForPartition, .requestTimedOut, .connectionDropped,
                                           .notEnoughReplicas, .leaderNotAvailable, .connectionDropped, .requestTimedOut])
        let firstResults = producer.sendBatch(Array(messages[..<1_500]))
        kafka.pushRequestErrors(.produce, [.notLeaderForPartition, .notEnoughReplicasAfterAppend])
        // Enqueued, so in flight while the leader moves.
        let second = producer.enqueue(Array(messages[1_500...]))
        try kafka.setPartitionLeader(topic: topic, partition: 0, brokerID: 2)
        let secondResults = second.results()
        try producer.shutdown()

        let failures = (firstResults + secondResults).compactMap { result -> KafkaError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        #expect(failures.isEmpty, "\(failures.count) sends failed, first: \(String(describing: failures.first))")

        let consumer = try KafkaConsumer(config: .embedded(kafka))
        try consumer.assign(topic: topic)
        let records = try consume(consumer) { $0.count >= count }
        // Anything beyond `count` would be a duplicate: give it time to show up.
        let extra = try consumer.poll(maxRecords: 1000, timeout: .milliseconds(500))
        consumer.close()
        let values = (records + extra).map { String(decoding: $0.value, as: UTF8.self) }
        #expect(values.count == count)
        let missing = Set(messages.map { String(decoding: $0.value, as: UTF8.self) }).subtracting(values)
        #expect(missing.isEmpty, "\(missing.count) records missing")
    }

    @Test("an unreachable broker gives a timeout error naming the address, and every send returns")
    func unreachableBroker() throws {
        var config = KafkaConfig(bootstrapServers: "127.0.0.1:1")
        config["message.timeout.ms"] = "1500"
        let producer = try KafkaProducer(config: config)
        do {
            _ = try producer.send(topic: "nowhere", key: "k", value: [1])
            Issue.record("a send to an unreachable broker succeeded")
        } catch {
            #expect(error.code == .deliveryFailed)
            #expect(error.message.contains("127.0.0.1:1"), "\(error)")
            #expect(error.message.lowercased().contains("timed out"), "\(error)")
            #expect(error.persistence == .notPersisted)
        }
        try producer.shutdown()

        let consumer = try KafkaConsumer(config: config)
        #expect {
            try consumer.assign(topic: "nowhere", timeout: .milliseconds(1500))
        } throws: { error in
            let error = error as! KafkaError
            return error.code == .timedOut && error.message.contains("127.0.0.1:1")
        }
        consumer.close()
    }

    @Test("an unknown or invalid property gives an error naming it")
    func badProperty() throws {
        var config = KafkaConfig(bootstrapServers: "127.0.0.1:9092")
        config["no.such.property"] = "1"
        #expect { try KafkaProducer(config: config) } throws: { error in
            let error = error as! KafkaError
            return error.code == .invalidConfiguration && error.message.contains("no.such.property")
        }
        var invalid = KafkaConfig(bootstrapServers: "127.0.0.1:9092")
        invalid["linger.ms"] = "not-a-number"
        #expect { try KafkaConsumer(config: invalid) } throws: { error in
            let error = error as! KafkaError
            return error.code == .invalidConfiguration && error.message.contains("linger.ms")
        }
    }

    @Test("CreateTopics against the embedded broker fails with a clear timeout instead of hanging")
    func adminAgainstEmbedded() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let admin = try KafkaAdmin(config: .embedded(kafka))
        #expect {
            try admin.createTopics([KafkaNewTopic(name: "x", partitions: 2, replicationFactor: 1,
                                                  configs: ["retention.ms": "-1"])], timeout: .seconds(2))
        } throws: { error in
            let error = error as! KafkaError
            return error.code == .timedOut && error.message.contains("CreateTopics")
        }
        try kafka.createTopic("made-by-mock", partitions: 4)
        #expect(try admin.listTopics()["made-by-mock"] == 4)
        #expect(try admin.partitions(of: "made-by-mock") == [0, 1, 2, 3])
    }

    @Test("properties files and KAFKA_ environment variables pass through")
    func propertiesPassThrough() throws {
        var config = KafkaConfig(bootstrapServers: "x:1")
        try config.merge(propertiesText: """
            # SASL over TLS
            bootstrap.servers = broker:9093
            security.protocol=SASL_SSL
            sasl.mechanisms=SCRAM-SHA-512
            """)
        config.merge(environment: ["KAFKA_SASL_USERNAME": "alice", "HOME": "/root"])
        #expect(config.bootstrapServers == "broker:9093")
        #expect(config.properties == ["security.protocol": "SASL_SSL", "sasl.mechanisms": "SCRAM-SHA-512",
                                      "sasl.username": "alice"])
        #expect(throws: KafkaError.self) { try config.merge(propertiesText: "no equals sign") }
    }
}
