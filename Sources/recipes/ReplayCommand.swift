import Foundation
import Kafka
import RecipeProjection

/// `recipes replay`: rebuilds every read model from the log into a store.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "recipes replay",
        summary: "Rebuild every read model from the first offset of the log into a store.",
        usage: "recipes replay --brokers B --into FILE [--to P:O,… | --until TIME] [options]",
        options: KafkaOptions.specs + [
            .value("into", "FILE", "The store to build (created if missing; an interrupted replay resumes in it)."),
            .value("to", "P:O,…", "Stop before these next offsets (partitions not named are not read)."),
            .value("until", "TIME", "Stop after each partition's last record logged at or before this RFC 3339 time."),
            .value("batch", "N", "Records per transaction at most.", default: "200000"),
        ],
        discussion: """
            Without --to or --until, replays up to the end of the log as it is when the replay starts.
            Interrupted (Ctrl-C, SIGTERM), it finishes its transaction and exits 130; the same command
            resumes where it stopped. A store a projector is using is refused, and projectors are kept
            out of the store while the replay runs. Progress goes to stderr: a bar on a terminal, a line
            every 5 seconds otherwise.
            """)

    static func run(_ arguments: [String]) async throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let config = try KafkaOptions.config(args)
        let topic = try KafkaOptions.topics(args).edits
        guard let path = args.string("into") else { throw UsageError("--into FILE is required: the store to build") }
        let end = try end(args)
        let batch = try args.int("batch", in: 1...1_000_000)!

        let stop = StopSignal()
        let signals = TerminationSignals {
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
            let projector = try Projector(storePath: path, kafka: config, topic: topic, batchSize: batch, exclusive: true)
            let resumed = try ReadModel(path: path).positions().values.reduce(0, +)
            if resumed > 0 { say("resuming: \(path) already holds \(resumed) records") }
            totals = try projector.catchUp(to: end, timeout: nil, stop: stop) { progress in
                last = progress
                reporter.update(done: progress.done, total: progress.total)
            }
        }
        withExtendedLifetime(signals) {}
        if let last { reporter.finish(done: last.done, total: last.total) }
        let seconds = (ContinuousClock.now - started).seconds
        let positions = try ReadModel(path: path).positions().sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
        say(String(format: "%@ %d records in %.1f s (accepted %d, rejected %d, duplicates %d); positions %@",
                   stop.isSet ? "interrupted after" : "replayed", totals.records, seconds, totals.accepted,
                   totals.rejected, totals.duplicates, positions.joined(separator: ",")))
        if stop.isSet {
            say("run the same command again to resume")
            exit(130)
        }
    }

    static func end(_ args: ParsedArguments) throws -> Projector.LogEnd {
        switch (args.string("to"), args.string("until")) {
        case (.some, .some): throw UsageError("give --to or --until, not both")
        case (.some(let to), nil): return .positions(try LogPositions.positions(to, option: "to"))
        case (nil, .some(let until)): return .time(try LogPositions.time(until, option: "until"))
        case (nil, nil): return .latest
        }
    }
}
