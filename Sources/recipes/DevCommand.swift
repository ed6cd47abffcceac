import Foundation
import Kafka
import RecipeCLI
import RecipeDecisions
import RecipeDomain
import RecipeHTTP
import RecipeProcess
import RecipeProjection
import RecipeWire
import RecipeWriteSide

/// `recipes dev`: the whole service in one process, for a laptop.
enum DevCommand {
    static let spec = CommandSpec(
        name: "recipes dev",
        summary: "Run an embedded Kafka cluster, a projector and the HTTP API in one process, until Ctrl-C.",
        abstract: "Embedded Kafka, projector and HTTP API in one process (--seed for samples).",
        options: [
            .flag("seed", "Append a handful of sample recipes (through the command gateway) when the log is empty."),
            .value("data", "DIR", "Where the log's journal and the store live between runs.", default: ".recipes-dev"),
            .flag("fresh", "Start with an empty log and store: removes the journal and store in --data first."),
            .value("port", "PORT", "HTTP port on 127.0.0.1 (0 picks a free one).", default: "8080"),
            .value("info-file", "FILE", "Write {\"bootstrap\",\"http\"} here once ready to serve."),
            .value("db", "FILE", "The read-model store (default: recipes.db in --data)."),
            .value("partitions", "P", "Partitions of the edits topic of a new log (a journaled log keeps its own).", default: "6"),
            .value("wait", "SECONDS", "Longest wait of `after=` and `?wait=true`.", default: "5"),
        ] + ServerFlags.specs
            // One user on this machine, whose scripts are not throttled; logFull bounds the log.
            + ServerFlags.appendRateSpecs(rate: "0", burst: "1000"),
        discussion: """
            Prints `kafka: <bootstrap servers>` (any Kafka client can connect) and `http: <base URL>`.
            Every record appended to the edits topic is journaled in --data and appended back, at its
            partition and offset, when dev starts again, so the recipes and the store survive a restart.
            The embedded broker keeps at most 5 MiB and 100,000 records a partition and drops the oldest
            beyond; appends are refused (507 logFull) before a partition gets there.
            A decider runs in the process too: one decision per command on recipes.decisions, and each
            recipe's latest detail document (a tombstone once deleted) on recipes.committed. Both topics are
            journaled as well (in --data/recipes.decisions and --data/recipes.committed): after a restart the
            decider goes on after the decisions that count, and recipes.committed holds what it held.
            dev trusts every process of this machine: the embedded broker listens on 127.0.0.1 without
            authentication, so any local user may append commands or decisions to its topics; --tokens
            guards the HTTP API only. What dev keeps in --data (and the --db store) is made private to
            the user running it (folders 0700, files 0600). On a machine shared with others, use
            `recipes serve` against a Kafka cluster that authenticates its clients (docs/operations.md).
            Example:
              recipes dev --seed
              curl -s localhost:8080/v1/recipes
            """)

