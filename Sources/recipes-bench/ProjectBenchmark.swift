import Foundation
import Kafka
import RecipeCLI
import RecipeDecisions
import RecipeDomain
import RecipeGenerators
import RecipeProjection
import RecipeWire

/// `recipes-bench project`.
enum ProjectBenchmark {
    static let spec = CommandSpec(
        name: "recipes-bench project",
        summary: "Project the decisions of a topic of recipe commands into a fresh store, next to raw consumption of the decisions topic, and print commands/s and peak memory.",
        abstract: "Decisions/s projected into a fresh store vs raw consumption, and peak memory.",
        options: BenchmarkLog.options + [
            .value("db", "FILE", "Store to create (deleted first).", default: "/tmp/recipes-bench.db"),
            .value("batch", "N", "Records per transaction at most.", default: "200000"),
        ])

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let path = args.string("db")!
        let batch = try args.int("batch", in: 1...10_000_000)!
        removeStore(path)
        let log = try BenchmarkLog.publish(args, benchmark: "project")
        let (config, topic, commands) = (log.config, log.topic, log.commands)

        resetPeakMemory()
        var rssAtTenth: Int?
        let projector = try Projector(storePath: path, kafka: config, topic: topic, batchSize: batch)
        let start = ContinuousClock.now
        let totals = try projector.catchUp(timeout: nil) { progress in
            if rssAtTenth == nil, progress.totals.records >= commands / 10 { rssAtTenth = peakMemoryKB() }
        }
        let seconds = (ContinuousClock.now - start).seconds
        let rssAtEnd = peakMemoryKB()
        say(String(format: "  projection           %10.0f decisions/s  (%d decisions: %d accepted, %d rejected, %d duplicates; %.2f s)",
                   Double(totals.records) / seconds, totals.records, totals.accepted, totals.rejected, totals.duplicates, seconds))
        say(String(format: "  = %.1f%% of raw consumption", 100 * (Double(totals.records) / seconds) / log.rawRate))
        say("  peak RSS: \(rssAtTenth.map { "\($0 / 1024) MiB" } ?? "?") at \(commands / 10) commands, \(rssAtEnd / 1024) MiB at \(totals.records)")
        withExtendedLifetime(log) {} // the embedded broker serves until here
    }
}

/// The topic the project and replay benchmarks read: an embedded broker, the
/// generated mix published into the edits topic and decided into the decisions
/// topic, and raw consumption of the decisions as the baseline.
struct BenchmarkLog {
    static let options: [OptionSpec] = [
        .value("commands", "N", "Commands in the topic.", default: "1000000"),
        .value("recipes", "R", "Recipes they edit.", default: "10000"),
        .value("partitions", "P", "Partitions (the embedded broker keeps 5 MiB each).", default: "128"),
        .value("seed", "S", "Seed of the command mix.", default: "1"),
        .value("brokers", "HOST:PORT", "Publish into this cluster's empty topics (as `recipes broker` makes them) instead of an embedded broker, so another build can read the same log; --partitions is then theirs."),
    ]

    /// The embedded broker the log lives in; nil when it was published into `--brokers`.
    let kafka: EmbeddedKafka?
    let config: KafkaConfig
    let topics = RecipeTopics()
    /// The decisions topic, which projectors fold (empty when the log was published undecided).
    var topic: String { topics.decisions }
    let commands: Int
    /// A recipe the log has commands for.
    let recipe: RecipeID
    /// Raw consumption of the decisions topic, records/s (of the edits topic when published undecided).
    let rawRate: Double
    /// Raw consumption of the edits topic, records/s.
    let rawEditsRate: Double

    /// Consumes the whole topic with a plain consumer; prints and returns records/s.
    static func measureRaw(topic: String, config: KafkaConfig, records: Int) throws -> Double {
        let (start, startCPU) = (ContinuousClock.now, processCPUSeconds())
        let consumed = try consumeRaw(topic: topic, config: config, records: records)
        let seconds = (ContinuousClock.now - start).seconds
        say(String(format: "  raw consumption      %10.0f records/s  (%d records, %.2f s, %.2f CPU s)",
                   Double(consumed) / seconds, consumed, seconds, processCPUSeconds() - startCPU))
        return Double(consumed) / seconds
    }

