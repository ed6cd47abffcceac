import Foundation
import RecipeDomain
import RecipeJSON

// The detail document: a committed version of a recipe as `GET /v1/recipes/{id}` serves
// it, and as `recipes.committed` carries it (`CommittedRecipe`). Here, below the read
// models and the decider, so that both write it from one definition with one encoder
// (`DocumentJSON`). Fields may be added, never renamed. A nil optional is left out of
// the JSON, never `null`. Schemas/openapi.yaml describes each shape with no other
// members, so a field added here must be added there too (scripts/api-contract fails).

public struct TagView: Codable, Sendable, Equatable {
    public var name: String
    public var payload: String?

    public init(name: String, payload: String?) {
        self.name = name
        self.payload = payload
    }
}

public struct IngredientView: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// Absent for a line without a quantity ("salt, to taste").
    public var amount: Double?
    /// The upper end of a range.
    public var amountMax: Double?
    /// The unit, as `unit`: the member old clients read (fields are added, never renamed).
    public var metric: String?
    public var unit: String?
    public var note: String?
    public var section: String?
    /// The line as the cook wrote it, when the command gave it.
    public var text: String?
    /// The quantity as people read it (`IngredientQuantity.text`): "1½ cups", "375 g",
    /// "2–3 cloves", "2"; empty for a line without an amount, which has nothing to
    /// measure (show the name, and `text` or `note`, alone).
    public var display: String
}

public struct InstructionView: Codable, Sendable, Equatable {
    public var id: String
    public var order: Int
    public var description: String
    public var section: String?
}

public struct RecipeDetail: Codable, Sendable, Equatable {
    public var id: String
    public var version: Int
    public var title: String
    public var servings: Int?
    public var image: String?
    public var description: String?
    /// What the recipe makes, as text ("12 muffins"); `servings` is what scaling uses.
    public var yield: String?
    /// ISO 8601 durations as written (`PT1H30M`).
    public var prepTime: String?
    public var cookTime: String?
    public var totalTime: String?
    public var sourceUrl: String?
    /// The number of guests amounts are scaled for, when asked.
    public var guests: Int?
    /// The system amounts are shown in (`metric`, `us`), when asked; stored amounts never change.
    public var units: String?
    public var ingredients: [IngredientView]
    public var instructions: [InstructionView]
    public var tags: [TagView]
    public var updatedAt: String
    public var savedBy: String
    public var hasDraft: Bool
    /// Per serving as stated, and in total for `guests` or else `servings`; absent when the recipe states none.
    public var nutrition: NutritionView? = nil
}

// MARK: - From the domain

extension RecipeDetail {
    /// A committed version as the detail read model shows it, unscaled.
    public init(id: String, version: RecipeVersion, hasDraft: Bool) {
        self.init(id: id, version: version.number, content: version.content, guests: nil, units: nil,
                  updatedAt: RFC3339.string(version.savedAt), savedBy: version.savedBy, hasDraft: hasDraft)
    }

    /// Version `version` with `content` standing for its own: scaled for `guests`,
    /// converted to `units`, as the caller made it.
    public init(id: String, version: Int, content: RecipeContent, guests: Int?, units: UnitSystem?, updatedAt: String,
                savedBy: String, hasDraft: Bool) {
        self.init(id: id, version: version, title: content.title, guests: guests, units: units?.rawValue,
                  ingredients: content.ingredients.map(IngredientView.init),
                  instructions: content.instructions.map(InstructionView.init), tags: content.tags.map(TagView.init),
                  updatedAt: updatedAt, savedBy: savedBy, hasDraft: hasDraft,
                  nutrition: NutritionView(content.nutrition, forServings: guests ?? content.servings))
        copyScalars(from: content)
    }
}

extension IngredientView {
    public init(_ ingredient: Ingredient) {
        self.init(id: ingredient.id, name: ingredient.name, amount: ingredient.amount, amountMax: ingredient.amountMax,
                  metric: ingredient.unit, unit: ingredient.unit, note: ingredient.note, section: ingredient.section,
                  text: ingredient.text, display: ingredient.readableQuantity)
    }
}

extension InstructionView {
    public init(_ instruction: Instruction) {
        self.init(id: instruction.id, order: instruction.order, description: instruction.description,
                  section: instruction.section)
    }
}

extension TagView {
    public init(_ tag: Tag) { self.init(name: tag.name, payload: tag.payload) }
}

// MARK: - The JSON

/// How the documents of the read side are written as JSON: the HTTP API's responses and
/// the values of `recipes.committed`, so that a recipe's detail is the same bytes in both.
/// Members in sorted order, `/` not escaped.
public enum DocumentJSON {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

extension RecipeDetail {
    /// The document as `DocumentJSON.encoder` writes it, byte for byte, by `ContentJSON`:
    /// the decider writes one for every save it decides and the API one for every detail it
    /// serves, and the encoder's reflection costs several times this. `position`, when
    /// given, is one more member (`recipes.committed`'s values). RecipeDetailJSONTests
    /// compares the two on every member.
    public func json(position: String? = nil) -> [UInt8] {
        var writer = JSONWriter(capacity: 512 + 192 * ingredients.count + 160 * instructions.count + 48 * tags.count)
        ContentJSON.write(self, .detail, into: &writer) { index, writer in
            let member = ContentFormat.DetailMember(rawValue: index)!
            switch member {
            case .guests: if let guests { writer.member(member.key); writer.integer(guests) }
            case .hasDraft: writer.member(member.key); writer.raw(hasDraft ? "true" : "false")
            case .id: writer.member(member.key); writer.string(id)
            case .position: if let position { writer.member(member.key); writer.string(position) }
            case .savedBy: writer.member(member.key); writer.string(savedBy)
            case .units: if let units { writer.member(member.key); writer.string(units) }
            case .updatedAt: writer.member(member.key); writer.string(updatedAt)
            case .version: writer.member(member.key); writer.integer(version)
            }
        }
        return writer.bytes
    }
}