    static func run(_ arguments: [String]) throws {
        // Caught from here on: a Ctrl-C before the service is up stops it cleanly as well.
        let signals = TerminationSignals()
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let port = try args.int("port", in: 0...65535)!
        let partitions = try args.int("partitions", in: 1...1000)!
        let wait = try args.seconds("wait", in: 0.01...300)!
        let tokens = try ServerFlags.tokens(args)
        let apiOptions = try ServerFlags.api(args, tokens: tokens, wait: wait)
        let limits = try ServerFlags.limits(args)
        let data = args.string("data")!
        let storePath = args.string("db") ?? data + "/recipes.db"
        try PrivateData.protect([data] + ["", "-wal", "-shm"].map { storePath + $0 })
        let kafka = try EmbeddedKafka(brokers: 3)
        let topic = RecipeTopics().edits
        let journal = try EmbeddedKafkaJournal(folder: data, kafka: kafka, topic: topic, partitions: partitions,
                                                     replicationFactor: 3, fresh: args.flag("fresh"))
        func removeStore() throws {
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: storePath + suffix) {
                try FileManager.default.removeItem(atPath: storePath + suffix)
            }
        }
        // The decider's snapshots of its partitions: one of a log that is gone is never used (the
        // decisions topic does not bear it out), but is removed with it all the same.
        let snapshots = data + "/decider-snapshots"
        // After the journal's lock: a store another dev uses is never removed under it.
        if args.flag("fresh") {
            try removeStore()
            if FileManager.default.fileExists(atPath: snapshots) { try FileManager.default.removeItem(atPath: snapshots) }
        }
        // What the decider writes is kept as well, each topic in a folder of its own: decisions decided once stay
        // decided (a rebuilt dev with other rules does not decide the log again), the store folded from them stays
        // valid, and recipes.committed goes on from what it held. Restored before the decider starts, so it starts
        // from them; forgotten with an empty log, whose decisions they cannot be.
        let decidedJournals = try [RecipeTopics().decisions, RecipeTopics().committed].map { name in
            try EmbeddedKafkaJournal(folder: data + "/" + name, kafka: kafka, topic: name, partitions: journal.partitions,
                                     replicationFactor: 3, fresh: args.flag("fresh") || journal.restoredRecords == 0)
        }
        // A store folded from decisions no journal kept (a folder from before they were journaled) is
        // built again from the decisions made now.
        if journal.restoredRecords > 0, decidedJournals[0].restoredRecords == 0 { try removeStore() }
        // One consumer journals the three topics (`EmbeddedKafkaJournal.start(_:)`).
        try EmbeddedKafkaJournal.start([journal] + decidedJournals)
        var options = RecipeService.Options(kafka: KafkaConfig(bootstrapServers: kafka.bootstrapServers), topics: RecipeTopics(),
                                            storePath: storePath)
        options.decider = .all
        options.deciderSnapshots = snapshots
        options.logName = journal.name
        options.logCapacity = LogCapacity(partitionCount: journal.partitions, bytesPerPartition: EmbeddedKafka.retainedBytesPerPartition,
                                          recordsPerPartition: Int64(EmbeddedKafka.retainedMessageSetsPerPartition)) { partition in
            (journal.bytes(of: partition), journal.records(of: partition))
        }
        options.port = UInt16(port)
        options.loopbackOnly = true
        options.api = apiOptions
        options.server = limits
        options.fetchWaitMilliseconds = RecipeService.Options.devFetchWaitMilliseconds
        let service = try RecipeService(options: options)
        do {
            try service.start()
        } catch let error as HTTPServerError {
            throw UsageError("\(error.message); try --port 0 or another port")
        }
        let http = "\(limits.tlsKeyPEM == nil ? "http" : "https")://127.0.0.1:\(service.port)"
        say("kafka: \(kafka.bootstrapServers)")
        say("http: \(http)")
        say("data: \(data) (the log's journal: \(journal.restoredRecords) records kept from earlier runs; --fresh starts empty)")
        say("store: \(storePath)")
        if journal.partitions != partitions, args.string("partitions") != nil {
            say("note: the journaled log has \(journal.partitions) partitions; --partitions applies to a new log (--fresh)")
        }
        say(ServerFlags.accessLine(tokens, args, listening: "127.0.0.1:\(service.port)"))
        say("trust: the embedded broker has no authentication: every local process may append to its topics (tokens guard HTTP only)")

        if args.flag("seed") && journal.restoredRecords > 0 {
            say("not seeding: the log already holds \(journal.restoredRecords) records (--fresh to start again)")
        } else if args.flag("seed") {
            let positions = try SampleRecipes.append(through: service.api)
            let reached = try service.api.readModel.waitUntilReached(positions, deadline: .now + .seconds(30))
            say(reached ? "seeded \(SampleRecipes.recipes.count) recipes and a draft" : "seeded; the projector is still catching up")
        }
        _ = service.waitUntilReady(timeout: .seconds(30))
        if let infoFile = args.string("info-file") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(ReadyInfo(bootstrap: kafka.bootstrapServers, http: http))
                .write(to: URL(fileURLWithPath: infoFile), options: .atomic)
        }
        say("ready; Ctrl-C stops")
        signals.wait()
        say("stopping")
        service.shutdown()
        for kept in [journal] + decidedJournals {
            do {
                try kept.stop()
            } catch {
                say("the journal of \(kept.topic) stopped early, records after it are not kept: \(error)")
            }
        }
        withExtendedLifetime(kafka) {}
        say("stopped")
    }
}

