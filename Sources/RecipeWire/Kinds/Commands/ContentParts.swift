import RecipeDomain
import RecipeJSON

// MARK: - Parts of content, as commands carry them

extension IngredientLine {
    /// An ingredient line of v2: IngredientAdded's data, and an item of DraftContentSet's `ingredients`.
    init(_ data: DataFields) throws(WireError) {
        self.init(
            name: try data.string("name"),
            amount: try data.optionalNumber("amount"),
            amountMax: try data.optionalNumber("amountMax"),
            unit: try data.optionalString("unit"),
            note: try data.optionalString("note"),
            section: try data.optionalString("section"),
            text: try data.optionalString("text"))
    }

    /// The fields of a line in v2 order (`name` first): IngredientAdded's data and an item of
    /// DraftContentSet's `ingredients`.
    static let fieldSpecs: [FieldSpec] = [
        .string("name", .maxLength(RecipeLimits.maxIngredientNameLength),
            "What it is; at most 200 characters (RecipeLimits.maxIngredientNameLength). Must not be blank (checked by the fold)."),
        .optionalNumber("amount", .amount,
            "How much, in `unit`s: from 0.01 (RecipeLimits.minIngredientAmount: the least shown as more than 0) to 1000000 (RecipeLimits.maxIngredientAmount). Absent: the line has no quantity (\"salt, to taste\"), and scaling leaves it as it is."),
        .optionalNumber("amountMax", .amount,
            "The upper end of a range (\"2–3 cloves\"): greater than 0, at most 1000000; needs `amount` and must not be below it (checked by the fold)."),
        .optionalString("unit", .maxLength(RecipeLimits.maxUnitLength),
            "The unit (g, cup, clove, or the cook's own word); at most 200 characters (RecipeLimits.maxUnitLength). v1 called it `metric`. Absent for counted things written without one (\"2 eggs\"). Must not be blank (checked by the fold)."),
        .optionalString("note", .maxLength(RecipeLimits.maxIngredientNoteLength),
            "How it is prepared, or anything else said of it (\"finely chopped\"); at most 500 characters (RecipeLimits.maxIngredientNoteLength). Must not be blank (checked by the fold)."),
        .optionalString("section", .maxLength(RecipeLimits.maxSectionLength),
            "The heading the line stands under (\"For the sauce\"); at most 200 characters (RecipeLimits.maxSectionLength). Must not be blank (checked by the fold)."),
        .optionalString("text", .maxLength(RecipeLimits.maxIngredientTextLength),
            "The line as written, kept for display and export; at most 1000 characters (RecipeLimits.maxIngredientTextLength). Must not be blank (checked by the fold)."),
    ]

    /// Gives the line's members to `put` in v2 order (`name` first).
    func members(_ put: (DataValue) -> Void) {
        put(.string(name))
        put(.optional(amount))
        put(.optional(amountMax))
        put(.optional(unit))
        put(.optional(note))
        put(.optional(section))
        put(.optional(text))
    }

    /// The line's members in v2 order, as an item of a list holds them (after its id).
    var values: [DataValue] {
        var values: [DataValue] = []
        values.reserveCapacity(7)
        members { values.append($0) }
        return values
    }
}

extension DraftContent {
    /// The fields of an item of `ingredients` and of `instructions`, as DraftContentSet describes them.
    private static let itemFields: (ingredients: [DataField], instructions: [DataField]) = {
        var lists: [String: [DataField]] = [:]
        for field in CommandDescription.draftContentSet.fields {
            if case .objects(_, let items) = field.items { lists[field.name] = items.map(\.field) }
        }
        return (lists["ingredients"] ?? [], lists["instructions"] ?? [])
    }()

    @Sendable static func read(_ data: DataFields) throws(WireError) -> RecipeCommand {
        var draft = DraftContent()
        try draft.readScalars(data)
        var ingredients: [NewIngredient] = []
        for item in try data.objects("ingredients", fields: itemFields.ingredients) {
            ingredients.append(NewIngredient(id: try item.optionalString("ingredientId"), try IngredientLine(item)))
        }
        var instructions: [NewInstruction] = []
        for item in try data.objects("instructions", fields: itemFields.instructions) {
            instructions.append(NewInstruction(
                id: try item.optionalString("instructionId"), description: try item.string("description"),
                section: try item.optionalString("section")))
        }
        (draft.ingredients, draft.instructions, draft.tags) = (ingredients, instructions, try data.strings("tags"))
        return .draftContentSet(draft)
    }

    /// Gives the members of DraftContentSet's data to `put`, in its fields' order.
    func members(_ put: (DataValue) -> Void) {
        scalarMembers(put)
        put(.objects(ingredients.map { [.optional($0.id)] + $0.line.values }))
        put(.objects(instructions.map { [.optional($0.id), .string($0.description), .optional($0.section)] }))
        put(.strings(tags))
    }
}
