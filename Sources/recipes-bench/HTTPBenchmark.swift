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

/// `recipes-bench http`: requests/s and latency of the detail and list routes
/// over real sockets (keep-alive connections), next to the same queries made on
/// the read model directly; append → visible latency through the API; and a
/// detail query's latency while other clients hold the server (far-future `after=`
/// queries in flight, idle connections held open), next to the same query unloaded.
enum HTTPBenchmark {
    static let spec = CommandSpec(
        name: "recipes-bench http",
        summary: "Measure the HTTP API (detail, list, append→visible on 1 and 16 clients) against direct read-model queries in the same run.",
        abstract: "Detail/list requests/s and latency, and append→visible latency.",
        options: [
            .value("recipes", "N", "Sample recipes appended through the API first.", default: "500"),
            .value("connections", "C", "Concurrent keep-alive connections.", default: "8"),
            .value("seconds", "S", "Duration of each request phase.", default: "5"),
            .value("load-rounds", "R", "Paired rounds of a detail query's latency: unloaded, under far-future `after=` queries, beside idle connections (0: none).", default: "2"),
            .value("far-future", "N", "Connections sending `after=` far past the log's end (and, as a control, plain detail queries), one query after another, in the load rounds.", default: "300"),
            .value("idle", "N", "Idle connections held open in the load rounds.", default: "1100"),
            .value("fetch-wait", "MS", "The consumers' fetch.wait.max.ms, which bounds append → visible on the embedded broker; the default is `recipes dev`'s.",
                   default: String(RecipeService.Options.devFetchWaitMilliseconds)),
            .value("connection-memory", "KIB", "The server's memory per connection (`HTTPServer.Limits.connectionMemoryLimit`), which libmicrohttpd zeroes between requests.",
                   default: String(HTTPServer.Limits().connectionMemoryLimit / 1024)),
            .value("only", "PHASES", "Comma-separated phases to run: \(phases.joined(separator: ","))."),
        ],
        discussion: """
            The client is in-process (one thread per connection), so client and server share the cores.
            The load rounds connect from several loopback addresses (at most 60 connections each, as clients
            spread over addresses would) and raise the server's connection limit to hold every idle connection.
            """)

    /// `floor`: a detail of a recipe the store does not have (404 after one indexed lookup): what
    /// nearly any request costs here besides its own work.
    static let phases = ["detail", "list", "floor", "visible", "load"]

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let only = args.string("only").map { Set($0.split(separator: ",").map(String.init)) } ?? Set(phases)
        if let unknown = only.subtracting(phases).sorted().first {
            throw UsageError("--only: unknown phase \"\(unknown)\"; phases are \(phases.joined(separator: ","))")
        }
        let recipes = try args.int("recipes", in: 1...100_000)!
        let connections = try args.int("connections", in: 1...512)!
        let seconds = try args.int("seconds", in: 1...600)!
        let loadRounds = try args.int("load-rounds", in: 0...100)!
        let farFuture = try args.int("far-future", in: 1...5_000)!
        let idle = try args.int("idle", in: 1...10_000)!
        let fetchWait = try args.int("fetch-wait", in: 1...500)!
        let connectionMemory = try args.int("connection-memory", in: 32...4096)!

