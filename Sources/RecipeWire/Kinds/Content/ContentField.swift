import RecipeDomain
import RecipeJSON

// MARK: - Content field

/// The members of a recipe's content, listed once, in the order the event and the store
/// write them. Every document that holds content is written by `ContentJSON` from this
/// list (ContentSet's data, the detail document and `recipes.committed`, the draft view,
/// the stored content); DraftContentSet's and ContentSet's field specs and readers take
/// its scalars from here. Where formats differ (an item's key names, `null` or absent,
/// sorted members) the difference is a `ContentFormat` parameter, not another list.
///
/// Adding a member: a case here (key, and for a scalar its specs), the stored property in
/// each `ContentScalars`/`ContentDocument` type (the compiler names them), and the rule
/// that sets it. ContentFieldListTests fails for a document that leaves a member out.
public enum ContentField: Int, CaseIterable, Sendable {
    case title, servings, image, description, yield, prepTime, cookTime, totalTime, sourceUrl
    case ingredients, instructions, tags, nutrition

    public var key: StaticString {
        switch self {
        case .title: "title"
        case .servings: "servings"
        case .image: "image"
        case .description: "description"
        case .yield: "yield"
        case .prepTime: "prepTime"
        case .cookTime: "cookTime"
        case .totalTime: "totalTime"
        case .sourceUrl: "sourceUrl"
        case .ingredients: "ingredients"
        case .instructions: "instructions"
        case .tags: "tags"
        case .nutrition: "nutrition"
        }
    }

    /// The members holding one value each (not a list, not nutrition), in order.
    public static let scalars: [ContentField] = allCases.filter { $0.rawValue <= ContentField.sourceUrl.rawValue }

    /// The scalars that are optional texts, read and written alike.
    public static let texts: [ContentField] = scalars.filter { $0 != .title && $0 != .servings }

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

// MARK: - The scalars of a content

/// A value holding a recipe's scalar members under their own names: `RecipeContent`,
/// `DraftContent`, `RecipeDetail`, `DraftView`. The requirements are the scalars of
/// `ContentField`; `subscript(text:)` maps a text member to its property, once.
public protocol ContentScalars {
    var title: String { get set }
    var servings: Int? { get set }
    var image: String? { get set }
    var description: String? { get set }
    var yield: String? { get set }
    var prepTime: String? { get set }
    var cookTime: String? { get set }
    var totalTime: String? { get set }
    var sourceUrl: String? { get set }
}

extension ContentScalars {
    /// The value of a text member (`ContentField.texts`); nil for any other member.
    public subscript(text field: ContentField) -> String? {
        get {
            switch field {
            case .image: image
            case .description: description
            case .yield: yield
            case .prepTime: prepTime
            case .cookTime: cookTime
            case .totalTime: totalTime
            case .sourceUrl: sourceUrl
            case .title, .servings, .ingredients, .instructions, .tags, .nutrition: nil
            }
        }
        set {
            switch field {
            case .image: image = newValue
            case .description: description = newValue
            case .yield: yield = newValue
            case .prepTime: prepTime = newValue
            case .cookTime: cookTime = newValue
            case .totalTime: totalTime = newValue
            case .sourceUrl: sourceUrl = newValue
            case .title, .servings, .ingredients, .instructions, .tags, .nutrition:
                preconditionFailure("\(field) is not a text member")
            }
        }
    }

    /// Reads the scalars of a command's or an event's data, by `ContentField.scalars`.
    mutating func readScalars(_ data: DataFields) throws(WireError) {
        title = try data.string(ContentField.title.key)
        servings = try data.optionalInteger(ContentField.servings.key)
        for field in ContentField.texts { self[text: field] = try data.optionalString(field.key) }
    }

    /// The scalars as a description's values, in `ContentField.scalars` order.
    var scalarValues: [DataValue] {
        [.string(title), .optional(servings)] + ContentField.texts.map { .optional(self[text: $0]) }
    }
}

extension RecipeContent: ContentScalars {}
extension DraftContent: ContentScalars {}
extension RecipeDetail: ContentScalars {}
