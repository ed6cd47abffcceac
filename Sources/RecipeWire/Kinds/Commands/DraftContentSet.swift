import RecipeDomain
import RecipeJSON

// MARK: - DraftContentSet
//
// The whole content of a draft in one command.

extension CommandDescription {
    static let draftContentSet = CommandDescription(
        .draftContentSet, summary: ". Replaces the whole content of the draft (opening one if none is open), so that an import or an app's \"save everything\" is one record. Each field follows the rule of the command that sets it alone; a member absent means the content has none. Steps take their order from their place. Counts (at most 200 ingredients, 200 instructions, 50 tags), ids given twice, tags and durations are checked by the fold; the first problem rejects the whole command.",
        fields: ContentField.scalars.compactMap(\.commandSpec) + [
            .array("ingredients", of: .objects(definition: "ingredient", [
                .optionalString("ingredientId", .maxLength(RecipeLimits.maxIdentifierLength),
                    "The item's id, to keep ids stable across saves; at most 128 characters. Absent: derived from the command id and the item's place (`<command id>:i<n>`, n from 1)."),
            ] + IngredientLine.fieldSpecs),
                "The ingredient lines, in order; IngredientAdded v2's fields each."),
            .array("instructions", of: .objects(definition: "instruction", [
                .optionalString("instructionId", .maxLength(RecipeLimits.maxIdentifierLength),
                    "The step's id, to keep ids stable across saves; at most 128 characters. Absent: derived from the command id and the step's place (`<command id>:s<n>`, n from 1)."),
                .string("description", .maxLength(RecipeLimits.maxRecipeDescriptionLength),
                    "What to do; at most 5000 characters. Must not be blank (checked by the fold)."),
                .optionalString("section", .maxLength(RecipeLimits.maxSectionLength),
                    "The heading the line stands under (\"For the sauce\"); at most 200 characters (RecipeLimits.maxSectionLength). Must not be blank (checked by the fold)."),
            ]),
                "The steps, in order."),
            .array("tags", of: .strings(.maxLength(RecipeLimits.maxTagTextLength)),
                "Each a TagAdded text holding one tag (`@vegan`, `@source(grand-mère)`), at most 2048 characters (RecipeLimits.maxTagTextLength)."),
        ],
        read: DraftContent.read,
        values: { command, put in guard case .draftContentSet(let draft) = command else { return false }; draft.members(put); return true })
}

extension EventDescription {
    static let contentSet = EventDescription(
        .contentSet, summary: ". The draft's whole content, replaced by this one (DraftContentSet).",
        fields: contentFields,
        read: { data throws(WireError) in .contentSet(try readContent(data)) },
        writing: .json { event, writer in
            guard case .contentSet(let content) = event else { return false }
            ContentJSON.write(content, .event, into: &writer)
            return true
        })
}