        let kafka = try EmbeddedKafka(brokers: 3)
        let topic = RecipeTopics().edits
        try kafka.createTopic(topic, partitions: 6, replicationFactor: 3)
        for decided in [RecipeTopics().decisions, RecipeTopics().committed] { try kafka.createTopic(decided, partitions: 6, replicationFactor: 3) }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("bench-http-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        var options = RecipeService.Options(kafka: KafkaConfig(bootstrapServers: kafka.bootstrapServers), topics: RecipeTopics(), storePath: store)
        options.port = 0
        options.fetchWaitMilliseconds = fetchWait
        options.server.connectionMemoryLimit = connectionMemory * 1024
        // Room for every idle connection of the load rounds, and the others: the server holds them all.
        options.server.maxConnections = max(options.server.maxConnections, idle + farFuture + connections + 64)
        let service = try RecipeService(options: options)
        try service.start()
        let port = service.port
        say("bench http: \(recipes) recipes, \(connections) connections, \(seconds) s per phase, port \(port)")

        // Sample data through the command gateway.
        let builder = CommandBuilder(source: RecipeAPI.source)
        var ids: [RecipeID] = []
        var last: [Int32: Int64] = [:]
        for index in 0..<recipes {
            let id = RecipeID(made: UUID().uuidString.lowercased())
            ids.append(id)
            let commands: [(RecipeCommand.Kind, [String: any Sendable])] = [
                (.draftStarted, [:]), (.titleChanged, ["title": "Recipe \(index)"]), (.servingsChanged, ["servings": 4]),
                (.ingredientAdded, ["name": "Flour", "amount": 250, "unit": "g"]),
                (.ingredientAdded, ["name": "Milk", "amount": 0.5, "unit": "l"]),
                (.tagAdded, ["text": "@bench"]), (.recipeSaved, [:]),
            ]
            let envelopes = try commands.map { try builder.envelope(kind: $0.0, data: $0.1, recipeID: id, actor: "bench") }
            for result in service.producer.sendBatch(envelopes.map { service.api.appender.message($0, source: RecipeAPI.source) }) {
                let report = try result.get()
                last[report.partition] = max(last[report.partition] ?? 0, report.offset)
            }
        }
        guard try service.api.readModel.waitUntilReached(last, deadline: .now + .seconds(120)) else {
            throw UsageError("the projector did not catch up with the sample data in 120 s")
        }

        let readModel = service.api.readModel
        let recipeIDs = ids
        let paths = ids.map { "/v1/recipes/\($0)" }
        if only.contains("detail") {
            let direct = measureDirect(seconds: seconds, threads: connections) { index in
                _ = try readModel.detail(recipeIDs[index % recipeIDs.count])
            }
            let detail = try measureHTTP(port: port, seconds: seconds, connections: connections) { paths[$0 % paths.count] }
            report("detail", http: detail, direct: direct, issue: "issue 50: 0.29× (8.9k/s) when filed; aim ≥ 0.6×")
        }
        if only.contains("list") {
            let directList = measureDirect(seconds: seconds, threads: connections) { _ in _ = try readModel.list(limit: 20) }
            let list = try measureHTTP(port: port, seconds: seconds, connections: connections) { _ in "/v1/recipes?limit=20" }
            report("list (20 items)", http: list, direct: directList, issue: "issue 50: 0.46× (3.8k/s) when filed; aim ≥ 0.6× and ≥ 10k/s")
        }

        if only.contains("floor") {
            let unknown = "/v1/recipes/\(UUID().uuidString.lowercased())"
            let floor = try measureHTTP(port: port, seconds: seconds, connections: connections, status: 404) { _ in unknown }
            say(String(format: "  floor (a 404 for a recipe the store does not have): HTTP %.0f req/s (p50 %.2f ms, p99 %.2f ms); CPU a request: %.1f µs in the server, %.1f µs in the client",
                       floor.perSecond, percentile(floor.latencies, 0.5) * 1000, percentile(floor.latencies, 0.99) * 1000,
                       floor.othersMicroseconds, floor.loopMicroseconds))
        }

        // Append → visible: POST a title change, then GET the draft with after=<position>: the
        // command goes through the decider and the projector before the GET answers.
        for clients in [1, 16] where only.contains("visible") {
            let measure = try appendToVisible(port: port, ids: recipeIDs, clients: clients, seconds: max(1, seconds / 2))
            say(String(format: "  append→visible (POST, then GET ?after=), %2d client%@: p50 %.2f ms, p99 %.2f ms over %d round trips (%.0f/s; aim p99 ≤ %d ms)",
                       clients, clients == 1 ? " " : "s", percentile(measure.latencies, 0.5) * 1000,
                       percentile(measure.latencies, 0.99) * 1000, measure.requests, Double(measure.requests) / measure.elapsed,
                       clients == 1 ? 12 : 25))
        }

        if loadRounds > 0, only.contains("load") {
            try measureUnderLoad(port: port, paths: paths, seconds: seconds, rounds: loadRounds, farFuture: farFuture, idle: idle)
        }
        service.shutdown()
        withExtendedLifetime(kafka) {}
    }

