import Foundation
import Kafka
import RecipeCLI
import RecipeDomain
import RecipeHTTP
import RecipeProcess
import RecipeWire
import RecipeWriteSide
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// `recipes-bench streams`: subscribers of the event streams (issue 49). For each number of open
/// streams of one recipe, on one in-process service: append → event at every subscriber (through
/// the gateway's POST, and a record produced straight to the topic as kcat does), CPU per delivered
/// event, memory per idle stream; next to append → visible at one client (POST, then GET ?after=)
/// measured just before, in the same run.
enum StreamBenchmark {
    static let spec = CommandSpec(
        name: "recipes-bench streams",
        summary: "Open 1, 1,000 and 10,000 event streams on one in-process service; time append → event at every subscriber (POST and a Kafka producer), CPU per delivered event, memory per idle stream, against append→visible at one client in the same run.",
        abstract: "Event-stream subscribers: latency, CPU per event, memory per stream.",
        options: [
            .value("subscribers", "LIST", "Numbers of open streams, comma-separated, one phase each.", default: "1,1000,10000"),
            .value("appends", "N", "Appends timed in each phase, each way (POST, producer), one at a time.", default: "100"),
            .value("seconds", "S", "Duration of the append→visible baseline before each phase.", default: "3"),
            .value("reader-threads", "T", "Threads of the bench's client reading every stream (poll).", default: "2"),
            .value("subscribers-of", "PORT,PATH,N", "Run as the subscribers' process of a phase (the bench starts it itself)."),
        ],
        discussion: """
            One embedded cluster (3 brokers, 6 partitions, replication 3) and the service in process, as
            `recipes-bench http` runs them. The streams are held by a second process of this program
            (one per phase, so that each process holds one end of every stream under the open-file
            limit), from loopback addresses 127.0.3.x (100 each, under the server's per-client limit),
            read by a few threads in poll(2). The service's connection limit is raised to hold them.
            A latency is from just before the append to the moment a reader thread woke up with the
            event (CLOCK_MONOTONIC, one clock for both processes); each append waits for every subscriber.
            CPU per delivered event is the service process's (brokers, service, fan-out) over the appends
            of a phase, divided by the events delivered; the subscribers' process's is given apart.
            Memory per idle stream is the service process's RSS delta over the streams it holds.
            """)

    enum Via: String, CaseIterable { case post = "POST", producer = "producer (as kcat)" }

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let readerThreads = try args.int("reader-threads", in: 1...16)!
        if let phase = args.string("subscribers-of") {
            try StreamSubscribersProcess.serve(phase, readerThreads: readerThreads)
            return
        }
        let counts = try (args.string("subscribers") ?? "").split(separator: ",").map { text -> Int in
            guard let count = Int(text.trimmingCharacters(in: .whitespaces)), (1...100_000).contains(count) else {
                throw UsageError("--subscribers: \"\(text)\" is not a number from 1 to 100000")
            }
            return count
        }
        guard let most = counts.max() else { throw UsageError("--subscribers: give at least one number") }
        let appends = try args.int("appends", in: 1...10_000)!
        let seconds = try args.int("seconds", in: 1...600)!
        let files = HTTPServer.connectionCapacity()
        guard files >= most + 256 else {
            throw BenchmarkError("the open-file limit leaves room for \(files) connections: \(most) streams need \(most + 256); raise ulimit -Hn")
        }

