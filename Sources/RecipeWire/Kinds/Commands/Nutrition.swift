import RecipeDomain
import RecipeJSON

// MARK: - Nutrition
//
// What one serving holds, per nutrient, and the serving size.

extension CommandDescription {
    static let nutritionChanged = CommandDescription(
        .nutritionChanged, summary: ". Sets (a value), removes (null) or keeps (absent) each nutrient per serving and the serving size; at least one must be given (checked by the fold). Amounts are per serving, in the nutrient's unit: kcal for calories, mg for sodium and cholesterol, g for the rest.",
        fields: Nutrition.Nutrient.allCases.map { nutrient in
            .clearableNumber(nutrient.key, .measure(0...nutrient.maximum),
                             "\(nutrient.words) per serving, in \(nutrient.unit): from 0 to \(Int(nutrient.maximum)). null removes it; absent keeps it.")
        } + [
            .clearableString("servingSize", .maxLength(RecipeLimits.maxServingSizeLength),
                "The serving the amounts are for, in words (\"1 slice\", \"250 g\"); at most 200 characters (RecipeLimits.maxServingSizeLength). Must not be blank (checked by the fold). null removes it; absent keeps it."),
        ],
        read: { data throws(WireError) in
            var amounts: [Nutrition.Nutrient: FieldUpdate<Double>] = [:]
            for nutrient in Nutrition.Nutrient.allCases { amounts[nutrient] = try data.clearableNumber(nutrient.key) }
            return .nutritionChanged(NutritionChanges(amounts: amounts, servingSize: try data.clearableString("servingSize")))
        },
        values: { command, put in
            guard case .nutritionChanged(let changes) = command else { return false }
            for nutrient in Nutrition.Nutrient.allCases { put(.update(changes.update(of: nutrient))) }
            put(.update(changes.servingSize))
            return true
        })
}

extension EventDescription {
    static let nutritionChanged = EventDescription(
        .nutritionChanged, summary: ". The draft's nutrition per serving, as it is after the change: each nutrient stated, in its unit (kcal for calories, mg for sodium and cholesterol, g for the rest), and the serving size; no member when none is left.",
        fields: Nutrition.Nutrient.allCases.map { nutrient in
            .optionalNumber(nutrient.key, "\(nutrient.words) per serving, in \(nutrient.unit); absent when not stated.")
        } + [.optionalString("servingSize", "The serving the amounts are for, in words; absent when not stated.")],
        read: { data throws(WireError) in
            var nutrition = Nutrition(servingSize: try data.optionalString("servingSize"))
            for nutrient in Nutrition.Nutrient.allCases { nutrition.amounts[nutrient] = try data.optionalFiniteNumber(nutrient.key) }
            return .nutritionChanged(nutrition.isEmpty ? nil : nutrition)
        },
        values: { event, put in
            guard case .nutritionChanged(let nutrition) = event else { return false }
            for nutrient in Nutrition.Nutrient.allCases { put(.optional(nutrition?.amounts[nutrient])) }
            put(.optional(nutrition?.servingSize))
            return true
        })
}

extension Nutrition.Nutrient {
    /// The member's name in `data`, events and documents.
    var key: StaticString {
        switch self {
        case .calories: "calories"
        case .fat: "fat"
        case .saturatedFat: "saturatedFat"
        case .carbohydrate: "carbohydrate"
        case .sugar: "sugar"
        case .fiber: "fiber"
        case .protein: "protein"
        case .sodium: "sodium"
        case .cholesterol: "cholesterol"
        }
    }

    /// What the schema calls it.
    var words: String {
        switch self {
        case .calories: "Energy"
        case .fat: "Fat"
        case .saturatedFat: "Saturated fat"
        case .carbohydrate: "Carbohydrate"
        case .sugar: "Sugar"
        case .fiber: "Fiber"
        case .protein: "Protein"
        case .sodium: "Sodium"
        case .cholesterol: "Cholesterol"
        }
    }
}
