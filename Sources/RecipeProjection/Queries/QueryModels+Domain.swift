import Foundation
import RecipeDomain
import RecipeJSON
import RecipeWire

// The query shapes built from the domain's values: by the read model from its
// rows, and by the audit tools from a fold of the log.

extension DraftView {
    init(id: String, content: RecipeContent, baseVersion: Int, revision: Int, lastRejectionJSON: String?,
         updatedAt: Int64) throws {
        let missing = Self.missing(title: content.title, ingredientCount: content.ingredients.count)
        let rejection = try Self.lastRejection(fromJSON: lastRejectionJSON)
        self.init(id: id, title: content.title, ingredients: content.ingredients.map(IngredientView.init), instructions: content.instructions.map(InstructionView.init),
                  tags: content.tags.map(TagView.init), revision: revision, baseVersion: baseVersion,
                  missing: missing, lastRejection: rejection, updatedAt: ReadModel.time(updatedAt),
                  nutrition: NutritionView(content.nutrition, forServings: content.servings))
        copyScalars(from: content)
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

// MARK: - The draft view's JSON

extension DraftView: ContentDocument {
    /// The document as `DocumentJSON.encoder` writes it, byte for byte, by `ContentJSON`
    /// (`ContentFormat.draftView`): what `GET /v1/recipes/{id}/draft` answers.
    /// DraftViewJSONTests compares the two.
    public func json() -> [UInt8] {
        var writer = JSONWriter(capacity: 512 + 192 * ingredients.count + 160 * instructions.count + 48 * tags.count)
        ContentJSON.write(self, .draftView, into: &writer) { index, writer in
            let member = ContentFormat.DraftMember(rawValue: index)!
            switch member {
            case .baseVersion: writer.member(member.key); writer.integer(baseVersion)
            case .id: writer.member(member.key); writer.string(id)
            case .lastRejection:
                guard let lastRejection else { return }
                writer.member(member.key)
                writer.key("code", first: true); writer.string(lastRejection.code)
                writer.key("commandId"); writer.string(lastRejection.commandId)
                writer.key("message"); writer.string(lastRejection.message)
                writer.key("position"); writer.string(lastRejection.position)
                writer.key("type"); writer.string(lastRejection.type)
                writer.raw("}")
            case .missing:
                writer.member(member.key); writer.raw("[")
                for (index, name) in missing.enumerated() {
                    if index > 0 { writer.raw(",") }
                    writer.string(name)
                }
                writer.raw("]")
            case .revision: writer.member(member.key); writer.integer(revision)
            case .updatedAt: writer.member(member.key); writer.string(updatedAt)
            }
        }
        return writer.bytes
    }
}
