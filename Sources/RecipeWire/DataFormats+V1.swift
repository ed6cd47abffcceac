import RecipeDomain

// MARK: - Version 1 of every command's data
//
// The shapes of DESIGN.md's command table. Field names are camelCase inside
// `data` (`ingredientId`), as in the HTTP API's command bodies; only CloudEvents
// attributes are lowercase. Optional fields are omitted when absent; `url` alone
// is always present, `null` meaning "remove the picture", so that a forgotten
// field cannot remove one by accident.

extension DataFormats {
    static let version1: [DataFormat] = [
        DataFormat(.draftStarted, version: 1, fields: []) { _ throws(WireError) in .draftStarted },
        DataFormat(.titleChanged, version: 1, fields: ["title"]) { data throws(WireError) in
            .titleChanged(title: try data.string("title"))
        },
        DataFormat(.servingsChanged, version: 1, fields: ["servings"]) { data throws(WireError) in
            .servingsChanged(servings: try data.integer("servings"))
        },
        DataFormat(.imageChanged, version: 1, fields: ["url"]) { data throws(WireError) in
            .imageChanged(url: try data.nullableString("url"))
        },
        DataFormat(.ingredientAdded, version: 1, fields: ["name", "amount", "metric", "ingredientId"]) { data throws(WireError) in
            .ingredientAdded(
                name: try data.string("name"),
                amount: try data.number("amount"),
                metric: try data.string("metric"),
                ingredientID: try data.optionalString("ingredientId"))
        },
        DataFormat(.ingredientUpdated, version: 1, fields: ["ingredientId", "name", "amount", "metric"]) { data throws(WireError) in
            .ingredientUpdated(
                ingredientID: try data.string("ingredientId"),
                name: try data.optionalString("name"),
                amount: try data.optionalNumber("amount"),
                metric: try data.optionalString("metric"))
        },
        DataFormat(.ingredientRemoved, version: 1, fields: ["ingredientId"]) { data throws(WireError) in
            .ingredientRemoved(ingredientID: try data.string("ingredientId"))
        },
        DataFormat(.instructionAdded, version: 1, fields: ["description", "position", "instructionId"]) { data throws(WireError) in
            .instructionAdded(
                description: try data.string("description"),
                position: try data.optionalInteger("position"),
                instructionID: try data.optionalString("instructionId"))
        },
        DataFormat(.instructionUpdated, version: 1, fields: ["instructionId", "description"]) { data throws(WireError) in
            .instructionUpdated(instructionID: try data.string("instructionId"), description: try data.string("description"))
        },
        DataFormat(.instructionRemoved, version: 1, fields: ["instructionId"]) { data throws(WireError) in
            .instructionRemoved(instructionID: try data.string("instructionId"))
        },
        DataFormat(.instructionMoved, version: 1, fields: ["instructionId", "position"]) { data throws(WireError) in
            .instructionMoved(instructionID: try data.string("instructionId"), position: try data.integer("position"))
        },
        DataFormat(.tagAdded, version: 1, fields: ["text"]) { data throws(WireError) in
            .tagAdded(text: try data.string("text"))
        },
        DataFormat(.tagChanged, version: 1, fields: ["name", "text"]) { data throws(WireError) in
            .tagChanged(name: try data.string("name"), text: try data.string("text"))
        },
        DataFormat(.tagRemoved, version: 1, fields: ["name"]) { data throws(WireError) in
            .tagRemoved(name: try data.string("name"))
        },
        DataFormat(.recipeSaved, version: 1, fields: []) { _ throws(WireError) in .recipeSaved },
        DataFormat(.draftDiscarded, version: 1, fields: []) { _ throws(WireError) in .draftDiscarded },
        DataFormat(.recipeDeleted, version: 1, fields: []) { _ throws(WireError) in .recipeDeleted },
    ]
}
