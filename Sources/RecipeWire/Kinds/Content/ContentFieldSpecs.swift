import RecipeDomain
import RecipeJSON

// MARK: - Content fields, as records describe them

extension ContentField {
    /// How DraftContentSet describes a scalar (nil for the others, whose items are the command's own).
    var commandSpec: FieldSpec? {
        switch self {
        case .title: .string("title", .maxLength(RecipeLimits.maxTitleLength),
            "At most 200 characters (RecipeLimits.maxTitleLength); may be empty while drafting.")
        case .servings: .optionalInteger("servings", .range(RecipeLimits.servings),
            "The number of people the amounts are for, 1 to 100 (RecipeLimits.servings).")
        case .image: .optionalString("image", .maxLength(RecipeLimits.maxImageURLLength),
            "An http(s) URL of a picture, at most 2048 characters; its form is checked by the fold.")
        case .description: .optionalString("description", .maxLength(RecipeLimits.maxRecipeDescriptionLength),
            "At most 5000 characters. Must not be blank (checked by the fold).")
        case .yield: .optionalString("yield", .maxLength(RecipeLimits.maxYieldLength),
            "What the recipe makes, at most 200 characters. Must not be blank (checked by the fold).")
        case .prepTime: .optionalString("prepTime", .maxLength(RecipeLimits.maxDurationLength),
            "An ISO 8601 duration (checked by the fold).")
        case .cookTime: .optionalString("cookTime", .maxLength(RecipeLimits.maxDurationLength),
            "An ISO 8601 duration (checked by the fold).")
        case .totalTime: .optionalString("totalTime", .maxLength(RecipeLimits.maxDurationLength),
            "An ISO 8601 duration (checked by the fold).")
        case .sourceUrl: .optionalString("sourceUrl", .maxLength(RecipeLimits.maxSourceURLLength),
            "An http(s) URL of where the recipe comes from, at most 2048 characters; its form is checked by the fold.")
        case .ingredients, .instructions, .tags, .nutrition: nil
        }
    }

    /// How ContentSet describes a scalar (nil for the others, described with their items).
    var eventSpec: FieldSpec? {
        switch self {
        case .title: .string("title", "The title.")
        case .servings: .optionalInteger("servings", "The servings; absent when none.")
        case .image: .optionalString("image", "The picture's URL; absent when none.")
        case .description: .optionalString("description", "The description; absent when none.")
        case .yield: .optionalString("yield", "What it makes; absent when none.")
        case .prepTime: .optionalString("prepTime", "ISO 8601 duration; absent when none.")
        case .cookTime: .optionalString("cookTime", "ISO 8601 duration; absent when none.")
        case .totalTime: .optionalString("totalTime", "ISO 8601 duration; absent when none.")
        case .sourceUrl: .optionalString("sourceUrl", "Where it comes from; absent when none.")
        case .ingredients, .instructions, .tags, .nutrition: nil
        }
    }
}

extension ContentScalars {
    /// Reads the scalars of a command's or an event's data, by `ContentField.scalars`.
    mutating func readScalars(_ data: DataFields) throws(WireError) {
        title = try data.string(ContentField.title.key)
        servings = try data.optionalInteger(ContentField.servings.key)
        for field in ContentField.texts { self[text: field] = try data.optionalString(field.key) }
    }

    /// Gives the scalars to `put` as a description's values, in `ContentField.scalars` order.
    func scalarMembers(_ put: (DataValue) -> Void) {
        put(.string(title))
        put(.optional(servings))
        for field in ContentField.texts { put(.optional(self[text: field])) }
    }
}

extension RecipeDetail: ContentScalars {}
