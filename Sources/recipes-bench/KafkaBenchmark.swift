import CRdKafkaBaseline
import Foundation
import Kafka
import RecipeCLI

/// `recipes-bench kafka`.
enum KafkaBenchmark {
    static let spec = CommandSpec(
        name: "recipes-bench kafka",
        summary: "Produce records to the embedded broker with the Swift producer and with raw librdkafka (C), alternating, and print records/s.",
        abstract: "Records/s appended by the Swift producer vs a plain C librdkafka loop.",
        options: [
            .value("records", "N", "Records per run.", default: "1000000"),
            .value("size", "BYTES", "Value size of each record.", default: "200"),
            .value("partitions", "P", "Partitions of each run's topic.", default: "12"),
            .value("broker-count", "N", "Brokers of the embedded cluster.", default: "3"),
            .value("rounds", "R", "Runs of each producer; the best of each is compared.", default: "3"),
            .value("keys", "K", "Distinct keys (recipe-0 … recipe-K-1).", default: "10000"),
            .value("only", "raw|swift", "Run one producer only, e.g. under a profiler."),
        ],
        discussion: "CPU s is the whole process's (the embedded brokers too) from the producer's creation to its destruction. Both producers use the same settings (idempotent, acks=all, murmur2_random, lz4, linger.ms=5), keys, value bytes and header, and count every delivery report.")

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let records = try args.int("records", in: 1...100_000_000)!
        let size = try args.int("size", in: 1...1_000_000)!
        let partitions = try args.int("partitions", in: 1...1000)!
        let brokers = try args.int("broker-count", in: 1...16)!
        let rounds = try args.int("rounds", in: 1...100)!
        let keys = try args.int("keys", in: 1...10_000_000)!
        let only = args.string("only")
        guard only == nil || only == "raw" || only == "swift" else {
            throw UsageError("--only must be raw or swift, got \"\(only!)\"")
        }

        let kafka = try EmbeddedKafka(brokers: brokers)
        let value = sampleValue(size: size)
        say("bench kafka: \(records) records of \(size) bytes, \(keys) keys, \(partitions) partitions, \(brokers) brokers, \(rounds) rounds")
        var best = (raw: 0.0, swift: 0.0)
        for round in 1...rounds {
            let rawTopic = "bench-raw-\(round)", swiftTopic = "bench-swift-\(round)"
            try kafka.createTopic(rawTopic, partitions: partitions, replicationFactor: min(3, brokers))
            try kafka.createTopic(swiftTopic, partitions: partitions, replicationFactor: min(3, brokers))

            if only != "swift" {
                let cpu = AppendBenchmark.cpuSeconds()
                let raw = try produceRaw(kafka, topic: rawTopic, records: records, value: value, keys: keys)
                say(String(format: "  round %d  raw librdkafka (C)    %10.0f records/s  (%.2f s, CPU %.2f s)", round, raw.rate, raw.seconds,
                           AppendBenchmark.cpuSince(cpu)))
                best.raw = max(best.raw, raw.rate)
            }
            if only != "raw" {
                let cpu = AppendBenchmark.cpuSeconds()
                let swift = try produceSwift(kafka, topic: swiftTopic, records: records, value: value, keys: keys)
                say(String(format: "  round %d  Swift KafkaProducer   %10.0f records/s  (%.2f s, CPU %.2f s)", round, swift.rate, swift.seconds,
                           AppendBenchmark.cpuSince(cpu)))
                best.swift = max(best.swift, swift.rate)
            }
        }
        guard only == nil else { return }
        say(String(format: "best: raw %.0f records/s, Swift %.0f records/s = %.1f%% of raw",
                   best.raw, best.swift, 100 * best.swift / best.raw))
    }

    struct Run { let seconds: Double; let rate: Double }

    /// A JSON-like value of exactly `size` bytes, as compressible as a real record.
    static func sampleValue(size: Int) -> [UInt8] {
        let template = Array(#"{"specversion":"1.0","type":"recipes.IngredientAdded.v1","data":{"name":"Flour","amount":250,"metric":"g"},"pad":""#.utf8)
        var value = Array(template.prefix(size))
        var filler = UInt8(ascii: "a")
        while value.count < size {
            value.append(filler)
            filler = filler == UInt8(ascii: "z") ? UInt8(ascii: "a") : filler + 1
        }
        return value
    }

    static func produceRaw(_ kafka: EmbeddedKafka, topic: String, records: Int, value: [UInt8], keys: Int) throws -> Run {
        var result = crdk_baseline_result()
        let status = value.withUnsafeBufferPointer { buffer in
            crdk_baseline_produce(kafka.bootstrapServers, topic, records, buffer.baseAddress, buffer.count, keys, &result)
        }
        let error = withUnsafeBytes(of: result.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard status == 0, result.failed == 0, result.delivered == records else {
            throw BenchmarkError("raw producer: \(result.delivered) of \(records) delivered, \(result.failed) failed: \(error)")
        }
        return Run(seconds: result.seconds, rate: Double(records) / result.seconds)
    }

    static func produceSwift(_ kafka: EmbeddedKafka, topic: String, records: Int, value: [UInt8], keys: Int) throws -> Run {
        let producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
        let header = [KafkaHeader(key: "content-type", value: "application/cloudevents+json")]
        // One task builds and enqueues the batches, keeping eight pending (enough records in flight
        // to cover the embedded broker's acknowledgement latency), as `recipes send --stdin` does;
        // eight tasks enqueueing at once spent more on librdkafka's locks than they gained.
        let batchSize = 10_000, window = 8
        let start = ContinuousClock.now
        var pending: [KafkaPendingBatch] = []
        var failed = 0
        func settle(_ batch: KafkaPendingBatch) {
            failed += batch.results().count { if case .failure = $0 { true } else { false } }
        }
        for first in stride(from: 0, to: records, by: batchSize) {
            let messages = (first..<min(first + batchSize, records)).map {
                KafkaProducerMessage(topic: topic, key: "recipe-\($0 % keys)", value: value, headers: header)
            }
            pending.append(producer.enqueue(messages))
            if pending.count > window { settle(pending.removeFirst()) }
        }
        for batch in pending { settle(batch) }
        let seconds = (ContinuousClock.now - start).seconds
        try producer.shutdown()
        guard failed == 0 else { throw BenchmarkError("Swift producer: \(failed) of \(records) records failed") }
        return Run(seconds: seconds, rate: Double(records) / seconds)
    }
}
