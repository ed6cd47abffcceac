import Foundation
@testable import Kafka
import RecipeTestSupport
import Testing

/// `KafkaConfig.stopsFetchingWhenIdle`: a consumer of a cluster embedded in this process stops
/// fetching while nothing arrives (an idle `recipes dev` spent a tenth of a core fetching), and
/// still reads every record, in order: those this process appends at once, others' at its next peek.
@Suite("A consumer that stops fetching while idle")
struct IdleFetchingTests {
    private func idleConsumer(_ kafka: EmbeddedKafka, topic: String) throws -> KafkaConsumer {
        var config = KafkaConfig.embedded(kafka)
        config["fetch.wait.max.ms"] = "10"
        config.stopsFetchingWhenIdle = true
        let consumer = try KafkaConsumer(config: config)
        try consumer.assign(topic: topic)
        return consumer
    }

    /// Polls until the consumer has paused itself for want of records.
    private func waitUntilIdle(_ consumer: KafkaConsumer, seen: inout [KafkaConsumerRecord]) throws {
        var polled: [KafkaConsumerRecord] = []
        try waitUntil("the consumer stops fetching") {
            polled += try consumer.poll(maxRecords: 100, timeout: .milliseconds(50))
            return consumer.isIdlePaused
        }
        seen += polled
    }

    private func messages(_ topic: String, _ range: Range<Int>, partition: Int32) -> [KafkaProducerMessage] {
        range.map { KafkaProducerMessage(topic: topic, key: Array("k\($0)".utf8), value: Array("v\($0)".utf8), partition: partition) }
    }

    @Test("idle, it pauses; records this process appends wake it, and every record comes once, in order")
    func wokenByThisProcess() throws {
        let kafka = try EmbeddedKafka(brokers: 3)
        let topic = uniqueTopic("idle")
        try kafka.createTopic(topic, partitions: 3, replicationFactor: 3)
        let consumer = try idleConsumer(kafka, topic: topic)
        defer { consumer.close() }
        let producer = try KafkaProducer(config: .embedded(kafka))
        defer { try? producer.shutdown() }
        var seen: [KafkaConsumerRecord] = []
        for round in 0..<3 {
            try waitUntilIdle(consumer, seen: &seen)
            for result in producer.sendBatch(messages(topic, round * 10 ..< round * 10 + 10, partition: Int32(round))) { _ = try result.get() }
            let before = seen.count
            seen += try consume(consumer) { $0.count + before >= (round + 1) * 10 }
        }
        #expect(seen.map { String(decoding: $0.value, as: UTF8.self) } == (0..<30).map { "v\($0)" })
        #expect(seen.map(\.offset) == Array(repeating: (0..<10).map(Int64.init), count: 3).flatMap { $0 })
    }

