// MARK: - Content field

/// The members of a recipe's content, listed once, in the order the event and the store
/// write them. Every document that holds content is written by RecipeWire's `ContentJSON`
/// from this list (ContentSet's data, the detail document and `recipes.committed`, the
/// draft view, the stored content); DraftContentSet's and ContentSet's field specs and
/// readers take its scalars from it (`ContentFieldSpecs.swift`). Where formats differ (an
/// item's key names, `null` or absent, sorted members) the difference is a `ContentFormat`
/// parameter, not another list. docs/extending.md "A content field" says what a new member
/// takes; ContentFieldListTests fails for a document that leaves one out.
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

    /// What a member holds, which says how every format writes and reads it.
    public enum Kind: Sendable {
        /// The title: a text, always present.
        case title
        /// The servings: an integer, or none.
        case servings
        /// An optional text (`ContentScalars.subscript(text:)`).
        case text
        case ingredients, instructions, tags, nutrition
    }

    public var kind: Kind {
        switch self {
        case .title: .title
        case .servings: .servings
        case .image, .description, .yield, .prepTime, .cookTime, .totalTime, .sourceUrl: .text
        case .ingredients: .ingredients
        case .instructions: .instructions
        case .tags: .tags
        case .nutrition: .nutrition
        }
    }

    /// The members holding one value each (the title, the servings, the texts), in order.
    public static let scalars: [ContentField] = allCases.filter { [.title, .servings, .text].contains($0.kind) }

    /// The optional texts, read and written alike, in order.
    public static let texts: [ContentField] = allCases.filter { $0.kind == .text }
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

    /// Takes `other`'s scalars, member by member of `ContentField.scalars`: how a document
    /// or a content is made from another without naming each member.
    public mutating func copyScalars(from other: some ContentScalars) {
        title = other.title
        servings = other.servings
        for field in ContentField.texts { self[text: field] = other[text: field] }
    }
}

extension RecipeContent: ContentScalars {}
extension DraftContent: ContentScalars {}
