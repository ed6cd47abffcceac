import Foundation
import Kafka
import RecipeTestSupport
import Testing

/// Reads from `consumer` until `done` says the records so far are enough,
/// failing the test if that takes longer than `deadline`.
func consume(_ consumer: KafkaConsumer, deadline: Duration = .seconds(30),
             until done: @escaping @Sendable ([KafkaConsumerRecord]) -> Bool) async throws -> [KafkaConsumerRecord] {
    let (records, finished) = try await onThread {
        var records: [KafkaConsumerRecord] = []
        let end = ContinuousClock.now + deadline
        while !done(records) {
            guard ContinuousClock.now < end else { return (records, false) }
            records += try consumer.poll(maxRecords: 1000, timeout: .milliseconds(100))
        }
        return (records, true)
    }
    if !finished { Issue.record("deadline of \(deadline) passed with \(records.count) records") }
    return records
}

/// Evaluates `condition` (which may poll consumers) on its own thread until it
/// holds, failing the test if the deadline passes first.
func waitUntil(_ what: String, deadline: Duration = .seconds(30),
               _ condition: @escaping @Sendable () throws -> Bool) async throws {
    let held = try await onThread {
        let end = ContinuousClock.now + deadline
        while try !condition() {
            if ContinuousClock.now >= end { return false }
        }
        return true
    }
    if !held { Issue.record("timed out after \(deadline) waiting until \(what)") }
}

/// Waits for a condition that other tasks make true, checking every millisecond.
func waitUntilAsync(_ what: String, deadline: Duration = .seconds(30), _ condition: () -> Bool) async throws {
    let end = ContinuousClock.now + deadline
    while !condition() {
        guard ContinuousClock.now < end else {
            Issue.record("timed out after \(deadline) waiting until \(what)")
            return
        }
        try await Task.sleep(for: .milliseconds(1))
    }
}

func uniqueTopic(_ prefix: String = "t") -> String { "\(prefix)-\(UUID().uuidString.prefix(8))" }

extension KafkaConfig {
    static func embedded(_ kafka: EmbeddedKafka) -> KafkaConfig {
        KafkaConfig(bootstrapServers: kafka.bootstrapServers)
    }
}
