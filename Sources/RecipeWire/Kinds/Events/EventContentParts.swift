import RecipeDomain
import RecipeJSON

// MARK: - Parts of content, as events carry them
//
// An ingredient as it is, a tag and a recipe's whole content: the fields, reader and
// values shared by the events that hold them (IngredientAdded and IngredientUpdated,
// TagAdded and TagChanged, ContentSet, whose data `ContentJSON` writes).

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
    static let contentFields: [FieldSpec] = ContentField.scalars.compactMap(\.eventSpec) + [
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
        var content = RecipeContent()
        try content.readScalars(data)
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
        (content.ingredients, content.instructions, content.tags) = (ingredients, instructions, tags)
        return content
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
