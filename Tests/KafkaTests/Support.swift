import Foundation
import Kafka
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

/// Polls `condition` (which may poll a consumer) until it holds or the deadline passes.
func waitUntil(_ what: String, deadline: Duration = .seconds(30), _ condition: () throws -> Bool) rethrows {
    let end = ContinuousClock.now + deadline
    while try !condition() {
        guard ContinuousClock.now < end else {
            Issue.record("timed out after \(deadline) waiting until \(what)")
            return
        }
    }
}

func uniqueTopic(_ prefix: String = "t") -> String { "\(prefix)-\(UUID().uuidString.prefix(8))" }

extension KafkaConfig {
    static func embedded(_ kafka: EmbeddedKafka) -> KafkaConfig {
        KafkaConfig(bootstrapServers: kafka.bootstrapServers)
    }
}

/// `waitUntil` for conditions that become true while other tasks run.
func waitUntilAsync(_ what: String, deadline: Duration = .seconds(30), _ condition: () -> Bool) async throws {
    let end = ContinuousClock.now + deadline
    while !condition() {
        guard ContinuousClock.now < end else {
            Issue.record("timed out after \(deadline) waiting until \(what)")
            return
        }
        await Task.yield()
    }
}
