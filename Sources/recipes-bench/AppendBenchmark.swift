import CRdKafkaBaseline
import Foundation
import Kafka
import RecipeCLI
import RecipeDomain
import RecipeHTTP
import RecipeProcess
import RecipeProjection
import RecipeWire
import RecipeWriteSide
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// `recipes-bench append`: the same commands appended every way there is, against one
/// embedded cluster in one run: `kcat -P` and the plain C loop (the speed of the log),
/// `KafkaProducer`, `recipes send --stdin`, single POSTs and the batch endpoint.
enum AppendBenchmark {
    static let spec = CommandSpec(
        name: "recipes-bench append",
        summary: "Append the same commands through kcat -P, raw librdkafka (C), KafkaProducer, recipes send --stdin, single POSTs and POST /v1/commands, in one run; records/s, CPU s, latency.",
        abstract: "Every append path against kcat -P and raw librdkafka, in one run.",
        options: [
            .value("commands", "N", "Commands of the log-speed phases (kcat, C, KafkaProducer, send --stdin).", default: "200000"),
            .value("recipes", "N", "Recipes the commands are spread over.", default: "10000"),
            .value("seconds", "S", "Duration of each HTTP phase.", default: "5"),
            .value("rounds", "R", "Rounds; the best of each phase is reported.", default: "3"),
            .value("batch-size", "N", "Commands per POST /v1/commands.", default: "1000"),
            .value("linger", "MS", "The service producer's linger.ms (the HTTP phases); default: the service's own."),
            .value("only", "PHASES", "Comma-separated phases to run: kcat,raw,swift,send,post1,post16,post64,batch8."),
        ],
        discussion: """
            One embedded cluster (3 brokers, 12 partitions per topic, replication 3); each phase of
            each round writes a topic of its own, but the HTTP phases, which go to the service's
            topic (in-process RecipeService with its projector, as `recipes dev` runs it). CPU s is
            this process's (the brokers, the service, the HTTP clients) plus the child's (kcat,
            recipes send). recipes is looked for next to recipes-bench.
            """)

    static let phases = ["kcat", "raw", "swift", "send", "post1", "post16", "post64", "batch8"]

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let count = try args.int("commands", in: 1...10_000_000)!
        let recipeCount = try args.int("recipes", in: 1...1_000_000)!
        let seconds = try args.int("seconds", in: 1...600)!
        let rounds = try args.int("rounds", in: 1...100)!
        let batchSize = try args.int("batch-size", in: 1...1_000)!
        let linger = try args.int("linger", in: 0...1_000)
        let only = args.string("only").map { Set($0.split(separator: ",").map(String.init)) } ?? Set(phases)
        if let unknown = only.subtracting(phases).sorted().first {
            throw UsageError("--only: unknown phase \"\(unknown)\"; phases are \(phases.joined(separator: ","))")
        }
        let recipesExecutable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("recipes").path
        let kcat = ["/usr/bin/kcat", "/usr/local/bin/kcat"].first { FileManager.default.isExecutableFile(atPath: $0) }

