import Foundation
import Kafka
import RecipeAudit
import RecipeProjection
import RecipeWire

/// `recipes bench replay`.
enum ReplayBenchmark {
    static let spec = CommandSpec(
        name: "recipes bench replay",
        summary: "Replay a topic of recipe commands into a fresh store, next to raw consumption of the same topic, and time `audit history` of one recipe.",
        usage: "recipes bench replay [--commands N] [--recipes R] [--partitions P] [--into FILE]",
        options: [
            .value("commands", "N", "Commands in the topic.", default: "1000000"),
            .value("recipes", "R", "Recipes they edit.", default: "10000"),
            .value("partitions", "P", "Partitions (the embedded broker keeps 5 MiB each).", default: "128"),
            .value("into", "FILE", "Store to create (deleted first).", default: "/tmp/recipes-bench-replay.db"),
            .value("seed", "S", "Seed of the command mix.", default: "1"),
        ])

    static func run(_ arguments: [String]) async throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let commands = try args.int("commands", in: 1...10_000_000)!
        let recipes = try args.int("recipes", in: 1...1_000_000)!
        let partitions = try args.int("partitions", in: 1...1024)!
        let path = args.string("into")!
        let seed = try args.int("seed", in: 0...Int.max)!
        removeStore(path)

        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = RecipeTopics().edits
        try kafka.createTopic(topic, partitions: partitions)
        let config = KafkaConfig(bootstrapServers: kafka.bootstrapServers)
        say("bench replay: \(commands) commands over \(recipes) recipes, \(partitions) partitions")
        let (bytes, recipe) = try await ProjectBenchmark.publish(commands: commands, recipes: recipes, seed: UInt64(seed),
                                                                 topic: topic, config: config)
        say(String(format: "  published %d records (%.1f MB)", commands, Double(bytes) / 1e6))

        let rawStart = ContinuousClock.now
        let consumed = try ProjectBenchmark.consumeRaw(topic: topic, config: config, records: commands)
        let rawRate = Double(consumed) / (ContinuousClock.now - rawStart).seconds
        say(String(format: "  raw consumption      %10.0f records/s", rawRate))

        // What `recipes replay --into` runs.
        let start = ContinuousClock.now
        let totals = try Projector(storePath: path, kafka: config, topic: topic, exclusive: true).catchUp(timeout: nil)
        let seconds = (ContinuousClock.now - start).seconds
        let rate = Double(totals.records) / seconds
        say(String(format: "  replay               %10.0f records/s  (%d records in %.2f s) = %.1f%% of raw consumption",
                   rate, totals.records, seconds, 100 * rate / rawRate))

        // What `recipes audit history` runs: one partition read and folded.
        let historyStart = ContinuousClock.now
        let auditor = try LogAuditor(kafka: config, topic: topic)
        let trail = try auditor.trail(of: recipe)
        let end = try auditor.reader.end(of: trail.partition)
        say(String(format: "  audit history        %10.3f s  (%d records of recipe %@, %d read in partition %d)",
                   (ContinuousClock.now - historyStart).seconds, trail.records.count, recipe, end, trail.partition))
    }
}
