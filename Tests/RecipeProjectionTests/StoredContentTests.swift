import Foundation
import RecipeDomain
import RecipeGenerators
@testable import RecipeProjection
import Testing

/// What makes a new content field a checklist rather than a hope: a field the
/// fold sets but the store drops, or the read model does not show, fails here.
@Suite("Every content field is stored, shown and dumped")
struct StoredContentTests {
    /// The contents a generated log folds to: every field any command sets, in many values.
    private func foldedContents(recipes: Int = 60, commands: Int = 3_000) -> [RecipeContent] {
        var generator = RandomCommandGenerator(seed: 7)
        var states = (0..<recipes).map { _ in Recipe(id: generator.recipeID()) }
        for index in 0..<commands {
            let slot = index % recipes
            _ = states[slot].apply(generator.nextEnvelope(for: states[slot]))
        }
        return states.flatMap { recipe in recipe.versions.map(\.content) + (recipe.draft.map { [$0.content] } ?? []) }
    }

    @Test("the store reads back every content the fold makes, field for field")
    func storedContentRoundTrips() throws {
        let contents = foldedContents()
        try #require(contents.count > 50, "the log saves versions and opens drafts")
        for content in contents {
            let text = String(decoding: ContentCoding.utf8(content), as: UTF8.self)
            #expect(try ContentCoding.content(fromJSON: text) == content, "\(text)")
        }
    }

    @Test("stored content is read by its keys: in any order, escaped, null for none, other members passed over")
    func storedContentIsReadByKey() throws {
        let text = #"""
            {"extra":[1,{"a":2}],"tags":[{"payload":null,"name":"veg"}],"instructions":[],"title":"So\u0075p",
             "servings":null,"ingredients":[{"metric":"g","amount":2.5e2,"name":"Leek","id":"i1","note":null}]}
            """#
        var expected = RecipeContent()
        expected.title = "Soup"
        expected.ingredients = [Ingredient(id: "i1", name: "Leek", amount: 250, unit: "g")]
        expected.tags = [Tag(name: "veg")]
        #expect(try ContentCoding.content(fromJSON: text) == expected)
        for (broken, complaint) in [("{\"title\":\"Soup\"", "Not valid JSON"), ("[]", "the content: expected an object"),
                                    ("{\"title\":\"Soup\",\"ingredients\":{}}", "ingredients: expected an array"),
                                    ("{}", "the content: no member title")] {
            #expect {
                try ContentCoding.content(fromJSON: broken)
            } throws: { error in
                guard case StoreError.corrupted(let message) = error else { return false }
                return message.contains(complaint)
            }
        }
    }

    @Test("the detail shows every member of the content, its ingredients and its instructions")
    func detailShowsEveryField() throws {
        var content = try #require(foldedContents().first {
            !$0.ingredients.isEmpty && !$0.instructions.isEmpty && !$0.tags.isEmpty && $0.servings != nil && $0.image != nil
        }, "optional members are left out of the JSON when absent")
        // Every optional member set, so that each must show (absent ones are left out).
        (content.description, content.yield, content.sourceUrl) = ("d", "4 bowls", "https://example.com/r")
        (content.prepTime, content.cookTime, content.totalTime) = ("PT5M", "PT10M", "PT15M")
        content.ingredients[0] = Ingredient(
            id: "i", name: "garlic", amount: 2, amountMax: 3, unit: "clove", note: "chopped", section: "Sauce", text: "2-3 cloves garlic")
        content.instructions[0].section = "Sauce"
        content.nutrition = Nutrition(amounts: [.calories: 240, .fat: 9.5], servingSize: "1 slice")
        let detail = RecipeDetail(id: "r", version: RecipeVersion(number: 1, content: content, savedAt: Timestamp(millisecondsSinceEpoch: 0),
                                                                  savedBy: "alice"),
                                  hasDraft: false)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(detail)) as? [String: Any])
        func labels(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }
        #expect(labels(content).isSubset(of: Set(json.keys)), "missing: \(labels(content).subtracting(json.keys))")
        let ingredient = try #require((json["ingredients"] as? [[String: Any]])?.first)
        #expect(labels(content.ingredients[0]).isSubset(of: Set(ingredient.keys)))
        let instruction = try #require((json["instructions"] as? [[String: Any]])?.first)
        #expect(labels(content.instructions[0]).isSubset(of: Set(instruction.keys)))
    }

    @Test("the canonical dump covers every table of the store")
    func dumpCoversEveryTable() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tables-\(UUID().uuidString).db").path
        defer { removeStore(path) }
        let db = try SQLiteConnection(path: path)
        try StoreSchema.migrate(db)
        let tables = try db.statement("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name").rows { $0.text(0) }
        // store_meta holds the schema version and the log's identity, not rows of a read model;
        // history_chunks are dumped through their view, `history`, one row per record.
        let dumped = Set(StoreDump.tables.map(\.name))
        #expect(Set(tables).subtracting(["store_meta", "history_chunks"]) == dumped)
    }
}
