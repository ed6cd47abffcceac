import RecipeDomain
import RecipeJSON

// MARK: - RecipeFields
//
// The recipe's own fields, each set by a command of its own.

extension CommandDescription {
    static let titleChanged = CommandDescription(
        .titleChanged, summary: ". Sets the title; may be empty while drafting.",
        fields: [
            .string("title", .maxLength(RecipeLimits.maxTitleLength),
                "At most 200 characters (RecipeLimits.maxTitleLength)."),
        ],
        read: { data throws(WireError) in .titleChanged(title: try data.string("title")) },
        values: { command, put in guard case .titleChanged(let title) = command else { return false }; put(.string(title)); return true })

    static let servingsChanged = CommandDescription(
        .servingsChanged, summary: ". Sets the number of servings the amounts are for.",
        fields: [
            .integer("servings", .range(RecipeLimits.servings),
                "1 to 100 (RecipeLimits.servings)."),
        ],
        read: { data throws(WireError) in .servingsChanged(servings: try data.integer("servings")) },
        values: { command, put in guard case .servingsChanged(let servings) = command else { return false }; put(.integer(servings)); return true })

    static let imageChanged = CommandDescription(
        .imageChanged, summary: ". Sets the picture to an http(s) URL, or removes it with null. `url` is required so that leaving it out cannot remove a picture by accident.",
        fields: [
            .nullableString("url", .maxLength(RecipeLimits.maxImageURLLength),
                "An http or https URL of at most 2048 characters (RecipeLimits.maxImageURLLength), or null to remove the picture. Its form is checked by the fold (rejection `invalid`)."),
        ],
        read: { data throws(WireError) in .imageChanged(url: try data.nullableString("url")) },
        values: { command, put in guard case .imageChanged(let url) = command else { return false }; put(.nullable(url)); return true })

    static let descriptionChanged = CommandDescription(
        .descriptionChanged, summary: ". Sets what the recipe is, in a few sentences, or removes it with null. `description` is required so that leaving it out cannot remove one by accident.",
        fields: [
            .nullableString("description", .maxLength(RecipeLimits.maxRecipeDescriptionLength),
                "At most 5000 characters (RecipeLimits.maxRecipeDescriptionLength), or null to remove it. Must not be blank (checked by the fold)."),
        ],
        read: { data throws(WireError) in .descriptionChanged(description: try data.nullableString("description")) },
        values: { command, put in guard case .descriptionChanged(let description) = command else { return false }; put(.nullable(description)); return true })

    static let yieldChanged = CommandDescription(
        .yieldChanged, summary: ". Sets what the recipe makes, as text (\"12 muffins\"), beside `servings`, which stays the number scaling uses; null removes it.",
        fields: [
            .nullableString("yield", .maxLength(RecipeLimits.maxYieldLength),
                "At most 200 characters (RecipeLimits.maxYieldLength), or null to remove it. Must not be blank (checked by the fold)."),
        ],
        read: { data throws(WireError) in .yieldChanged(yield: try data.nullableString("yield")) },
        values: { command, put in guard case .yieldChanged(let yield) = command else { return false }; put(.nullable(yield)); return true })

    static let timesChanged = CommandDescription(
        .timesChanged, summary: ". Sets, removes (null) or keeps (absent) each of the three times; at least one must be given (checked by the fold).",
        fields: [
            .clearableString("prepTime", .maxLength(RecipeLimits.maxDurationLength),
                "The preparation time as an ISO 8601 duration (PT30M, PT1H30M, P1D, P1DT2H: days or weeks, hours, minutes, seconds, whole numbers; checked by the fold, rejection `invalid`); at most 32 characters (RecipeLimits.maxDurationLength). null removes it; absent keeps it."),
            .clearableString("cookTime", .maxLength(RecipeLimits.maxDurationLength),
                "The cooking time as an ISO 8601 duration (PT30M, PT1H30M, P1D, P1DT2H: days or weeks, hours, minutes, seconds, whole numbers; checked by the fold, rejection `invalid`); at most 32 characters (RecipeLimits.maxDurationLength). null removes it; absent keeps it."),
            .clearableString("totalTime", .maxLength(RecipeLimits.maxDurationLength),
                "The total time as an ISO 8601 duration (PT30M, PT1H30M, P1D, P1DT2H: days or weeks, hours, minutes, seconds, whole numbers; checked by the fold, rejection `invalid`); at most 32 characters (RecipeLimits.maxDurationLength). null removes it; absent keeps it."),
        ],
        read: { data throws(WireError) in
            .timesChanged(
                prepTime: try data.clearableString("prepTime"), cookTime: try data.clearableString("cookTime"),
                totalTime: try data.clearableString("totalTime"))
        },
        values: { command, put in
            guard case .timesChanged(let prepTime, let cookTime, let totalTime) = command else { return false }
            put(.update(prepTime))
            put(.update(cookTime))
            put(.update(totalTime))
            return true
        })

