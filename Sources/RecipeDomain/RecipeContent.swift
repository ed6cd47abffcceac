// MARK: - Recipe content

/// What a recipe says: the content of a draft or of a committed version.
public struct RecipeContent: Sendable, Hashable {
    /// Up to `RecipeLimits.maxTitleLength`; may be empty while drafting, not when saved.
    public var title: String
    /// The number of people the amounts are for, 1...100, or `nil` when not given.
    public var servings: Int?
    /// An http(s) URL of a picture, or `nil`.
    public var image: String?
    /// What the recipe is, in a few sentences: up to `RecipeLimits.maxRecipeDescriptionLength`; never blank.
    public var description: String?
    /// What it makes, as text ("12 muffins", "one 23 cm loaf"), beside `servings`,
    /// which stays the number amounts are scaled by. Never blank.
    public var yield: String?
    /// ISO 8601 durations (`PT1H30M`, `P1DT2H`), kept as written; see `RecipeDuration`.
    public var prepTime: String?
    public var cookTime: String?
    public var totalTime: String?
    /// An http(s) URL of where the recipe comes from.
    public var sourceUrl: String?
    /// Per serving, as stated; nil when nothing is (`NutritionChanged`). Not part of
    /// `DraftContentSet`: the whole content a command replaces keeps it.
    public var nutrition: Nutrition?
    /// In the order they were added; ids unique.
    public var ingredients: [Ingredient]
    /// Sorted by `order`, which runs 1...n; ids unique.
    public var instructions: [Instruction]
    /// In the order they were added; names unique ignoring case.
    public var tags: [Tag]

    public init(
        title: String = "",
        servings: Int? = nil,
        image: String? = nil,
        description: String? = nil,
        yield: String? = nil,
        prepTime: String? = nil,
        cookTime: String? = nil,
        totalTime: String? = nil,
        sourceUrl: String? = nil,
        nutrition: Nutrition? = nil,
        ingredients: [Ingredient] = [],
        instructions: [Instruction] = [],
        tags: [Tag] = []
    ) {
        self.title = title
        self.servings = servings
        self.image = image
        self.description = description
        self.yield = yield
        self.prepTime = prepTime
        self.cookTime = cookTime
        self.totalTime = totalTime
        self.sourceUrl = sourceUrl
        self.nutrition = nutrition
        self.ingredients = ingredients
        self.instructions = instructions
        self.tags = tags
    }

    /// The content of a draft for a recipe that has no version yet.
    public static let empty = RecipeContent()

    // MARK: - Lookup

    /// Index of the ingredient with this id (ids compare by their exact bytes).
    public func ingredientIndex(id: String) -> Int? {
        ingredients.firstIndex { $0.id.isSameID(as: id) }
    }

    /// Index of the instruction with this id (its order is the index + 1).
    public func instructionIndex(id: String) -> Int? {
        instructions.firstIndex { $0.id.isSameID(as: id) }
    }

    /// Index of the tag with this name, ignoring case and a leading `@`.
    public func tagIndex(named name: String) -> Int? {
        tags.firstIndex { $0.hasName(name) }
    }
}
