import Foundation
import Kafka
import RecipeCLI
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// `recipes-bench idle`: what an idle `recipes dev` costs (CPU and threads, read from `/proc`),
/// next to an idle raw client pair, a consumer reading a topic at its end and a producer, on an
/// embedded cluster of this process, in the same run.
enum IdleBenchmark {
    static let spec = CommandSpec(
        name: "recipes-bench idle",
        summary: "CPU and threads of an idle `recipes dev` (empty log, no client) against an idle KafkaConsumer and KafkaProducer, in one run.",
        abstract: "An idle recipes dev's CPU and threads against an idle client pair.",
        options: [
            .value("seconds", "S", "Duration of each measurement.", default: "30"),
            .value("rounds", "R", "Rounds, alternating the two.", default: "2"),
            .value("partitions", "P", "Partitions of dev's new log.", default: "6"),
        ],
        discussion: """
            recipes is looked for next to recipes-bench; dev runs with --fresh in a folder of its own and
            is measured once it says it is ready (and 2 s more). The client pair reads and writes a topic
            of that many partitions on a 3-broker embedded cluster with librdkafka's default fetch wait.
            """)

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let seconds = try args.int("seconds", in: 1...3600)!
        let rounds = try args.int("rounds", in: 1...100)!
        let partitions = try args.int("partitions", in: 1...1000)!
        let recipes = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("recipes").path
        say("bench idle: \(seconds) s each, \(rounds) rounds, dev with \(partitions) partitions")
        for round in 1...rounds {
            let dev = try measureDev(recipes, seconds: seconds, partitions: partitions)
            say(String(format: "  round %d  idle recipes dev: %.2f %% of a core, %d threads (aim ≤ 1 %% of a core)", round, dev.percent, dev.threads))
            let pair = try measureClientPair(seconds: seconds, partitions: partitions)
            say(String(format: "  round %d  idle KafkaConsumer + KafkaProducer (and the embedded cluster): %.2f %% of a core, %d threads",
                       round, pair.percent, pair.threads))
        }
    }

    struct Usage {
        var percent: Double
        var threads: Int
    }

    /// CPU seconds (user and system) of a process so far, from `/proc/PID/stat`.
    static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The fields after the command name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: ")") else { throw BenchmarkError("cannot read /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15 of the line; 12 and 13 after the name.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw BenchmarkError("cannot read the CPU times in /proc/\(pid)/stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func threads(of pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
    }

    static func measure(_ pid: Int32, seconds: Int) throws -> Usage {
        let threadCount = threads(of: pid)
        let (start, cpu) = (ContinuousClock.now, try cpuSeconds(of: pid))
        Thread.sleep(forTimeInterval: Double(seconds))
        let used = try cpuSeconds(of: pid) - cpu
        return Usage(percent: 100 * used / (ContinuousClock.now - start).seconds, threads: threadCount)
    }

    static func measureDev(_ recipes: String, seconds: Int, partitions: Int) throws -> Usage {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bench-idle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let info = work.appendingPathComponent("info.json").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: recipes)
        process.arguments = ["dev", "--fresh", "--data", work.appendingPathComponent("data").path, "--port", "0",
                             "--partitions", String(partitions), "--info-file", info]
        let errors = AppendBenchmark.work(pipe: process)
        try process.run()
        defer {
            process.interrupt()
            process.waitUntilExit()
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while !FileManager.default.fileExists(atPath: info) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw BenchmarkError("recipes dev did not get ready: \(errors.text.suffix(500))")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 2)
        return try measure(process.processIdentifier, seconds: seconds)
    }

    /// This process's own CPU and threads while an embedded cluster, a consumer assigned to a
    /// topic at its end (polling), and a producer sit idle.
    static func measureClientPair(seconds: Int, partitions: Int) throws -> Usage {
        let kafka = try EmbeddedKafka(brokers: 3)
        let topic = "bench-idle-\(UUID().uuidString.prefix(8))"
        try kafka.createTopic(topic, partitions: partitions, replicationFactor: 3)
        let config = KafkaConfig(bootstrapServers: kafka.bootstrapServers)
        let producer = try KafkaProducer(config: config)
        _ = try producer.send(topic: topic, key: "k", value: Array("v".utf8))
        let consumer = try KafkaConsumer(config: config)
        try consumer.assign(topic: topic)
        let stop = Locked(false)
        let polling = OwnedThread(name: "bench-idle-poll")
        polling.start {
            while !stop.withLock({ $0 }) { _ = try? consumer.poll(timeout: .milliseconds(100)) }
        }
        Thread.sleep(forTimeInterval: 2)
        let usage = try measure(getpid(), seconds: seconds)
        stop.withLock { $0 = true }
        polling.join()
        consumer.close()
        try producer.shutdown()
        withExtendedLifetime(kafka) {}
        return usage
    }
}
