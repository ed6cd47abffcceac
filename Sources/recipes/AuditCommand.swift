import Foundation
import Kafka
import RecipeAudit
import RecipeCLI
import RecipeDomain
import RecipeJSON
import RecipeProjection
import RecipeWire

/// `recipes audit`: questions asked of the log itself, and a check of a store against it.
enum AuditCommand {
    static let group = Command.group(
        "recipes audit",
        summary: "Ask the log: a recipe's history, the recipe at a moment, a diff, an export; verify a store; redecide with this build's rules.",
        abstract: "Ask the log: history, as-of, diff, export; verify a store against a replay; redecide with this build's rules.",
        discussion: """
            Each reads the logs (--brokers), not a read model. History, as-of, diff and export show the
            decisions as recorded (the effective ones, folded as the projector folds them), with each
            command's data from the edits log; history, as-of and diff read only the partition the
            recipe's key hashes to.
            """,
        [
            .run(historySpec, history), .run(asOfSpec, asOf), .run(diffSpec, diff), .run(exportSpec, export),
            .run(verifySpec, verify), .run(redecideSpec, redecide),
        ])

    // MARK: - history

    static let historySpec = CommandSpec(
        name: "recipes audit history", summary: "Every command of a recipe, straight from the logs, with its data and its recorded decision.",
        abstract: "Every command of the recipe, with its data, the decision recorded and the rules version that made it.",
        arguments: "ID", options: KafkaOptions.specs + [StoreOptions.json, allowMissingHead])

