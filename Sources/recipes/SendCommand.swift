import Foundation
import Kafka
import RecipeCLI
import RecipeDomain
import RecipeHTTP
import RecipeWire
import RecipeWriteSide

/// `recipes send`: appends commands through the producer, validated first.
enum SendCommand {
    static let spec = CommandSpec(
        name: "recipes send",
        summary: "Append one command from flags, or many from JSON lines on stdin, and print where each landed.",
        abstract: "Append commands: one from flags, or JSON lines from stdin.",
        arguments: "[TYPE [--FIELD VALUE …]]",
        options: KafkaOptions.specs + [
            .value("recipe", "ID", "The recipe the command is for (TYPE mode).", alternatives: "recipe"),
            .flag("new", "TYPE mode: a new recipe id (for DraftStarted).", alternatives: "recipe"),
            .value("id", "COMMAND-ID", "The command id (default: a new UUID)."),
            .value("expected-revision", "N", "Apply only if the recipe's revision is N."),
            .value("actor", "NAME", "Who writes (default: $USER)."),
            .flag("stdin", "Read JSON lines: whole CloudEvents, or {\"type\",\"recipe\",\"data\"} objects."),
            .flag("quiet", "With --stdin: print a summary instead of each line's position (failed lines still go to stderr)."),
        ],
        discussion: """
            Give a TYPE and --recipe ID (or --new) for one command, or --stdin for many.
            TYPE is a command name (IngredientAdded, TitleChanged, RecipeSaved, …); any other --FIELD VALUE
            becomes a field of its data (amount, amountMax, servings and position are numbers; --ingredient-id is ingredientId).
            Examples:
              recipes send DraftStarted --new --brokers localhost:9092
              recipes send IngredientAdded --recipe R --name Flour --amount 250 --unit g
              recipes send --stdin < commands.jsonl
            Every command is checked with the record decoder before it is appended. With --stdin each line
            prints `line N: partition:offset`; a bad line is reported with its number, the others still go,
            and the exit status is 1 if any line failed. Lines are read, checked and appended as a stream
            (thousands at a time in flight, each recipe's in input order); --quiet prints only
            `appended N of M lines`.
            """)

    /// The data fields written as JSON numbers, as the record format declares them
    /// (a name has one JSON type in every command, which RecipeWireTests checks).
    static let numericFields: Set<String> = Set(
        RecipeCommand.Kind.allCases.flatMap(WireFormat.dataFields(of:)).filter(\.type.isNumeric).map(\.name))

