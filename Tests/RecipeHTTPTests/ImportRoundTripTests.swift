import Foundation
import RecipeDomain
import RecipeGenerators
import RecipeJSON
import RecipeProjection
import RecipeWire
import Testing

/// `import(export(r)) == r` for recipes written the way apps write them: generated edits POSTed to
/// the service, saved, exported as JSON-LD and imported again, each step through the API.
@Suite("schema.org round trip of generated recipes over HTTP")
struct ImportRoundTripTests {
    @Test("a saved recipe exported as JSON-LD imports as a recipe with the same detail, over 50 generated recipes")
    func importOfTheExportIsTheRecipe() throws {
        let fixture = try ServiceFixture()
        var generator = RandomCommandGenerator(seed: 0x5C4E_0016, invalidRate: 0, duplicateRate: 0, expectedRevisionRate: 0)
        var originals: [RecipeDetail] = []
        for _ in 0..<50 {
            let (id, saved) = try Self.savedRecipe(&generator, fixture)
            let original = try Self.detail(fixture, "/v1/recipes/\(id)?after=\(saved)")
            let exported = try fixture.get("/v1/recipes/\(id)?format=jsonld")
            try #require(exported.status == 200, "\(exported.text)")
            let imported = try fixture.post("/v1/import?save=true", exported.text, headers: ["content-type": "application/ld+json"])
            try #require(imported.status == 200, "\(imported.text)")
            #expect((imported.object["save"] as? [String: Any])?["outcome"] as? String == "accepted", "\(imported.text)")
            // Nothing is left out, but for a yield of things without servings, which the import names.
            let omissions = imported.object["omissions"] as? [String]
            #expect(omissions == [] || (original.servings == nil && omissions?.count == 1
                                        && omissions?.first?.hasPrefix(#"$.recipeYield: left out: servings: the yield ""#) == true), "\(imported.text)")
            let copy = try Self.detail(fixture, "/v1/recipes/\(try #require(imported.object["recipeId"] as? String))"
                                                + "?after=\(try #require(imported.object["savedPosition"] as? String))")
            let (left, right) = Self.comparable(original, copy)
            #expect(left == right, "recipe \(id): \(Self.differences(left, right))\n\(exported.text)")
            originals.append(original)
        }
        // The generated recipes hold every kind of content the export writes.
        let ingredients = originals.flatMap(\.ingredients)
        #expect(ingredients.contains { $0.amountMax != nil } && ingredients.contains { $0.amount == nil })
        #expect(ingredients.contains { $0.note != nil } && ingredients.contains { $0.section != nil })
        #expect(ingredients.contains { $0.text != nil } && ingredients.contains { $0.text == nil })
        #expect(originals.contains { !$0.instructions.isEmpty } && originals.contains { $0.instructions.contains { $0.section != nil } })
        #expect(originals.contains { $0.prepTime != nil } && originals.contains { $0.cookTime != nil } && originals.contains { $0.totalTime != nil })
        #expect(originals.contains { $0.yield != nil } && originals.contains { $0.servings != nil })
        #expect(originals.contains { $0.description != nil } && originals.contains { !$0.tags.isEmpty })
        #expect(originals.contains { $0.image != nil } && originals.contains { $0.sourceUrl != nil })
    }

    /// Appends a generated recipe (a draft, 40 plausible edits, then what saving needs) in one
    /// batch, and answers its id and the position of its save.
    private static func savedRecipe(_ generator: inout RandomCommandGenerator,
                                    _ fixture: ServiceFixture) throws -> (id: String, saved: String) {
        var recipe = Recipe(id: generator.recipeID())
        var envelopes = [generator.envelope(for: recipe, command: .draftStarted)]
        _ = recipe.apply(envelopes[0])
        func append(_ command: RecipeCommand) {
            let envelope = generator.envelope(for: recipe, command: command)
            _ = recipe.apply(envelope)
            envelopes.append(envelope)
        }
        for _ in 0..<40 { append(generator.plausibleEdit(for: recipe.currentContent ?? .empty)) }
        if recipe.currentContent?.title.isEmpty ?? true { append(.titleChanged(title: "Soup")) }
        if recipe.currentContent?.ingredients.isEmpty ?? true { append(.ingredientAdded(IngredientLine(name: "water"), ingredientID: nil)) }
        append(.recipeSaved)
        try #require(recipe.latestVersion != nil, "the generated recipe saves")

        let encoder = RecordEncoder(source: "round-trip-tests")
        let lines = try envelopes.map { envelope -> String in
            // The record's own data: the body an app sends for this command.
            let record = try JSONDecoder().decode([String: JSONValue].self, from: Data(encoder.encode(envelope)))
            let item: [String: JSONValue] = ["type": .string(envelope.command.kind.rawValue), "recipe": .string(envelope.recipeID.text),
                                             "id": .string(envelope.commandID), "data": record["data"] ?? .object([:])]
            return String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        }
        let sent = try fixture.post("/v1/commands", lines.joined(separator: "\n"), headers: ["content-type": "application/x-ndjson"])
        try #require(sent.status == 202, "\(sent.text)")
        try #require(try sent.items.allSatisfy { $0["error"] == nil }, "\(sent.text)")
        return (recipe.id.text, try #require(sent.items.last?["position"] as? String))
    }

    private static func detail(_ fixture: ServiceFixture, _ path: String) throws -> RecipeDetail {
        let response = try fixture.get(path)
        try #require(response.status == 200, "\(path): \(response.text)")
        return try JSONDecoder().decode(RecipeDetail.self, from: Data(response.body))
    }

    /// The two details without what is the copy's own (ids, version, the time and author of the
    /// save), and without what schema.org cannot carry (docs/schema-org.md, "Round trip"):
    /// - a tag's payload: keywords are names;
    /// - an ingredient's text where the original had none, or one that no longer says what its
    ///   fields say: the export writes a line from the fields, which the copy keeps as its text;
    /// - the end of an ingredient section: recipeIngredient is one list of lines with headings in
    ///   it, so a line without a section after lines with one reads as in the section before it.
    private static func comparable(_ original: RecipeDetail, _ copy: RecipeDetail) -> (RecipeDetail, RecipeDetail) {
        func content(of detail: RecipeDetail) -> RecipeDetail {
            var content = detail
            (content.id, content.version, content.updatedAt, content.savedBy) = ("", 0, "", "")
            for index in content.ingredients.indices { content.ingredients[index].id = "" }
            for index in content.instructions.indices { content.instructions[index].id = "" }
            for index in content.tags.indices { content.tags[index].payload = nil }
            return content
        }
        var (left, right) = (content(of: original), content(of: copy))
        var section: String?
        for index in left.ingredients.indices {
            var ingredient = left.ingredients[index]
            section = ingredient.section ?? section
            ingredient.section = section
            if let text = ingredient.text, !reads(text, as: ingredient) { ingredient.text = nil }
            if ingredient.text == nil, index < right.ingredients.count { right.ingredients[index].text = nil }
            left.ingredients[index] = ingredient
        }
        return (left, right)
    }

    private static func reads(_ text: String, as ingredient: IngredientView) -> Bool {
        let parsed = IngredientLineParser.parse(text)
        return (parsed.name, parsed.amount, parsed.amountMax, parsed.unit, parsed.note)
            == (ingredient.name, ingredient.amount, ingredient.amountMax, ingredient.unit, ingredient.note)
    }

    /// The members that differ, as JSON, for the failure message.
    private static func differences(_ left: RecipeDetail, _ right: RecipeDetail) -> String {
        func members(_ detail: RecipeDetail) -> [String: String] {
            let object = (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(detail))) as? [String: Any] ?? [:]
            return object.mapValues { value in
                (try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]))
                    .map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
            }
        }
        let (a, b) = (members(left), members(right))
        return Set(a.keys).union(b.keys).sorted().filter { a[$0] != b[$0] }
            .map { "\($0): \(a[$0] ?? "absent") ≠ \(b[$0] ?? "absent")" }.joined(separator: "; ")
    }
}