    static func history(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: historySpec)
        let id = try QueryCommands.singleID(args)
        let trail = try auditor(args).trail(of: id)
        guard !trail.records.isEmpty || !trail.undecided.isEmpty else { throw LogAuditor.AuditError.neverSeen(id.text) }
        if args.flag("json") {
            return try printJSON(HistoryJSON(recipeId: id.text, partition: trail.partition, items: trail.records.map(HistoryJSON.Item.init),
                                             undecided: trail.undecidedPositions))
        }
        printTable(["POSITION", "LOG TIME", "ACTOR", "TYPE", "OUTCOME", "RULES", "REASON", "DATA"], trail.records.map { record in
            let entry = record.entry
            return [record.position, entry.logTime.map(rfc3339) ?? "", entry.actor ?? "", entry.type, entry.outcome.rawValue,
                    String(record.decision.rulesVersion), entry.reasonCode.map { "\($0): \(entry.reasonMessage ?? "")" } ?? "",
                    record.dataJSON ?? ""]
        })
        if !trail.undecided.isEmpty {
            say(LogAuditor.notDecided(trail.undecided.count) + ": " + trail.undecidedPositions.joined(separator: ", "))
        }
    }

    // MARK: - as-of

    static let asOfSpec = CommandSpec(
        name: "recipes audit as-of", summary: "A recipe as it was at a moment of the log.",
        abstract: "The recipe at a moment: its latest committed version and its open draft then.",
        arguments: "ID",
        options: KafkaOptions.specs + [
            allowMissingHead,
            .value("time", "TIME", "After the partition's last decision stamped at or before this RFC 3339 time (its command's log time).",
                   required: true, alternatives: "moment"),
            .value("position", "P:O", "After the decision of the command at this position, included (P must be the recipe's partition).",
                   required: true, alternatives: "moment"),
            StoreOptions.json,
        ],
        discussion: """
            Both moments include the command they name, as `replay --until-position` and `--until-time` do.
            The state folds the decisions recorded up to the moment; the recipe's commands up to it that no
            decision counts for yet are named after it.
            """)

    static func asOf(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: asOfSpec)
        let id = try QueryCommands.singleID(args)
        let moment: LogAuditor.Moment
        switch (args.string("time"), args.string("position")) {
        case (.some(let time), nil): moment = .time(try LogPositions.time(time, option: "time"))
        case (nil, .some(let position)):
            let (partition, offset) = try LogPositions.position(position, option: "position")
            moment = .position(partition: partition, offset: offset)
        default: throw UsageError("give --time TIME or --position P:O")
        }
        let state = try auditor(args).asOf(id, moment)
        if args.flag("json") { return try printJSON(state) }
        say("recipe \(id) as of \(state.position ?? "the start"): revision \(state.revision)\(state.deleted ? ", deleted" : "")")
        if !state.undecided.isEmpty {
            say(LogAuditor.notDecided(state.undecided.count) + " (not in this state): " + state.undecided.joined(separator: ", "))
        }
        say("")
        if let committed = state.committed {
            QueryCommands.printDetail(committed)
        } else {
            say("no committed version yet")
        }
        say("")
        if let draft = state.draft {
            say("open draft (revision \(draft.revision), from version \(draft.baseVersion)): \(draft.title)"
                + (draft.missing.isEmpty ? "" : "; missing \(draft.missing.joined(separator: ", "))"))
            QueryCommands.printContent(tags: draft.tags, ingredients: draft.ingredients, instructions: draft.instructions)
        } else {
            say("no open draft")
        }
    }

    // MARK: - diff

    static let diffSpec = CommandSpec(
        name: "recipes audit diff", summary: "What changed between two committed versions of a recipe.",
        abstract: "What changed between two committed versions.",
        arguments: "ID",
        options: KafkaOptions.specs + [
            allowMissingHead,
            .value("from-version", "V1", "The earlier committed version.", required: true),
            .value("to-version", "V2", "The later committed version.", required: true),
            StoreOptions.json,
        ])

    static func diff(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: diffSpec)
        let id = try QueryCommands.singleID(args)
        guard let from = try args.int("from-version", in: 1...Int.max), let to = try args.int("to-version", in: 1...Int.max) else {
            throw UsageError("give both --from-version V1 and --to-version V2")
        }
        let diff = try auditor(args).diff(id, from: from, to: to)
        if args.flag("json") { return try printJSON(diff) }
        say("recipe \(id): version \(from) → \(to)")
        if diff.isEmpty { return say("  no changes") }
        for line in diff.lines { say("  " + line) }
    }

    // MARK: - export

    static let exportSpec = CommandSpec(
        name: "recipes audit export", summary: "Every command of the log with its position and recorded decision, one JSON line each.",
        options: KafkaOptions.specs + [
            allowMissingHead,
            .value("since", "TIME", "Only commands logged at or after this RFC 3339 time."),
            .value("format", "FORMAT", "Output format; jsonl is the one there is.", default: "jsonl"),
        ],
        discussion: """
            Lines go to stdout, partition by partition in offset order, each command with its effective decision
            as recorded (outcome, reason, revision, rulesVersion); progress, and how many commands no decision
            counts for yet (not exported), go to stderr.
            """)

    static func export(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: exportSpec)
        try args.expectNoPositionals()
        guard args.string("format") == "jsonl" else { throw UsageError("--format: only jsonl is supported") }
        let since = try args.string("since").map { try LogPositions.time($0, option: "since") }
        let reporter = ProgressReporter("export")
        let output = BufferedOutput()
        var last: (Int64, Int64) = (0, 0)
        let count = try auditor(args).export(since: since, progress: { done, total in
            last = (done, total)
            reporter.update(done: done, total: total)
        }) { record in output.line(record.json) }
        output.flush()
        reporter.finish(done: last.0, total: last.1)
        let undecided = count.undecided > 0 ? "; \(LogAuditor.notDecided(count.undecided)), not exported" : ""
        FileHandle.standardError.write(Data("exported \(count.exported) records\(undecided)\n".utf8))
    }

    // MARK: - verify

    static let verifySpec = CommandSpec(
        name: "recipes audit verify", summary: "Replay the decisions up to a live store's positions and compare every read model.",
        options: KafkaOptions.specs + [
            StoreOptions.db,
            .value("show", "N", "Differing rows to print per recipe.", default: "5"),
            .value("scratch", "DIR", "Where the copy and the replay go (removed afterwards; room for two stores).",
                   default: NSTemporaryDirectory()),
        ],
        discussion: """
            Copies the live store (a consistent snapshot, so a running projector may keep writing it),
            replays the decisions into a scratch store up to the snapshot's positions, and compares the rows of
            every read model. Exits 0 when they agree; 1 when they differ, naming each recipe with what the
            live store says and what the replay says; 2 when it could not compare (the message says why).
            """)

    static func verify(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: verifySpec)
        try args.expectNoPositionals()
        let live = args.string("db")!
        let show = try args.int("show", in: 1...10_000)!
        let scratch = URL(fileURLWithPath: args.string("scratch")!)
            .appendingPathComponent("recipes-verify-\(ProcessInfo.processInfo.processIdentifier)").path
        let topic = try KafkaOptions.topics(args).decisions
        let config = try KafkaOptions.config(args)
        let reporter = ProgressReporter("verify: replay")
        var last: Projector.CatchUpProgress?
        let report: StoreVerifier.Report
        do {
            report = try StoreVerifier.verify(live: live, kafka: config, topic: topic, scratch: scratch) { progress in
                last = progress
                reporter.update(done: progress.done, total: progress.total)
            }
        } catch {
            // 1 means "differs": a failure to compare must not read as that.
            throw CommandFailed(status: 2, "could not compare: \(error)")
        }
        if let last { reporter.finish(done: last.done, total: last.total) }
        let records = report.positions.values.reduce(0, +)
        if let heads = report.missingHeads {
            say("note: \(live) is partial: partitions read from past their first records (\(heads)); the replay read the same")
        }
        if report.agree {
            return say("\(live) agrees with a replay of the decisions: \(records) commands, every read model equal")
        }
        let byRecipe = Dictionary(grouping: report.differences) { $0.recipeID ?? "(no recipe)" }
        say("\(live) DIFFERS from a replay of the decisions (\(records) commands): \(report.differences.count) rows in \(byRecipe.count) recipes")
        for (recipe, differences) in byRecipe.sorted(by: { $0.key < $1.key }) {
            say("recipe \(recipe):")
            for difference in differences.prefix(show) {
                say("  live:   \(difference.live ?? "(no row)")")
                say("  replay: \(difference.replay ?? "(no row)")")
            }
            if differences.count > show { say("  … and \(differences.count - show) more rows") }
        }
        exit(1)
    }

    // MARK: - Shared

    private static func auditor(_ args: ParsedArguments) throws -> LogAuditor {
        try LogAuditor(kafka: try KafkaOptions.config(args), topics: try KafkaOptions.topics(args),
                       allowMissingHead: args.flag("allow-missing-head"))
    }

    /// Without it, a partition whose first records are gone is refused (exit 3): its answers would leave them out.
    static let allowMissingHead = OptionSpec.flag(
        "allow-missing-head", "Read a partition whose first records are gone from what is left (the answer is partial).")

    static func rfc3339(_ milliseconds: Int64) -> String {
        RFC3339.string(Timestamp(millisecondsSinceEpoch: milliseconds))
    }
}

