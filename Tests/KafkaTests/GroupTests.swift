import Foundation
import Kafka
import Testing
import Threads

/// What a rebalance handler saw, for assertions.
final class RebalanceLog: Sendable {
    let assigned = Locked<[[KafkaTopicPartition]]>([])
    let revoked = Locked<[[KafkaTopicPartition]]>([])

    func handler(startAt offset: KafkaOffset) -> KafkaRebalanceHandler {
        KafkaRebalanceHandler(
            onAssign: { partitions in
                self.assigned.withLock { $0.append(partitions) }
                return Dictionary(uniqueKeysWithValues: partitions.map { ($0, offset) })
            },
            onRevoke: { partitions in self.revoked.withLock { $0.append(partitions) } })
    }
}

@Suite("Consumer groups")
struct GroupTests {
    @Test("two consumers in a group split the partitions; when one leaves the other gets all; the callback sees each assignment")
    func splitAndTakeOver() throws {
        let kafka = try EmbeddedKafka(brokers: 3)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 4)
        let group = uniqueTopic("group")
        var config = KafkaConfig.embedded(kafka)
        config["session.timeout.ms"] = "6000"
        config["heartbeat.interval.ms"] = "500"
        let all = (0..<4).map { KafkaTopicPartition(topic: topic, partition: Int32($0)) }

        let logA = RebalanceLog(), logB = RebalanceLog()
        let a = try KafkaConsumer(config: config, groupID: group)
        let b = try KafkaConsumer(config: config, groupID: group)
        try a.subscribe(topics: [topic], rebalance: logA.handler(startAt: .beginning))
        try b.subscribe(topics: [topic], rebalance: logB.handler(startAt: .beginning))

        // Rebalance callbacks run inside poll, so both members keep polling.
        try waitUntil("both members hold a disjoint half") {
            _ = try a.poll(timeout: .milliseconds(50))
            _ = try b.poll(timeout: .milliseconds(50))
            let (ownedA, ownedB) = (try a.assignment(), try b.assignment())
            return !ownedA.isEmpty && !ownedB.isEmpty && Set(ownedA).isDisjoint(with: ownedB)
                && (ownedA + ownedB).sorted() == all
        }
        #expect(logA.assigned.withLock { $0.last?.isEmpty == false })
        #expect(logB.assigned.withLock { $0.last?.isEmpty == false })

        b.close()
        #expect(logB.revoked.withLock { !$0.isEmpty }, "leaving revokes the partitions through the callback")
        try waitUntil("the remaining member holds every partition") {
            _ = try a.poll(timeout: .milliseconds(50))
            return try a.assignment() == all
        }
        #expect(logA.assigned.withLock { $0.last?.sorted() } == all)
        a.close()
    }

    @Test("on assignment the consumer starts at the offsets the handler returns")
    func seekOnAssign() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 1)
        let producer = try KafkaProducer(config: .embedded(kafka))
        _ = producer.sendBatch((0..<10).map { KafkaProducerMessage(topic: topic, key: "k", value: [UInt8($0)]) })
        try producer.shutdown()

        let log = RebalanceLog()
        let consumer = try KafkaConsumer(config: .embedded(kafka), groupID: uniqueTopic("group"))
        try consumer.subscribe(topics: [topic], rebalance: log.handler(startAt: .offset(6)))
        let records = try consume(consumer) { $0.count >= 4 }
        #expect(records.map(\.offset) == [6, 7, 8, 9])
        consumer.close()
    }
}
