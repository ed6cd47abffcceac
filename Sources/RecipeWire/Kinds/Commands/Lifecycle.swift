import RecipeDomain
import RecipeJSON

// MARK: - Lifecycle
//
// The lifecycle of a draft and a recipe: opened, saved, discarded, deleted.

extension CommandDescription {
    static let draftStarted = CommandDescription(
        .draftStarted, summary: ". Opens a draft: empty for a new recipe, else a copy of the latest version. No data.",
        fields: [
        ],
        read: { _ throws(WireError) in .draftStarted },
        values: { command in guard case .draftStarted = command else { return nil }; return [] })

    static let recipeSaved = CommandDescription(
        .recipeSaved, summary: ". Commits the draft as the next version and closes it. No data.",
        fields: [
        ],
        read: { _ throws(WireError) in .recipeSaved },
        values: { command in guard case .recipeSaved = command else { return nil }; return [] })

    static let draftDiscarded = CommandDescription(
        .draftDiscarded, summary: ". Closes the draft without committing it. No data.",
        fields: [
        ],
        read: { _ throws(WireError) in .draftDiscarded },
        values: { command in guard case .draftDiscarded = command else { return nil }; return [] })

    static let recipeDeleted = CommandDescription(
        .recipeDeleted, summary: ". Takes the recipe off the list; its versions stay. No data.",
        fields: [
        ],
        read: { _ throws(WireError) in .recipeDeleted },
        values: { command in guard case .recipeDeleted = command else { return nil }; return [] })
}
