import RecipeDomain

// MARK: - Older data versions
//
// The versions a kind has moved past, each still read into today's command: decisions
// and edits are kept forever. Their schemas in Schemas/commands/ are frozen; the newest
// version of every kind is its `CommandDescription`.
//
// Version 1 into content version 2: `metric` is the unit; a v1 ingredient has an amount
// and a unit and nothing else; a v1 update sets what it gives and clears nothing; a v1
// step has no section, and its update keeps the section.

extension DataFormats {
    /// The older versions, oldest first within a kind.
    static let older: [DataFormat] = [
        DataFormat(.ingredientAdded, version: 1, fields: [
            .string("name"), .number("amount"), .string("metric"), .optionalString("ingredientId"),
        ]) { data throws(WireError) in
            .ingredientAdded(
                name: try data.string("name"),
                amount: try data.number("amount"),
                metric: try data.string("metric"),
                ingredientID: try data.optionalString("ingredientId"))
        },
        DataFormat(.ingredientUpdated, version: 1, fields: [
            .string("ingredientId"), .optionalString("name"), .optionalNumber("amount"), .optionalString("metric"),
        ]) { data throws(WireError) in
            .ingredientUpdated(
                ingredientID: try data.string("ingredientId"),
                name: try data.optionalString("name"),
                amount: try data.optionalNumber("amount"),
                metric: try data.optionalString("metric"))
        },
        DataFormat(.instructionAdded, version: 1, fields: [
            .string("description"), .optionalInteger("position"), .optionalString("instructionId"),
        ]) { data throws(WireError) in
            .instructionAdded(
                description: try data.string("description"),
                position: try data.optionalInteger("position"),
                instructionID: try data.optionalString("instructionId"))
        },
        DataFormat(.instructionUpdated, version: 1, fields: [.string("instructionId"), .string("description")]) { data throws(WireError) in
            .instructionUpdated(instructionID: try data.string("instructionId"), description: try data.string("description"))
        },
    ]

    /// The newest version of every kind, as described.
    static let current: [DataFormat] = CommandDescription.all.map(\.format)

    /// Version 1 of every kind: the older v1s and the kinds still at v1.
    static let version1: [DataFormat] = (older + current).filter { $0.version == 1 }
}
