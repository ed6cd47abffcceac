import Foundation
import Kafka
import RecipeCLI
import RecipeWire

/// `recipes topics`: topic administration on a real cluster.
enum TopicsCommand {
    static let group = Command.group(
        "recipes topics",
        summary: "Administer the recipe topics on a Kafka cluster.",
        abstract: "Create the edits, decisions and committed topics on a real cluster with the settings they need.",
        [.run(createSpec, create)])

    static let createSpec = CommandSpec(
        name: "recipes topics create",
        summary: "Create the edits topic (recipes.edits), the decisions topic (recipes.decisions) and the committed topic (recipes.committed) with the settings they need, and print what was done.",
        abstract: "Create the edits, decisions and committed topics with the settings they need.",
        options: KafkaOptions.specs + [
            .value("partitions", "P", "Partitions, fixed for the topic's life: choose for the peak write rate.", default: "6"),
            .value("replication-factor", "R", "Copies of each partition (1 for a one-broker development cluster).", default: "3"),
            .value("min-insync-replicas", "M", "min.insync.replicas: replicas that must hold a write before it counts.", default: "2"),
            .value("timeout", "SECONDS", "How long to wait for the cluster's answer.", default: "30"),
            .flag("dry-run", "Print the settings that would be applied and contact nothing."),
        ],
        discussion: """
            Settings and why:
              key                   the recipe id (set by every producer): one recipe's commands on one partition, in order
              partitions            set once, never increased: more partitions would move recipes to other
                                    partitions and break their order
              replication.factor    3 in production: the log is the only copy of the data
              min.insync.replicas   2 in production: with acks=all a write is acknowledged on 2 replicas,
                                    so one broker can fail without losing or refusing writes
              cleanup.policy=delete never compacted: every command is kept, not only a recipe's latest
              retention.ms=-1       kept forever: the log is the audit record every read model is rebuilt from
              retention.bytes=-1    no size limit either, whatever the broker's defaults
              max.message.bytes=2162688
                                    a record of up to 2 MiB (one DraftContentSet holds a whole recipe) and its batch
            The decisions topic gets the same settings and partition count (a command's decision goes on the
            partition of the same number), with max.message.bytes=4259840 (a decision repeats its command's
            changes as events).
            The committed topic (each recipe's latest detail document, written by the decider) gets the same
            partition count and min.insync.replicas, and:
              cleanup.policy=compact
                                    only each recipe's last record is kept: its latest document, or its tombstone
              delete.retention.ms=604800000
                                    a tombstone stays a week after compaction reaches it, so a consumer away
                                    for less than that still sees the deletion
              max.message.bytes=\(EditsTopicSettings().committedConfigs["max.message.bytes"]!)
                                    the largest document a recipe at every limit can have
            Producers use acks=all with enable.idempotence=true (the recipes producer always sets both), and
            message.max.bytes=2162688 for the same records.
            An existing topic is left as it is (its partition count is printed); the exit status is 0 then too.
            The embedded broker (`recipes broker`) does not implement CreateTopics: it creates its topics itself.
            """)

    static func create(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: createSpec)
        try args.expectNoPositionals()
        let settings = EditsTopicSettings(partitions: try args.int("partitions", in: 1...10_000)!,
                                          replicationFactor: try args.int("replication-factor", in: 1...32)!,
                                          minInsyncReplicas: try args.int("min-insync-replicas", in: 1...32)!)
        if let problem = settings.problem { throw UsageError(problem) }
        let timeout = try args.int("timeout", in: 1...600)!
        let names = try KafkaOptions.topics(args)
        let topics = [(names.edits, settings.configs), (names.decisions, settings.decisionsConfigs),
                      (names.committed, settings.committedConfigs)]
        if args.flag("dry-run") {
            for (topic, configs) in topics {
                say("dry run: would create topic \(topic) with")
                printSettings(settings, configs)
            }
            return
        }
        let config = try KafkaOptions.config(args)
        let admin = try KafkaAdmin(config: config)
        for (topic, configs) in topics {
            say("creating topic \(topic) on \(config.bootstrapServers) with")
            printSettings(settings, configs)
            let newTopic = KafkaNewTopic(name: topic, partitions: settings.partitions,
                                         replicationFactor: settings.replicationFactor, configs: configs)
            switch try admin.createTopics([newTopic], timeout: .seconds(timeout))[topic] {
            case .created?:
                say("created \(topic)")
            case .alreadyExisted?:
                let existing = try admin.partitions(of: topic, timeout: .seconds(timeout)).count
                let note = existing == settings.partitions ? "" : " (not \(settings.partitions): a topic's partitions are never changed)"
                say("\(topic) already existed with \(existing) partitions\(note); its settings were left as they are")
            case nil:
                throw KafkaError(.adminFailed, "the cluster's answer did not mention \(topic)")
            }
        }
    }

    /// One `name=value` line per setting, in a fixed order.
    static func printSettings(_ settings: EditsTopicSettings, _ configs: [String: String]) {
        say("  partitions=\(settings.partitions)")
        say("  replication.factor=\(settings.replicationFactor)")
        for (key, value) in configs.sorted(by: { $0.key < $1.key }) { say("  \(key)=\(value)") }
    }
}
