import Foundation
import Glibc
import Kafka
import Testing

@Suite("Delivery under injected faults")
struct FaultTests {
    @Test("with produce errors injected and a broker down and up, every record lands exactly once and every send returns")
    func exactlyOnceUnderFaults() async throws {
        let kafka = try EmbeddedKafka(brokers: 3)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 3, replicationFactor: 3)
        let producer = try KafkaProducer(config: .embedded(kafka))
        let count = 3_000
        let messages = (0..<count).map {
            KafkaProducerMessage(topic: topic, key: "key-\($0 % 31)", value: Array("record-\($0)".utf8))
        }
        kafka.pushRequestErrors(.produce, [.notLeaderForPartition, .requestTimedOut, .notEnoughReplicas,
                                           .leaderNotAvailable, .requestTimedOut])
        kafka.setBrokerDown(1)
        async let first = producer.sendBatch(Array(messages[..<1_500]))
        // Records for partitions led by broker 1 must wait out the outage.
        try await waitUntilAsync("records are held back by the outage") { producer.outstandingCount > 0 }
        kafka.setBrokerUp(1)
        let firstResults = await first
        kafka.pushRequestErrors(.produce, [.notLeaderForPartition, .notEnoughReplicasAfterAppend])
        async let second = producer.sendBatch(Array(messages[1_500...]))
        try kafka.setPartitionLeader(topic: topic, partition: 0, brokerID: 2)
        let secondResults = await second
        try await producer.shutdown()

        let failures = (firstResults + secondResults).compactMap { result -> KafkaError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        #expect(failures.isEmpty, "\(failures.count) sends failed, first: \(String(describing: failures.first))")

        let consumer = try KafkaConsumer(config: .embedded(kafka))
        try consumer.assign(topic: topic)
        let records = try await consume(consumer) { $0.count >= count }
        // Anything beyond `count` would be a duplicate: give it time to show up.
        let extra = try consumer.poll(maxRecords: 1000, timeout: .milliseconds(500))
        consumer.close()
        let values = (records + extra).map { String(decoding: $0.value, as: UTF8.self) }
        #expect(values.count == count)
        let missing = Set(messages.map { String(decoding: $0.value, as: UTF8.self) }).subtracting(values)
        #expect(missing.isEmpty, "\(missing.count) records missing")
    }

    @Test("a broker taken down and up again listens on its port again, cycle after cycle")
    func brokerComesBackOnItsPort() throws {
        let kafka = try EmbeddedKafka(brokers: 2)
        let port = UInt16(kafka.bootstrapServers.split(separator: ",")[0].split(separator: ":").last!)!
        func connects() -> Bool {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
        }
        for cycle in 1...20 {
            #expect(connects(), "broker 1 listens on \(port) (cycle \(cycle))")
            kafka.setBrokerDown(1)
            #expect(!connects(), "a broker that is down refuses connections (cycle \(cycle))")
            kafka.setBrokerUp(1)
        }
        #expect(connects(), "broker 1 listens on \(port) again")
    }

    @Test("an unreachable broker gives a timeout error naming the address, and every send returns")
    func unreachableBroker() async throws {
        var config = KafkaConfig(bootstrapServers: "127.0.0.1:1")
        config["message.timeout.ms"] = "1500"
        let producer = try KafkaProducer(config: config)
        do {
            _ = try await producer.send(topic: "nowhere", key: "k", value: [1])
            Issue.record("a send to an unreachable broker succeeded")
        } catch let error as KafkaError {
            #expect(error.code == .deliveryFailed)
            #expect(error.message.contains("127.0.0.1:1"), "\(error)")
            #expect(error.message.lowercased().contains("timed out"), "\(error)")
            #expect(error.persistence == .notPersisted)
        }
        try await producer.shutdown()

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