    /// A detail query on one keep-alive connection, one request after another, in paired rounds:
    /// unloaded; while `farFuture` connections each send `after=` far past the log's end (answered
    /// 409 `positionAhead` once the brokers said where the log ends) one after another; while as many
    /// send plain detail queries (the control); and beside `idle` connections that send nothing.
    /// Each loaded figure is set against its round's unloaded one.
    static func measureUnderLoad(port: UInt16, paths: [String], seconds: Int, rounds: Int, farFuture: Int, idle: Int) throws {
        say("  a detail query's latency on one connection, \(seconds) s per phase, \(rounds) paired rounds:")
        let probe = try KeepAliveClient(port: port)
        func detail() throws -> Measure {
            let measure = run(seconds: seconds, threads: 1) { _ in
                { index in
                    let response = try probe.request("GET", paths[index % paths.count])
                    guard response.status == 200 else { throw UsageError("GET detail under load: \(response.status)") }
                }
            }
            guard measure.requests > 0 else { throw UsageError("no detail query succeeded") }
            return measure
        }
        func line(_ name: String, _ measure: Measure, against quiet: Measure?, _ extra: String = "") -> String {
            var text = String(format: "    %@: p50 %.2f ms, p99 %.2f ms (%d queries)", name, percentile(measure.latencies, 0.5) * 1000,
                              percentile(measure.latencies, 0.99) * 1000, measure.requests)
            if let quiet {
                text += String(format: "; ×%.2f p50, ×%.2f p99 of unloaded", percentile(measure.latencies, 0.5) / percentile(quiet.latencies, 0.5),
                               percentile(measure.latencies, 0.99) / percentile(quiet.latencies, 0.99))
            }
            return text + extra
        }
        for round in 1...rounds {
            let quiet = try detail()
            say("   round \(round)")
            say(line("unloaded", quiet, against: nil))

            // The same number of connections sending plain detail queries: what any load of that
            // shape costs the probe on these cores, against which the far-future load is judged.
            let loads: [(String, @Sendable (Int, Int) -> String, Int)] = [
                ("far-future after= queries", { index, count in "/v1/recipes?after=\(index % 6):\(1_000_000_000 + count)" }, 409),
                ("plain detail queries (control)", { index, count in paths[(index * 7919 + count) % paths.count] }, 200),
            ]
            for (name, path, status) in loads {
                let load = try ClosedLoopLoad(port: port, connections: farFuture, path: path, status: status)
                let cpu = AppendBenchmark.cpuSeconds().own
                let loaded = try detail()
                let answered = load.stop()
                let used = AppendBenchmark.cpuSeconds().own - cpu
                say(line("\(farFuture) \(name) in flight", loaded, against: quiet,
                         String(format: "; they were answered %.0f/s, %.0f µs of CPU each (the whole process's: server, brokers, clients)",
                                Double(answered) / loaded.elapsed, used / Double(max(answered, 1)) * 1e6)))
            }

            let sockets = try (0..<idle).map { try openSocket(port: port, from: loopbackSource(for: $0, net: 1)) }
            let beside = try detail()
            let held = sockets.count { isOpen($0) }
            sockets.forEach { close($0) }
            say(line("\(idle) idle connections open", beside, against: quiet, "; \(held) still held by the server after the phase"))
        }
    }

    /// A source address for the `index`th connection of a load: 60 per address from 127.0.`net`.1 on,
    /// so that the load is many clients (none near the server's per-client limit) and none is the probe's 127.0.0.1.
    static func loopbackSource(for index: Int, net: Int) -> String {
        "127.0.\(net).\(1 + index / 60)"
    }

    /// Connections that each send `path(connection, count)` one after another until stopped, each
    /// answer expected to be `status`.
    final class ClosedLoopLoad: Sendable {
        private let stopped = Locked(false)
        private let threads: [OwnedThread]
        private let answers = ResultsBox()

        init(port: UInt16, connections: Int, path: @escaping @Sendable (Int, Int) -> String, status: Int) throws {
            let clients = try (0..<connections).map { try KeepAliveClient(port: port, from: HTTPBenchmark.loopbackSource(for: $0, net: 2)) }
            let (stopped, answers, started) = (stopped, answers, Locked(0))
            threads = clients.enumerated().map { index, client in
                OwnedThread(name: "bench-load") {
                    var count = 0
                    var first = true
                    while !stopped.withLock({ $0 }) {
                        let response = try? client.request("GET", path(index, count))
                        if first { started.withLock { $0 += 1 }; first = false }
                        guard response?.status == status else { break }
                        count += 1
                    }
                    answers.add([Double(count)])
                }
            }
            // Measure once every connection has had its first answer: all of them are in flight.
            started.wait(until: { $0 == clients.count })
        }

