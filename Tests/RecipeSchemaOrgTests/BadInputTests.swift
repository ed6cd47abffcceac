import Foundation
import RecipeDomain
@testable import RecipeSchemaOrg
import Testing

@Suite("Import: bad input is refused, whole and with a clear message")
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
        #expect(error == .noJSONLD)
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
        let filler = "<p>filler text</p>\n"
        let page = Data((recipe + String(repeating: filler, count: 10_000_000 / filler.utf8.count)).utf8)
        let error = #expect(throws: SchemaOrgImportError.self) {
            try SchemaOrgImport.recipe(from: page, contentType: "text/html")
        }
        #expect(error == .documentTooLarge(bytes: page.count, limit: SchemaOrgImport.maxHTMLBytes))
        #expect(error?.description.contains("MiB") == true)
        // Just within the limit, the same recipe imports: the size is the limit, not something else of the page.
        let fits = Data((recipe + String(repeating: filler, count: (SchemaOrgImport.maxHTMLBytes - recipe.utf8.count) / filler.utf8.count)).utf8)
        #expect(fits.count <= SchemaOrgImport.maxHTMLBytes && fits.count > SchemaOrgImport.maxHTMLBytes - filler.utf8.count)
        #expect((try? SchemaOrgImport.recipe(from: fits, contentType: "text/html"))?.document.name == "Huge Page")
    }

    @Test func jsonOverItsLimitIsRefusedBeforeParsing() {
        let json = Data((#"{"@type": "Recipe", "name": "Big", "description": ""# + String(repeating: "x", count: SchemaOrgImport.maxJSONBytes) + #""}"#).utf8)
        let error = #expect(throws: SchemaOrgImportError.self) { try SchemaOrgImport.recipesFromJSON(json) }
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

    @Test func aNameOverTheTitleLimit() throws {
        let limit = RecipeLimits.maxTitleLength
        let fits = String(repeating: "é", count: limit)
        #expect(try Support.importJSON(Support.recipe(#""name": ""# + fits + #"""#)).document.name == fits)
        let error = Support.refusal(ofJSON: Support.recipe(#""name": ""# + fits + #"x""#))
        #expect(error == .tooLong(path: "$.name", what: "the name", length: limit + 1, limit: limit))
    }

    @Test func tooManyIngredients() throws {
        let limit = RecipeLimits.maxIngredients
        let lines = (1...limit).map { "\($0) g salt" }
        #expect(try Support.importJSON(Support.recipe(#""recipeIngredient": "# + Support.jsonList(lines))).document.ingredients.count == limit)
        let error = Support.refusal(ofJSON: Support.recipe(#""recipeIngredient": "# + Support.jsonList(lines + ["1 egg"])))
        #expect(error == .tooMany(path: "$.recipeIngredient", what: "ingredients", count: limit + 1, limit: limit))
    }

    @Test func tooManySteps() {
        let limit = RecipeLimits.maxInstructions
        let text = (0...limit).map { "Step \($0)." }.joined(separator: "\n")
        let error = Support.refusal(ofJSON: Support.recipe(#""recipeInstructions": ""# + text.replacingOccurrences(of: "\n", with: "\\n") + #"""#))
        #expect(error == .tooMany(path: "$.recipeInstructions", what: "steps", count: limit + 1, limit: limit))
    }

    @Test func tooManyTags() {
        let limit = RecipeLimits.maxTags
        let keywords = (0...limit).map { "tag\($0)" }.joined(separator: ", ")
        let error = Support.refusal(ofJSON: Support.recipe(#""keywords": ""# + keywords + #"""#))
        #expect(error == .tooMany(path: "$", what: "different tags from keywords, recipeCategory and recipeCuisine",
                                  count: limit + 1, limit: limit))
    }

    @Test func aStepOverItsLimitNamesTheStep() {
        let long = String(repeating: "s", count: RecipeLimits.maxDescriptionLength + 1)
        let error = Support.refusal(ofJSON: Support.recipe(#""recipeInstructions": [{"@type": "HowToStep", "text": "ok"}, {"@type": "HowToStep", "text": ""# + long + #""}]"#))
        #expect(error == .tooLong(path: "$.recipeInstructions[1].text", what: "the step",
                                  length: RecipeLimits.maxDescriptionLength + 1, limit: RecipeLimits.maxDescriptionLength))
    }

    @Test func anIngredientThatIsNotTextNamesItsPlace() {
        let error = Support.refusal(ofJSON: Support.recipe(#""recipeIngredient": ["2 eggs", {"name": "flour"}]"#))
        #expect(error == .wrongType(path: "$.recipeIngredient[1]", expected: "an ingredient line as text", found: "an object"))
    }

    @Test func aStepObjectWithoutTextIsAnError() {
        let error = Support.refusal(ofJSON: Support.recipe(#""recipeInstructions": [{"@type": "HowToStep", "image": "https://img.example.org/s.jpg"}]"#))
        #expect(error == .wrongType(path: "$.recipeInstructions[0]", expected: "a step with text or name, or a section with itemListElement",
                                    found: "an object with neither"))
    }

    @Test func anErrorInAGraphNamesTheNode() {
        let json = #"{"@graph": [{"@type": "WebPage"}, {"@type": "Recipe", "name": 12}]}"#
        #expect(Support.refusal(ofJSON: json) == .wrongType(path: #"$["@graph"][1].name"#, expected: "text", found: "a number"))
    }

    @Test func oneBadRecipeOfSeveralRefusesTheWholeFile() {
        let json = #"[{"@type": "Recipe", "name": "Good"}, {"@type": "Recipe", "name": "Bad", "recipeIngredient": [1]}]"#
        let error = #expect(throws: SchemaOrgImportError.self) { try SchemaOrgImport.recipesFromJSON(Data(json.utf8)) }
        #expect(error == .wrongType(path: "$[1].recipeIngredient[0]", expected: "an ingredient line as text", found: "a number"))
    }

    @Test func deeplyNestedJSONIsAnErrorNotACrash() {
        let json = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = Support.refusal(ofJSON: json)
        guard case .notJSON? = error else {
            Issue.record("expected notJSON, got \(String(describing: error))")
            return
        }
    }
}
