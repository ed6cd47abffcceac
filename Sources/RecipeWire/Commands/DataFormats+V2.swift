import RecipeDomain

// MARK: - Content version 2
//
// Version 2 of the ingredient and instruction commands (Schemas/commands/*.v2.schema.json):
// an ingredient's `unit` (v1's `metric`), optional `amount`, a range's `amountMax`,
// `note`, `section` and the line's `text`; a step's `section`. Updates follow one
// rule for every optional field: the member absent keeps the value, `null` clears
// it, a value sets it (`name` and `description` cannot be cleared, only set).
//
// The kinds content v2 adds (DescriptionChanged, YieldChanged, TimesChanged,
// SourceChanged, DraftContentSet) are new types and start at v1, read in
// DataFormats+V1.swift; `DraftContentSet`'s shape is here, beside the v2 line it
// carries.

extension DataFormats {
    /// The versions 2, in `allCases` order of their kinds.
    static let version2: [DataFormat] = [
        DataFormat(.ingredientAdded, version: 2, fields: [
            .string("name"), .optionalNumber("amount"), .optionalNumber("amountMax"), .optionalString("unit"),
            .optionalString("note"), .optionalString("section"), .optionalString("text"), .optionalString("ingredientId"),
        ]) { data throws(WireError) in
            .ingredientAdded(try readLine(data), ingredientID: try data.optionalString("ingredientId"))
        },
        DataFormat(.ingredientUpdated, version: 2, fields: [
            .string("ingredientId"), .optionalString("name"), .clearableNumber("amount"), .clearableNumber("amountMax"),
            .clearableString("unit"), .clearableString("note"), .clearableString("section"), .clearableString("text"),
        ]) { data throws(WireError) in
            .ingredientUpdated(ingredientID: try data.string("ingredientId"), changes: IngredientChanges(
                name: try data.optionalString("name"),
                amount: try data.clearableNumber("amount"),
                amountMax: try data.clearableNumber("amountMax"),
                unit: try data.clearableString("unit"),
                note: try data.clearableString("note"),
                section: try data.clearableString("section"),
                text: try data.clearableString("text")))
        },
        DataFormat(.instructionAdded, version: 2, fields: [
            .string("description"), .optionalInteger("position"), .optionalString("instructionId"), .optionalString("section"),
        ]) { data throws(WireError) in
            .instructionAdded(
                description: try data.string("description"),
                position: try data.optionalInteger("position"),
                instructionID: try data.optionalString("instructionId"),
                section: try data.optionalString("section"))
        },
        DataFormat(.instructionUpdated, version: 2, fields: [
            .string("instructionId"), .optionalString("description"), .clearableString("section"),
        ]) { data throws(WireError) in
            .instructionUpdated(
                instructionID: try data.string("instructionId"),
                description: try data.optionalString("description"),
                section: try data.clearableString("section"))
        },
    ]

    /// An ingredient line of v2: IngredientAdded's data, and an item of DraftContentSet's `ingredients`.
    static func readLine(_ data: DataFields) throws(WireError) -> IngredientLine {
        IngredientLine(
            name: try data.string("name"),
            amount: try data.optionalNumber("amount"),
            amountMax: try data.optionalNumber("amountMax"),
            unit: try data.optionalString("unit"),
            note: try data.optionalString("note"),
            section: try data.optionalString("section"),
            text: try data.optionalString("text"))
    }

    // MARK: - DraftContentSet

    /// The whole content: the recipe's fields as their own commands have them
    /// (absent: none), and the three lists, each required (empty is a value).
    static let draftContentFields: [DataField] = [
        .string("title"), .optionalInteger("servings"), .optionalString("image"), .optionalString("description"),
        .optionalString("yield"), .optionalString("prepTime"), .optionalString("cookTime"), .optionalString("totalTime"),
        .optionalString("sourceUrl"), .array("ingredients"), .array("instructions"), .array("tags"),
    ]

    /// An item of `ingredients`: IngredientAdded v2's fields.
    static let draftIngredientFields: [DataField] = [
        .optionalString("ingredientId"), .string("name"), .optionalNumber("amount"), .optionalNumber("amountMax"),
        .optionalString("unit"), .optionalString("note"), .optionalString("section"), .optionalString("text"),
    ]

    /// An item of `instructions`: its place in the list is its order.
    static let draftInstructionFields: [DataField] = [
        .optionalString("instructionId"), .string("description"), .optionalString("section"),
    ]

    @Sendable static func readDraftContent(_ data: DataFields) throws(WireError) -> RecipeCommand {
        var ingredients: [NewIngredient] = []
        for item in try data.objects("ingredients", fields: draftIngredientFields) {
            ingredients.append(NewIngredient(id: try item.optionalString("ingredientId"), try readLine(item)))
        }
        var instructions: [NewInstruction] = []
        for item in try data.objects("instructions", fields: draftInstructionFields) {
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
}
