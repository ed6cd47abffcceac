import Foundation
import RecipeDomain
import RecipeGenerators
import RecipeJSON
@testable import RecipeSchemaOrg
import RecipeWire
import Testing

/// The import decides like the fold: whatever a Recipe node holds, in whatever shape and
/// length, the import either refuses the document or gives content the fold accepts whole
/// (`RecipeDecider.fold`), never content that would be appended to fail later.
@Suite("Import: the fold accepts whatever the import gives")
struct FoldAgreementTests {
    @Test("600 Recipe nodes of random values in every member, of every JSON type and length, fold")
    func randomNodesFold() throws {
        var random = SplitMix64(seed: 0x1_0026)
        var folded = 0
        for index in 0..<600 {
            var node: [String: JSONValue] = ["@type": .string("Recipe")]
            for member in Self.members where random.chance(0.6) { node[member] = Self.value(&random, depth: 0) }
            if random.chance(0.8) { node["name"] = .string(Self.text(&random)) }
            let data = try JSONEncoder().encode(JSONValue.object(node))
            let imported: ImportedRecipe
            do {
                imported = try SchemaOrgImport.recipe(from: data, contentType: "application/ld+json")
            } catch {
                // Only a recipe without a usable name is refused.
                switch error {
                case .missingName, .wrongType(_, "text", _): continue
                default: Issue.record("\(index): \(error)"); continue
                }
            }
            do {
                let commands = try imported.commands(recipeID: RecipeID(made: "r\(index)"), actor: "tester", actorRole: .writer,
                                                     time: Timestamp(millisecondsSinceEpoch: 0), save: true, newCommandID: { UUID().uuidString })
                #expect(commands.save != nil || commands.saveRefused?.code == .notSavable, "\(index)")
                folded += 1
            } catch {
                Issue.record("\(index): the fold refuses what the import gave: \(error)\n\(String(decoding: data, as: UTF8.self).prefix(2_000))")
            }
        }
        #expect(folded > 400)
    }

    static let members = ["description", "image", "recipeYield", "prepTime", "cookTime", "totalTime", "url", "mainEntityOfPage",
                          "keywords", "recipeCategory", "recipeCuisine", "recipeIngredient", "ingredients", "recipeInstructions"]

    static let words = ["flour", "2", "½", "cups", "g", "<p>", "</p>", "<br>", "&amp;", ",", ":", "PT", "1H", "30M", "minutes", "P30M",
                        "\n", "\t", "  ", "https://img.example.org/a.jpg", "For the sauce:", "Step", "🍋", "日本", "-", "(", ")", "1e9", "0"]

    static func text(_ random: inout SplitMix64) -> String {
        // Mostly short, sometimes past every limit the domain has.
        let count = random.chance(0.1) ? random.int(in: 200...1_500) : random.int(in: 0...12)
        return (0..<count).map { _ in random.pick(words) }.joined(separator: random.chance(0.5) ? " " : "")
    }

    static func value(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        switch random.int(below: depth > 2 ? 5 : 8) {
        case 0: return .null
        case 1: return .bool(random.chance(0.5))
        case 2: return .integer(Int64(random.int(in: -5...400)))
        case 3: return .number(random.unitInterval() * 1e7)
        case 4: return .string(text(&random))
        case 5: return .array((0..<random.int(in: 0...(random.chance(0.05) ? 260 : 6))).map { _ in value(&random, depth: depth + 1) })
        case 6:
            var object: [String: JSONValue] = ["@type": .string(random.pick(["HowToStep", "HowToSection", "ImageObject", "QuantitativeValue"]))]
            for key in ["text", "name", "url", "value", "unitText", "itemListElement"] where random.chance(0.5) {
                object[key] = value(&random, depth: depth + 1)
            }
            return .object(object)
        default: return .string(text(&random))
        }
    }
}
