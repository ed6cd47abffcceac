import Foundation
import Kafka
import RecipeCLI
import RecipeDomain
import RecipeHTTP
import RecipeProcess
import RecipeWire
import RecipeWriteSide

/// `recipes-bench hops`: append → visible (POST a command, then `GET ?after=` its position) through
/// an in-process service on the embedded broker, in paired rounds: consumers that always fetch with
/// the old 10 ms wait, against consumers that stop fetching while idle (with the wait given).
enum HopsBenchmark {
    static let spec = CommandSpec(
        name: "recipes-bench hops",
        summary: "Append → visible at 1 and 16 clients, paired: consumers always fetching (10 ms wait) against consumers that stop fetching while idle.",
        abstract: "Append → visible latency, always fetching against stopping while idle, paired.",
        options: [
            .value("seconds", "S", "Duration of each phase.", default: "3"),
            .value("rounds", "R", "Rounds; each runs both services, alternating which goes first.", default: "2"),
            .value("fetch-wait", "MS", "The fetch.wait.max.ms of the consumers that stop fetching while idle; the default is `recipes dev`'s.",
                   default: String(RecipeService.Options.devFetchWaitMilliseconds)),
        ],
        discussion: """
            Each variant is a RecipeService of its own on a 3-broker embedded cluster of its own (6 partitions,
            replication 3), with 50 recipes appended first. Reported: p50 and p99 of every round trip, and the
            CPU the process used per round trip (both services' and the clients').
            """)

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let seconds = try args.int("seconds", in: 1...600)!
        let rounds = try args.int("rounds", in: 1...100)!
        let fetchWait = try args.int("fetch-wait", in: 1...500)!
        let variants = [("always fetching, 10 ms wait", false, 10), ("stopping while idle, \(fetchWait) ms wait", true, fetchWait)]
        say("bench hops: \(seconds) s per phase, \(rounds) rounds")
        for round in 1...rounds {
            for index in round % 2 == 1 ? [0, 1] : [1, 0] {
                let (name, stops, wait) = variants[index]
                for line in try measure(stopsWhenIdle: stops, fetchWait: wait, seconds: seconds) {
                    say("  round \(round)  \(name): \(line)")
                }
            }
        }
    }

    static func measure(stopsWhenIdle: Bool, fetchWait: Int, seconds: Int) throws -> [String] {
        let kafka = try EmbeddedKafka(brokers: 3)
        for topic in [RecipeTopics().edits, RecipeTopics().decisions, RecipeTopics().committed] {
            try kafka.createTopic(topic, partitions: 6, replicationFactor: 3)
        }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("bench-hops-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        var options = RecipeService.Options(kafka: KafkaConfig(bootstrapServers: kafka.bootstrapServers), topics: RecipeTopics(), storePath: store)
        options.port = 0
        options.fetchWaitMilliseconds = fetchWait
        options.stopsFetchingWhenIdle = stopsWhenIdle
        let service = try RecipeService(options: options)
        try service.start()
        defer {
            service.shutdown()
            withExtendedLifetime(kafka) {}
        }
        let builder = CommandBuilder(source: RecipeAPI.source)
        var ids: [RecipeID] = []
        var last: [Int32: Int64] = [:]
        for index in 0..<50 {
            let id = RecipeID(made: UUID().uuidString.lowercased())
            ids.append(id)
            let envelopes = try [builder.envelope(kind: .draftStarted, data: [:], recipeID: id, actor: "bench"),
                                 builder.envelope(kind: .titleChanged, data: ["title": "Recipe \(index)"], recipeID: id, actor: "bench")]
            for result in service.producer.sendBatch(envelopes.map { service.api.appender.message($0, source: RecipeAPI.source) }) {
                let report = try result.get()
                last[report.partition] = max(last[report.partition] ?? 0, report.offset)
            }
        }
        guard try service.api.readModel.waitUntilReached(last, deadline: .now + .seconds(120)) else {
            throw BenchmarkError("the projector did not catch up with the sample recipes in 120 s")
        }
        var lines: [String] = []
        for clients in [1, 16] {
            let cpu = AppendBenchmark.cpuSeconds()
            let measure = try HTTPBenchmark.appendToVisible(port: service.port, ids: ids, clients: clients, seconds: seconds)
            let used = AppendBenchmark.cpuSince(cpu)
            lines.append(String(format: "%2d client%@ p50 %.2f ms, p99 %.2f ms (aim p99 ≤ %d ms), %d round trips, %.0f µs CPU each",
                                clients, clients == 1 ? ", " : "s,", HTTPBenchmark.percentile(measure.latencies, 0.5) * 1000,
                                HTTPBenchmark.percentile(measure.latencies, 0.99) * 1000, clients == 1 ? 12 : 25,
                                measure.requests, used / Double(measure.requests) * 1e6))
        }
        return lines
    }
}
