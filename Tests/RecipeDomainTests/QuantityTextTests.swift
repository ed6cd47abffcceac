import RecipeDomain
import Testing

@Suite("Quantity text, ranges and scaling of ingredient lines")
struct QuantityTextTests {
    @Test(arguments: [
        // amount, amountMax, unit, text
        (1.0, nil, "cup", "1 cup"), (2, nil, "cup", "2 cups"), (0.5, nil, "cup", "½ cup"),
        (1.5, nil, "cups", "1½ cups"), (2.0 / 3, nil, "cup", "⅔ cup"), (1.0 / 3, nil, "cup", "⅓ cup"),
        (2.125, nil, "tsp", "2⅛ tsp"), (0.375, nil, "cup", "⅜ cup"), (0.625, nil, "cup", "⅝ cup"),
        (0.875, nil, "cup", "⅞ cup"), (0.25, nil, "tsp", "¼ tsp"), (0.75, nil, "tbsp", "¾ tbsp"),
        (1.0 / 7, nil, "cup", "0.14 cup"), // no fraction close enough: decimals
        (1.004, nil, "cup", "1 cup"), (0.996, nil, "cup", "1 cup"), // singular when it reads as one
        (2.999, nil, "cups", "3 cups"),
        (1.5, nil, "kg", "1.5 kg"), (375, nil, "g", "375 g"), (1.2345, nil, "kg", "1.23 kg"),
        (0.5, nil, "l", "0.5 l"), (100.0 / 3, nil, "ml", "33.33 ml"), (1.5, nil, "dl", "1.5 dl"),
        (1.5, nil, "grams", "1.5 g"), (250, nil, "ML", "250 ml"), // a known unit by its canonical symbol
        (2, nil, "tbsp", "2 tbsp"), (2, nil, "Tablespoons", "2 tbsp"), (500, nil, "g", "500 g"),
        (8, nil, "oz", "8 oz"), (2, nil, "lb", "2 lb"),
        (2, 3, "clove", "2–3 cloves"), (0.5, 1, "cup", "½–1 cup"), (1, 2, "cup", "1–2 cups"),
        (200, 250, "g", "200–250 g"), (1.5, 2, "dl", "1.5–2 dl"), (1.5, 2.5, "tsp", "1½–2½ tsp"),
        (2, 2, "clove", "2 cloves"), (1, 1.001, "cup", "1 cup"), // ends that read the same are written once
        (2, nil, nil, "2"), (0.5, nil, nil, "½"), (3, 4, nil, "3–4"), (1.25, nil, nil, "1¼"),
        (2, nil, "knobs", "2 knobs"), (1.5, nil, "knob", "1½ knob"), (2, nil, " ", "2"), (2, nil, "", "2"),
    ] as [(Double, Double?, String?, String)])
    func aQuantityReadsAsCooksWriteIt(amount: Double, amountMax: Double?, unit: String?, text: String) {
        #expect(IngredientQuantity(amount: amount, amountMax: amountMax, unit: unit).text == text)
    }

    @Test func aLineWithoutAnAmountHasNoQuantityText() {
        #expect(IngredientQuantity().text == nil)
        #expect(IngredientQuantity(unit: "pinch").text == nil)
    }

    @Test(arguments: 1...7)
    func everyEighthHasItsGlyph(eighths: Int) {
        let glyphs = ["⅛", "¼", "⅜", "½", "⅝", "¾", "⅞"]
        #expect(QuantityText.fractionText(Double(eighths) / 8) == glyphs[eighths - 1])
        #expect(QuantityText.fractionText(2 + Double(eighths) / 8) == "2" + glyphs[eighths - 1])
    }

    @Test func thirdsAndTwoThirdsHaveGlyphsAndTheirNeighboursDoNot() {
        #expect(QuantityText.fractionText(1.0 / 3) == "⅓")
        #expect(QuantityText.fractionText(4 + 2.0 / 3) == "4⅔")
        #expect(QuantityText.fractionText(0.3333) == "⅓") // within the tolerance
        #expect(QuantityText.fractionText(0.35) == "0.35") // between ⅓ and ⅜
        #expect(QuantityText.fractionText(0.2) == "0.2") // fifths are read, not written
        #expect(QuantityText.fractionText(3) == "3")
    }

    // MARK: - Scaling

    @Test(arguments: [
        // amount, amountMax, servings, guests, scaled amount, scaled amountMax
        (2.0, 3.0, 4, 6, 3.0, 4.5), (250, nil, 4, 6, 375, nil), (1, 2, 2, 1, 0.5, 1), (0.5, 1, 1, 3, 1.5, 3),
    ] as [(Double, Double?, Int, Int, Double, Double?)])
    func scalingMultipliesBothEndsOfARange(amount: Double, amountMax: Double?, servings: Int, guests: Int,
                                           scaledAmount: Double, scaledMax: Double?) throws {
        let scaled = try IngredientQuantity(amount: amount, amountMax: amountMax, unit: "g")
            .scaled(servings: servings, guests: guests)
        #expect(scaled == IngredientQuantity(amount: scaledAmount, amountMax: scaledMax, unit: "g"))
    }

    @Test func scalingAgreesWithQuantitiesScale() throws {
        let scaled = try IngredientQuantity(amount: 1, amountMax: 3, unit: "cup").scaled(servings: 3, guests: 7)
        #expect(scaled.amount == (try Quantities.scale(1, servings: 3, guests: 7)))
        #expect(scaled.amountMax == (try Quantities.scale(3, servings: 3, guests: 7)))
        #expect(scaled.text == "2⅓–7 cups")
    }

    @Test func aLineWithoutAnAmountIsNotScaled() throws {
        let toTaste = IngredientQuantity(unit: "pinch")
        #expect(try toTaste.scaled(servings: 2, guests: 8) == toTaste)
    }

    @Test func scalingIsRefusedWithoutServingsOrWithGuestsOutOfRangeEvenWithoutAnAmount() {
        for quantity in [IngredientQuantity(), IngredientQuantity(amount: 1, amountMax: 2, unit: "cup")] {
            #expect(throws: ScalingError.recipeHasNoServings) { try quantity.scaled(servings: nil, guests: 2) }
            #expect(throws: ScalingError.guestsOutOfRange(0)) { try quantity.scaled(servings: 2, guests: 0) }
            #expect(throws: ScalingError.guestsOutOfRange(1001)) { try quantity.scaled(servings: 2, guests: 1001) }
        }
    }
}
