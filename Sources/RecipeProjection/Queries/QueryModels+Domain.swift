import Foundation
import RecipeDomain
import RecipeWire

// The query shapes built from the domain's values: by the read model from its
// rows, and by the audit tools from a fold of the log.

extension DraftView {
    init(id: String, content: RecipeContent, baseVersion: Int, revision: Int, lastRejectionJSON: String?,
         updatedAt: Int64) throws {
        var missing: [String] = []
        if content.title.allSatisfy(\.isWhitespace) { missing.append("title") }
        if content.ingredients.isEmpty { missing.append("ingredients") }
        let rejection = try lastRejectionJSON.map { try JSONDecoder().decode(LastRejection.self, from: Data($0.utf8)) }
        self.init(id: id, title: content.title, servings: content.servings, image: content.image,
                  ingredients: content.ingredients.map(IngredientView.init), instructions: content.instructions.map(InstructionView.init),
                  tags: content.tags.map(TagView.init), revision: revision, baseVersion: baseVersion,
                  missing: missing, lastRejection: rejection, updatedAt: ReadModel.time(updatedAt))
    }
}

extension RecipeDetail {
    /// A committed version as the detail read model shows it, unscaled.
    public init(id: String, version: RecipeVersion, hasDraft: Bool) {
        let content = version.content
        self.init(id: id, version: version.number, title: content.title, servings: content.servings,
                  image: content.image, guests: nil, ingredients: content.ingredients.map(IngredientView.init),
                  instructions: content.instructions.map(InstructionView.init), tags: content.tags.map(TagView.init),
                  updatedAt: RFC3339.string(version.savedAt), savedBy: version.savedBy, hasDraft: hasDraft)
    }
}

extension IngredientView {
    public init(_ ingredient: Ingredient) {
        self.init(id: ingredient.id, name: ingredient.name, amount: ingredient.amount, metric: ingredient.metric,
                  display: ingredient.readableQuantity)
    }
}

extension InstructionView {
    public init(_ instruction: Instruction) {
        self.init(id: instruction.id, order: instruction.order, description: instruction.description)
    }
}

extension TagView {
    public init(_ tag: Tag) { self.init(name: tag.name, payload: tag.payload) }
}