    @Test("records another process appends (a producer this process's cluster does not tell it of) are read at a peek")
    func findsOthersRecords() throws {
        let kafka = try EmbeddedKafka(brokers: 3)
        let topic = uniqueTopic("idle")
        try kafka.createTopic(topic, partitions: 2, replicationFactor: 3)
        let consumer = try idleConsumer(kafka, topic: topic)
        defer { consumer.close() }
        var seen: [KafkaConsumerRecord] = []
        try waitUntilIdle(consumer, seen: &seen)
        // The cluster under another bootstrap string (one broker of three): not known as this process's.
        let producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: String(kafka.bootstrapServers.split(separator: ",")[0])))
        defer { try? producer.shutdown() }
        for result in producer.sendBatch(messages(topic, 0..<5, partition: 1)) { _ = try result.get() }
        seen += try consume(consumer) { $0.count >= 5 }
        #expect(seen.map(\.offset) == [0, 1, 2, 3, 4])
    }

    @Test("a partition its owner paused stays paused when the consumer wakes, and is read once resumed")
    func ownerPausesHold() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic("idle")
        try kafka.createTopic(topic, partitions: 2)
        let consumer = try idleConsumer(kafka, topic: topic)
        defer { consumer.close() }
        let held = KafkaTopicPartition(topic: topic, partition: 0)
        try consumer.pause([held])
        var seen: [KafkaConsumerRecord] = []
        try waitUntilIdle(consumer, seen: &seen)
        let producer = try KafkaProducer(config: .embedded(kafka))
        defer { try? producer.shutdown() }
        for result in producer.sendBatch(messages(topic, 0..<3, partition: 0) + messages(topic, 3..<6, partition: 1)) { _ = try result.get() }
        seen += try consume(consumer) { $0.count >= 3 }
        #expect(seen.allSatisfy { $0.partition == 1 }, "nothing of the paused partition is read")
        try consumer.resume([held])
        let before = seen.count
        seen += try consume(consumer) { $0.count + before >= 6 }
        #expect(seen.filter { $0.partition == 0 }.map(\.offset) == [0, 1, 2])
    }

    @Test("the paused consumers of a cluster share one peek: one asks where all their partitions end, and each with another process's records reads them")
    func onePeekForTheCluster() throws {
        let kafka = try EmbeddedKafka(brokers: 3)
        let topics = (0..<3).map { _ in uniqueTopic("idle") }
        for topic in topics { try kafka.createTopic(topic, partitions: 2, replicationFactor: 3) }
        let consumers = try topics.map { try idleConsumer(kafka, topic: $0) }
        defer { for consumer in consumers { consumer.close() } }
        var seen: [KafkaConsumerRecord] = []
        for consumer in consumers { try waitUntilIdle(consumer, seen: &seen) }
        try waitUntil("all three stop fetching") {
            for consumer in consumers { seen += try consumer.poll(maxRecords: 100, timeout: .zero) }
            return consumers.allSatisfy(\.isIdlePaused)
        }
        let cluster = try #require(IdleCluster.of(kafka.bootstrapServers))
        // Nobody polls now: the test claims the next peek as a consumer would.
        var asked: [KafkaTopicPartition] = []
        try waitUntil("a peek is due") {
            asked = cluster.claimPeek() ?? []
            return !asked.isEmpty
        }
        #expect(asked == topics.flatMap { topic in (0..<2).map { KafkaTopicPartition(topic: topic, partition: Int32($0)) } }.sorted(),
                "one peek asks for every paused partition of the cluster")
        #expect(cluster.claimPeek() == nil, "no consumer peeks again before the interval")
        #expect(cluster.peeked(Dictionary(uniqueKeysWithValues: asked.map { ($0, Int64(0)) })).isEmpty, "empty partitions: nobody is told")

        // Records from another process (a producer this process's cluster does not tell) on two of the topics.
        let producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: String(kafka.bootstrapServers.split(separator: ",")[0])))
        defer { try? producer.shutdown() }
        for topic in topics.dropFirst() {
            for result in producer.sendBatch(messages(topic, 0..<4, partition: 1)) { _ = try result.get() }
        }
        var read: [String: Int] = [:]
        try waitUntil("both consumers read the other process's records at a peek") {
            for consumer in consumers {
                for record in try consumer.poll(maxRecords: 100, timeout: .milliseconds(20)) { read[record.topic, default: 0] += 1 }
            }
            return read[topics[1]] == 4 && read[topics[2]] == 4
        }
        #expect(read[topics[0]] == nil)
        #expect(consumers[0].isIdlePaused, "a consumer with nothing new stays paused")
    }

    @Test("a consumer assigned at a partition's end, with records before it, is not made to fetch by every peek")
    func assignedAtTheEnd() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic("idle")
        try kafka.createTopic(topic, partitions: 1)
        let producer = try KafkaProducer(config: .embedded(kafka))
        defer { try? producer.shutdown() }
        for result in producer.sendBatch(messages(topic, 0..<5, partition: 0)) { _ = try result.get() }
        var config = KafkaConfig.embedded(kafka)
        config["fetch.wait.max.ms"] = "10"
        config.stopsFetchingWhenIdle = true
        let consumer = try KafkaConsumer(config: config)
        defer { consumer.close() }
        // Where a restarted reader goes on: after the records it read before.
        try consumer.assign(topic: topic, from: [0: .offset(5)])
        var seen: [KafkaConsumerRecord] = []
        try waitUntil("the consumer stops fetching") {
            seen += try consumer.poll(maxRecords: 100, timeout: .milliseconds(50))
            return consumer.isIdlePaused
        }
        let partition = KafkaTopicPartition(topic: topic, partition: 0)
        let cluster = try #require(IdleCluster.of(kafka.bootstrapServers))
        #expect(cluster.peeked([partition: 5]).isEmpty, "where it reads is known: nothing past it")
        #expect(cluster.peeked([partition: 6]).map(\.1) == [.more])
        #expect(seen.isEmpty)
    }
}
