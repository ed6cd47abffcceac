import Foundation
import Kafka
import RecipeCLI
import RecipeWire

/// `recipes broker`: the embedded Kafka cluster, for development and tests.
enum BrokerCommand {
    static let spec = CommandSpec(
        name: "recipes broker",
        summary: "Run librdkafka's embedded Kafka cluster on loopback with the recipes topics, until Ctrl-C.",
        abstract: "Run the embedded Kafka broker with the recipes topic.",
        options: [
            .value("broker-count", "N", "Number of brokers.", default: "3"),
            .value("partitions", "P", "Partitions of the topic (fixed for its life).", default: "6"),
            .value("topic", "NAME", "Topic to create; for an edits topic (…recipes.edits) its decisions and committed topics too.", default: "recipes.edits"),
        ],
        discussion: """
            Prints `kafka: <bootstrap servers>`; any Kafka client (kcat, kafka-python) can connect.
            The embedded broker keeps at most 5 MiB per partition and forgets everything on exit.
            """)

    static func run(_ arguments: [String]) throws {
        let signals = TerminationSignals()
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let brokers = try args.int("broker-count", in: 1...32)!
        let partitions = try args.int("partitions", in: 1...1000)!
        let topic = args.string("topic")!
        let kafka = try EmbeddedKafka(brokers: brokers)
        var topics = [topic]
        if topic.hasSuffix(RecipeTopics().edits) {
            let names = RecipeTopics(prefix: String(topic.dropLast(RecipeTopics().edits.count)))
            topics += [names.decisions, names.committed]
        }
        for name in topics { try kafka.createTopic(name, partitions: partitions, replicationFactor: min(3, brokers)) }
        say("kafka: \(kafka.bootstrapServers)")
        say("topic: \(topics.joined(separator: ", ")) (\(partitions) partitions, \(brokers) brokers); Ctrl-C stops")
        signals.wait()
        say("stopping")
        withExtendedLifetime(kafka) {}
    }
}
