import Foundation
@testable import Kafka
import RecipeTestSupport
import Testing

@Suite("The embedded broker's journal")
struct JournalTests {
    private let topic = "journal.test"

    private func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
    }

    /// Every record of the topic, in partition and offset order.
    private func everything(in kafka: EmbeddedKafka, count: Int) throws -> [KafkaConsumerRecord] {
        let consumer = try KafkaConsumer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
        defer { consumer.close() }
        try consumer.assign(topic: topic)
        return try consume(consumer) { $0.count >= count }.sorted { ($0.partition, $0.offset) < ($1.partition, $1.offset) }
    }

    private func append(_ count: Int, from start: Int, to kafka: EmbeddedKafka, strayPartition: Int32? = 2) throws {
        let producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
        let messages = (start..<start + count).map { index in
            // Every fifth record is put in a partition of the producer's choosing, as a mixed-up producer's would be.
            KafkaProducerMessage(topic: topic, key: index % 7 == 0 ? nil : Array("recipe-\(index % 11)".utf8),
                                 value: Array("record \(index)".utf8),
                                 headers: [KafkaHeader(key: "content-type", value: Array("text/plain".utf8)),
                                           KafkaHeader(key: "empty", value: nil)],
                                 partition: index % 5 == 0 ? strayPartition : nil)
        }
        for result in producer.sendBatch(messages) { _ = try result.get() }
        try producer.shutdown()
    }

    @Test("a new cluster opened on the journal holds every record at its partition and offset, with key, value, headers and time")
    func restoresTheLog() throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try EmbeddedKafka(brokers: 1)
        let journal = try EmbeddedKafkaJournal(folder: folder, kafka: first, topic: topic, partitions: 3)
        #expect(journal.restoredRecords == 0)
        try journal.start()
        try append(300, from: 0, to: first)
        try journal.stop()
        let original = try everything(in: first, count: 300)

        let second = try EmbeddedKafka(brokers: 1)
        let reopened = try EmbeddedKafkaJournal(folder: folder, kafka: second, topic: topic, partitions: 9)
        #expect(reopened.restoredRecords == 300)
        #expect(reopened.partitions == 3, "the journal keeps the partition count it was made with")
        #expect(reopened.name == journal.name)
        let restored = try everything(in: second, count: 300)
        #expect(restored == original)

        // Appending goes on after the restored records, and a third start has both.
        try reopened.start()
        try append(50, from: 300, to: second)
        try reopened.stop()
        let third = try EmbeddedKafka(brokers: 1)
        let again = try EmbeddedKafkaJournal(folder: folder, kafka: third, topic: topic, partitions: 3)
        #expect(again.restoredRecords == 350)
        #expect(try everything(in: third, count: 350) == (try everything(in: second, count: 350)))
        #expect((0..<3).map { again.bytes(of: Int32($0)) }.reduce(0, +) > 0)
    }

    @Test("a null value (a compacted topic's tombstone) comes back null, an empty value empty, from the broker and from the journal")
    func nullValuesStayNull() throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try EmbeddedKafka(brokers: 1)
        let journal = try EmbeddedKafkaJournal(folder: folder, kafka: first, topic: topic, partitions: 1)
        try journal.start()
        let producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: first.bootstrapServers))
        let messages = [KafkaProducerMessage(topic: topic, key: Array("a".utf8), value: Array("document".utf8)),
                        .tombstone(topic: topic, key: Array("a".utf8), headers: [KafkaHeader(key: "position", value: "0:1")]),
                        KafkaProducerMessage(topic: topic, key: Array("b".utf8), value: [])]
        for result in producer.sendBatch(messages) { _ = try result.get() }
        try producer.shutdown()
        try journal.stop()
        let original = try everything(in: first, count: 3)
        #expect(original.map(\.hasNullValue) == [false, true, false])
        #expect(original.map(\.value) == [Array("document".utf8), [], []])
        #expect(original[1].headers == [KafkaHeader(key: "position", value: "0:1")])

        let second = try EmbeddedKafka(brokers: 1)
        _ = try EmbeddedKafkaJournal(folder: folder, kafka: second, topic: topic, partitions: 1)
        #expect(try everything(in: second, count: 3) == original)
        // kcat's %S is the value's length, -1 for a null value.
        let kcat = try run("/usr/bin/kcat", ["-b", second.bootstrapServers, "-t", topic, "-C", "-e", "-q", "-f", "%k=%S\\n"])
        #expect(kcat == "a=8\na=-1\nb=0\n", "kcat reads the tombstone as a null value, the empty value as empty")
    }

    @Test("a frame cut short by a crash is dropped; a journal in use, or of another topic, is refused")
    func tornFrames() throws {
        let folder = folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try EmbeddedKafka(brokers: 1)
        let journal = try EmbeddedKafkaJournal(folder: folder, kafka: first, topic: topic, partitions: 1)
        try journal.start()
        try append(10, from: 0, to: first, strayPartition: nil)
        try journal.stop()
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/\(topic)-0.records"))
        try file.seekToEnd()
        try file.write(contentsOf: [200, 0, 0, 0, 1, 2, 3])
        try file.close()

        let second = try EmbeddedKafka(brokers: 1)
        let reopened = try EmbeddedKafkaJournal(folder: folder, kafka: second, topic: topic, partitions: 1)
        #expect(reopened.restoredRecords == 10)
        // One process journals a folder at a time.
        #expect(throws: KafkaError.self) {
            _ = try EmbeddedKafkaJournal(folder: folder, kafka: try EmbeddedKafka(brokers: 1), topic: topic, partitions: 1)
        }
        try reopened.stop()
        #expect(throws: KafkaError.self) {
            _ = try EmbeddedKafkaJournal(folder: folder, kafka: try EmbeddedKafka(brokers: 1), topic: "other", partitions: 1)
        }
    }

    @Test("journals started together share one consumer; each stops at the log's end as it stood, the others go on")
    func journalsTogether() throws {
        let topics = ["journal.a", "journal.b", "journal.c"]
        let folders = topics.map { _ in folder() }
        defer { for folder in folders { try? FileManager.default.removeItem(atPath: folder) } }
        let first = try EmbeddedKafka(brokers: 3)
        let journals = try zip(folders, topics).map { try EmbeddedKafkaJournal(folder: $0, kafka: first, topic: $1, partitions: 2) }
        try EmbeddedKafkaJournal.start(journals)
        let journaling = journals.map { $0.journaling.withLock { $0 } }
        #expect(journaling[0] != nil && journaling.allSatisfy { $0 === journaling[0] }, "one consumer and thread journal the three topics")
        let producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: first.bootstrapServers))
        defer { try? producer.shutdown() }
        func append(_ range: Range<Int>, to topic: String) throws {
            let messages = range.map { KafkaProducerMessage(topic: topic, key: Array("k\($0 % 5)".utf8), value: Array("\(topic) \($0)".utf8)) }
            for result in producer.sendBatch(messages) { _ = try result.get() }
        }
        for topic in topics { try append(0..<100, to: topic) }
        try journals[0].stop()
        // The first journal's folder is free again while the others journal on.
        let reopened = try EmbeddedKafkaJournal(folder: folders[0], kafka: try EmbeddedKafka(brokers: 1), topic: topics[0], partitions: 2)
        #expect(reopened.restoredRecords == 100)
        try reopened.stop()
        for topic in topics { try append(100..<150, to: topic) }
        try journals[1].stop()
        try journals[2].stop()
        #expect(journals.allSatisfy { $0.journaling.withLock { $0 } == nil }, "its thread has ended")

        let second = try EmbeddedKafka(brokers: 1)
        for (index, topic) in topics.enumerated() {
            let restored = try EmbeddedKafkaJournal(folder: folders[index], kafka: second, topic: topic, partitions: 2)
            #expect(restored.restoredRecords == (index == 0 ? 100 : 150))
            let consumer = try KafkaConsumer(config: KafkaConfig(bootstrapServers: second.bootstrapServers))
            defer { consumer.close() }
            try consumer.assign(topic: topic)
            let values = try consume(consumer) { $0.count >= restored.restoredRecords }.map { String(decoding: $0.value, as: UTF8.self) }
            #expect(Set(values) == Set((0..<restored.restoredRecords).map { "\(topic) \($0)" }), "each journal holds its own topic's records, each once")
            #expect(values.count == restored.restoredRecords)
            try restored.stop()
        }
    }
}
