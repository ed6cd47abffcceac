import RecipeDomain
import RecipeJSON

// MARK: - Instructions
//
// Steps added, changed, removed and moved.

extension CommandDescription {
    static let instructionAdded = CommandDescription(
        .instructionAdded, version: 2, summary: " (content version 2). Appends a step, or inserts it at `position`, optionally under a section heading. Without `instructionId` the step's id is the command id.",
        fields: [
            .string("description", .maxLength(RecipeLimits.maxDescriptionLength),
                "What to do; at most 5000 characters (RecipeLimits.maxDescriptionLength). Must not be blank (checked by the fold)."),
            .optionalInteger("position", .range(1...(RecipeLimits.maxInstructions + 1)),
                "Where to insert it, 1 to the number of steps + 1 (checked by the fold); at most 201 here (RecipeLimits.maxInstructions + 1). Absent: at the end."),
            .optionalString("instructionId", .maxLength(RecipeLimits.maxIdentifierLength),
                "An explicit id for the new step; at most 128 characters (RecipeLimits.maxIdentifierLength)."),
            .optionalString("section", .maxLength(RecipeLimits.maxSectionLength),
                "The heading the line stands under (\"For the sauce\"); at most 200 characters (RecipeLimits.maxSectionLength). Must not be blank (checked by the fold)."),
        ],
        read: { data throws(WireError) in
            .instructionAdded(
                description: try data.string("description"),
                position: try data.optionalInteger("position"),
                instructionID: try data.optionalString("instructionId"),
                section: try data.optionalString("section"))
        },
        values: { command, put in
            guard case .instructionAdded(let description, let position, let instructionID, let section) = command else { return false }
            put(.string(description))
            put(.optional(position))
            put(.optional(instructionID))
            put(.optional(section))
            return true
        })

    static let instructionUpdated = CommandDescription(
        .instructionUpdated, version: 2, summary: " (content version 2). Rewrites a step, or moves it under another section heading or out of any (`section`: null). A member absent keeps the field; at least one must change (checked by the fold).",
        fields: [
            .string("instructionId",
                "The step to change; an unknown id is rejected by the fold (`unknownInstruction`)."),
            .optionalString("description", .maxLength(RecipeLimits.maxDescriptionLength),
                "A new description; at most 5000 characters. Cannot be removed."),
            .clearableString("section", .maxLength(RecipeLimits.maxSectionLength),
                "The heading the line stands under (\"For the sauce\"); at most 200 characters (RecipeLimits.maxSectionLength). Must not be blank (checked by the fold). null removes it; absent keeps it."),
        ],
        read: { data throws(WireError) in
            .instructionUpdated(
                instructionID: try data.string("instructionId"),
                description: try data.optionalString("description"),
                section: try data.clearableString("section"))
        },
        values: { command, put in
            guard case .instructionUpdated(let instructionID, let description, let section) = command else { return false }
            put(.string(instructionID))
            put(.optional(description))
            put(.update(section))
            return true
        })

    static let instructionRemoved = CommandDescription(
        .instructionRemoved, summary: ". Removes a step; the ones after it move up.",
        fields: [
            .string("instructionId",
                "The step to remove."),
        ],
        read: { data throws(WireError) in .instructionRemoved(instructionID: try data.string("instructionId")) },
        values: { command, put in guard case .instructionRemoved(let instructionID) = command else { return false }; put(.string(instructionID)); return true })

    static let instructionMoved = CommandDescription(
        .instructionMoved, summary: ". Moves a step to `position`; the ones between shift.",
        fields: [
            .string("instructionId",
                "The step to move."),
            .integer("position", .range(1...RecipeLimits.maxInstructions),
                "The new position, 1 to n (checked by the fold); never more than RecipeLimits.maxInstructions."),
        ],
        read: { data throws(WireError) in
            .instructionMoved(instructionID: try data.string("instructionId"), position: try data.integer("position"))
        },
        values: { command, put in
            guard case .instructionMoved(let instructionID, let position) = command else { return false }
            put(.string(instructionID))
            put(.integer(position))
            return true
        })
}

extension EventDescription {
    static let instructionAdded = EventDescription(
        .instructionAdded, summary: ". A step inserted into the draft's method.",
        fields: [
            .string("instructionId", "The step's id."),
            .string("description", "What to do."),
            .integer("order", "Where it was inserted (1 is first); later steps shift down."),
            .optionalString("section", "The heading it stands under; absent when none."),
        ],
        read: { data throws(WireError) in
            .instructionAdded(Instruction(
                id: try data.string("instructionId"), description: try data.string("description"),
                order: try data.integer("order"), section: try data.optionalString("section")))
        },
        values: { event, put in
            guard case .instructionAdded(let step) = event else { return false }
            put(.string(step.id))
            put(.string(step.description))
            put(.integer(step.order))
            put(.optional(step.section))
            return true
        })

    static let instructionUpdated = EventDescription(
        .instructionUpdated, summary: ". A step's description and section as they are after the update.",
        fields: [
            .string("instructionId", "The step's id."),
            .string("description", "What to do, after the update."),
            .optionalString("section", "The heading after the update; absent when none."),
        ],
        read: { data throws(WireError) in
            .instructionUpdated(
                id: try data.string("instructionId"), description: try data.string("description"),
                section: try data.optionalString("section"))
        },
        values: { event, put in
            guard case .instructionUpdated(let id, let description, let section) = event else { return false }
            put(.string(id))
            put(.string(description))
            put(.optional(section))
            return true
        })

    static let instructionRemoved = EventDescription(
        .instructionRemoved, summary: ". A step left the draft's method.",
        fields: [
            .string("instructionId", "The step removed; later steps move up."),
        ],
        read: { data throws(WireError) in .instructionRemoved(id: try data.string("instructionId")) },
        values: { event, put in
            guard case .instructionRemoved(let id) = event else { return false }
            put(.string(id))
            return true
        })

    static let instructionMoved = EventDescription(
        .instructionMoved, summary: ". A step moved in the draft's method.",
        fields: [
            .string("instructionId", "The step moved."),
            .integer("position", "Its order after the move."),
        ],
        read: { data throws(WireError) in
            .instructionMoved(id: try data.string("instructionId"), position: try data.integer("position"))
        },
        values: { event, put in
            guard case .instructionMoved(let id, let position) = event else { return false }
            put(.string(id))
            put(.integer(position))
            return true
        })
}
