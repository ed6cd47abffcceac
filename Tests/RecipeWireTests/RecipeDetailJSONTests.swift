import Foundation
import RecipeDomain
import RecipeGenerators
@testable import RecipeWire
import Testing

/// The detail document written by hand (`RecipeDetail.json`) is the bytes Foundation's
/// encoder writes (`DocumentJSON.encoder`), which the API served before it and which
/// `recipes.committed` must keep carrying: on the recipes a realistic stream makes, and
/// on every member set, absent, and holding the texts and numbers that JSON writers
/// disagree on.
@Suite("Detail documents as JSON")
struct RecipeDetailJSONTests {
    @Test("every recipe a long random stream saves is written as the encoder writes it")
    func recipesOfAStream() throws {
        var recipes: [RecipeID: Recipe] = [:]
        for envelope in commandStream(count: 20_000, recipes: 200, seed: 31) {
            recipes[envelope.recipeID, default: Recipe(id: envelope.recipeID)].apply(envelope)
        }
        var compared = 0
        for recipe in recipes.values {
            for version in recipe.versions {
                let detail = RecipeDetail(id: recipe.id.text, version: version, hasDraft: recipe.hasOpenDraft)
                try expectEncoderBytes(detail)
                compared += 1
            }
        }
        #expect(compared > 200, "the stream saved versions to compare: \(compared)")
    }

    @Test("every member present, with texts to escape and numbers in every form")
    func everyMember() throws {
        let texts = ["plain", "quote \" and backslash \\", "slash / and </script>", "tab\tnew\nline\rreturn",
                     "controls \u{01}\u{08}\u{0C}\u{1F}\u{7F}", "é ñ 中文 🍰 \u{2028}\u{2029}", ""]
        let numbers: [Double] = [0, -0.0, 1, 250, 0.1, 1.0 / 3, 2.5e-7, 123_456.789, 1e15, 1e16, 9_007_199_254_740_992,
                                 9_007_199_254_740_994, .leastNonzeroMagnitude, 1.7976931348623157e308, -12.75]
        for (index, text) in texts.enumerated() {
            let ingredients = numbers.enumerated().map { offset, amount in
                IngredientView(id: "i\(offset)", name: text, amount: amount, amountMax: numbers[(offset + 1) % numbers.count], metric: text, unit: text,
                               note: text, section: text, text: text, display: text)
            }
            let detail = RecipeDetail(id: "r-\(index)", version: index + 1, title: text, servings: 4, image: text, description: text,
                                      yield: text, prepTime: text, cookTime: text, totalTime: text, sourceUrl: text, guests: 6,
                                      units: "metric", ingredients: ingredients,
                                      instructions: [InstructionView(id: "s1", order: 1, description: text, section: text)],
                                      tags: [TagView(name: text, payload: text)], updatedAt: "2026-12-02T07:00:00.000Z",
                                      savedBy: text, hasDraft: index % 2 == 0)
            try expectEncoderBytes(detail)
        }
    }

