import RecipeDomain
import Testing

@Suite("Quantities: scaling and readable amounts")
struct QuantityTests {
    @Test(arguments: [
        // amount, unit, servings, guests, text
        (250.0, "g", 4, 6, "375 g"),
        (250.0, "g", 4, 4, "250 g"),
        (1.5, "cup", 2, 2, "1½ cup"),
        (1.0 / 3, "cup", 1, 1, "⅓ cup"),
        (1.0, "cup", 3, 2, "⅔ cup"),
        (1.0, "cup", 4, 1, "¼ cup"),
        (3.0, "tbsp", 4, 1, "¾ tbsp"),
        (1.0, "tsp", 8, 1, "⅛ tsp"),
        (1.0, "piece", 2, 1, "½ piece"),
        (2.0, "eggs", 4, 6, "3 eggs"),
        (1.0, "cup", 3, 7, "2⅓ cup"),
        (1.2345, "kg", 1, 1, "1.23 kg"),
        (1.5, "kg", 1, 1, "1.5 kg"), // metric units never get fractions
        (0.5, "l", 1, 1, "0.5 l"),
        (100.0, "ML", 3, 1, "33.33 ML"), // units compare ignoring case
        (1.0, "cup", 7, 1, "0.14 cup"), // no fraction close enough
        (0.3333, "cup", 1, 1, "⅓ cup"), // within the tolerance of ⅓
        (2.996, "cup", 1, 1, "3 cup"), // within the tolerance of a whole number
        (1.0, "pinch", 1, 1000, "1000 pinch"),
        (250.0, "g", 4, 1, "62.5 g"),
        (1.005, "g", 1, 1, "1 g"), // 1.005 is just below 1.005 in binary
        (1.0, "g", 1, 3, "3 g"),
    ] as [(Double, String, Int, Int, String)])
    func scaledAmountsReadAsPeopleWriteThem(amount: Double, unit: String, servings: Int, guests: Int, text: String) throws {
        let scaled = try Quantities.scale(amount, servings: servings, guests: guests)
        #expect(Quantities.readable(scaled, unit: unit) == text)
    }

    @Test func theMetricUnitsAreTheDocumentedSeven() {
        #expect(Quantities.metricUnits == ["g", "kg", "mg", "ml", "l", "cl", "dl"])
        #expect(Quantities.isMetric(" KG "))
        #expect(!Quantities.isMetric("cup"))
        #expect(!Quantities.isMetric("grams"))
    }

    @Test func aBlankUnitIsLeftOut() {
        #expect(Quantities.readable(2, unit: "") == "2")
        #expect(Quantities.readable(0.5, unit: " ") == "½")
    }

    @Test func aRecipeWithoutServingsCannotBeScaled() {
        #expect(throws: ScalingError.recipeHasNoServings) { try Quantities.scale(1, servings: nil, guests: 2) }
        let content = RecipeContent(title: "Soup", ingredients: [Ingredient(id: "w", name: "water", amount: 1, metric: "l")])
        #expect(throws: ScalingError.recipeHasNoServings) { try content.scaledIngredients(forGuests: 2) }
    }

    @Test(arguments: [0, -1, 1001])
    func guestsOutsideOneToAThousandAreRejected(guests: Int) {
        #expect(throws: ScalingError.guestsOutOfRange(guests)) { try Quantities.scale(1, servings: 2, guests: guests) }
        let content = RecipeContent(servings: 2)
        #expect(throws: ScalingError.guestsOutOfRange(guests)) { try content.scaledIngredients(forGuests: guests) }
    }

    @Test func aRecipeScalesEveryIngredientAndKeepsTheRest() throws {
        let content = RecipeContent(
            title: "Pancakes", servings: 4,
            ingredients: [
                Ingredient(id: "f", name: "flour", amount: 250, metric: "g"),
                Ingredient(id: "m", name: "milk", amount: 1, metric: "cup"),
            ])
        let scaled = try content.scaledIngredients(forGuests: 6)
        #expect(scaled.map(\.id) == ["f", "m"])
        #expect(scaled.map(\.readableQuantity) == ["375 g", "1½ cups"])
    }
}
