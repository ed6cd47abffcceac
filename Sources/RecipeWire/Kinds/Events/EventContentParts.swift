import RecipeDomain
import RecipeJSON

// MARK: - Parts of content, as events carry them
//
// An ingredient as it is, a tag and a recipe's whole content: the fields, reader and
// values shared by the events that hold them (IngredientAdded and IngredientUpdated,
// TagAdded and TagChanged, ContentSet).

extension EventDescription {
    /// An ingredient as it is: its id, then the fields of an ingredient line (v2 of the commands).
    static let ingredientFields: [FieldSpec] = [
        .string("ingredientId", "The ingredient's id: given by the command, or derived from the command id."),
        .string("name", "What it is."),
        .optionalNumber("amount", "How much, in `unit`s; absent for a line without a quantity."),
        .optionalNumber("amountMax", "The upper end of a range; only with `amount`."),
        .optionalString("unit", "The unit; absent for counted things written without one."),
        .optionalString("note", "How it is prepared, or anything else said of it."),
        .optionalString("section", "The heading the line stands under."),
        .optionalString("text", "The line as written."),
    ]

    static let tagFields: [FieldSpec] = [
        .string("name", "The tag's name without the @, as written."),
        .optionalString("payload", "The text between the parentheses; absent when none."),
    ]

    /// A step of a whole content: its order is its place in `instructions`.
    static let contentInstructionFields: [FieldSpec] = [
        .string("instructionId", "The step's id."),
        .string("description", "What to do."),
        .optionalString("section", "The heading it stands under; absent when none."),
    ]

    /// A recipe's whole content. (An event's items are described in place: the `definition`
    /// of its objects is the words of an item.)
    static let contentFields: [FieldSpec] = [
        .string("title", "The title."),
        .optionalInteger("servings", "The servings; absent when none."),
        .optionalString("image", "The picture's URL; absent when none."),
        .optionalString("description", "The description; absent when none."),
        .optionalString("yield", "What it makes; absent when none."),
        .optionalString("prepTime", "ISO 8601 duration; absent when none."),
        .optionalString("cookTime", "ISO 8601 duration; absent when none."),
        .optionalString("totalTime", "ISO 8601 duration; absent when none."),
        .optionalString("sourceUrl", "Where it comes from; absent when none."),
        .array("ingredients", of: .objects(definition: "An ingredient, as IngredientAdded has it.", ingredientFields),
               "In order."),
        .array("instructions", of: .objects(definition: "A step; its order is its place in the list.", contentInstructionFields),
               "In order: the first is step 1."),
        .array("tags", of: .objects(definition: "A tag.", tagFields), "In order."),
    ]

    /// The readers' field lists of the items of a content.
    private static let itemFields = (
        ingredients: ingredientFields.map(\.field), instructions: contentInstructionFields.map(\.field),
        tags: tagFields.map(\.field))

    static func readIngredient(_ data: DataFields) throws(WireError) -> Ingredient {
        Ingredient(
            id: try data.string("ingredientId"), name: try data.string("name"),
            amount: try data.optionalFiniteNumber("amount"), amountMax: try data.optionalFiniteNumber("amountMax"),
            unit: try data.optionalString("unit"), note: try data.optionalString("note"),
            section: try data.optionalString("section"), text: try data.optionalString("text"))
    }

    static func readTag(_ data: DataFields) throws(WireError) -> Tag {
        Tag(name: try data.string("name"), payload: try data.optionalString("payload"))
    }

    static func readContent(_ data: DataFields) throws(WireError) -> RecipeContent {
        var ingredients: [Ingredient] = []
        for item in try data.objects("ingredients", fields: itemFields.ingredients) {
            ingredients.append(try readIngredient(item))
        }
        var instructions: [Instruction] = []
        for item in try data.objects("instructions", fields: itemFields.instructions) {
            instructions.append(Instruction(
                id: try item.string("instructionId"), description: try item.string("description"),
                order: instructions.count + 1, section: try item.optionalString("section")))
        }
        var tags: [Tag] = []
        for item in try data.objects("tags", fields: itemFields.tags) {
            tags.append(try readTag(item))
        }
        return RecipeContent(
            title: try data.string("title"), servings: try data.optionalInteger("servings"),
            image: try data.optionalString("image"), description: try data.optionalString("description"),
            yield: try data.optionalString("yield"), prepTime: try data.optionalString("prepTime"),
            cookTime: try data.optionalString("cookTime"), totalTime: try data.optionalString("totalTime"),
            sourceUrl: try data.optionalString("sourceUrl"),
            ingredients: ingredients, instructions: instructions, tags: tags)
    }
}

extension Ingredient {
    /// Gives the members of `EventDescription.ingredientFields` to `put`, in their order.
    func members(_ put: (DataValue) -> Void) {
        put(.string(id))
        put(.string(name))
        put(.optional(amount))
        put(.optional(amountMax))
        put(.optional(unit))
        put(.optional(note))
        put(.optional(section))
        put(.optional(text))
    }
}

extension Tag {
    /// Gives the members of `EventDescription.tagFields` to `put`, in their order.
    func members(_ put: (DataValue) -> Void) {
        put(.string(name))
        put(.optional(payload))
    }
}

extension RecipeContent {
    /// Gives the members of `EventDescription.contentFields` to `put`, in their order; a
    /// step's order is its place in the list (the fold keeps them 1...n).
    func members(_ put: (DataValue) -> Void) {
        put(.string(title))
        put(.optional(servings))
        put(.optional(image))
        put(.optional(description))
        put(.optional(yield))
        put(.optional(prepTime))
        put(.optional(cookTime))
        put(.optional(totalTime))
        put(.optional(sourceUrl))
        put(.objects(ingredients.map { ingredient in DataValue.list(ingredient.members) }))
        put(.objects(instructions.map { step in
            [.string(step.id), .string(step.description), .optional(step.section)]
        }))
        put(.objects(tags.map { tag in DataValue.list(tag.members) }))
    }
}

extension DataValue {
    /// The members `give` gives, as a list (an item of `objects`).
    static func list(_ give: ((DataValue) -> Void) -> Void) -> [DataValue] {
        var list: [DataValue] = []
        give { list.append($0) }
        return list
    }
}