/// What `--info-file` holds once `recipes dev` serves: where to connect.
struct ReadyInfo: Encodable {
    var bootstrap: String
    var http: String
}

/// The recipes `recipes dev --seed` appends, each as the commands an app would send.
enum SampleRecipes {
    struct Sample {
        var title: String
        var servings: Int
        var ingredients: [(String, Double, String)]
        var steps: [String]
        var tags: [String]
    }

    static let recipes: [Sample] = [
        Sample(title: "Pancakes", servings: 4,
               ingredients: [("Flour", 250, "g"), ("Milk", 500, "ml"), ("Eggs", 2, "pcs"), ("Sugar", 1, "tbsp")],
               steps: ["Whisk everything into a smooth batter.", "Rest it for 10 minutes.", "Fry thin pancakes in butter."],
               tags: ["@breakfast", "@source(grandma)"]),
        Sample(title: "Tomato soup", servings: 4,
               ingredients: [("Tomatoes", 800, "g"), ("Onion", 1, "pcs"), ("Vegetable stock", 500, "ml"), ("Olive oil", 2, "tbsp")],
               steps: ["Soften the onion in the oil.", "Add tomatoes and stock, simmer 20 minutes.", "Blend until smooth."],
               tags: ["@soup", "@vegetarian"]),
        Sample(title: "Guacamole", servings: 2,
               ingredients: [("Avocados", 2, "pcs"), ("Lime juice", 1, "tbsp"), ("Salt", 0.5, "tsp"), ("Coriander", 5, "g")],
               steps: ["Mash the avocados.", "Stir in lime juice, salt and coriander."],
               tags: ["@dip", "@vegan", "@quick"]),
        Sample(title: "Banana bread", servings: 8,
               ingredients: [("Ripe bananas", 3, "pcs"), ("Flour", 200, "g"), ("Butter", 100, "g"), ("Brown sugar", 150, "g")],
               steps: ["Mash the bananas and mix with melted butter and sugar.", "Fold in the flour.", "Bake 60 minutes at 175 °C."],
               tags: ["@baking", "@source(aunt may)"]),
        Sample(title: "Lentil curry", servings: 4,
               ingredients: [("Red lentils", 300, "g"), ("Coconut milk", 400, "ml"), ("Curry paste", 2, "tbsp"), ("Spinach", 100, "g")],
               steps: ["Fry the curry paste.", "Add lentils, coconut milk and 400 ml water; simmer 20 minutes.", "Stir in the spinach."],
               tags: ["@dinner", "@vegan"]),
    ]

    /// Appends every sample (and one open draft) and returns the last position of each partition.
    static func append(through api: RecipeAPI) throws -> [Int32: Int64] {
        let builder = CommandBuilder(source: RecipeAPI.source)
        let actor = "seed"
        var positions: [Int32: Int64] = [:]
        func send(_ id: RecipeID, _ kind: RecipeCommand.Kind, _ data: [String: any Sendable] = [:]) throws {
            let envelope = try builder.envelope(kind: kind, data: data, recipeID: id, actor: actor)
            let receipt = try api.append(envelope)
            positions[receipt.partition] = max(positions[receipt.partition] ?? 0, receipt.offset)
        }
        for sample in recipes {
            let id = RecipeID(made: UUID().uuidString.lowercased())
            try send(id, .draftStarted)
            try send(id, .titleChanged, ["title": sample.title])
            try send(id, .servingsChanged, ["servings": sample.servings])
            for (name, amount, metric) in sample.ingredients {
                try send(id, .ingredientAdded, ["name": name, "amount": amount, "unit": metric])
            }
            for step in sample.steps { try send(id, .instructionAdded, ["description": step]) }
            for tag in sample.tags { try send(id, .tagAdded, ["text": tag]) }
            try send(id, .recipeSaved)
        }
        let draft = RecipeID(made: UUID().uuidString.lowercased())
        try send(draft, .draftStarted)
        try send(draft, .titleChanged, ["title": "Chocolate cake"])
        return positions
    }
}
