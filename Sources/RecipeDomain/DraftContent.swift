// MARK: - Draft content

/// The whole content of a draft as one `DraftContentSet` sets it: an import, or an
/// app's "save everything", is one record, so a half-written import never exists.
///
/// Ingredients and instructions may name their ids (an app keeping them stable);
/// without one, an item's id is derived from the command id and its place in the
/// list (`RecipeDecider.contentItemID`), so a replay gives the same ids. Tags are
/// written as `TagAdded` texts (`@vegan`, `@source(grand-mère)`), one tag each.
public struct DraftContent: Sendable, Hashable {
    public var title: String
    public var servings: Int?
    public var image: String?
    public var description: String?
    public var yield: String?
    public var prepTime: String?
    public var cookTime: String?
    public var totalTime: String?
    public var sourceUrl: String?
    public var ingredients: [NewIngredient]
    public var instructions: [NewInstruction]
    public var tags: [String]

    public init(
        title: String = "", servings: Int? = nil, image: String? = nil, description: String? = nil,
        yield: String? = nil, prepTime: String? = nil, cookTime: String? = nil, totalTime: String? = nil,
        sourceUrl: String? = nil, ingredients: [NewIngredient] = [], instructions: [NewInstruction] = [],
        tags: [String] = []
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
        self.ingredients = ingredients
        self.instructions = instructions
        self.tags = tags
    }
}

/// An ingredient of a `DraftContentSet`, with its id if the sender names one.
public struct NewIngredient: Sendable, Hashable {
    public var id: String?
    public var line: IngredientLine

    public init(id: String? = nil, _ line: IngredientLine) {
        self.id = id
        self.line = line
    }
}

/// A step of a `DraftContentSet`, with its id if the sender names one. Its order is
/// its place in the list.
public struct NewInstruction: Sendable, Hashable {
    public var id: String?
    public var description: String
    public var section: String?

    public init(id: String? = nil, description: String, section: String? = nil) {
        self.id = id
        self.description = description
        self.section = section
    }
}
