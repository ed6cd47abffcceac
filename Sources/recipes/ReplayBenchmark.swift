import Foundation
import RecipeAudit
import RecipeProjection

/// `recipes bench replay`.
enum ReplayBenchmark {
    static let spec = CommandSpec(
        name: "recipes bench replay",
        summary: "Replay a topic of recipe commands into a fresh store, next to raw consumption of the same topic, and time `audit history` of one recipe.",
        usage: "recipes bench replay [--commands N] [--recipes R] [--partitions P] [--into FILE]",
        options: BenchmarkLog.options + [
            .value("into", "FILE", "Store to create (deleted first).", default: "/tmp/recipes-bench-replay.db"),
        ])

    static func run(_ arguments: [String]) async throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let path = args.string("into")!
        removeStore(path)
        let log = try await BenchmarkLog.publish(args, benchmark: "replay")
        let (config, topic, recipe) = (log.config, log.topic, log.recipe)

        // What `recipes replay --into` runs.
        let (start, startCPU) = (ContinuousClock.now, processCPUSeconds())
        // Timed until the projector has closed the store, as `recipes replay` waits for that.
        let totals = try { try Projector(storePath: path, kafka: config, topic: topic, exclusive: true).catchUp(timeout: nil) }()
        let seconds = (ContinuousClock.now - start).seconds
        let rate = Double(totals.records) / seconds
        say(String(format: "  replay               %10.0f records/s  (%d records in %.2f s, %.2f CPU s) = %.1f%% of raw consumption",
                   rate, totals.records, seconds, processCPUSeconds() - startCPU, 100 * rate / log.rawRate))

        // What `recipes audit history` runs: one partition read and folded.
        let historyStart = ContinuousClock.now
        let auditor = try LogAuditor(kafka: config, topic: topic)
        let trail = try auditor.trail(of: recipe)
        let end = try auditor.reader.end(of: trail.partition)
        say(String(format: "  audit history        %10.3f s  (%d records of recipe %@, %d read in partition %d)",
                   (ContinuousClock.now - historyStart).seconds, trail.records.count, recipe, end, trail.partition))
        withExtendedLifetime(log) {} // the embedded broker serves until here
    }
}