    @Test("nutrition, per serving and in total, with every nutrient and numbers in every form, as the encoder writes it")
    func nutrition() throws {
        let amounts: [Double] = [0, 0.1, 1.0 / 3, 9.5, 240, 2.5e-7, 49_999.9, 123_456.789, 999_999.99]
        let stated = Dictionary(uniqueKeysWithValues: zip(Nutrition.Nutrient.allCases, amounts))
        for (servingSize, servings) in [("1 slice \"thick\" / \u{1}", 4), ("", 7)] as [(String?, Int?)] + [(nil, nil)] {
            var content = RecipeContent(title: "T", servings: servings, nutrition: Nutrition(amounts: stated, servingSize: servingSize))
            let version = RecipeVersion(number: 1, content: content, savedAt: Timestamp(millisecondsSinceEpoch: 0), savedBy: "a")
            let detail = RecipeDetail(id: "r", version: version, hasDraft: false)
            let shown = try #require(detail.nutrition)
            #expect(shown.perServing.count == 9 && shown.forServings == servings && (shown.total == nil) == (servings == nil))
            try expectEncoderBytes(detail)
            let forGuests = RecipeDetail(id: "r", version: 1, content: content, guests: 3, units: nil, updatedAt: "t", savedBy: "a", hasDraft: false)
            #expect(forGuests.nutrition?.total?["sugar"]?.amount == 3 * 240 && forGuests.nutrition?.perServing["sugar"]?.amount == 240)
            try expectEncoderBytes(forGuests)
            content.nutrition = nil
            #expect(RecipeDetail(id: "r", version: 1, content: content, guests: 3, units: nil, updatedAt: "t", savedBy: "a", hasDraft: false)
                .nutrition == nil)
        }
    }

    @Test("every optional member absent, and empty lists")
    func noOptionalMember() throws {
        let bare = RecipeDetail(id: "r", version: 1, title: "T", servings: nil, image: nil, description: nil, yield: nil,
                                prepTime: nil, cookTime: nil, totalTime: nil, sourceUrl: nil, guests: nil, units: nil,
                                ingredients: [], instructions: [], tags: [], updatedAt: "2026-12-02T07:00:00.000Z",
                                savedBy: "a", hasDraft: false)
        try expectEncoderBytes(bare)
        var lines = bare
        lines.ingredients = [IngredientView(id: "i", name: "salt", amount: nil, amountMax: nil, metric: nil, unit: nil, note: nil,
                                            section: nil, text: nil, display: "")]
        lines.instructions = [InstructionView(id: "s", order: 1, description: "Mix.", section: nil)]
        lines.tags = [TagView(name: "vegan", payload: nil)]
        try expectEncoderBytes(lines)
    }

    @Test("a committed record's value is the detail with its position, as the encoder writes them")
    func committedValue() throws {
        let content = RecipeContent(title: "Pancakes / crêpes", servings: 2,
                                    ingredients: [Ingredient(id: "i1", name: "flour", amount: 0.3, unit: "kg")],
                                    instructions: [Instruction(id: "s1", description: "Whisk.", order: 1, section: nil)],
                                    tags: [Tag(name: "source", payload: "grandma")])
        let recipe = Recipe(id: "pancakes",
                            versions: [RecipeVersion(number: 1, content: content, savedAt: Timestamp(millisecondsSinceEpoch: 1_700_000_000_000),
                                                     savedBy: "ana")],
                            draft: nil, revision: 3, isDeleted: false, appliedCommandIDs: [])
        let committed = try #require(CommittedRecipe(recipe, partition: 7, offset: 1_234))
        let value = try #require(committed.value())
        let expected = try DocumentJSON.encoder.encode(Positioned(detail: try #require(committed.detail), position: "7:1234"))
        #expect(String(decoding: value, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test("a position header is read back as written, and anything else is no position")
    func positionHeader() {
        for (partition, offset) in [(Int32(0), Int64(0)), (7, 1_234), (Int32.max, 999_999_999_999_999_999)] {
            let header = Array("\(partition):\(offset)".utf8)
            let read = CommittedRecipe.position(fromHeader: header)
            #expect(read?.partition == partition && read?.offset == offset, "\(String(decoding: header, as: UTF8.self))")
        }
        for text in ["", ":", "3", "3:", ":5", "3:4:5", "a:1", "1:-1", "1:+1", " 1:1", "1:1 ", "2147483648:1", "1:1000000000000000000"] {
            #expect(CommittedRecipe.position(fromHeader: Array(text.utf8)) == nil, "\(text)")
        }
    }

    // MARK: - Helpers

    private func expectEncoderBytes(_ detail: RecipeDetail, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = String(decoding: try DocumentJSON.encoder.encode(detail), as: UTF8.self)
        #expect(String(decoding: detail.json(), as: UTF8.self) == expected, sourceLocation: sourceLocation)
        let positioned = String(decoding: try DocumentJSON.encoder.encode(Positioned(detail: detail, position: "12:345")), as: UTF8.self)
        #expect(String(decoding: detail.json(position: "12:345"), as: UTF8.self) == positioned, sourceLocation: sourceLocation)
    }

    /// The detail's members and `position` in one object, as the encoder writes a committed value.
    private struct Positioned: Encodable {
        var detail: RecipeDetail
        var position: String

        private enum Keys: String, CodingKey { case position }

        func encode(to encoder: any Encoder) throws {
            try detail.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(position, forKey: .position)
        }
    }
}
