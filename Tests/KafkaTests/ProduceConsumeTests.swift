import Foundation
import Kafka
import RecipeTestSupport
import Testing

@Suite("Producing and consuming on the embedded broker")
struct ProduceConsumeTests {
    @Test("10,000 keyed records with headers come back with the same keys, values, headers and per-key order")
    func roundTrip() throws {
        let kafka = try EmbeddedKafka(brokers: 3)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 6)
        let producer = try KafkaProducer(config: .embedded(kafka))
        let messages = (0..<10_000).map { index in
            KafkaProducerMessage(
                topic: topic, key: "key-\(index % 97)", value: Array("value-\(index)".utf8),
                headers: [KafkaHeader(key: "seq", value: "\(index)"), KafkaHeader(key: "empty", value: nil)])
        }
        let results = producer.sendBatch(messages)
        let reports = try results.map { try $0.get() }
        try producer.shutdown()

        let consumer = try KafkaConsumer(config: .embedded(kafka))
        try consumer.assign(topic: topic)
        let records = try consume(consumer) { $0.count >= messages.count }
        consumer.close()

        #expect(records.count == messages.count)
        var sent: [String: [String]] = [:]
        for message in messages { sent[String(decoding: message.key!, as: UTF8.self), default: []].append(String(decoding: message.value, as: UTF8.self)) }
        var received: [String: [String]] = [:]
        for record in records {
            received[record.keyString!, default: []].append(String(decoding: record.value, as: UTF8.self))
            let seq = String(decoding: record.header("seq") ?? [], as: UTF8.self)
            #expect("value-\(seq)" == String(decoding: record.value, as: UTF8.self))
            #expect(record.headers.contains(KafkaHeader(key: "empty", value: nil)))
            #expect(record.timestamp != nil)
        }
        #expect(received == sent, "per-key order and content preserved")
        // Each report names where the record really sits.
        let byPosition = Dictionary(uniqueKeysWithValues: records.map { ("\($0.partition):\($0.offset)", $0) })
        for (message, report) in zip(messages, reports) {
            #expect(byPosition[report.description]?.value == message.value)
        }
    }

    @Test("packed records land as their parts say: partition, key (none, empty, some), value, headers, timestamp, in order")
    func packedRecords() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 3)
        let producer = try KafkaProducer(config: .embedded(kafka))
        let header = KafkaHeader(key: "content-type", value: "application/json")
        var parts: [KafkaPackedRecords] = []
        var sent: [(partition: Int32, key: [UInt8]?, value: [UInt8], timestamp: Int64)] = []
        for partition: Int32 in [2, 0] {
            var part = KafkaPackedRecords(topic: topic, partition: partition, headers: [header])
            for index in 0..<300 {
                // Keys in turn absent, empty and present; values of every length from 0 up.
                let key: [UInt8]? = index % 3 == 0 ? nil : Array((index % 3 == 1 ? "" : "key-\(index)").utf8)
                let value = [UInt8](repeating: UInt8(index % 251), count: index)
                let timestamp = 1_700_000_000_000 + Int64(partition) * 1_000 + Int64(index)
                value.withUnsafeBytes { value in
                    if let key { key.withUnsafeBytes { part.append(key: $0, value: value, timestamp: timestamp) } }
                    else { part.append(key: nil, value: value, timestamp: timestamp) }
                }
                sent.append((partition, key, value, timestamp))
            }
            parts.append(part)
        }
        let batch = producer.enqueue(packed: parts)
        let reports = try batch.results().map { try $0.get() }
        try producer.shutdown()
        #expect(reports.map(\.partition) == sent.map(\.partition))
        #expect(reports.map(\.offset) == Array(0..<300) + Array(0..<300))
        // A part read alone (as the decider's lanes read theirs): the second part's records, as reported.
        #expect(batch.isComplete && batch.failure == nil)
        var second: [(Int32, Int64)] = []
        batch.landed(300..<600) { second.append(($0, $1)) }
        #expect(second.map(\.0) == Array(repeating: 0, count: 300) && second.map(\.1) == Array(0..<300))

        let consumer = try KafkaConsumer(config: .embedded(kafka))
        try consumer.assign(topic: topic)
        let records = try consume(consumer) { $0.count >= sent.count }
        consumer.close()
        let byPosition = Dictionary(uniqueKeysWithValues: records.map { ("\($0.partition):\($0.offset)", $0) })
        #expect(records.count == sent.count)
        for (record, report) in zip(sent, reports) {
            let landed = try #require(byPosition[report.description])
            #expect(landed.key == record.key)
            #expect(landed.value == record.value && !landed.hasNullValue)
            #expect(landed.timestamp == record.timestamp)
            #expect(landed.headers == [header])
        }
    }

    @Test("a borrowing poll gives what a copying one does: a null key, an empty key, an empty value")
    func borrowingPoll() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 1)
        let producer = try KafkaProducer(config: .embedded(kafka))
        let messages = [
            KafkaProducerMessage(topic: topic, key: nil, value: Array("no key".utf8)),
            KafkaProducerMessage(topic: topic, key: [], value: Array("empty key".utf8)),
            KafkaProducerMessage(topic: topic, key: Array("k".utf8), value: []),
            KafkaProducerMessage(topic: topic, key: nil, value: []),
        ]
        for message in messages { _ = try producer.send(message) }
        try producer.shutdown()

        let copying = try KafkaConsumer(config: .embedded(kafka), readsHeaders: false)
        try copying.assign(topic: topic)
        let copies = try consume(copying) { $0.count >= messages.count }
        copying.close()

        let borrowing = try KafkaConsumer(config: .embedded(kafka), readsHeaders: false)
        try borrowing.assign(topic: topic)
        var borrowed: [KafkaConsumerRecord] = []
        let end = ContinuousClock.now + .seconds(30)
        while borrowed.count < messages.count, ContinuousClock.now < end {
            try borrowing.poll(maxRecords: 10, timeout: .milliseconds(100)) { record in
                // Copied inside the closure: the buffers are freed when it returns.
                borrowed.append(KafkaConsumerRecord(topic: record.topic, partition: record.partition, offset: record.offset,
                                                    key: record.key.map { Array($0) }, value: Array(record.value),
                                                    headers: [], timestamp: record.timestamp))
                #expect(record.pollCount >= 1)
            }
        }
        borrowing.close()

        #expect(borrowed == copies)
        #expect(borrowed.map(\.key) == messages.map(\.key))
        #expect(borrowed.map(\.value) == messages.map(\.value))
    }

    @Test("polls of different sizes on one consumer, its array of messages kept between them, read every record once in order")
    func pollSizesChange() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 1)
        let producer = try KafkaProducer(config: .embedded(kafka))
        let values = (0..<50).map { Array("\($0)".utf8) }
        _ = try producer.sendBatch(values.map { KafkaProducerMessage(topic: topic, key: nil, value: $0) }).map { try $0.get() }
        try producer.shutdown()

        let consumer = try KafkaConsumer(config: .embedded(kafka))
        try consumer.assign(topic: topic)
        var read: [[UInt8]] = []
        var sizes = [1, 20, 3, 0, 40].makeIterator()
        let end = ContinuousClock.now + .seconds(30)
        while read.count < values.count, ContinuousClock.now < end {
            let size = sizes.next() ?? 7
            let before = read.count
            try consumer.poll(maxRecords: size, timeout: .milliseconds(100)) { read.append(Array($0.value)) }
            #expect(read.count - before <= max(size, 1))
        }
        consumer.close()
        #expect(read == values)
    }

    @Test("a consumer started from given offsets reads exactly the records after them")
    func startFromOffsets() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 2)
        let producer = try KafkaProducer(config: .embedded(kafka))
        var reports: [KafkaDeliveryReport] = []
        for index in 0..<40 {
            reports.append(try producer.send(topic: topic, key: "k\(index % 5)", value: Array("\(index)".utf8)))
        }
        try producer.shutdown()
        let start: [Int32: KafkaOffset] = [0: .offset(7), 1: .offset(3)]
        let expected = Set(reports.filter { report in
            if case .offset(let from) = start[report.partition]! { return report.offset >= from }
            return false
        }.map(\.description))

        let consumer = try KafkaConsumer(config: .embedded(kafka))
        try consumer.assign(topic: topic, from: start)
        let records = try consume(consumer) { $0.count >= expected.count }
        // Nothing more arrives after the expected ones.
        let extra = try consumer.poll(maxRecords: 100, timeout: .milliseconds(300))
        consumer.close()
        #expect(Set(records.map { "\($0.partition):\($0.offset)" }) == expected)
        #expect(extra.isEmpty)
    }

    @Test("a consumer assigned again reads from where the new assignment says, nothing of the old one, and finds the end again")
    func assignAgain() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 1)
        let producer = try KafkaProducer(config: .embedded(kafka))
        for index in 0..<20 { _ = try producer.send(topic: topic, key: "k", value: Array("\(index)".utf8)) }
        var config = KafkaConfig.embedded(kafka)
        config["enable.partition.eof"] = "true"
        let consumer = try KafkaConsumer(config: config)
        let tp = KafkaTopicPartition(topic: topic, partition: 0)
        try consumer.assign([tp], defaultOffset: .beginning)
        var first: [KafkaConsumerRecord] = []
        try waitUntil("the end of the first 20 found") {
            first += try consumer.poll(maxRecords: 100, timeout: .milliseconds(100))
            return consumer.endReached(tp) == 20
        }
        #expect(first.map(\.offset) == Array(0..<20))
        // Records fetched under the first assignment and not yet polled must not come back after the second.
        for index in 20..<30 { _ = try producer.send(topic: topic, key: "k", value: Array("\(index)".utf8)) }
        _ = try consumer.poll(maxRecords: 1, timeout: .seconds(5))
        try consumer.assign([tp], from: [tp: .offset(5)])
        #expect(consumer.endReached(tp) == nil, "an end found under the first assignment is forgotten")
        var second: [KafkaConsumerRecord] = []
        try waitUntil("the end of all 30 found again") {
            second += try consumer.poll(maxRecords: 3, timeout: .milliseconds(100))
            return consumer.endReached(tp) == 30
        }
        #expect(second.map(\.offset) == Array(5..<30))
        #expect(second.map { String(decoding: $0.value, as: UTF8.self) } == (5..<30).map { "\($0)" })
        try producer.shutdown()
        consumer.close()
    }

    @Test("watermarks, pause and resume")
    func watermarksPauseResume() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 1)
        let producer = try KafkaProducer(config: .embedded(kafka))
        for index in 0..<5 { _ = try producer.send(topic: topic, key: "k", value: [UInt8(index)]) }
        let consumer = try KafkaConsumer(config: .embedded(kafka))
        let tp = KafkaTopicPartition(topic: topic, partition: 0)
        #expect(try consumer.watermarks(tp) == KafkaWatermarks(low: 0, high: 5))
        try consumer.assign(topic: topic)
        _ = try consume(consumer) { $0.count >= 5 }
        try consumer.pause([tp])
        _ = try producer.send(topic: topic, key: "k", value: [9])
        #expect(try consumer.poll(maxRecords: 10, timeout: .milliseconds(500)).isEmpty, "paused partition delivers nothing")
        try consumer.resume([tp])
        let after = try consume(consumer) { $0.count >= 1 }
        #expect(after.map(\.value) == [[9]])
        try producer.shutdown()
        consumer.close()
    }
}
