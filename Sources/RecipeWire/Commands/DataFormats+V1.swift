import RecipeDomain

// MARK: - Version 1 of every command's data
//
// The shapes of Schemas/commands/<Command>.v1.schema.json. Field names are
// camelCase inside `data` (`ingredientId`), as in the HTTP API's command bodies;
// only CloudEvents attributes are lowercase. Optional fields are omitted when
// absent; `url` alone is always present, `null` meaning "remove the picture", so
// that a forgotten field cannot remove one by accident.
//
// Upcasting v1 into content version 2: `metric` is the unit; a v1 ingredient has
// an amount and a unit and nothing else; a v1 update sets what it gives and clears
// nothing; a v1 step has no section, and its update keeps the section.

extension DataFormats {
    /// Version 1 of every command kind, in `allCases` order.
    static let version1: [DataFormat] = RecipeCommand.Kind.allCases.map(version1)

    /// Every kind is listed: a new command kind does not compile until its data has
    /// a format. (New kinds start at version 1; later versions of a kind go in a
    /// `DataFormats+V<N>.swift` that lists only the kinds it changes.)
    private static func version1(_ kind: RecipeCommand.Kind) -> DataFormat {
        switch kind {
        case .draftStarted:
            DataFormat(kind, version: 1, fields: []) { _ throws(WireError) in .draftStarted }
        case .titleChanged:
            DataFormat(kind, version: 1, fields: [.string("title")]) { data throws(WireError) in
                .titleChanged(title: try data.string("title"))
            }
        case .servingsChanged:
            DataFormat(kind, version: 1, fields: [.integer("servings")]) { data throws(WireError) in
                .servingsChanged(servings: try data.integer("servings"))
            }
        case .imageChanged:
            DataFormat(kind, version: 1, fields: [.nullableString("url")]) { data throws(WireError) in
                .imageChanged(url: try data.nullableString("url"))
            }
        case .ingredientAdded:
            DataFormat(kind, version: 1, fields: [
                .string("name"), .number("amount"), .string("metric"), .optionalString("ingredientId"),
            ]) { data throws(WireError) in
                .ingredientAdded(
                    name: try data.string("name"),
                    amount: try data.number("amount"),
                    metric: try data.string("metric"),
                    ingredientID: try data.optionalString("ingredientId"))
            }
        case .ingredientUpdated:
            DataFormat(kind, version: 1, fields: [
                .string("ingredientId"), .optionalString("name"), .optionalNumber("amount"), .optionalString("metric"),
            ]) { data throws(WireError) in
                .ingredientUpdated(
                    ingredientID: try data.string("ingredientId"),
                    name: try data.optionalString("name"),
                    amount: try data.optionalNumber("amount"),
                    metric: try data.optionalString("metric"))
            }
        case .ingredientRemoved:
            DataFormat(kind, version: 1, fields: [.string("ingredientId")]) { data throws(WireError) in
                .ingredientRemoved(ingredientID: try data.string("ingredientId"))
            }
        case .instructionAdded:
            DataFormat(kind, version: 1, fields: [
                .string("description"), .optionalInteger("position"), .optionalString("instructionId"),
            ]) { data throws(WireError) in
                .instructionAdded(
                    description: try data.string("description"),
                    position: try data.optionalInteger("position"),
                    instructionID: try data.optionalString("instructionId"))
            }
        case .instructionUpdated:
            DataFormat(kind, version: 1, fields: [.string("instructionId"), .string("description")]) { data throws(WireError) in
                .instructionUpdated(instructionID: try data.string("instructionId"), description: try data.string("description"))
            }
        case .instructionRemoved:
            DataFormat(kind, version: 1, fields: [.string("instructionId")]) { data throws(WireError) in
                .instructionRemoved(instructionID: try data.string("instructionId"))
            }
        case .instructionMoved:
            DataFormat(kind, version: 1, fields: [.string("instructionId"), .integer("position")]) { data throws(WireError) in
                .instructionMoved(instructionID: try data.string("instructionId"), position: try data.integer("position"))
            }
        case .tagAdded:
            DataFormat(kind, version: 1, fields: [.string("text")]) { data throws(WireError) in
                .tagAdded(text: try data.string("text"))
            }
        case .tagChanged:
            DataFormat(kind, version: 1, fields: [.string("name"), .string("text")]) { data throws(WireError) in
                .tagChanged(name: try data.string("name"), text: try data.string("text"))
            }
        case .tagRemoved:
            DataFormat(kind, version: 1, fields: [.string("name")]) { data throws(WireError) in
                .tagRemoved(name: try data.string("name"))
            }

        // Kinds of content version 2, which start at v1 (see DataFormats+V2.swift).
        case .descriptionChanged:
            DataFormat(kind, version: 1, fields: [.nullableString("description")]) { data throws(WireError) in
                .descriptionChanged(description: try data.nullableString("description"))
            }
        case .yieldChanged:
            DataFormat(kind, version: 1, fields: [.nullableString("yield")]) { data throws(WireError) in
                .yieldChanged(yield: try data.nullableString("yield"))
            }
        case .timesChanged:
            DataFormat(kind, version: 1, fields: [
                .clearableString("prepTime"), .clearableString("cookTime"), .clearableString("totalTime"),
            ]) { data throws(WireError) in
                .timesChanged(
                    prepTime: try data.clearableString("prepTime"), cookTime: try data.clearableString("cookTime"),
                    totalTime: try data.clearableString("totalTime"))
            }
        case .sourceChanged:
            DataFormat(kind, version: 1, fields: [.nullableString("url")]) { data throws(WireError) in
                .sourceChanged(url: try data.nullableString("url"))
            }
        case .draftContentSet:
            DataFormat(kind, version: 1, fields: draftContentFields, read: readDraftContent)

        case .recipeSaved:
            DataFormat(kind, version: 1, fields: []) { _ throws(WireError) in .recipeSaved }
        case .draftDiscarded:
            DataFormat(kind, version: 1, fields: []) { _ throws(WireError) in .draftDiscarded }
        case .recipeDeleted:
            DataFormat(kind, version: 1, fields: []) { _ throws(WireError) in .recipeDeleted }
        case .accessGranted:
            DataFormat(kind, version: 1, fields: [.string("grantee"), .string("role")]) { data throws(WireError) in
                let role = try data.string("role")
                guard let accessRole = AccessRole(rawValue: role) else {
                    throw .invalid("data.role", "must be editor or viewer, not \(quoted(role))")
                }
                return .accessGranted(grantee: try data.string("grantee"), role: accessRole)
            }
        case .accessRevoked:
            DataFormat(kind, version: 1, fields: [.string("grantee")]) { data throws(WireError) in
                .accessRevoked(grantee: try data.string("grantee"))
            }
        case .ownershipTransferred:
            DataFormat(kind, version: 1, fields: [.string("newOwner")]) { data throws(WireError) in
                .ownershipTransferred(newOwner: try data.string("newOwner"))
            }
        }
    }
}
