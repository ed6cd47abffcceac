import Foundation
import RecipeDomain
import RecipeWire

// The query shapes built from the domain's values: by the read model from its
// rows, and by the audit tools from a fold of the log.

extension DraftView {
    init(id: String, content: RecipeContent, baseVersion: Int, revision: Int, lastRejectionJSON: String?,
         updatedAt: Int64) throws {
        let missing = Self.missing(title: content.title, ingredientCount: content.ingredients.count)
        let rejection = try Self.lastRejection(fromJSON: lastRejectionJSON)
        self.init(id: id, title: content.title, servings: content.servings, image: content.image,
                  description: content.description, yield: content.yield, prepTime: content.prepTime,
                  cookTime: content.cookTime, totalTime: content.totalTime, sourceUrl: content.sourceUrl,
                  ingredients: content.ingredients.map(IngredientView.init), instructions: content.instructions.map(InstructionView.init),
                  tags: content.tags.map(TagView.init), revision: revision, baseVersion: baseVersion,
                  missing: missing, lastRejection: rejection, updatedAt: ReadModel.time(updatedAt),
                  nutrition: NutritionView(content.nutrition, forServings: content.servings))
    }

    /// What a save still needs: a title that is not blank, an ingredient.
    static func missing(title: String, ingredientCount: Int) -> [String] {
        var missing: [String] = []
        if title.allSatisfy(\.isWhitespace) { missing.append("title") }
        if ingredientCount == 0 { missing.append("ingredients") }
        return missing
    }

    static func lastRejection(fromJSON text: String?) throws -> LastRejection? {
        try text.map { try JSONDecoder().decode(LastRejection.self, from: Data($0.utf8)) }
    }
}
