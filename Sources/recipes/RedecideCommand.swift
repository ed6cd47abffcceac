import Foundation
import RecipeAudit
import RecipeCLI
import RecipeDomain
import RecipeWire

/// `recipes audit redecide`: what this build's rules would decide otherwise than the recorded decisions.
extension AuditCommand {
    static let redecideSpec = CommandSpec(
        name: "recipes audit redecide",
        summary: "Decide every command again with this build's rules and list each whose decision would differ from the recorded one.",
        abstract: "What this build's rules would decide otherwise than the recorded decisions.",
        options: KafkaOptions.specs + [StoreOptions.json],
        discussion: """
            Reads recipes.edits and recipes.decisions partition by partition. Each command with an
            effective decision is decided with this build's rules against its recipe as the recorded
            decisions before it left it, and compared with that decision: outcome, rejection code, events,
            revision. The recorded decisions, not today's, move the recipes on, so each command is judged
            on what was really decided before it. Commands not decided yet are counted, not compared.
            Differences are the answer, not an error: it exits 0 when it ran. Progress goes to stderr.
            """)

    static func redecide(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: redecideSpec)
        try args.expectNoPositionals()
        let redecider = Redecider(kafka: try KafkaOptions.config(args), topics: try KafkaOptions.topics(args))
        let reporter = ProgressReporter("redecide")
        var last: (Int64, Int64) = (0, 0)
        let report = try redecider.run { done, total in
            last = (done, total)
            reporter.update(done: done, total: total)
        }
        reporter.finish(done: last.0, total: last.1)
        if args.flag("json") { return try printJSON(RedecideJSON(report)) }

        if !report.differences.isEmpty {
            printTable(["POSITION", "RECIPE", "COMMAND", "TYPE", "RECORDED", "TODAY", "DIFFERS"], report.differences.map { difference in
                [difference.position, difference.recipeID ?? "", difference.commandID ?? "", difference.commandKind?.rawValue ?? "",
                 outcomeText(difference.recorded) + " (rules \(difference.recordedRulesVersion))", outcomeText(difference.today),
                 difference.aspects.map(\.rawValue).joined(separator: ", ")]
            })
            say("")
        }
        let differing = report.differences.count
        say("compared \(report.compared) commands with rules version \(report.rulesVersion): "
            + (differing == 0 ? "none differs" : "\(differing) differ\(differing == 1 ? "s" : "")"))
        if differing > 0 {
            say("")
            printTable(["RECORDED", "TODAY", "COMMANDS"], RedecideJSON.outcomeChanges(report).map { [$0.recorded, $0.today, String($0.count)] })
            say("")
            printTable(["REJECTION CODE", "RECORDED", "TODAY"], RedecideJSON.codes(report).map { [$0.code, String($0.recorded), String($0.today)] })
        }
        if report.undecided > 0 {
            say("\(report.undecided) command\(report.undecided == 1 ? " has" : "s have") no effective decision yet: not compared")
        }
    }

    /// `rejected notOwner`, `accepted`, …
    private static func outcomeText(_ outcome: DecisionRecord.Outcome) -> String {
        outcome.rejection.map { "\(outcome.name) \($0.code.rawValue)" } ?? outcome.name
    }
}

/// `audit redecide --json`.
struct RedecideJSON: Encodable {
    var rulesVersion: Int
    var compared: Int
    var differing: Int
    var undecided: Int
    var differences: [Difference]
    var outcomeChanges: [OutcomeChange]
    var codes: [CodeCount]

    init(_ report: Redecider.Report) {
        rulesVersion = report.rulesVersion
        compared = report.compared
        differing = report.differences.count
        undecided = report.undecided
        differences = report.differences.map { Difference($0, rulesVersion: report.rulesVersion) }
        outcomeChanges = Self.outcomeChanges(report)
        codes = Self.codes(report)
    }

    struct Difference: Encodable {
        var position: String
        var partition: Int32
        var offset: Int64
        var recipeId: String?
        var commandId: String?
        var type: String?
        var recorded: Outcome
        var today: Outcome
        var differs: [String]

        init(_ difference: Redecider.Difference, rulesVersion: Int) {
            position = difference.position
            partition = difference.partition
            offset = difference.offset
            recipeId = difference.recipeID
            commandId = difference.commandID
            type = difference.commandKind?.rawValue
            recorded = Outcome(difference.recorded, rulesVersion: difference.recordedRulesVersion)
            today = Outcome(difference.today, rulesVersion: rulesVersion)
            differs = difference.aspects.map(\.rawValue)
        }
    }

    struct Outcome: Encodable {
        var outcome: String
        var rulesVersion: Int
        var reason: HistoryJSON.Reason?
        var revision: Int?

        init(_ outcome: DecisionRecord.Outcome, rulesVersion: Int) {
            self.outcome = outcome.name
            self.rulesVersion = rulesVersion
            reason = outcome.rejection.map { HistoryJSON.Reason(code: $0.code.rawValue, message: $0.message) }
            revision = outcome.revision
        }
    }

    struct OutcomeChange: Encodable {
        var recorded: String
        var today: String
        var count: Int
    }

    struct CodeCount: Encodable {
        var code: String
        var recorded: Int
        var today: Int
    }

    /// Most frequent first.
    static func outcomeChanges(_ report: Redecider.Report) -> [OutcomeChange] {
        report.outcomeChanges.map { OutcomeChange(recorded: $0.key.recorded, today: $0.key.today, count: $0.value) }
            .sorted { ($1.count, $0.recorded, $0.today) < ($0.count, $1.recorded, $1.today) }
    }

    /// By code.
    static func codes(_ report: Redecider.Report) -> [CodeCount] {
        report.codes.map { CodeCount(code: $0.key.rawValue, recorded: $0.value.recorded, today: $0.value.today) }.sorted { $0.code < $1.code }
    }
}