    /// Publishes the commands and, when `decided`, has a decider decide them all (timed).
    static func publish(_ args: ParsedArguments, benchmark: String, decided: Bool = true) throws -> BenchmarkLog {
        let commands = try args.int("commands", in: 1...10_000_000)!
        let recipes = try args.int("recipes", in: 1...1_000_000)!
        let seed = try args.int("seed", in: 0...Int.max)!
        let topics = RecipeTopics(), topic = topics.edits
        let kafka: EmbeddedKafka?, config: KafkaConfig
        var partitions = try args.int("partitions", in: 1...1024)!
        if let brokers = args.string("brokers") {
            (kafka, config) = (nil, KafkaConfig(bootstrapServers: brokers))
            // The cluster's topics say how many there are, whatever --partitions says.
            let probe = try KafkaConsumer(config: config, readsHeaders: false)
            defer { probe.close() }
            guard let count = try probe.topics()[topic] else { throw BenchmarkError("\(brokers) has no topic \(topic): make it with recipes topics create") }
            partitions = count
        } else {
            let embedded = try EmbeddedKafka(brokers: 1)
            for name in [topic, topics.decisions, topics.committed] { try embedded.createTopic(name, partitions: partitions) }
            (kafka, config) = (embedded, KafkaConfig(bootstrapServers: embedded.bootstrapServers))
        }
        say("bench \(benchmark): \(commands) commands over \(recipes) recipes, \(partitions) partitions")
        let (bytes, recipe) = try publish(commands: commands, recipes: recipes, seed: UInt64(seed), topic: topic, config: config)
        say(String(format: "  published %d records (%.1f MB)", commands, Double(bytes) / 1e6))
        let rawEdits = try measureRaw(topic: topic, config: config, records: commands)
        guard decided else {
            return BenchmarkLog(kafka: kafka, config: config, commands: commands, recipe: recipe, rawRate: rawEdits, rawEditsRate: rawEdits)
        }
        let (start, startCPU) = (ContinuousClock.now, processCPUSeconds())
        let totals = try Decider(kafka: config, topics: topics).catchUp(timeout: .seconds(3600))
        let seconds = (ContinuousClock.now - start).seconds
        say(String(format: "  decided              %10.0f commands/s  (%d decisions, %.2f s, %.2f CPU s)",
                   Double(totals.decided) / seconds, totals.decided, seconds, processCPUSeconds() - startCPU))
        let rawRate = try measureRaw(topic: topics.decisions, config: config, records: commands)
        return BenchmarkLog(kafka: kafka, config: config, commands: commands, recipe: recipe, rawRate: rawRate, rawEditsRate: rawEdits)
    }

    /// Generates the mix in chunks and appends it, so the whole log never sits in memory.
    /// Returns the bytes appended and the id of a recipe in the log.
    static func publish(commands: Int, recipes: Int, seed: UInt64, topic: String,
                        config: KafkaConfig) throws -> (bytes: Int, recipe: RecipeID) {
        // The embedded broker answers a fetch with one record batch per partition
        // (a real broker sends up to max.partition.fetch.bytes of them), so a log of
        // small batches is slow to read whatever the consumer does. A longer linger
        // makes batches of a few hundred records, as a busy producer's would.
        var producerConfig = config
        producerConfig["linger.ms"] = "100"
        let producer = try KafkaProducer(config: producerConfig)
        let encoder = RecordEncoder(source: "bench")
        var generator = RandomCommandGenerator(seed: seed, invalidRate: 0.02, duplicateRate: 0.01, expectedRevisionRate: 0.02)
        var states = (0..<recipes).map { _ in Recipe(id: generator.recipeID()) }
        let sample = states[0].id
        let header = [KafkaHeader(key: WireFormat.contentTypeHeaderName, value: WireFormat.contentType)]
        var bytes = 0, sent = 0
        var pending: [KafkaPendingBatch] = []
        while sent < commands {
            var batch: [KafkaProducerMessage] = []
            for _ in 0..<min(10_000, commands - sent) {
                let index = Int(generator.random.next() % UInt64(recipes))
                // A deleted recipe takes no more edits in real use: a new one takes its place.
                if states[index].isDeleted { states[index] = Recipe(id: generator.recipeID()) }
                let envelope = generator.nextEnvelope(for: states[index])
                RecipeJudge.decide(envelope, recipe: &states[index])
                let value = encoder.encode(envelope)
                bytes += value.count
                batch.append(KafkaProducerMessage(topic: topic, key: RecordKey.key(forRecipe: envelope.recipeID), value: value, headers: header))
            }
            sent += batch.count
            pending.append(producer.enqueue(batch))
            if pending.count == 8 { try pending.removeFirst().results().forEach { _ = try $0.get() } }
        }
        for batch in pending { try batch.results().forEach { _ = try $0.get() } }
        try producer.shutdown()
        return (bytes, sample)
    }

    static func consumeRaw(topic: String, config: KafkaConfig, records: Int) throws -> Int {
        var consumerConfig = config
        consumerConfig["fetch.max.bytes"] = String(32 << 20)
        consumerConfig["queued.min.messages"] = String(1_000_000) // as the projector's
        consumerConfig["queued.max.messages.kbytes"] = String(128 << 10)
        let consumer = try KafkaConsumer(config: consumerConfig)
        defer { consumer.close() }
        try consumer.assign(topic: topic)
        var count = 0
        let deadline = ContinuousClock.now + .seconds(600)
        while count < records, ContinuousClock.now < deadline {
            count += try consumer.poll(maxRecords: 10_000, timeout: .milliseconds(100)).count
        }
        return count
    }
}

/// Deletes a store and the files beside it.
func removeStore(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

/// CPU time this process has used, user and system, in seconds (every thread,
/// the embedded broker's included): the work a run took, beside its wall time.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Peak resident memory of this process (VmHWM), in KiB.
func peakMemoryKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }
    return 0
}

/// Starts peak-memory accounting afresh (Linux: writing 5 to clear_refs resets VmHWM).
func resetPeakMemory() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}
