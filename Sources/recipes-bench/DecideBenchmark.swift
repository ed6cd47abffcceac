import Foundation
import Kafka
import RecipeCLI
import RecipeDecisions
import RecipeProjection
import RecipeWire
import Threads

/// `recipes-bench decide`.
enum DecideBenchmark {
    static let spec = CommandSpec(
        name: "recipes-bench decide",
        summary: "Decide a topic of recipe commands into the decisions topic (and each recipe's latest document into the committed topic), next to the projection of those decisions and raw consumption of the commands, and print commands/s.",
        abstract: "Commands/s decided (appended to recipes.decisions) vs projected vs raw consumption.",
        options: BenchmarkLog.options + [
            .value("db", "FILE", "Store the projection baseline creates (deleted first).", default: "/tmp/recipes-bench-decide.db"),
        ])

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let path = args.string("db")!
        removeStore(path)
        defer { removeStore(path) }
        let log = try BenchmarkLog.publish(args, benchmark: "decide", decided: false)
        let (config, commands, topics) = (log.config, log.commands, log.topics)

        let decider = try Decider(kafka: config, topics: topics)
        let done = Locked(false)
        var totals = Decider.Totals()
        let (start, startCPU) = (ContinuousClock.now, processCPUSeconds())
        // Stops once every command is decided; `run` returns when their decisions are acknowledged.
        try decider.run(until: { done.withLock { $0 } }, progressInterval: .milliseconds(20)) { progress in
            totals = progress.totals
            if totals.decided >= commands { done.withLock { $0 = true } }
        }
        let seconds = (ContinuousClock.now - start).seconds
        let rate = Double(totals.decided) / seconds
        say(String(format: "  decider              %10.0f commands/s  (%d decided and appended: %d accepted, %d rejected, %d duplicates, %d undecodable; %d committed documents; %.2f s, %.2f CPU s)",
                   rate, totals.decided, totals.accepted, totals.rejected, totals.duplicates, totals.undecodable, totals.committed, seconds,
                   processCPUSeconds() - startCPU))

        // The rate the decider has to keep up with: the projection of what it decided.
        let projector = try Projector(storePath: path, kafka: config, topic: topics.decisions)
        let projectionStart = ContinuousClock.now
        let projected = try projector.catchUp(timeout: nil).records
        let projectionRate = Double(projected) / (ContinuousClock.now - projectionStart).seconds
        say(String(format: "  projection           %10.0f decisions/s  (%d decisions)", projectionRate, projected))
        say(String(format: "  decider = %.2f× projection, %.1f%% of raw consumption of the commands", rate / projectionRate, 100 * rate / log.rawRate))

        // What a restart costs: a decider taking every partition again reads all their decisions,
        // or only those after the snapshots the one before it kept when it stopped.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-bench-snapshots-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func restart() throws -> (seconds: Double, totals: Decider.Totals) {
            let start = ContinuousClock.now
            let totals = try Decider(kafka: config, topics: topics, snapshots: folder).catchUp(timeout: .seconds(3600))
            return ((ContinuousClock.now - start).seconds, totals)
        }
        let fromStart = try restart()
        let snapshotBytes = try FileManager.default.contentsOfDirectory(atPath: folder).reduce(0) {
            $0 + ((try FileManager.default.attributesOfItem(atPath: folder + "/" + $1)[.size] as? NSNumber)?.intValue ?? 0)
        }
        let fromSnapshots = try restart()
        say(String(format: "  restart              %10.2f s from the start (%d decisions read, then snapshots written: %.1f MB), %.2f s from snapshots (%d partitions, %d decisions read): %.1f× faster",
                   fromStart.seconds, fromStart.totals.readTaking, Double(snapshotBytes) / 1e6, fromSnapshots.seconds,
                   fromSnapshots.totals.fromSnapshots, fromSnapshots.totals.readTaking, fromStart.seconds / fromSnapshots.seconds))
        withExtendedLifetime(log) {} // the embedded broker serves until here
    }
}