        /// Stops the load and waits for it; how many queries were answered in all.
        func stop() -> Int {
            stopped.withLock { $0 = true }
            for thread in threads { thread.join() }
            return Int(answers.all.reduce(0, +))
        }
    }

    /// A connected TCP socket to the server from `source`.
    static func openSocket(port: UInt16, from source: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw UsageError("socket failed: \(errno)") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, connected == 0 else {
            close(fd)
            throw UsageError("cannot connect to 127.0.0.1:\(port) from \(source): \(errno)")
        }
        return fd
    }

    /// Whether the server still holds the connection: a closed one reads as the end at once.
    static func isOpen(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    struct Measure {
        var requests: Int
        var elapsed: Double
        var latencies: [Double]
        /// CPU seconds of the whole process during the phase, and of the measuring threads alone.
        var processCPU = 0.0
        var loopCPU = 0.0
        var perSecond: Double { Double(requests) / elapsed }
        /// µs of CPU a request: all but the measuring threads' (the server's, over HTTP), and theirs.
        var othersMicroseconds: Double { (processCPU - loopCPU) / Double(max(requests, 1)) * 1e6 }
        var loopMicroseconds: Double { loopCPU / Double(max(requests, 1)) * 1e6 }
    }

    /// Rates and the ratio, and beside them the CPU a request costs: on a shared machine the rates
    /// follow the CPU the process is given, the CPU a request does not.
    static func report(_ name: String, http: Measure, direct: Measure, issue: String) {
        say(String(format: "  %@: HTTP %.0f req/s (p50 %.2f ms, p99 %.2f ms); read model directly %.0f/s; ratio %.2f (%@)",
                   name, http.perSecond, percentile(http.latencies, 0.5) * 1000, percentile(http.latencies, 0.99) * 1000,
                   direct.perSecond, http.perSecond / direct.perSecond, issue))
        say(String(format: "    CPU a request: HTTP %.1f µs in the server and %.1f µs in the in-process client; directly %.1f µs a query",
                   http.othersMicroseconds, http.loopMicroseconds, direct.processCPU / Double(max(direct.requests, 1)) * 1e6))
    }

    static func measureDirect(seconds: Int, threads: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> Measure {
        run(seconds: seconds, threads: threads) { _ in
            { index in try body(index) }
        }
    }

    static func measureHTTP(port: UInt16, seconds: Int, connections: Int, status: Int = 200,
                            _ path: @escaping @Sendable (Int) -> String) throws -> Measure {
        let measure = run(seconds: seconds, threads: connections) { _ in
            let client = try? KeepAliveClient(port: port)
            return { index in
                guard let client else { throw UsageError("cannot connect to port \(port)") }
                let response = try client.request("GET", path(index))
                guard response.status == status else { throw UsageError("GET \(path(index)): \(response.status)") }
            }
        }
        guard measure.requests > 0 else { throw UsageError("no request succeeded") }
        return measure
    }

    /// `clients` connections, each POSTing a title change to a recipe of its own and reading
    /// the draft back with `after=` the position it got, for `seconds`: each round trip timed.
    static func appendToVisible(port: UInt16, ids: [RecipeID], clients: Int, seconds: Int) throws -> Measure {
        let measure = run(seconds: seconds, threads: clients) { client in
            let connection = try KeepAliveClient(port: port)
            let id = ids[client % ids.count]
            return { index in
                let body = #"{"type":"TitleChanged","data":{"title":"Edited \#(index)"}}"#
                let posted = try connection.request("POST", "/v1/recipes/\(id)/commands", body: Array(body.utf8))
                guard posted.status == 202, let position = try? JSONDecoder().decode(CommandReceipt.self, from: Data(posted.body)).position else {
                    throw UsageError("append failed: \(posted.status) \(String(decoding: posted.body, as: UTF8.self))")
                }
                let read = try connection.request("GET", "/v1/recipes/\(id)/draft?after=\(position)")
                guard read.status == 200 else { throw UsageError("read failed: \(read.status)") }
            }
        }
        guard measure.requests > 0 else { throw UsageError("no append became visible") }
        return measure
    }

    /// Runs `threads` loops for `seconds`, each calling its operation with a running index, timing each call.
    static func run(seconds: Int, threads: Int,
                    _ make: @escaping @Sendable (Int) throws -> (Int) throws -> Void) -> Measure {
        let results = ResultsBox()
        let loopCPU = Locked(0.0)
        let processCPU = AppendBenchmark.cpuSeconds().own
        let start = ContinuousClock.now
        let deadline = start + .seconds(seconds)
        let running = (0..<threads).map { thread in
            OwnedThread(name: "bench-client") {
                let threadCPU = threadCPUSeconds()
                defer { loopCPU.withLock { $0 += threadCPUSeconds() - threadCPU } }
                var latencies: [Double] = []
                if let operation = try? make(thread) {
                    var index = thread * 7919
                    while ContinuousClock.now < deadline {
                        let begin = ContinuousClock.now
                        do { try operation(index) } catch { break }
                        latencies.append((ContinuousClock.now - begin).seconds)
                        index += 1
                    }
                }
                results.add(latencies)
            }
        }
        for thread in running { thread.join() }
        let latencies = results.all.sorted()
        return Measure(requests: latencies.count, elapsed: (ContinuousClock.now - start).seconds, latencies: latencies,
                       processCPU: AppendBenchmark.cpuSeconds().own - processCPU, loopCPU: loopCPU.withLock { $0 })
    }

    /// CPU seconds (user and system) of the calling thread.
    static func threadCPUSeconds() -> Double {
        var usage = rusage()
        // RUSAGE_THREAD (1 on Linux): the module map of Glibc leaves it out.
        getrusage(__rusage_who_t(1), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    final class ResultsBox: Sendable {
        private let latencies = Locked([Double]())
        func add(_ more: [Double]) { latencies.withLock { $0 += more } }
        var all: [Double] { latencies.withLock { $0 } }
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
}

/// A blocking HTTP/1.1 client on one keep-alive connection (responses must carry Content-Length).
/// It reads the head on its bytes into buffers it keeps: it shares the cores with the server it
/// measures, so what it spends a request is taken from the server's figure.
final class KeepAliveClient: @unchecked Sendable {
    private let fd: Int32
    private let port: UInt16
    /// Bytes received and not yet consumed: `buffer[consumed...]`.
    private var buffer: [UInt8] = []
    private var consumed = 0
    private var chunk = [UInt8](repeating: 0, count: 65536)

    struct Response {
        var status: Int
        var body: [UInt8]
    }

    /// `source`: the loopback address to connect from (the server limits connections per address).
    init(port: UInt16, from source: String = "127.0.0.1") throws {
        self.port = port
        fd = try HTTPBenchmark.openSocket(port: port, from: source)
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    func request(_ method: String, _ path: String, body: [UInt8] = [], contentType: String = "application/json") throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if method == "POST" { head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        bytes += body
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + sent, $0.count - sent) }
            guard n > 0 else { throw UsageError("write failed") }
            sent += n
        }
        var headEnd: Int?
        var searched = consumed
        while true {
            headEnd = Self.endOfHead(buffer, from: max(consumed, searched - 3))
            if headEnd != nil { break }
            searched = buffer.count
            try fill()
        }
        let (status, length) = Self.statusAndLength(buffer[consumed..<headEnd!])
        let bodyStart = headEnd! + 4
        while buffer.count < bodyStart + length { try fill() }
        let responseBody = Array(buffer[bodyStart..<(bodyStart + length)])
        consumed = bodyStart + length
        if consumed == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            consumed = 0
        }
        return Response(status: status, body: responseBody)
    }

    /// Where `\r\n\r\n` starts at or after `from`.
    private static func endOfHead(_ bytes: [UInt8], from: Int) -> Int? {
        var index = from
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// The status code of the head's first line and its Content-Length (0 without one).
    private static func statusAndLength(_ head: ArraySlice<UInt8>) -> (Int, Int) {
        let lines = head.split(separator: 10)
        let status = lines.first.flatMap { line in
            line.split(separator: UInt8(ascii: " ")).dropFirst().first.map { Self.number($0) }
        } ?? 0
        let name = Array("content-length:".utf8)
        var length = 0
        for line in lines.dropFirst() where line.count > name.count
            && zip(line.prefix(name.count), name).allSatisfy({ $0 | 0x20 == $1 || $0 == $1 }) {
            length = number(line.dropFirst(name.count))
        }
        return (status, length)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { value, byte in (48...57).contains(byte) ? value * 10 + Int(byte - 48) : value }
    }

    private func fill() throws {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw UsageError("connection closed") }
        buffer.append(contentsOf: chunk[0..<n])
    }
}
