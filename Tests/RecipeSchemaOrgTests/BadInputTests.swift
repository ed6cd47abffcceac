import Foundation
import RecipeDomain
@testable import RecipeSchemaOrg
import Testing

@Suite("Import: what cannot be a recipe is refused with a clear message; what is over a limit is cut, and said")
struct BadInputTests {
    typealias Support = SchemaOrgTestSupport

    @Test func notJSONNamesWhereItBreaks() {
        let error = Support.refusal(ofJSON: #"{"@type": "Recipe", "name": }"#)
        guard case .notJSON(let location, let reason)? = error else {
            Issue.record("expected notJSON, got \(String(describing: error))")
            return
        }
        #expect(location == "The document")
        #expect(!reason.isEmpty)
        #expect(error!.description.hasPrefix("The document is not JSON: "))
    }

    @Test func noRecipeNode() {
        let error = Support.refusal(ofJSON: #"{"@graph": [{"@type": "WebPage", "name": "About us"}]}"#)
        #expect(error == .noRecipe(unreadableScripts: []))
        #expect(error?.description.contains("\"Recipe\"") == true)
    }

    @Test func aPageWithoutJSONLD() {
        let error = #expect(throws: SchemaOrgImportError.self) {
            try Support.importHTML("<html><script>var recipe = {};</script><p>Soup</p></html>")
        }
        #expect(error == .noStructuredData)
    }

    @Test func aPageWhoseOnlyBlocksAreUnreadableSaysWhy() {
        let error = #expect(throws: SchemaOrgImportError.self) {
            try Support.importHTML(#"<script type="application/ld+json">{"@type": "Recipe", "name": "Cut off"#)
        }
        guard case .noRecipe(let unreadable)? = error else {
            Issue.record("expected noRecipe, got \(String(describing: error))")
            return
        }
        #expect(unreadable.count == 1)
        #expect(unreadable.first?.hasPrefix("script 1: ") == true)
    }

    @Test func aTenMegabytePageHoldingARecipeIsRefusedForItsSizeAlone() {
        // A real recipe inside, so only the size can be the reason.
        let recipe = #"<script type="application/ld+json">{"@type": "Recipe", "name": "Huge Page"}</script>"#
        let padding = String(repeating: "<p>filler text</p>\n", count: 10_000_000 / 18)
        let page = Data((recipe + padding).utf8)
        let error = #expect(throws: SchemaOrgImportError.self) {
            try SchemaOrgImport.recipe(from: page, contentType: "text/html")
        }
        #expect(error == .documentTooLarge(bytes: page.count, limit: SchemaOrgImport.maxHTMLBytes))
        #expect(error?.description.contains("MiB") == true)
    }

