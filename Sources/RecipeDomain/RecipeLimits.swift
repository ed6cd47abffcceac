// MARK: - Limits

/// Every bound the recipe rules enforce, in one place, so that the record decoder
/// and the schemas in other modules use the very same numbers.
///
/// Text lengths count Unicode scalar values (code points), not grapheme clusters:
/// that is what JSON Schema's `maxLength` counts, so a schema and the domain agree,
/// and unlike grapheme breaking it does not shift between Unicode versions.
public enum RecipeLimits {
    /// Longest title.
    public static let maxTitleLength = 200
    /// Servings a recipe can be written for.
    public static let servings: ClosedRange<Int> = 1...100
    /// Longest image URL.
    public static let maxImageURLLength = 2048

    /// Most ingredients in one recipe.
    public static let maxIngredients = 200
    /// Longest ingredient name.
    public static let maxIngredientNameLength = 200
    /// Longest unit of an ingredient.
    public static let maxUnitLength = 200
    /// The same bound under its v1 name: the wire's v1 calls the unit `metric`.
    public static let maxMetricLength = maxUnitLength
    /// Longest note of an ingredient ("finely chopped; about 400 g").
    public static let maxIngredientNoteLength = 500
    /// Longest ingredient line as written (`text`): a name, a unit and a note at
    /// their limits fit, with the quantity.
    public static let maxIngredientTextLength = 1000
    /// Longest section heading of an ingredient or a step ("For the sauce").
    public static let maxSectionLength = 200
    /// Largest ingredient amount; keeps scaled amounts far from `Double`'s exact-integer range.
    public static let maxIngredientAmount: Double = 1_000_000
    /// Smallest ingredient amount: the least that every view shows as more than nothing
    /// (amounts are shown to two decimals, `Quantities.decimalText`), so no amount shows as "0".
    /// Smaller quantities are written in a smaller unit (1 g, not 0.001 kg).
    public static let minIngredientAmount = 0.01
    /// The one statement of the amount rule, for the fold and the record decoder:
    /// from `minIngredientAmount` to `maxIngredientAmount`. Written so that NaN fails
    /// too (every comparison with NaN is false), and so does infinity.
    public static func isAllowedAmount(_ amount: Double) -> Bool {
        amount >= minIngredientAmount && amount <= maxIngredientAmount
    }

    /// The amount rule in words, for messages: "from 0.01 to 1000000".
    public static let amountRange = "from \(minIngredientAmount) to \(Int(maxIngredientAmount))"

    /// Most instructions in one recipe.
    public static let maxInstructions = 200
    /// Longest instruction description.
    public static let maxDescriptionLength = 5000

    /// Longest description of a recipe.
    public static let maxRecipeDescriptionLength = 5000
    /// Longest yield text ("12 muffins").
    public static let maxYieldLength = 200
    /// Longest ISO 8601 duration text (`P1DT2H30M`); `RecipeDuration` judges the form.
    public static let maxDurationLength = 32
    /// Longest source URL, as long as an image URL.
    public static let maxSourceURLLength = 2048

    /// Most tags on one recipe.
    public static let maxTags = 50
    /// Longest tag name (without the `@`).
    public static let maxTagNameLength = 64
    /// Longest tag payload (between the parentheses, after trimming).
    public static let maxTagPayloadLength = 1000
    /// Longest text a `TagAdded` / `TagChanged` may carry, tag and surrounding words included.
    public static let maxTagTextLength = 2048

    /// Longest command id, and longest explicit ingredient or instruction id.
    public static let maxIdentifierLength = 128

    /// Most energy one serving may state, in kcal.
    public static let maxCaloriesPerServing: Double = 50_000
    /// Most of a nutrient counted in grams one serving may state.
    public static let maxGramsPerServing: Double = 10_000
    /// Most of a nutrient counted in milligrams (sodium, cholesterol) one serving may state.
    public static let maxMilligramsPerServing: Double = 1_000_000
    /// Longest serving size text ("1 slice (80 g)").
    public static let maxServingSizeLength = 200

    /// Guests a recipe can be scaled for.
    public static let guests: ClosedRange<Int> = 1...1000
}
