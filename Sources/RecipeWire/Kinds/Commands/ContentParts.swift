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

    /// The line's members in v2 order (`name` first).
    var values: [DataValue] {
        [.string(name), .optional(amount), .optional(amountMax), .optional(unit), .optional(note), .optional(section),
         .optional(text)]
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
        return .draftContentSet(DraftContent(
            title: try data.string("title"),
            servings: try data.optionalInteger("servings"),
            image: try data.optionalString("image"),
            description: try data.optionalString("description"),
            yield: try data.optionalString("yield"),
            prepTime: try data.optionalString("prepTime"),
            cookTime: try data.optionalString("cookTime"),
            totalTime: try data.optionalString("totalTime"),
            sourceUrl: try data.optionalString("sourceUrl"),
            ingredients: ingredients,
            instructions: instructions,
            tags: try data.strings("tags")))
    }

    /// The members of DraftContentSet's data, in its fields' order.
    var values: [DataValue] {
        [
            .string(title), .optional(servings), .optional(image), .optional(description), .optional(yield),
            .optional(prepTime), .optional(cookTime), .optional(totalTime), .optional(sourceUrl),
            .objects(ingredients.map { [.optional($0.id)] + $0.line.values }),
            .objects(instructions.map { [.optional($0.id), .string($0.description), .optional($0.section)] }),
            .strings(tags),
        ]
    }
}
