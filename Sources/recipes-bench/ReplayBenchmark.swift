import Foundation
import RecipeAudit
import RecipeCLI
import RecipeProjection

/// `recipes-bench replay`.
enum ReplayBenchmark {
    static let spec = CommandSpec(
        name: "recipes-bench replay",
        summary: "Replay the decisions of a topic of recipe commands into a fresh store, next to raw consumption of the decisions topic; time `audit history` of one recipe, `audit export` of the whole log and `audit verify` of the store.",
        abstract: "Decisions/s replayed into a fresh store vs raw consumption; audit history, export and verify.",
        options: BenchmarkLog.options + [
            .value("rounds", "R", "Replays, each into a fresh store after raw consumption of the topic; the best of each is compared.",
                   default: "3"),
            .value("into", "FILE", "Store to create (deleted first).", default: "/tmp/recipes-bench-replay.db"),
            .value("batch", "N[,N…]", "Records per transaction at most, as `recipes replay --batch`; several (comma-separated) are replayed in turn in every round, so that they are compared in the same minutes.",
                   default: "200000"),
        ])

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let path = args.string("into")!
        let rounds = try args.int("rounds", in: 1...100)!
        let batches = try batchSizes(args.string("batch")!)
        let log = try BenchmarkLog.publish(args, benchmark: "replay")
        let (config, topic, recipe) = (log.config, log.topic, log.recipe)

        // Rounds, as the other benchmarks: on a shared machine a single run measures the neighbours too.
        var bestRaw = log.rawRate
        var bestReplay = [Int: Double]()
        var lastReplay = 0.0
        for round in 1...rounds {
            if round > 1 {
                bestRaw = max(bestRaw, try BenchmarkLog.measureRaw(topic: topic, config: config, records: log.commands))
            }
            for batch in batches {
                // What `recipes replay --into` runs, timed until the projector has closed
                // the store, as `recipes replay` waits for that.
                removeStore(path)
                let (start, startCPU) = (ContinuousClock.now, processCPUSeconds())
                let totals = try { try Projector(storePath: path, kafka: config, topic: topic, batchSize: batch).catchUp(timeout: nil) }()
                let seconds = (ContinuousClock.now - start).seconds
                lastReplay = seconds
                let rate = Double(totals.records) / seconds
                bestReplay[batch] = max(bestReplay[batch] ?? 0, rate)
                say(String(format: "  replay               %10.0f records/s  (%d records in %.2f s, %.2f CPU s%@)",
                           rate, totals.records, seconds, processCPUSeconds() - startCPU,
                           batches.count > 1 ? ", batches of \(batch)" : ""))
            }
        }
        // Issue 50's line: the figure when the issue was filed, and its aim.
        for batch in batches {
            say(String(format: "  best of %d: replay %.0f records/s = %.1f%% of raw consumption (%.0f records/s)%@ (aim ≥ 45 %%; issue 50: 32–38 %% when filed)",
                       rounds, bestReplay[batch]!, 100 * bestReplay[batch]! / bestRaw, bestRaw,
                       batches.count > 1 ? ", batches of \(batch)" : ""))
        }

        // What `recipes audit history` runs: one partition read and folded.
        let historyStart = ContinuousClock.now
        let auditor = try LogAuditor(kafka: config, topics: log.topics)
        let trail = try auditor.trail(of: recipe)
        let seconds = (ContinuousClock.now - historyStart).seconds
        // Asked after the timing: a watermark asked right after the reader lets its partition go
        // may wait for the client to find the leader again (half a second on the embedded broker).
        let end = try auditor.reader.end(of: trail.partition)
        say(String(format: "  audit history        %10.3f s  (%d records of recipe %@, %d read in partition %d)",
                   seconds, trail.records.count, recipe.text, end, trail.partition))

        // What `recipes audit export` runs, its lines made but not written: both logs read whole,
        // against reading both raw, one after the other, at the best rates of this run.
        let exportStart = ContinuousClock.now
        var lineBytes = 0
        let exported = try auditor.export { lineBytes += $0.json.utf8.count + 1 }.exported
        let exportSeconds = (ContinuousClock.now - exportStart).seconds
        let bothRaw = 1 / (1 / log.rawEditsRate + 1 / bestRaw)
        say(String(format: "  audit export         %10.0f records/s  (%d records, %.1f MB of lines, %.2f s) = %.1f%% of reading both topics raw (%.0f records/s)",
                   Double(exported) / exportSeconds, exported, Double(lineBytes) / 1e6, exportSeconds,
                   100 * Double(exported) / exportSeconds / bothRaw, bothRaw))

        // What `recipes audit verify` runs on the last round's store: a replay into a scratch store, then
        // every read model compared; against that replay's own time.
        let verifyStart = ContinuousClock.now
        let report = try StoreVerifier.verify(live: path, kafka: config, topic: topic,
                                              scratch: NSTemporaryDirectory() + "recipes-bench-verify-\(getpid())")
        say(String(format: "  audit verify         %10.3f s  (%d commands, %@; the last replay took %.3f s)",
                   (ContinuousClock.now - verifyStart).seconds, report.positions.values.reduce(0, +),
                   report.agree ? "every read model equal" : "DIFFERS", lastReplay))
        withExtendedLifetime(log) {} // the embedded broker serves until here
    }

    /// `--batch`: one size or several, comma-separated, each as `recipes replay --batch` takes it.
    static func batchSizes(_ text: String) throws -> [Int] {
        let sizes = text.split(separator: ",").map { Int($0.replacingOccurrences(of: "_", with: "")) }
        guard !sizes.isEmpty, sizes.allSatisfy({ $0.map { (1...1_000_000).contains($0) } ?? false }) else {
            throw UsageError("--batch must be integers in 1…1000000, comma-separated, got \"\(text)\"")
        }
        return sizes.map { $0! }
    }
}
