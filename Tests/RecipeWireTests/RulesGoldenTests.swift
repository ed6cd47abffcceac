import Foundation
import RecipeDomain
import RecipeWire
import Testing

/// The rules have a version (`RecipeDecider.rulesVersion`), and this is what keeps
/// it honest: Golden/rules/ holds a log of commands (a seeded random log and
/// hand-picked edge cases: every outcome, every rejection code the rules and the
/// decoder give) with the decisions today's rules made of them. Any change that
/// decides one of them otherwise fails here until the version is raised and the
/// golden regenerated (`scripts/regenerate-rules-golden`; docs/extending.md,
/// "Changing a rule").
@Suite("Rules golden")
struct RulesGoldenTests {
    static let regenerating = ProcessInfo.processInfo.environment["RECIPES_REGENERATE_RULES_GOLDEN"] == "1"
    static let howToRegenerate = "scripts/regenerate-rules-golden"

    /// Both tests read the files after the one regeneration, whichever runs first.
    static let regenerated: Result<Void, any Error>? = regenerating ? Result { try RulesGolden.regenerate() } : nil

    @Test func todaysRulesDecideEveryGoldenCommandAsRecorded() throws {
        try Self.regenerated?.get()
        let commands = try RulesGolden.readCommands()
        let recorded = try RulesGolden.readDecisions()
        try #require(recorded.count == commands.count,
                     "Golden/rules holds \(commands.count) commands but \(recorded.count) decisions: regenerate with \(Self.howToRegenerate)")
        let versions = Set(recorded.map(\.rulesVersion))
        try #require(versions == [RecipeDecider.rulesVersion],
                     "Golden/rules/decisions.jsonl was decided by rules version \(versions.sorted()), but RecipeDecider.rulesVersion is \(RecipeDecider.rulesVersion): regenerate it with \(Self.howToRegenerate) and review the diff")
        let decided = RulesGolden.decide(commands)
        if let index = decided.indices.first(where: { decided[$0] != recorded[$0] }) {
            Issue.record("""
                \(RulesGolden.describe(commands[index], decided[index])) is decided otherwise than the rules golden recorded.
                  recorded: \(RulesGolden.text(recorded[index]))
                  now:      \(RulesGolden.text(decided[index]))
                If the rule change is meant, raise RecipeDecider.rulesVersion (Sources/RecipeDomain/RulesVersion.swift) \
                and regenerate with \(Self.howToRegenerate). \(decided.indices.filter { decided[$0] != recorded[$0] }.count) of \(decided.count) decisions differ.
                """)
        }
    }

    /// The golden must reach every rule, or a change to one would pass unseen.
    @Test func theGoldenHoldsEveryOutcomeRejectionCodeCommandAndEvent() throws {
        try Self.regenerated?.get()
        let decisions = try RulesGolden.readDecisions()
        #expect(Set(decisions.map(\.outcome.name)) == ["accepted", "rejected", "duplicate", "undecodable"])
        let codes = Set(decisions.compactMap(\.outcome.rejection?.code))
        for code in RejectionCode.allCases where !codes.contains(code) && !RulesGolden.codesNotInTheGolden.keys.contains(code) {
            Issue.record("no golden command is rejected as \(code.rawValue): add one to RulesGoldenCases.edgeCases and regenerate with \(Self.howToRegenerate)")
        }
        let kinds = Set(decisions.compactMap(\.commandKind))
        for kind in RecipeCommand.Kind.allCases where !kinds.contains(kind) {
            Issue.record("no golden command is a \(kind.rawValue): add one to RulesGoldenCases.edgeCases and regenerate with \(Self.howToRegenerate)")
        }
        let events = Set(decisions.flatMap(\.events).map(\.kind))
        for kind in RecipeEvent.Kind.allCases where !events.contains(kind) {
            Issue.record("no golden decision has a \(kind.rawValue) event: add a command causing one to RulesGoldenCases.edgeCases and regenerate with \(Self.howToRegenerate)")
        }
    }
}

// MARK: - The golden files

/// Golden/rules/commands.tsv: one record of `recipes.edits` a line, its key, a tab,
/// its value (a line without a tab has no key), as `kcat -K '\t'` prints a topic
/// and produces one; the record at line N (from 0) is at offset N of partition 0.
/// Golden/rules/decisions.jsonl: the decision for each, one a line, as the
/// decision encoder writes it.
enum RulesGolden {
    static let directory = WireTestSupport.goldenDirectory.appendingPathComponent("rules")
    static let commandsFile = directory.appendingPathComponent("commands.tsv")
    static let decisionsFile = directory.appendingPathComponent("decisions.jsonl")