        // The commands: NDJSON lines as `recipes send` and the batch take them, and the
        // CloudEvents records they become (what kcat, the C loop and KafkaProducer send).
        // Today's shape of IngredientAdded (v2 `unit`; v1's `metric` is still taken, upcast).
        let recipes = (0..<recipeCount).map { _ in UUID().uuidString.lowercased() }
        let lines = (0..<count).map { index -> [UInt8] in
            let recipe = recipes[index % recipeCount]
            return Array((index < recipeCount
                ? #"{"type":"DraftStarted","recipe":"\#(recipe)","data":{}}"#
                : #"{"type":"IngredientAdded","recipe":"\#(recipe)","data":{"name":"Flour \#(index)","amount":250,"unit":"g"}}"#).utf8)
        }
        let builder = CommandBuilder(source: "recipes-cli")
        let envelopes = try lines.map { try builder.envelope(line: $0, actor: "bench").envelope }
        let encoder = RecordEncoder(source: "recipes-cli")
        let keys = envelopes.map { RecordKey.key(forRecipe: $0.recipeID) }
        let values = envelopes.map { encoder.encode($0) }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bench-append-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let ndjsonFile = work.appendingPathComponent("commands.ndjson").path
        let kcatFile = work.appendingPathComponent("records.kcat").path
        try Data(lines.joined(separator: [0x0A]) + [0x0A]).write(to: URL(fileURLWithPath: ndjsonFile))
        // kcat -K '\t': key, tab, value per line (the records have no tab or newline).
        try Data(zip(keys, values).map { $0 + [0x09] + $1 }.joined(separator: [0x0A]) + [0x0A]).write(to: URL(fileURLWithPath: kcatFile))

        let kafka = try EmbeddedKafka(brokers: 3)
        let serviceTopic = RecipeTopics().edits
        try kafka.createTopic(serviceTopic, partitions: 12, replicationFactor: 3)
        for decided in [RecipeTopics().decisions, RecipeTopics().committed] { try kafka.createTopic(decided, partitions: 12, replicationFactor: 3) }
        let store = work.appendingPathComponent("bench.db").path
        var options = RecipeService.Options(kafka: KafkaConfig(bootstrapServers: kafka.bootstrapServers), topics: RecipeTopics(), storePath: store)
        options.port = 0
        options.fetchWaitMilliseconds = EmbeddedKafka.fetchWaitMilliseconds
        if let linger { options.appendLinger = .milliseconds(linger) }
        let service = try RecipeService(options: options)
        try service.start()
        let port = service.port
        say("bench append: \(count) commands over \(recipeCount) recipes (\(values.reduce(0) { $0 + $1.count } / count) B records), 3 brokers, 12 partitions, \(rounds) rounds, HTTP phases \(seconds) s, batches of \(batchSize), service linger.ms \(linger.map(String.init) ?? "default")")
        if kcat == nil { say("  kcat is not installed: its phase is left out (Debian package kcat)") }

        var best: [String: Result] = [:]
        func keep(_ result: Result) {
            say("  round \(result.round)  " + result.line)
            if (best[result.name]?.rate ?? 0) < result.rate { best[result.name] = result }
        }
        for round in 1...rounds {
            // The service's projector folds what the last round's HTTP phases appended: without
            // this wait it would still be at it, on the same two cores, during this round.
            guard try caughtUp(service, kafka: kafka, topic: serviceTopic) else {
                throw BenchmarkError("the projector did not catch up with the last round in 300 s")
            }
            func topic(_ phase: String) throws -> String {
                let name = "bench-\(phase)-\(round).\(serviceTopic)"
                try kafka.createTopic(name, partitions: 12, replicationFactor: 3)
                return name
            }
            if only.contains("kcat"), let kcat {
                let name = try topic("kcat")
                keep(try measureChild(round: round, name: "kcat -P", records: count, executable: kcat, input: kcatFile, arguments: [
                    "-P", "-b", kafka.bootstrapServers, "-t", name, "-K", "\t", "-z", "lz4", "-H", "content-type=\(WireFormat.contentType)",
                    "-X", "partitioner=murmur2_random", "-X", "enable.idempotence=true", "-X", "acks=all", "-X", "linger.ms=5",
                ]))
            }
            if only.contains("raw") {
                keep(try produceRaw(round: round, kafka: kafka, topic: try topic("raw"), keys: keys, values: values))
            }
            if only.contains("swift") {
                keep(try produceSwift(round: round, kafka: kafka, topic: try topic("swift"), keys: keys, values: values))
            }
            if only.contains("send") {
                let prefix = "bench-send-\(round)."
                _ = try topic("send")
                keep(try measureChild(round: round, name: "recipes send --stdin", records: count, executable: recipesExecutable,
                                      input: ndjsonFile, arguments: ["send", "--stdin", "--quiet", "--brokers", kafka.bootstrapServers,
                                                                     "--topic-prefix", prefix, "--actor", "bench"]))
            }
            for connections in [1, 16, 64] where only.contains("post\(connections)") {
                keep(try postSingle(round: round, port: port, connections: connections, seconds: seconds, recipes: recipes))
            }
            if only.contains("batch8") {
                keep(try postBatches(round: round, port: port, connections: 8, seconds: seconds, batchSize: batchSize, lines: lines))
            }
        }
        service.shutdown()
        withExtendedLifetime(kafka) {}

        say("best of \(rounds) rounds:")
        for phase in ["kcat -P", "raw librdkafka (C)", "KafkaProducer", "recipes send --stdin",
                      "POST single, 1 connection", "POST single, 16 connections", "POST single, 64 connections",
                      "POST /v1/commands, 8 connections"] {
            if let result = best[phase] { say("  " + result.line) }
        }
        func ratio(_ a: String, _ b: String, target: String) {
            guard let x = best[a]?.rate, let y = best[b]?.rate else { return }
            say(String(format: "  %@ / %@ = %.2f (target %@)", a, b, x / y, target))
        }
        // Each line of issue 50's table: the figure when the issue was filed, and its aim.
        ratio("recipes send --stdin", "kcat -P", target: "≥ 0.5; issue 50: 0.17–0.21 when filed")
        ratio("POST /v1/commands, 8 connections", "kcat -P", target: "≥ 0.3; issue 50: 0.10–0.16 when filed")
        ratio("KafkaProducer", "raw librdkafka (C)", target: "keep; issue 50: 0.80–0.88 when filed")
        if let post = best["POST single, 1 connection"] {
            say(String(format: "  POST single, 1 connection: %.0f req/s, p50 %.2f ms (aim p50 ≤ 2 ms; issue 50: 177/s, p50 5.6 ms when filed)",
                       post.rate, post.p50 * 1000))
        }
        if let post = best["POST single, 64 connections"] {
            say(String(format: "  POST single, 64 connections: %.0f req/s, p99 %.1f ms (aim ≥ 10k req/s with p99 < 20 ms; issue 50: 4.3–6.6k/s, p99 22–41 ms when filed)",
                       post.rate, post.p99 * 1000))
        }
    }

    static func caughtUp(_ service: RecipeService, kafka: EmbeddedKafka, topic: String) throws -> Bool {
        let consumer = try KafkaConsumer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
        defer { consumer.close() }
        var last: [Int32: Int64] = [:]
        for partition in try consumer.partitions(of: topic) {
            let high = try consumer.watermarks(KafkaTopicPartition(topic: topic, partition: partition)).high
            if high > 0 { last[partition] = high - 1 }
        }
        return try service.api.readModel.waitUntilReached(last, deadline: .now + .seconds(300))
    }

    struct Result {
        var round: Int
        var name: String
        var records: Int
        var seconds: Double
        var cpu: Double
        var p50 = 0.0, p99 = 0.0
        var requests = 0
        var rate: Double { Double(records) / seconds }
        var line: String {
            var text = name.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: " %9.0f records/s  (%d in %.2f s, CPU %.2f s)", rate, records, seconds, cpu)
            if requests > 0 { text += String(format: ", %d requests, p50 %.2f ms, p99 %.2f ms", requests, p50 * 1000, p99 * 1000) }
            return text
        }
    }