/// Lines to stdout in large writes: an export is millions of lines.
final class BufferedOutput {
    private var buffer = Data()

    func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        FileHandle.standardOutput.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// `audit history --json`: the recipe, its partition, each decided command with the
/// members an `audit export` line has, and the positions of those not decided yet.
struct HistoryJSON: Encodable {
    var recipeId: String
    var partition: Int32
    var items: [Item]
    var undecided: [String]

    struct Item: Encodable {
        var position: String
        var partition: Int32
        var offset: Int64
        var logTime: String?
        var key: String?
        var recipeId: String?
        var commandId: String?
        var time: String?
        var actor: String?
        var type: String
        var outcome: String
        var reason: Reason?
        var revision: Int?
        var rulesVersion: Int
        var data: JSONValue?

        init(_ record: AuditRecord) {
            let entry = record.entry
            position = record.position
            partition = entry.partition
            offset = entry.offset
            logTime = entry.logTime.map(AuditCommand.rfc3339)
            key = record.key
            recipeId = entry.recipeID?.text
            commandId = entry.commandID
            time = entry.time.map(AuditCommand.rfc3339)
            actor = entry.actor
            type = entry.type
            outcome = entry.outcome.rawValue
            reason = entry.reasonCode.map { Reason(code: $0, message: entry.reasonMessage ?? "") }
            revision = entry.revision
            rulesVersion = record.decision.rulesVersion
            data = record.data
        }
    }

    struct Reason: Encodable {
        var code: String
        var message: String
    }
}