    static let sourceChanged = CommandDescription(
        .sourceChanged, summary: ". Sets the http(s) URL the recipe comes from, or removes it with null. `url` is required so that leaving it out cannot remove it by accident.",
        fields: [
            .nullableString("url", .maxLength(RecipeLimits.maxSourceURLLength),
                "An http or https URL of at most 2048 characters (RecipeLimits.maxSourceURLLength), or null to remove it. Its form is checked by the fold (rejection `invalid`)."),
        ],
        read: { data throws(WireError) in .sourceChanged(url: try data.nullableString("url")) },
        values: { command, put in guard case .sourceChanged(let url) = command else { return false }; put(.nullable(url)); return true })
}

extension EventDescription {
    static let titleChanged = EventDescription(
        .titleChanged, summary: ". The draft's title.",
        fields: [
            .string("title", "The new title."),
        ],
        read: { data throws(WireError) in .titleChanged(try data.string("title")) },
        values: { event, put in
            guard case .titleChanged(let title) = event else { return false }
            put(.string(title))
            return true
        })

    static let servingsChanged = EventDescription(
        .servingsChanged, summary: ". The draft's servings.",
        fields: [
            .integer("servings", "The number of people the amounts are for."),
        ],
        read: { data throws(WireError) in .servingsChanged(try data.integer("servings")) },
        values: { event, put in
            guard case .servingsChanged(let servings) = event else { return false }
            put(.integer(servings))
            return true
        })

    static let imageChanged = EventDescription(
        .imageChanged, summary: ". The draft's picture.",
        fields: [
            .nullableString("url", "The picture's URL; null: the picture was removed."),
        ],
        read: { data throws(WireError) in .imageChanged(try data.nullableString("url")) },
        values: { event, put in
            guard case .imageChanged(let url) = event else { return false }
            put(.nullable(url))
            return true
        })

    static let descriptionChanged = EventDescription(
        .descriptionChanged, summary: ". The draft's description.",
        fields: [
            .nullableString("description", "The new description; null: removed."),
        ],
        read: { data throws(WireError) in .descriptionChanged(try data.nullableString("description")) },
        values: { event, put in
            guard case .descriptionChanged(let description) = event else { return false }
            put(.nullable(description))
            return true
        })

    static let yieldChanged = EventDescription(
        .yieldChanged, summary: ". The draft's yield.",
        fields: [
            .nullableString("yield", "What the recipe makes; null: removed."),
        ],
        read: { data throws(WireError) in .yieldChanged(try data.nullableString("yield")) },
        values: { event, put in
            guard case .yieldChanged(let yield) = event else { return false }
            put(.nullable(yield))
            return true
        })

    static let timesChanged = EventDescription(
        .timesChanged, summary: ". The draft's three times, as they are after the change.",
        fields: [
            .nullableString("prepTime", "The preparation time after the change (ISO 8601 duration); null: none."),
            .nullableString("cookTime", "The cooking time after the change (ISO 8601 duration); null: none."),
            .nullableString("totalTime", "The total time after the change (ISO 8601 duration); null: none."),
        ],
        read: { data throws(WireError) in
            .timesChanged(
                prepTime: try data.nullableString("prepTime"), cookTime: try data.nullableString("cookTime"),
                totalTime: try data.nullableString("totalTime"))
        },
        values: { event, put in
            guard case .timesChanged(let prepTime, let cookTime, let totalTime) = event else { return false }
            put(.nullable(prepTime))
            put(.nullable(cookTime))
            put(.nullable(totalTime))
            return true
        })

    static let sourceChanged = EventDescription(
        .sourceChanged, summary: ". The draft's source URL.",
        fields: [
            .nullableString("url", "Where the recipe comes from; null: removed."),
        ],
        read: { data throws(WireError) in .sourceChanged(try data.nullableString("url")) },
        values: { event, put in
            guard case .sourceChanged(let url) = event else { return false }
            put(.nullable(url))
            return true
        })
}
