import Foundation
import Kafka
import RecipeCLI
import RecipeProjection

/// `recipes replay`: rebuilds every read model from the decisions into a store.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "recipes replay",
        summary: "Rebuild every read model from the first decision on the log into a store.",
        abstract: "Rebuild every read model from the decisions into a store (resumable).",
        options: KafkaOptions.specs + [
            .value("into", "FILE", "The store to build (created if missing; an interrupted replay resumes in it).", required: true),
            .value("until-position", "P:O,…", "Stop after the command at each of these positions of the edits log (partitions not named are not read).",
                   alternatives: "end"),
            .value("until-time", "TIME", "Stop after each partition's last command logged at or before this RFC 3339 time.",
                   alternatives: "end"),
            .value("batch", "N", "Records per transaction at most.", default: "200000"),
            .flag("allow-missing-head", "Build from a log whose first records are gone; the store is marked partial."),
        ],
        discussion: """
            Folds the decisions (recipes.decisions), with no rule: what was decided, whatever this build's
            rules say. Both ends include the command they name: --until-position 0:9 replays the decisions of
            commands 0…9 of partition 0, as `audit as-of --position 0:9` shows the recipe after the command at
            0:9. Without either, replays up to the end of the decisions as it is when the replay starts.
            A log whose first records are gone is refused (exit 3) unless --allow-missing-head, which
            builds what is left and marks the store partial (/readyz, /metrics and audit verify say so).
            A store built from another log (another cluster or topic) is refused too (exit 3).
            Interrupted (Ctrl-C, SIGTERM), it finishes its transaction and exits 130; the same command
            resumes where it stopped. A store a projector is using is refused, and projectors are kept
            out of the store while the replay runs. Progress goes to stderr: a bar on a terminal, a line
            every 5 seconds otherwise.
            """)

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let path = try args.required("into", "the store to build")
        let end = try end(args)
        let batch = try args.int("batch", in: 1...1_000_000)!
        let topic = try KafkaOptions.topics(args).decisions
        let config = try KafkaOptions.config(args)
        if case .commands(let next) = end, FileManager.default.fileExists(atPath: path) {
            try refuseStorePast(next, path: path)
        }

        let stop = StopSignal()
        _ = TerminationSignals { // caught from here on, for the life of the process
            stop.set()
            FileHandle.standardError.write(Data("\ninterrupted: committing what was read, then stopping\n".utf8))
        }
        let reporter = ProgressReporter("replay")
        var last: Projector.CatchUpProgress?
        let started = ContinuousClock.now
        let totals: BatchSummary
        do {
            // The projector closes the store as this block ends: before the process
            // can exit, so that the store is one file however the replay ended.
            let projector = try Projector(storePath: path, kafka: config, topic: topic, batchSize: batch,
                                          allowMissingHead: args.flag("allow-missing-head"))
            let resumed = try ReadModel(path: path).decisionPositions().values.reduce(0, +)
            if resumed > 0 { say("resuming: \(path) already holds \(resumed) decisions") }
            totals = try projector.catchUp(to: end, timeout: nil, stop: stop) { progress in
                last = progress
                reporter.update(done: progress.done, total: progress.total)
            }
        }
        if let last { reporter.finish(done: last.done, total: last.total) }
        let seconds = (ContinuousClock.now - started).seconds
        // The last record replayed of each partition, as positions are given to --until-position.
        let through = try ReadModel(path: path).positions().filter { $0.value > 0 }.sorted { $0.key < $1.key }
            .map { "\($0.key):\($0.value - 1)" }
        say(String(format: "%@ %d records in %.1f s (accepted %d, rejected %d, duplicates %d); through %@",
                   stop.isSet ? "interrupted after" : "replayed", totals.records, seconds, totals.accepted,
                   totals.rejected, totals.duplicates, through.isEmpty ? "no record" : through.joined(separator: ",")))
        if let log = try ReadModel(path: path).storeLog(), log.isPartial {
            say("partial: partitions read from past their first records, which the log no longer holds (\(log.missingHeadsText))")
        }
        if stop.isSet {
            say("run the same command again to resume")
            exit(130)
        }
    }

    static func end(_ args: ParsedArguments) throws -> Projector.LogEnd {
        if let positions = args.string("until-position") {
            // The projector stops before next offsets: one past the last command to include.
            return .commands(try LogPositions.positions(positions, option: "until-position").mapValues { $0 + 1 })
        }
        if let time = args.string("until-time") { return .time(try LogPositions.time(time, option: "until-time")) }
        return .latest
    }

    /// A store that already holds records past the requested end cannot be rewound:
    /// said here in the positions the user gave (the projector would name next offsets).
    static func refuseStorePast(_ next: [Int32: Int64], path: String) throws {
        let stored = try ReadModel(path: path).positions()
        for (partition, end) in next.sorted(by: { $0.key < $1.key }) {
            if let held = stored[partition], held > end {
                throw CommandFailed(status: 1, "\(path) already holds partition \(partition) through offset \(held - 1), "
                                    + "past --until-position \(partition):\(end - 1): replay into a new store")
            }
        }
    }
}
