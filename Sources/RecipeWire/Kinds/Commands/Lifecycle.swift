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
        values: { command, _ in guard case .draftStarted = command else { return false }; return true })

    static let recipeSaved = CommandDescription(
        .recipeSaved, summary: ". Commits the draft as the next version and closes it. No data.",
        fields: [
        ],
        read: { _ throws(WireError) in .recipeSaved },
        values: { command, _ in guard case .recipeSaved = command else { return false }; return true })

    static let draftDiscarded = CommandDescription(
        .draftDiscarded, summary: ". Closes the draft without committing it. No data.",
        fields: [
        ],
        read: { _ throws(WireError) in .draftDiscarded },
        values: { command, _ in guard case .draftDiscarded = command else { return false }; return true })

    static let recipeDeleted = CommandDescription(
        .recipeDeleted, summary: ". Takes the recipe off the list; its versions stay. No data.",
        fields: [
        ],
        read: { _ throws(WireError) in .recipeDeleted },
        values: { command, _ in guard case .recipeDeleted = command else { return false }; return true })
}

extension EventDescription {
    static let draftOpened = EventDescription(
        .draftOpened, summary: ". A draft was opened as a copy of version `baseVersion`'s content.",
        fields: [
            .integer("baseVersion", .atLeast(0), "The version the draft copies; 0 for a new recipe (an empty draft)."),
            .boolean("implicit", "Whether an edit opened it, rather than DraftStarted."),
        ],
        read: { data throws(WireError) in
            .draftOpened(baseVersion: try data.integer("baseVersion"), implicit: try data.boolean("implicit"))
        },
        values: { event, put in
            guard case .draftOpened(let baseVersion, let implicit) = event else { return false }
            put(.integer(baseVersion))
            put(.boolean(implicit))
            return true
        })

    static let versionCommitted = EventDescription(
        .versionCommitted, summary: ". The draft became version `number` and was closed.",
        fields: [
            .integer("number", .atLeast(1), "The new version's number (1, 2, 3…)."),
            .string("savedAt", .time, "The time of the RecipeSaved command, RFC 3339."),
            .string("savedBy", "The actor of the RecipeSaved command."),
        ],
        read: { data throws(WireError) in
            .versionCommitted(number: try data.integer("number"), savedAt: try data.time("savedAt"), savedBy: try data.string("savedBy"))
        },
        values: { event, put in
            guard case .versionCommitted(let number, let savedAt, let savedBy) = event else { return false }
            put(.integer(number))
            put(.time(savedAt))
            put(.string(savedBy))
            return true
        })

    static let draftDiscarded = EventDescription(
        .draftDiscarded, summary: ". The draft was closed without a new version.",
        fields: [
        ],
        read: { _ throws(WireError) in .draftDiscarded },
        values: { event, put in
            guard case .draftDiscarded = event else { return false }
            return true
        })

    static let recipeDeleted = EventDescription(
        .recipeDeleted, summary: ". The recipe left the list; its versions stay.",
        fields: [
        ],
        read: { _ throws(WireError) in .recipeDeleted },
        values: { event, put in
            guard case .recipeDeleted = event else { return false }
            return true
        })
}