    static func run(_ arguments: [String]) throws {
        let (known, data) = try split(arguments)
        let args = try ParsedArguments(known, spec: spec)
        let actor = args.string("actor") ?? ProcessInfo.processInfo.environment["USER"] ?? "cli"
        if let problem = ActorName.problem(actor) { throw UsageError("--actor: \(problem)") }
        let topic = try KafkaOptions.topics(args).edits

        if args.flag("stdin") {
            guard args.positionals.isEmpty, data.isEmpty, args.string("recipe") == nil, !args.flag("new") else {
                throw UsageError("--stdin takes no TYPE, --recipe, --new or data fields: each line says them")
            }
            try sendLines(config: try KafkaOptions.config(args), topic: topic, actor: actor, quiet: args.flag("quiet"))
            return
        }
        guard !args.flag("quiet") else { throw UsageError("--quiet goes with --stdin") }
        guard args.positionals.count == 1, let typeName = args.positionals.first else {
            throw UsageError("give one command TYPE (e.g. IngredientAdded), or --stdin (see recipes send --help)")
        }
        guard let kind = RecipeCommand.Kind(rawValue: typeName) else {
            throw UsageError("unknown command type \"\(typeName)\"; one of \(RecipeCommand.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let recipe: String
        switch (args.string("recipe"), args.flag("new")) {
        case (let id?, false):
            do { recipe = try RecipeID(id).text } catch { throw UsageError("--recipe: \(error.message)") }
        case (nil, true): recipe = UUID().uuidString.lowercased()
        default: throw UsageError("give --recipe ID, or --new for a new recipe")
        }
        var members: [String: Any] = ["type": kind.rawValue, "recipe": recipe, "data": data]
        if let id = args.string("id") { members["id"] = id }
        if let revision = try args.int("expected-revision", in: 0...Int(Int32.max)) { members["expectedRevision"] = revision }
        let line = String(decoding: try JSONSerialization.data(withJSONObject: members), as: UTF8.self)

        var config = try KafkaOptions.config(args)
        config.setDefaults(EditsTopicSettings.producerProperties)
        let producer = try KafkaProducer(config: config)
        let sender = CommandSender(appender: CommandAppender(producer: producer, topic: topic))
        let outcome = sender.send([(1, line)], actor: actor)
        try producer.shutdown()
        switch outcome.first {
        case .appended(_, let position, let commandID, let recipeID)?:
            say("\(position) recipe \(recipeID) command \(commandID)")
        case .failed(_, let message)?:
            throw UsageError(message)
        case nil:
            throw UsageError("nothing to send")
        }
    }

    private static func sendLines(config: KafkaConfig, topic: String, actor: String, quiet: Bool) throws {
        var config = config
        config.setDefaults(EditsTopicSettings.producerProperties)
        let producer = try KafkaProducer(config: config)
        var stream = CommandStream(appender: CommandAppender(producer: producer, topic: topic))
        stream.reportsAppended = !quiet
        let summary: CommandStream.Summary
        do {
            summary = try stream.send(readingFrom: STDIN_FILENO, actor: actor) { outcomes in
                // One write per chunk on each stream: a line per write would cost more than the append.
                var out = "", err = ""
                for outcome in outcomes {
                    switch outcome {
                    case .appended(let line, let position, _, _): out += "line \(line): \(position)\n"
                    case .failed(let line, let message): err += "line \(line): \(message)\n"
                    }
                }
                if !out.isEmpty { FileHandle.standardOutput.write(Data(out.utf8)) }
                if !err.isEmpty { FileHandle.standardError.write(Data(err.utf8)) }
            }
        } catch {
            try? producer.shutdown()
            throw error
        }
        try producer.shutdown()
        if quiet { say("appended \(summary.appended) of \(summary.total) lines") }
        if summary.failed > 0 { throw SendFailed(failures: summary.failed, total: summary.total) }
    }

    struct SendFailed: Error, CustomStringConvertible {
        var failures: Int
        var total: Int
        var description: String { "\(failures) of \(total) lines failed" }
    }

    /// Separates `--FIELD VALUE` data fields from the command's own options.
    static func split(_ arguments: [String]) throws -> (known: [String], data: [String: Any]) {
        var known: [String] = []
        var data: [String: Any] = [:]
        var iterator = arguments.makeIterator()
        let options = Dictionary(uniqueKeysWithValues: (spec.options + [OptionSpec.help]).map { ($0.name, $0) })
        while let argument = iterator.next() {
            guard argument.hasPrefix("--"), argument != "--" else {
                known.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if let option = options[name] {
                known.append(argument)
                if option.valueName != nil, value == nil, let next = iterator.next() { known.append(next) }
                continue
            }
            guard let text = value ?? iterator.next() else { throw UsageError("--\(name) needs a value") }
            let field = camelCase(name)
            if numericFields.contains(field) {
                if let integer = Int(text) {
                    data[field] = integer
                } else if let number = Double(text), number.isFinite {
                    data[field] = number
                } else {
                    throw UsageError("--\(name) must be a number, got \"\(text)\"")
                }
            } else {
                data[field] = text
            }
        }
        return (known, data)
    }

    /// `ingredient-id` → `ingredientId`.
    static func camelCase(_ name: String) -> String {
        let parts = name.split(separator: "-")
        guard let first = parts.first else { return name }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
