import Foundation
import Kafka
import RecipeCLI
import RecipeProjection

/// `recipes project`: a projector worker.
enum ProjectCommand {
    static let spec = CommandSpec(
        name: "recipes project",
        summary: "Fold the decisions topic into a store's read models and keep them current, until SIGTERM or Ctrl-C.",
        abstract: "Keep a store's read models current from the log.",
        options: KafkaOptions.specs + [
            StoreOptions.db,
            .value("batch", "N", "Records per transaction at most (transactions fill up to it while catching up).", default: "200000"),
            .value("progress", "SECONDS", "Seconds between progress lines.", default: "5"),
        ],
        discussion: """
            Each transaction writes the changed rows and the next offset of every partition it consumed,
            so a worker killed at any moment resumes exactly where it stopped. On SIGTERM or Ctrl-C it
            finishes the transaction in progress and exits 0.
            """)

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let path = args.string("db")!
        let batch = try args.int("batch", in: 1...1_000_000)!
        let interval = try args.int("progress", in: 1...3600)!
        let topic = try KafkaOptions.topics(args).decisions
        let config = try KafkaOptions.config(args)

        let projector = try Projector(storePath: path, kafka: config, topic: topic, batchSize: batch)
        let stop = StopSignal()
        _ = TerminationSignals { stop.set() } // caught from here on, for the life of the process
        say("projecting \(topic) from \(config.bootstrapServers) into \(path)")
        try projector.run(until: stop, progressInterval: .seconds(interval)) { progress in
            let totals = progress.totals
            let lag = progress.lag.values.reduce(0, +)
            let perPartition = progress.lag.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ")
            say("records \(totals.records) (accepted \(totals.accepted), rejected \(totals.rejected), duplicates \(totals.duplicates)); lag \(lag) [\(perPartition)]")
        }
        say("stopped")
    }
}
