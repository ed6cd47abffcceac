import Foundation
import Testing

/// The rules run in one place (docs/extending.md, "Changing a rule"): the sources ask them
/// through `RecipeJudge` alone, and only where a decision is made or foreseen. A record type,
/// a read model or a projector that called the rules itself could decide otherwise than the
/// decider did; this scan names the file and line that does.
@Suite("One door to the rules")
struct OneDoorToTheRulesTests {
    /// Sources/, from this file's place in Tests/RecipeDecisionsTests/.
    private static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// A line of code (comments left out) in the sources: its module, file name and text.
    private struct Line {
        var module: String
        var file: String
        var number: Int
        var text: String
        var place: String { "Sources/\(module)/…/\(file):\(number): \(text.trimmingCharacters(in: .whitespaces))" }
    }

    private static func codeLines() throws -> [Line] {
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted() ?? []
        #expect(files.count > 100, "the scan found the sources")
        return try files.flatMap { path -> [Line] in
            let parts = path.split(separator: "/").map(String.init)
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { return nil }
                return Line(module: parts[0], file: parts[parts.count - 1], number: index + 1, text: String(line))
            }
        }
    }

    /// `RecipeDecider.decide`, `.fold` and `decideFresh` are called by the rules' own file and
    /// `RecipeJudge`; `Recipe.apply` (a test's shorthand) by no source outside RecipeDomain.
    /// The record type built from a decision, the gateway and the importer once called them.
    @Test func onlyTheJudgeCallsTheRules() throws {
        let rules = try Self.codeLines().filter { line in
            line.text.contains("RecipeDecider.decide(") || line.text.contains("RecipeDecider.fold(")
                || line.text.contains("decideFresh(") || (line.module != "RecipeDomain" && line.text.contains(".apply("))
        }
        let elsewhere = rules.filter { !($0.module == "RecipeDomain" && ["RecipeDecider.swift", "RecipeJudge.swift"].contains($0.file)) }
            .map(\.place)
        #expect(elsewhere.isEmpty, "decides outside RecipeJudge:\n\(elsewhere.joined(separator: "\n"))")
    }

    /// Who asks `RecipeJudge`, and why each may: the decider stage's `CommandJudge` (and
    /// `audit redecide` through it); the gateway's receipt under `--private`, which answers
    /// as the rules would for a recipe no command touched; the importer, which appends only
    /// what the decider will accept; the benchmarks, which measure the rules; the generators,
    /// which seed commands the rules take. Everything else folds recorded decisions.
    @Test func theJudgeIsAskedOnlyWhereADecisionIsMadeOrForeseen() throws {
        let askers: Set<String> = ["RecipeDecisions/CommandJudge.swift", "RecipeHTTP/Access.swift", "RecipeSchemaOrg/ImportCommands.swift"]
        let tools: Set<String> = ["RecipeDomain", "recipes-bench", "RecipeGenerators"]
        let asking = try Self.codeLines().filter { $0.text.contains("RecipeJudge.") }
        #expect(asking.contains { $0.file == "CommandJudge.swift" }, "CommandJudge asks RecipeJudge")
        let elsewhere = asking.filter { !tools.contains($0.module) && !askers.contains("\($0.module)/\($0.file)") }.map(\.place)
        #expect(elsewhere.isEmpty, "asks the rules outside the judge's known askers:\n\(elsewhere.joined(separator: "\n"))")
    }
}