    /// CPU seconds of this process, and of its children that have been waited for.
    static func cpuSeconds() -> (own: Double, children: Double) {
        func seconds(_ who: Int32) -> Double {
            var usage = rusage()
            getrusage(__rusage_who_t(who), &usage)
            return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        return (seconds(RUSAGE_SELF.rawValue), seconds(RUSAGE_CHILDREN.rawValue))
    }

    static func cpuSince(_ start: (own: Double, children: Double)) -> Double {
        let now = cpuSeconds()
        return (now.own - start.own) + (now.children - start.children)
    }

    /// A child fed `input` on stdin, timed from launch to exit.
    static func measureChild(round: Int, name: String, records: Int, executable: String, input: String,
                             arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle(forReadingAtPath: input)
        let errors = work(pipe: process)
        let cpu = cpuSeconds()
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let seconds = (ContinuousClock.now - start).seconds
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(name) exited with \(process.terminationStatus): \(errors.text.suffix(500))")
        }
        return Result(round: round, name: name, records: records, seconds: seconds, cpu: cpuSince(cpu))
    }

    /// The child's stderr, collected (its stdout is thrown away).
    static func work(pipe process: Process) -> CollectedText {
        let collected = CollectedText()
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else { collected.append(data) }
        }
        return collected
    }

    final class CollectedText: Sendable {
        private let data = Locked(Data())
        func append(_ more: Data) { data.withLock { $0.append(more) } }
        var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
    }

    static func produceRaw(round: Int, kafka: EmbeddedKafka, topic: String, keys: [[UInt8]], values: [[UInt8]]) throws -> Result {
        var result = crdk_baseline_result()
        let cpu = cpuSeconds()
        // Pointers into the arrays' storage, which outlives the call.
        let keyPointers = keys.map { $0.withUnsafeBufferPointer { $0.baseAddress } }
        let valuePointers = values.map { $0.withUnsafeBufferPointer { $0.baseAddress } }
        let status = withExtendedLifetime((keys, values)) {
            crdk_baseline_produce_records(kafka.bootstrapServers, topic, keys.count, keyPointers, keys.map(\.count),
                                          valuePointers, values.map(\.count), &result)
        }
        guard status == 0, result.failed == 0, result.delivered == keys.count else {
            let error = withUnsafeBytes(of: result.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw BenchmarkError("raw producer: \(result.delivered) of \(keys.count) delivered: \(error)")
        }
        return Result(round: round, name: "raw librdkafka (C)", records: keys.count, seconds: result.seconds, cpu: cpuSince(cpu))
    }

    static func produceSwift(round: Int, kafka: EmbeddedKafka, topic: String, keys: [[UInt8]], values: [[UInt8]]) throws -> Result {
        let header = [KafkaHeader(key: WireFormat.contentTypeHeaderName, value: WireFormat.contentType)]
        let messages = zip(keys, values).map { KafkaProducerMessage(topic: topic, key: $0, value: $1, headers: header) }
        let cpu = cpuSeconds()
        let producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
        // Timed as the C loop times itself: from the first record to the last delivery
        // report, without creating and destroying the client (CPU s counts both, for both).
        let start = ContinuousClock.now
        // One enqueuing task with batches pending, as `recipes send --stdin` does.
        var pending: [KafkaPendingBatch] = []
        var failed = 0
        for first in stride(from: 0, to: messages.count, by: 10_000) {
            pending.append(producer.enqueue(Array(messages[first..<min(first + 10_000, messages.count)])))
            if pending.count > 8 { failed += pending.removeFirst().results().count { (try? $0.get()) == nil } }
        }
        for batch in pending { failed += batch.results().count { (try? $0.get()) == nil } }
        let seconds = (ContinuousClock.now - start).seconds
        try producer.shutdown()
        guard failed == 0 else { throw BenchmarkError("KafkaProducer: \(failed) records failed") }
        return Result(round: round, name: "KafkaProducer", records: messages.count, seconds: seconds, cpu: cpuSince(cpu))
    }

    static func postSingle(round: Int, port: UInt16, connections: Int, seconds: Int, recipes: [String]) throws -> Result {
        let paths = recipes.map { "/v1/recipes/\($0)/commands" }
        let cpu = cpuSeconds()
        let measure = HTTPBenchmark.run(seconds: seconds, threads: connections) { _ in
            let client = try KeepAliveClient(port: port)
            return { index in
                let body = Array(#"{"type":"TitleChanged","data":{"title":"Title \#(index)"}}"#.utf8)
                let response = try client.request("POST", paths[index % paths.count], body: body)
                guard response.status == 202 else { throw BenchmarkError("POST: \(response.status)") }
            }
        }
        guard measure.requests > 0 else { throw BenchmarkError("no POST succeeded") }
        return Result(round: round, name: "POST single, \(connections) connection\(connections == 1 ? "" : "s")",
                      records: measure.requests, seconds: measure.elapsed, cpu: cpuSince(cpu),
                      p50: HTTPBenchmark.percentile(measure.latencies, 0.5), p99: HTTPBenchmark.percentile(measure.latencies, 0.99),
                      requests: measure.requests)
    }

    static func postBatches(round: Int, port: UInt16, connections: Int, seconds: Int, batchSize: Int, lines: [[UInt8]]) throws -> Result {
        let bodies = stride(from: 0, to: lines.count - batchSize + 1, by: batchSize).map {
            Array(lines[$0..<($0 + batchSize)].joined(separator: [0x0A]))
        }
        guard !bodies.isEmpty else { throw BenchmarkError("--batch-size is larger than --commands") }
        let cpu = cpuSeconds()
        let measure = HTTPBenchmark.run(seconds: seconds, threads: connections) { _ in
            let client = try KeepAliveClient(port: port)
            return { index in
                let response = try client.request("POST", "/v1/commands", body: bodies[index % bodies.count], contentType: "application/x-ndjson")
                guard response.status == 202 else { throw BenchmarkError("POST /v1/commands: \(response.status)") }
            }
        }
        guard measure.requests > 0 else { throw BenchmarkError("no batch succeeded") }
        return Result(round: round, name: "POST /v1/commands, \(connections) connections",
                      records: measure.requests * batchSize, seconds: measure.elapsed, cpu: cpuSince(cpu),
                      p50: HTTPBenchmark.percentile(measure.latencies, 0.5), p99: HTTPBenchmark.percentile(measure.latencies, 0.99),
                      requests: measure.requests)
    }
}
