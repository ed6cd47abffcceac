import RecipeDomain
import Testing

/// What the detail's `display` shows for a line: the v2 quantity text, scaled for
/// guests and converted to a system as the detail asks (`?guests=`, `?units=`).
@Suite("Ingredient display: plurals, fractions, decimals, ranges, lines without a quantity, units")
struct IngredientDisplayTests {
    static func ingredient(_ amount: Double?, _ amountMax: Double? = nil, _ unit: String?) -> Ingredient {
        Ingredient(id: "i", name: "x", amount: amount, amountMax: amountMax, unit: unit)
    }

    @Test(arguments: [
        (ingredient(1, nil, "cup"), "1 cup"),
        (ingredient(1.5, nil, "cup"), "1½ cups"),           // plural after amounts above one
        (ingredient(0.5, nil, "cup"), "½ cup"),
        (ingredient(2.0 / 3, nil, "cup"), "⅔ cup"),          // fractions for US units
        (ingredient(2, nil, "tbsp"), "2 tbsp"),              // abbreviations do not pluralize
        (ingredient(375, nil, "g"), "375 g"),                // decimals for metric units
        (ingredient(1.5, nil, "kg"), "1.5 kg"),
        (ingredient(1.0 / 3, nil, "l"), "0.33 l"),
        (ingredient(2, 3, "clove"), "2–3 cloves"),           // ranges
        (ingredient(0.5, 1, "cup"), "½–1 cup"),
        (ingredient(2, nil, "pcs"), "2 pieces"),             // a known unit by its canonical name
        (ingredient(2, nil, "knobs"), "2 knobs"),            // an unknown unit as written
        (ingredient(2, nil, nil), "2"),                      // counted things without a unit
        (ingredient(nil, nil, nil), ""),                     // no quantity: nothing to measure
        (ingredient(nil, nil, "pinch"), ""),
    ])
    func theQuantityAsPeopleReadIt(ingredient: Ingredient, display: String) {
        #expect(ingredient.readableQuantity == display)
    }

    @Test func scalingScalesBothEndsAndLeavesLinesWithoutAQuantity() throws {
        let content = RecipeContent(servings: 4, ingredients: [
            Self.ingredient(2, 3, "clove"), Self.ingredient(nil, nil, nil), Self.ingredient(250, nil, "g"),
            Self.ingredient(0.75, nil, "cup"),
        ])
        let scaled = try content.scaledIngredients(forGuests: 6)
        #expect(scaled.map(\.readableQuantity) == ["3–4½ cloves", "", "375 g", "1⅛ cups"])
        #expect(scaled[1] == content.ingredients[1])
        #expect(throws: ScalingError.recipeHasNoServings) { try RecipeContent(ingredients: [Self.ingredient(nil, nil, nil)]).scaledIngredients(forGuests: 2) }
    }

    @Test func unitsConvertForDisplayOnly() {
        let content = RecipeContent(ingredients: [
            Self.ingredient(2, nil, "cup"), Self.ingredient(500, nil, "g"), Self.ingredient(900, 1100, "g"),
            Self.ingredient(2, nil, "clove"), Self.ingredient(nil, nil, nil), Self.ingredient(1, nil, "knob"),
        ])
        #expect(content.ingredients(convertedTo: .metric).map(\.readableQuantity)
            == ["473.18 ml", "500 g", "900–1100 g", "2 cloves", "", "1 knob"])
        #expect(content.ingredients(convertedTo: .us).map(\.readableQuantity)
            == ["2 cups", "1.1 lb", "1.98–2.43 lb", "2 cloves", "", "1 knob"])
        // The stored line is untouched: only the copy shown changes.
        #expect(content.ingredients[1] == Self.ingredient(500, nil, "g"))
    }
}