        let kafka = try EmbeddedKafka(brokers: 3)
        let topics = RecipeTopics()
        for topic in [topics.edits, topics.decisions, topics.committed] { try kafka.createTopic(topic, partitions: 6, replicationFactor: 3) }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("bench-streams-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        var options = RecipeService.Options(kafka: KafkaConfig(bootstrapServers: kafka.bootstrapServers), topics: topics, storePath: store)
        options.port = 0
        options.fetchWaitMilliseconds = EmbeddedKafka.fetchWaitMilliseconds
        options.server.maxConnections = max(options.server.maxConnections, most + 256)
        let service = try RecipeService(options: options)
        try service.start()
        let port = service.port
        let producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
        defer { try? producer.shutdown() }
        let builder = CommandBuilder(source: RecipeAPI.source)
        say("bench streams: \(counts.map(String.init).joined(separator: ", ")) streams, \(appends) appends each way, \(readerThreads) reader threads, 3 brokers, 6 partitions, room for \(files) connections")

        let baselineRecipes = try (0..<4).map { try savedRecipe(service, builder, title: "Baseline \($0)") }
        var perAppendCPU: [Int: Double] = [:]
        for count in counts {
            let baseline = try HTTPBenchmark.appendToVisible(port: port, ids: baselineRecipes, clients: 1, seconds: seconds)
            let baseP99 = HTTPBenchmark.percentile(baseline.latencies, 0.99)
            say(String(format: "  %d stream%@:", count, count == 1 ? "" : "s"))
            say(String(format: "    append→visible at one client (POST, then GET ?after=): p50 %.2f ms, p99 %.2f ms (%d round trips)",
                       HTTPBenchmark.percentile(baseline.latencies, 0.5) * 1000, baseP99 * 1000, baseline.requests))

            let recipe = try savedRecipe(service, builder, title: "Followed by \(count)")
            let rssBefore = residentBytes()
            let opening = ContinuousClock.now
            let subscribers = try StreamSubscribersProcess(port: port, path: "/v1/recipes/\(recipe)/events", count: count,
                                                           readerThreads: readerThreads)
            defer { subscribers.stop() }
            try subscribers.expect("ready")
            let rssAfter = residentBytes()
            say(String(format: "    %d streams opened and caught up in %.2f s; memory per idle stream %.1f KB (the service's RSS +%.1f MB)",
                       count, (ContinuousClock.now - opening).seconds, Double(rssAfter - rssBefore) / Double(count) / 1024,
                       Double(rssAfter - rssBefore) / 1_048_576))

            var decisions = 0
            let client = try KeepAliveClient(port: port)
            for via in Via.allCases {
                let cpuStart = AppendBenchmark.cpuSeconds().own
                var pending: [KafkaPendingBatch] = []
                for index in 0..<appends {
                    let title = "\(via == .post ? "Posted" : "Produced") \(count).\(index)"
                    let start = StreamSubscribers.monotonicNanoseconds()
                    switch via {
                    case .post:
                        let body = Array(#"{"type":"TitleChanged","data":{"title":"\#(title)"}}"#.utf8)
                        let answer = try client.request("POST", "/v1/recipes/\(recipe)/commands", body: body)
                        guard answer.status == 202 else { throw BenchmarkError("POST: \(answer.status)") }
                    case .producer:
                        let envelope = try builder.envelope(kind: .titleChanged, data: ["title": title], recipeID: recipe, actor: "bench")
                        pending.append(producer.enqueue([service.api.appender.message(envelope, source: "recipes-cli")]))
                    }
                    decisions += 1
                    try subscribers.send("wait \(decisions) \(start)")
                    try subscribers.expect("ok")
                }
                for batch in pending where batch.results().contains(where: { (try? $0.get()) == nil }) {
                    throw BenchmarkError("the producer could not append")
                }
                let cpu = AppendBenchmark.cpuSeconds().own - cpuStart
                try subscribers.send("report")
                let report = try subscribers.expect("report").split(separator: " ").compactMap { Double($0) }
                guard report.count == 5 else { throw BenchmarkError("the subscribers' report is not understood") }
                let (p50, p99, slowest, events, readers) = (report[0], report[1], report[2], Int(report[3]), report[4])
                if via == .post { perAppendCPU[count] = cpu / Double(appends) }
                say(String(format: "    %@ → event at every subscriber: p50 %.2f ms, p99 %.2f ms, max %.2f ms over %d events; p99 %@ %.2f ms of append→visible (aim ≤ +10 ms); the service's CPU %.1f µs per delivered event, %.2f ms per append (the subscribers' process: %.1f µs per event)",
                           via.rawValue, p50 * 1000, p99 * 1000, slowest * 1000, events, p99 >= baseP99 ? "+" : "−", abs(p99 - baseP99) * 1000,
                           cpu / Double(events) * 1e6, cpu / Double(appends) * 1000, readers / Double(events) * 1e6))
            }
        }
        if let one = perAppendCPU[1] {
            for (count, cpu) in perAppendCPU.sorted(by: { $0.key < $1.key }) where count > 1 {
                say(String(format: "  CPU per added subscriber's event (POST phases, against 1 stream): %.1f µs at %d streams", (cpu - one) / Double(count - 1) * 1e6, count))
            }
        }
        service.shutdown()
        withExtendedLifetime(kafka) {}
    }

    /// A recipe started, titled, given an ingredient and saved through the service's producer: a
    /// stream of it has a short history; its id once the read model has it.
    static func savedRecipe(_ service: RecipeService, _ builder: CommandBuilder, title: String) throws -> RecipeID {
        let id = RecipeID(made: UUID().uuidString.lowercased())
        let commands: [(RecipeCommand.Kind, [String: any Sendable])] = [
            (.draftStarted, [:]), (.titleChanged, ["title": title]), (.ingredientAdded, ["name": "Flour", "amount": 250, "unit": "g"]),
            (.recipeSaved, [:]),
        ]
        var last: [Int32: Int64] = [:]
        let envelopes = try commands.map { try builder.envelope(kind: $0.0, data: $0.1, recipeID: id, actor: "bench") }
        for result in service.producer.sendBatch(envelopes.map { service.api.appender.message($0, source: RecipeAPI.source) }) {
            let report = try result.get()
            last[report.partition] = max(last[report.partition] ?? 0, report.offset)
        }
        guard try service.api.readModel.waitUntilReached(last, deadline: .now + .seconds(120)) else {
            throw BenchmarkError("the projector did not fold a new recipe in 120 s")
        }
        return id
    }

    /// This process's resident memory (`/proc/self/statm`).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }
}
