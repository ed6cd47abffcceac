import Foundation
import Kafka
import RecipeTestSupport
import Testing

/// Reads from `consumer` until `done` says the records so far are enough,
/// failing the test if that takes longer than `deadline`.
func consume(_ consumer: KafkaConsumer, deadline: Duration = .seconds(30),
             until done: ([KafkaConsumerRecord]) -> Bool) throws -> [KafkaConsumerRecord] {
    var records: [KafkaConsumerRecord] = []
    let end = ContinuousClock.now + deadline
    while !done(records) {
        guard ContinuousClock.now < end else {
            Issue.record("deadline of \(deadline) passed with \(records.count) records")
            return records
        }
        records += try consumer.poll(maxRecords: 1000, timeout: .milliseconds(100))
    }
    return records
}

/// Evaluates `condition` (which may poll consumers) until it holds, failing the test if
/// the deadline passes first.
func waitUntil(_ what: String, deadline: Duration = .seconds(30), _ condition: () throws -> Bool) throws {
    do {
        try waitFor(what, deadline: deadline, condition)
    } catch let timedOut as WaitTimedOut {
        Issue.record("\(timedOut)")
    }
}

func uniqueTopic(_ prefix: String = "t") -> String { "\(prefix)-\(UUID().uuidString.prefix(8))" }

extension KafkaConfig {
    static func embedded(_ kafka: EmbeddedKafka) -> KafkaConfig {
        KafkaConfig(bootstrapServers: kafka.bootstrapServers)
    }
}
