import RecipeDomain
import RecipeJSON

// MARK: - Ingredients
//
// Ingredient lines added, changed and removed.

extension CommandDescription {
    static let ingredientAdded = CommandDescription(
        .ingredientAdded, version: 2, summary: " (content version 2). Appends an ingredient line: a name and, each optional, an amount or a range (amount, amountMax), a unit (v1's `metric`), a note, a section heading and the line as written. Without `ingredientId` the ingredient's id is the command id.",
        fields: IngredientLine.fieldSpecs + [
            .optionalString("ingredientId", .maxLength(RecipeLimits.maxIdentifierLength),
                "An explicit id for the new ingredient; at most 128 characters (RecipeLimits.maxIdentifierLength)."),
        ],
        read: { data throws(WireError) in
            .ingredientAdded(try IngredientLine(data), ingredientID: try data.optionalString("ingredientId"))
        },
        values: { command, put in
            guard case .ingredientAdded(let line, let ingredientID) = command else { return false }
            line.members(put)
            put(.optional(ingredientID))
            return true
        })

    static let ingredientUpdated = CommandDescription(
        .ingredientUpdated, version: 2, summary: " (content version 2). Changes the given fields of an ingredient: a member absent keeps the field, `null` removes it, a value sets it (`name` can only be set). At least one field must change, and the line afterwards must keep the rules of a line (checked by the fold).",
        fields: [
            .string("ingredientId",
                "The ingredient to change; an unknown id is rejected by the fold (`unknownIngredient`)."),
            .optionalString("name", .maxLength(RecipeLimits.maxIngredientNameLength),
                "A new name; at most 200 characters. Cannot be removed."),
            .clearableNumber("amount", .amount,
                "A new amount: greater than 0, at most 1000000; null removes the quantity (then amountMax must go too); absent keeps it."),
            .clearableNumber("amountMax", .amount,
                "The upper end of a range (\"2–3 cloves\"): greater than 0, at most 1000000; needs `amount` and must not be below it (checked by the fold). null removes it; absent keeps it."),
            .clearableString("unit", .maxLength(RecipeLimits.maxUnitLength),
                "The unit (g, cup, clove, or the cook's own word); at most 200 characters (RecipeLimits.maxUnitLength). v1 called it `metric`. Absent for counted things written without one (\"2 eggs\"). Must not be blank (checked by the fold). null removes it; absent keeps it."),
            .clearableString("note", .maxLength(RecipeLimits.maxIngredientNoteLength),
                "How it is prepared, or anything else said of it (\"finely chopped\"); at most 500 characters (RecipeLimits.maxIngredientNoteLength). Must not be blank (checked by the fold). null removes it; absent keeps it."),
            .clearableString("section", .maxLength(RecipeLimits.maxSectionLength),
                "The heading the line stands under (\"For the sauce\"); at most 200 characters (RecipeLimits.maxSectionLength). Must not be blank (checked by the fold). null removes it; absent keeps it."),
            .clearableString("text", .maxLength(RecipeLimits.maxIngredientTextLength),
                "The line as written, kept for display and export; at most 1000 characters (RecipeLimits.maxIngredientTextLength). Must not be blank (checked by the fold). null removes it; absent keeps it."),
        ],
        read: { data throws(WireError) in
            .ingredientUpdated(ingredientID: try data.string("ingredientId"), changes: IngredientChanges(
                name: try data.optionalString("name"),
                amount: try data.clearableNumber("amount"),
                amountMax: try data.clearableNumber("amountMax"),
                unit: try data.clearableString("unit"),
                note: try data.clearableString("note"),
                section: try data.clearableString("section"),
                text: try data.clearableString("text")))
        },
        values: { command, put in
            guard case .ingredientUpdated(let ingredientID, let changes) = command else { return false }
            put(.string(ingredientID))
            put(.optional(changes.name))
            put(.update(changes.amount))
            put(.update(changes.amountMax))
            put(.update(changes.unit))
            put(.update(changes.note))
            put(.update(changes.section))
            put(.update(changes.text))
            return true
        })

    static let ingredientRemoved = CommandDescription(
        .ingredientRemoved, summary: ". Removes an ingredient.",
        fields: [
            .string("ingredientId",
                "The ingredient to remove; an unknown id is rejected by the fold (`unknownIngredient`)."),
        ],
        read: { data throws(WireError) in .ingredientRemoved(ingredientID: try data.string("ingredientId")) },
        values: { command, put in guard case .ingredientRemoved(let ingredientID) = command else { return false }; put(.string(ingredientID)); return true })
}

extension EventDescription {
    static let ingredientAdded = EventDescription(
        .ingredientAdded, summary: ". An ingredient appended to the draft, as it is.",
        fields: ingredientFields,
        read: { data throws(WireError) in .ingredientAdded(try readIngredient(data)) },
        values: { event, put in
            guard case .ingredientAdded(let ingredient) = event else { return false }
            ingredient.members(put)
            return true
        })

    static let ingredientUpdated = EventDescription(
        .ingredientUpdated,
        summary: ". An ingredient of the draft, as it is after the update (replacing the one of its id).",
        fields: ingredientFields,
        read: { data throws(WireError) in .ingredientUpdated(try readIngredient(data)) },
        values: { event, put in
            guard case .ingredientUpdated(let ingredient) = event else { return false }
            ingredient.members(put)
            return true
        })

    static let ingredientRemoved = EventDescription(
        .ingredientRemoved, summary: ". An ingredient left the draft.",
        fields: [
            .string("ingredientId", "The ingredient removed."),
        ],
        read: { data throws(WireError) in .ingredientRemoved(id: try data.string("ingredientId")) },
        values: { event, put in
            guard case .ingredientRemoved(let id) = event else { return false }
            put(.string(id))
            return true
        })
}
