import Foundation
import Kafka
import RecipeCLI
import RecipeDecisions
import RecipeProjection

/// `recipes decide`: a decider worker.
enum DecideCommand {
    static let spec = CommandSpec(
        name: "recipes decide",
        summary: "Decide each command of the edits topic once, append its decision to the decisions topic and each recipe's committed document to the committed topic, until SIGTERM or Ctrl-C.",
        abstract: "Decide the log's commands, one decision each.",
        options: KafkaOptions.specs + [
            .value("group", "NAME", "Divide the partitions with the other deciders of this consumer group (default: decide every partition)."),
            .value("progress", "SECONDS", "Seconds between progress lines.", default: "5"),
            .value("snapshots", "DIR", "Keep a snapshot of each partition held in DIR, written when it is let go (stop, rebalance) and every --snapshot-every seconds, so that taking it again reads only the decisions appended since (default: none; every partition's decisions are read from the start). Private to the user the decider runs as: made 0700, its files 0600; one another user owns is refused."),
            .value("snapshot-every", "SECONDS", "Seconds between snapshots of the partitions held, with --snapshots (default: 60)."),
        ],
        discussion: """
            Each decision goes to recipes.decisions with its command's key, on the partition of the same
            number (the topic must have as many partitions as recipes.edits). A decider starts each
            partition from the decisions already there, so one killed at any moment, or paused while
            another takes its partitions, never makes a reader see a decision that does not follow the
            ones before it (docs/architecture.md, "The decider"). For each decision that counts and
            changes what a recipe's detail shows, it writes the recipe's detail document (a tombstone once
            deleted) to recipes.committed, compacted, keyed by recipe id, with the command's position in a
            header (docs/operations.md, "Consuming recipes.committed"). A topic that is missing is refused:
            recipes topics create makes all three. On SIGTERM or Ctrl-C it waits for what it wrote to be
            acknowledged and exits 0. With --snapshots, a partition taken again starts from its snapshot when
            the decisions topic still holds, just before the snapshot's end, the decision the snapshot names;
            otherwise from the start. A partition is snapshotted only when every decision written on it has
            been read back: one that never rests keeps its last snapshot until it does. A partition it
            cannot go on with (decisions of commands past the end of its edits partition, decisions whose
            first ones are gone) is named on every progress line and waits while it decides the others
            (docs/operations.md, "When the decider stops").
            """)

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let mode: Decider.Mode = args.string("group").map { .group($0) } ?? .all
        let interval = try args.int("progress", in: 1...3600)!
        let snapshotEvery = try args.seconds("snapshot-every", in: 0.1...86_400)
        if snapshotEvery != nil && args.string("snapshots") == nil {
            throw UsageError("--snapshot-every is for the snapshots of --snapshots DIR")
        }
        let topics = try KafkaOptions.topics(args)
        let config = try KafkaOptions.config(args)

        let decider = try Decider(kafka: config, topics: topics, mode: mode, snapshots: args.string("snapshots"),
                                  snapshotInterval: snapshotEvery ?? .seconds(60))
        let stop = StopSignal()
        _ = TerminationSignals { stop.set() } // caught from here on, for the life of the process
        say("deciding \(topics.edits) into \(topics.decisions) from \(config.bootstrapServers) (\(mode == .all ? "every partition" : "group \(args.string("group")!)"))")
        try decider.run(until: { stop.isSet }, progressInterval: .seconds(interval)) { progress in
            let totals = progress.totals
            let lag = progress.lag.values.reduce(0, +)
            let perPartition = progress.lag.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
            say("decided \(totals.decided) (accepted \(totals.accepted), rejected \(totals.rejected), duplicates \(totals.duplicates), "
                + "undecodable \(totals.undecodable)); committed \(totals.committed); rebuilds \(totals.rebuilds); "
                + "read taking partitions \(totals.readTaking) (\(totals.fromSnapshots) from snapshots); lag \(lag) [\(perPartition)]")
            // A partition it cannot go on with waits, named at every line, while the others go on.
            for (partition, why) in progress.stopped.sorted(by: { $0.key < $1.key }) {
                say("stopped deciding partition \(partition), going on with the others: \(why)")
            }
        }
        say("stopped")
    }
}
