import Foundation
import Kafka
import RecipeTestSupport
import Testing

/// Runs a program to completion, feeding it `input`, and returns its standard output.
func run(_ executable: String, _ arguments: [String], input: String = "") throws -> String {
    let run = try runProcess(executable, arguments, input: input)
    guard run.status == 0 else {
        throw InteropError(description: "\(executable) exited \(run.status): \(run.err)")
    }
    return run.out
}

struct InteropError: Error, CustomStringConvertible { let description: String }

@Suite("Interoperability with clients nobody here wrote")
struct InteropTests {
    @Test("a key lands on the same partition from the Swift producer and from kafka-python (murmur2)")
    func samePartitionAsKafkaPython() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 6)
        let keys = (0..<60).map { "recipe-\($0)-\(UUID().uuidString)" }
        let script = """
            import sys
            from kafka import KafkaProducer
            producer = KafkaProducer(bootstrap_servers=sys.argv[1])
            for key in sys.stdin.read().split():
                metadata = producer.send(sys.argv[2], key=key.encode(), value=b"x").get(timeout=30)
                print(key, metadata.partition)
            producer.flush()
            """
        let output = try run("/usr/bin/python3", ["-c", script, kafka.bootstrapServers, topic], input: keys.joined(separator: "\n"))
        let pythonPartitions = Dictionary(uniqueKeysWithValues: output.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return (String(parts[0]), Int32(parts[1])!)
        })
        #expect(pythonPartitions.count == keys.count)
        #expect(Set(pythonPartitions.values).count > 1, "keys spread over partitions")

        let producer = try KafkaProducer(config: .embedded(kafka))
        for key in keys {
            let report = try producer.send(topic: topic, key: key, value: Array("y".utf8))
            #expect(report.partition == pythonPartitions[key], "key \(key)")
            // And the check a consumer makes agrees with both.
            #expect(KafkaPartitioner.partition(forKey: Array(key.utf8), partitionCount: 6) == report.partition)
        }
        try producer.shutdown()
    }

    @Test("records produced by kcat are read by the Swift consumer, headers included")
    func kcatToSwift() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 3)
        let lines = (0..<20).map { "key-\($0):value-\($0)" }.joined(separator: "\n") + "\n"
        _ = try run("/usr/bin/kcat", ["-b", kafka.bootstrapServers, "-t", topic, "-P", "-K:",
                                      "-H", "source=kcat", "-H", "note=é"], input: lines)
        let consumer = try KafkaConsumer(config: .embedded(kafka))
        try consumer.assign(topic: topic)
        let records = try consume(consumer) { $0.count >= 20 }
        consumer.close()
        #expect(Set(records.map { "\($0.keyString!):\(String(decoding: $0.value, as: UTF8.self))" })
                == Set((0..<20).map { "key-\($0):value-\($0)" }))
        for record in records {
            #expect(record.headers == [KafkaHeader(key: "source", value: "kcat"), KafkaHeader(key: "note", value: "é")])
        }
    }

    @Test("records from the Swift producer are read by kcat, headers included")
    func swiftToKcat() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = uniqueTopic()
        try kafka.createTopic(topic, partitions: 2)
        let producer = try KafkaProducer(config: .embedded(kafka))
        for index in 0..<10 {
            _ = try producer.send(topic: topic, key: "k\(index)", value: Array("v\(index)".utf8),
                                        headers: [KafkaHeader(key: "content-type", value: "application/json")])
        }
        try producer.shutdown()
        let output = try run("/usr/bin/kcat", ["-b", kafka.bootstrapServers, "-t", topic, "-C", "-e", "-q",
                                               "-f", "%k=%s|%h\\n"])
        let lines = Set(output.split(separator: "\n").map(String.init))
        #expect(lines == Set((0..<10).map { "k\($0)=v\($0)|content-type=application/json" }))
    }
}
