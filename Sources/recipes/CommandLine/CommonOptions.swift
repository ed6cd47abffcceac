import Foundation
import Kafka
import RecipeCLI
import RecipeWire

/// Options every command that talks to Kafka shares.
enum KafkaOptions {
    static let specs: [OptionSpec] = [
        .value("brokers", "HOST:PORT,…", "Kafka bootstrap servers (or KAFKA_BOOTSTRAP_SERVERS, or bootstrap.servers in --kafka-config).",
               required: true),
        .value("kafka-config", "FILE", "librdkafka properties (key=value lines), e.g. TLS and SASL settings."),
        .value("topic-prefix", "PREFIX", "Prefix of the topic names, to separate environments.", default: ""),
    ]

    /// The client config: `--kafka-config` file, then `KAFKA_*` environment variables, then `--brokers`.
    /// It reads a file: commands call it after checking every other argument.
    static func config(_ args: ParsedArguments) throws -> KafkaConfig {
        var config = KafkaConfig(bootstrapServers: "")
        if let file = args.string("kafka-config") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw UsageError("--kafka-config: cannot read \(file)")
            }
            try config.merge(propertiesText: text)
        }
        config.merge(environment: ProcessInfo.processInfo.environment)
        if let brokers = args.string("brokers") { config.bootstrapServers = brokers }
        guard !config.bootstrapServers.isEmpty else {
            throw UsageError("no Kafka brokers: give --brokers HOST:PORT (or KAFKA_BOOTSTRAP_SERVERS)")
        }
        return config
    }

    static func topics(_ args: ParsedArguments) throws -> RecipeTopics {
        let prefix = args.string("topic-prefix") ?? ""
        if let problem = RecipeTopics.problem(withPrefix: prefix) { throw UsageError("--topic-prefix: \(problem)") }
        return RecipeTopics(prefix: prefix)
    }
}

/// `--db` and `--json`, shared by the commands that read a store.
enum StoreOptions {
    static let db = OptionSpec.value("db", "FILE", "The read-model store (SQLite).", default: "recipes.db")
    static let json = OptionSpec.flag("json", "Print JSON instead of a table.")
}

/// Prints rows as aligned columns under a header.
func printTable(_ header: [String], _ rows: [[String]]) {
    let widths = header.indices.map { column in
        ([header] + rows).map { $0[column].count }.max() ?? 0
    }
    func line(_ cells: [String]) -> String {
        zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
            .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }
    say(line(header))
    for row in rows { say(line(row)) }
}

/// Prints a value as pretty JSON with sorted keys.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    say(String(decoding: try encoder.encode(value), as: UTF8.self))
}
