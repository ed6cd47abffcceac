import Foundation
import RecipeDomain
import RecipeGenerators
@testable import RecipeWire
import Testing

/// A log written before content version 2 keeps its meaning: a fixed stream of v1
/// records (Fixtures/v1-stream.jsonl, made by the generator and the v1 encoder before
/// any v2 existed) folds, with today's decoder and rules, into the very recipes the
/// v1 code folded it into (Fixtures/v1-stream-fold.txt, written by that code): the
/// same outcome for every record, the same versions, titles, servings, amounts and
/// units, steps and tags. Today's content is mapped back to the v1 shape to compare
/// (`V1Shape`); a v1 ingredient always has an amount and a unit.
@Suite("A v1 log keeps its meaning")
struct V1LogTests {
    static let streamFile = WireTestSupport.fixturesDirectory.appendingPathComponent("v1-stream.jsonl")
    static let foldFile = WireTestSupport.fixturesDirectory.appendingPathComponent("v1-stream-fold.txt")

    @Test func theV1StreamFoldsIntoTheRecipesTheV1CodeMade() throws {
        if ProcessInfo.processInfo.environment["RECIPEWIRE_WRITE_V1_STREAM"] == "1" { try Self.writeStream() }
        let lines = try String(contentsOf: Self.streamFile, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 595)
        var envelopes: [CommandEnvelope] = []
        for (number, line) in lines.enumerated() {
            let decoded = try WireTestSupport.decoder.decode(value: Array(line.utf8)).get()
            #expect(decoded.typeVersion == 1, "line \(number + 1) is not a v1 record: the fixture must stay v1 only")
            envelopes.append(decoded.envelope)
        }
        let expected = try String(contentsOf: Self.foldFile, encoding: .utf8)
        let folded = V1Shape.fold(envelopes)
        #expect(folded == expected)
        if folded != expected {
            let got = folded.split(separator: "\n", omittingEmptySubsequences: false)
            let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
            if let first = zip(got, want).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
                Issue.record("first difference at line \(first.offset + 1):\n got: \(first.element.0)\nwant: \(first.element.1)")
            }
        }
    }

    /// How the fixture was made: 600 plausible commands over 12 recipes, seed 16, less
    /// those breaking a record-level limit, which never reach the log (the gateway refuses them).
    static func writeStream() throws {
        var generator = RandomCommandGenerator(seed: 16)
        var recipes = (0..<12).map { _ in Recipe(id: generator.recipeID()) }
        var lines: [String] = []
        var envelopes: [CommandEnvelope] = []
        for _ in 0..<600 {
            let index = generator.random.int(below: recipes.count)
            let envelope = generator.nextEnvelope(for: recipes[index])
            if RecordLimits.violation(in: envelope) != nil { continue }
            recipes[index].apply(envelope)
            envelopes.append(envelope)
            lines.append(WireTestSupport.text(WireTestSupport.encoder.encode(envelope)))
        }
        try (lines.joined(separator: "\n") + "\n").write(to: streamFile, atomically: true, encoding: .utf8)
        try V1Shape.fold(envelopes).write(to: foldFile, atomically: true, encoding: .utf8)
    }
}

/// The recipes a log folds into, written in the v1 content shape, one fact a line.
enum V1Shape {
    static func fold(_ envelopes: [CommandEnvelope]) -> String {
        var recipes: [RecipeID: Recipe] = [:]
        var order: [RecipeID] = []
        var out = ""
        for (number, envelope) in envelopes.enumerated() {
            if recipes[envelope.recipeID] == nil {
                recipes[envelope.recipeID] = Recipe(id: envelope.recipeID)
                order.append(envelope.recipeID)
            }
            let outcome: String
            switch recipes[envelope.recipeID]!.apply(envelope) {
            case .accepted: outcome = "accepted"
            case .rejected(let rejection): outcome = "rejected \(rejection.code.rawValue)"
            case .duplicate: outcome = "duplicate"
            }
            out += "record \(number + 1) \(envelope.command.name): \(outcome)\n"
        }
        for id in order {
            let recipe = recipes[id]!
            out += "recipe \(id) revision \(recipe.revision) deleted \(recipe.isDeleted) draft \(recipe.draftBaseVersion.map(String.init) ?? "none")\n"
            for version in recipe.versions {
                out += "  version \(version.number) at \(version.savedAt.millisecondsSinceEpoch) by \(version.savedBy.debugDescription)\n"
                out += content(version.content, indent: "    ")
            }
            if let draft = recipe.draft {
                out += "  draft\n" + content(draft.content, indent: "    ")
            }
        }
        return out
    }

    static func content(_ content: RecipeContent, indent: String) -> String {
        let v2Fields: [String?] = [content.description, content.yield, content.prepTime, content.cookTime, content.totalTime, content.sourceUrl]
        var out = "\(indent)title \(content.title.debugDescription) servings \(content.servings.map(String.init) ?? "nil") image \(content.image?.debugDescription ?? "nil")\(v2Fields.allSatisfy { $0 == nil } ? "" : " NOT V1")\n"
        for ingredient in content.ingredients {
            // The v1 shape: an amount and a unit (metric), and nothing that v2 added.
            let v1 = ingredient.amount != nil && ingredient.unit != nil && ingredient.amountMax == nil && ingredient.note == nil
                && ingredient.section == nil && ingredient.text == nil
            let amount = ingredient.amount.map { "\($0)" } ?? "nil", metric = ingredient.unit?.debugDescription ?? "nil"
            out += "\(indent)ingredient \(ingredient.id.debugDescription) \(ingredient.name.debugDescription) \(amount) \(metric)\(v1 ? "" : " NOT V1")\n"
        }
        for instruction in content.instructions {
            out += "\(indent)step\(instruction.section == nil ? "" : " NOT V1") \(instruction.order) \(instruction.id.debugDescription) \(instruction.description.debugDescription)\n"
        }
        for tag in content.tags {
            out += "\(indent)tag \(tag.name.debugDescription) \(tag.payload?.debugDescription ?? "nil")\n"
        }
        return out
    }
}