    @Test func jsonOverItsLimitIsRefusedBeforeParsing() {
        let json = Data((#"{"@type": "Recipe", "name": "Big", "description": ""# + String(repeating: "x", count: SchemaOrgImport.maxJSONBytes) + #""}"#).utf8)
        let error = #expect(throws: SchemaOrgImportError.self) { try SchemaOrgImport.recipe(from: json, contentType: "application/json") }
        #expect(error == .documentTooLarge(bytes: json.count, limit: SchemaOrgImport.maxJSONBytes))
    }

    @Test func anUnknownContentType() {
        let error = #expect(throws: SchemaOrgImportError.self) {
            try SchemaOrgImport.recipe(from: Data("Soup".utf8), contentType: "text/plain")
        }
        #expect(error == .unsupportedContentType("text/plain"))
    }

    @Test(arguments: [#""name": "   ""#, #""name": null"#, #""name": "<p></p>""#, #""description": "no name""#])
    func aRecipeWithoutAName(members: String) {
        let error = Support.refusal(ofJSON: #"{"@type": "Recipe", "# + members + "}")
        guard case .missingName? = error else {
            Issue.record("expected missingName, got \(String(describing: error))")
            return
        }
    }

    @Test func aNameOfTheWrongType() {
        #expect(Support.refusal(ofJSON: #"{"@type": "Recipe", "name": {"text": "x"}}"#)
            == .wrongType(path: "$.name", expected: "text", found: "an object"))
    }

    @Test func aNameOverTheTitleLimitIsCutAtAWordAndSaid() throws {
        let limit = RecipeLimits.maxTitleLength
        let fits = String(repeating: "é", count: limit)
        #expect(try Support.importJSON(Support.recipe(#""name": ""# + fits + #"""#)).document.name == fits)
        let long = String(repeating: "Slow roast ", count: 30).trimmingCharacters(in: .whitespaces)
        let imported = try Support.importJSON(Support.recipe(#""name": ""# + long + #"""#))
        #expect(imported.document.name.unicodeScalars.count <= limit && imported.document.name.hasSuffix("roast…"))
        #expect(FieldRules.title(imported.document.name) == nil)
        #expect(imported.omissions.map(\.path) == ["$.name"])
        #expect(imported.omissions.first?.reason.contains("\(long.unicodeScalars.count)") == true)
    }

    @Test func ingredientsPastTheLimitAreCountedTheFirstKept() throws {
        let limit = RecipeLimits.maxIngredients
        let lines = (1...limit + 3).map { "\($0) g salt" }
        let imported = try Support.importJSON(Support.recipe(#""recipeIngredient": "# + Support.jsonList(lines)))
        #expect(imported.document.ingredients.map(\.text) == Array(lines.prefix(limit)))
        #expect(imported.omissions == [ImportOmission(path: "$.recipeIngredient", value: "3 lines",
                                                      reason: "a recipe holds at most \(limit) ingredients; the first are kept")])
    }

    @Test func stepsPastTheLimitAreCountedTheFirstKept() throws {
        let limit = RecipeLimits.maxInstructions
        let text = (0...limit).map { "Step \($0)." }.joined(separator: "\n")
        let imported = try Support.importJSON(Support.recipe(#""recipeInstructions": ""# + text.replacingOccurrences(of: "\n", with: "\\n") + #"""#))
        #expect(imported.document.instructions.count == limit && imported.document.instructions.last?.text == "Step \(limit - 1).")
        #expect(imported.omissions == [ImportOmission(path: "$.recipeInstructions", value: "1 steps",
                                                      reason: "a recipe holds at most \(limit) steps; the first are kept")])
    }

    @Test func tagsPastTheLimitAreNamedTheFirstKept() throws {
        let limit = RecipeLimits.maxTags
        let keywords = (0...limit).map { "tag\($0)" }
        let imported = try Support.importJSON(Support.recipe(#""keywords": ""# + keywords.joined(separator: ", ") + #"""#))
        #expect(imported.document.tags == Array(keywords.prefix(limit)))
        #expect(imported.omissions.map(\.value) == ["tag\(limit)"])
    }

    @Test func aStepOverItsLimitIsCutAndNamed() throws {
        let long = String(repeating: "Stir. ", count: RecipeLimits.maxDescriptionLength / 6 + 10)
        let imported = try Support.importJSON(Support.recipe(#""recipeInstructions": [{"@type": "HowToStep", "text": "ok"}, {"@type": "HowToStep", "text": ""# + long + #""}]"#))
        let steps = imported.document.instructions
        #expect(steps.count == 2 && steps[1].text.unicodeScalars.count <= RecipeLimits.maxDescriptionLength && steps[1].text.hasSuffix("Stir.…"))
        #expect(imported.omissions.map(\.path) == ["$.recipeInstructions[1].text"])
    }

    @Test func anIngredientLineTheRulesRefuseIsCutOrLeftOutAndNamed() throws {
        let longNote = "2 cups stock, " + String(repeating: "warmed gently ", count: 50)
        let sentence = String(repeating: "a very long line about nothing in particular ", count: 6)
        let json = Support.recipe(#""recipeIngredient": ["2 eggs", ""# + longNote + #"", ""# + sentence + #"", 7, {"name": "flour"}]"#)
        let imported = try Support.importJSON(json)
        let lines = imported.document.ingredients
        #expect(lines.map(\.text).first == "2 eggs" && lines.last?.text == "flour" && lines.count == 4, "\(lines.map(\.text))")
        for line in lines { #expect(FieldRules.ingredientLine(line.ingredientLine) == nil, "\(line.text)") }
        #expect(lines[1].text.hasPrefix("2 cups stock, warmed") && lines[1].parsed.amount == 2 && lines[1].text.hasSuffix("…"))
        #expect(lines[2].text.hasPrefix("a very long line") && lines[2].text.hasSuffix("…"))
        #expect(imported.omissions.map(\.path) == ["$.recipeIngredient[1]", "$.recipeIngredient[2]", "$.recipeIngredient[3]"])
        #expect(imported.omissions[0].reason.hasPrefix("cut to ") && imported.omissions[1].reason.hasPrefix("cut to "))
        #expect(imported.omissions[2] == ImportOmission(path: "$.recipeIngredient[3]", value: "7", reason: "an ingredient is a line of text"))
    }

    @Test func aStepObjectWithoutTextIsLeftOutAndNamed() throws {
        let imported = try Support.importJSON(Support.recipe(#""recipeInstructions": [{"@type": "HowToStep", "image": "https://img.example.org/s.jpg"}, "Stir.", true]"#))
        #expect(imported.document.instructions == [DocumentStep(text: "Stir.")])
        #expect(imported.omissions.map(\.path) == ["$.recipeInstructions[0]", "$.recipeInstructions[2]"])
    }

    @Test func anErrorInAGraphNamesTheNode() {
        let json = #"{"@graph": [{"@type": "WebPage"}, {"@type": "Recipe", "name": 12}]}"#
        #expect(Support.refusal(ofJSON: json) == .wrongType(path: #"$["@graph"][1].name"#, expected: "text", found: "a number"))
    }

    @Test func aRecipeThatCannotBeReadBesideOneThatCanIsNamed() throws {
        let json = #"[{"@type": "Recipe", "name": "Good", "recipeIngredient": ["1 egg"]}, {"@type": "Recipe", "name": 12}]"#
        let imported = try Support.importJSON(json)
        #expect(imported.document.name == "Good")
        #expect(imported.omissions == [ImportOmission(path: "$[1]", value: "", reason: "a Recipe that cannot be read: $[1].name: expected text, found a number.")])
        let all = try SchemaOrgImport.recipes(from: Data(json.utf8), contentType: nil)
        #expect(all.count == 2)
        #expect((try? all[0].get())?.document.name == "Good")
        #expect(throws: SchemaOrgImportError.wrongType(path: "$[1].name", expected: "text", found: "a number")) { try all[1].get() }
    }

    @Test func deeplyNestedJSONIsRefusedAtItsBoundNotACrash() {
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = Support.refusal(ofJSON: json)
        #expect(error == .tooComplex(where: "The document", what: "objects and lists nested deeper than \(SchemaOrgImport.maxDepth) levels"))
    }
}