    /// Codes decided before a record is decoded, from what a file of records cannot
    /// hold: the size of a record over 2 MiB, and the partition count.
    static let codesNotInTheGolden: [RejectionCode: String] = [
        .tooLarge: "a record over WireFormat.maxRecordSize (BadInputTests, LimitTests)",
        .wrongPartition: "a record on another partition than its key hashes to (LogIntegrityTests)",
    ]

    struct Command {
        var key: [UInt8]?
        var value: [UInt8]
    }

    static func readCommands() throws -> [Command] {
        try lines(commandsFile).map { line in
            guard let tab = line.firstIndex(of: UInt8(ascii: "\t")) else { return Command(key: nil, value: Array(line)) }
            return Command(key: Array(line[..<tab]), value: Array(line[(tab + 1)...]))
        }
    }

    static func readDecisions() throws -> [DecisionRecord] {
        try lines(decisionsFile).enumerated().map { index, line in
            switch DecisionTestSupport.decoder.decode(value: Array(line)) {
            case .success(let decision): return decision
            case .failure(let error):
                throw GoldenError(description: "line \(index + 1) of \(decisionsFile.lastPathComponent) is no decision this build reads (\(error)): the decision format changed, which needs a new version (Schemas/README.md)")
            }
        }
    }

    struct GoldenError: Error, CustomStringConvertible {
        var description: String
    }

    private static func lines(_ file: URL) throws -> [ArraySlice<UInt8>] {
        let bytes = try [UInt8](Data(contentsOf: file))
        return bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
    }

    /// Decides `commands` in order as a decider would, each recipe from its own
    /// decisions before; the record at index N is at offset N of partition 0.
    static func decide(_ commands: [Command]) -> [DecisionRecord] {
        var recipes: [RecipeID: Recipe] = [:]
        return commands.enumerated().map { offset, command in
            switch WireTestSupport.decoder.decode(key: command.key, value: command.value) {
            case .success(let decoded):
                let recipeID = decoded.envelope.recipeID
                var recipe = recipes.removeValue(forKey: recipeID) ?? Recipe(id: recipeID)
                defer { recipes[recipeID] = recipe }
                let decision = RecipeJudge.decide(decoded.envelope, recipe: &recipe)
                return DecisionRecord(decision, of: decoded.envelope, revision: recipe.revision, partition: 0, offset: Int64(offset))
            case .failure(let error):
                return DecisionRecord(undecodable: error, key: command.key, partition: 0, offset: Int64(offset))
            }
        }
    }

    static func text(_ decision: DecisionRecord) -> String {
        WireTestSupport.text(DecisionTestSupport.encoder.encode(decision))
    }

    /// "offset 12 (line 13 of commands.tsv): TitleChanged c-9 to recipe r-1".
    static func describe(_ command: Command, _ decision: DecisionRecord) -> String {
        let what = decision.commandKind?.rawValue ?? "an undecodable record"
        return "The golden command at offset \(decision.offset) (line \(decision.offset + 1) of commands.tsv): \(what) "
            + "\(decision.commandID ?? "without id") to recipe \(decision.recipeID ?? "none")"
    }

    // MARK: - Regenerating

    /// Writes both files anew from `RulesGoldenCases`, decided by today's rules. Refuses
    /// while the rules decide a recorded command otherwise under the version that
    /// recorded it: the version must be raised first, or replicas on two builds would
    /// write different decisions under one version.
    static func regenerate() throws {
        if let commands = try? readCommands(), let recorded = try? readDecisions(), recorded.count == commands.count,
           Set(recorded.map(\.rulesVersion)) == [RecipeDecider.rulesVersion] {
            let decided = decide(commands)
            if let index = decided.indices.first(where: { decided[$0] != recorded[$0] }) {
                throw GoldenError(description: "not regenerated: \(describe(commands[index], decided[index])) is decided otherwise, but RecipeDecider.rulesVersion is still \(RecipeDecider.rulesVersion); raise it first")
            }
        }
        let commands = RulesGoldenCases.commands()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var tsv: [UInt8] = []
        for command in commands {
            if let key = command.key {
                tsv += key
                tsv.append(UInt8(ascii: "\t"))
            }
            tsv += command.value
            tsv.append(UInt8(ascii: "\n"))
        }
        try Data(tsv).write(to: commandsFile)
        var jsonl: [UInt8] = []
        for decision in decide(commands) {
            jsonl += DecisionTestSupport.encoder.encode(decision)
            jsonl.append(UInt8(ascii: "\n"))
        }
        try Data(jsonl).write(to: decisionsFile)
    }
}
