import RecipeDomain
import Testing

@Suite("Converting amounts between metric and US units for display")
struct UnitConversionTests {
    @Test(arguments: [
        // amount, unit, system, converted amount, converted unit
        (2.0, "cup", UnitSystem.metric, 473.176473, "ml"),
        (2, "cups", .metric, 473.176473, "ml"),
        (4.5, "cup", .metric, 1.06464706, "l"),
        (1, "tbsp", .metric, 14.78676478125, "ml"),
        (1, "tsp", .metric, 4.92892159375, "ml"),
        (1, "fl oz", .metric, 29.5735295625, "ml"),
        (1, "pint", .metric, 473.176473, "ml"),
        (1, "gal", .metric, 3.785411784, "l"),
        (8, "oz", .metric, 226.796185, "g"),
        (1, "ounce", .metric, 28.349523125, "g"),
        (3, "lb", .metric, 1.36077711, "kg"),
        (2, "pounds", .metric, 907.18474, "g"),
        (500, "g", .us, 1.10231131, "lb"),
        (100, "g", .us, 3.52739619, "oz"),
        (453.59237, "g", .us, 1, "lb"),
        (2, "kg", .us, 4.40924524, "lb"),
        (5, "ml", .us, 1.01442068, "tsp"),
        (15, "ml", .us, 1.01442068, "tbsp"),
        (50, "ml", .us, 3.38140227, "tbsp"),
        (60, "ml", .us, 0.25360517, "cup"),
        (250, "ml", .us, 1.05668821, "cup"),
        (1, "l", .us, 4.22675284, "cup"),
        (3, "dl", .us, 1.26802585, "cup"),
    ] as [(Double, String, UnitSystem, Double, String)])
    func amountsConvertToTheUnitThatReadsBestAtTheirSize(amount: Double, unit: String, system: UnitSystem,
                                                          expectedAmount: Double, expectedUnit: String) {
        let converted = CookingUnit.convert(amount, unit: unit, to: system)
        #expect(abs(converted.amount - expectedAmount) < 1e-6, "\(converted.amount)")
        #expect(converted.unit == expectedUnit)
    }

    @Test(arguments: [
        (250.0, "g", UnitSystem.metric), (2, "cups", .us), (1.5, "L", .metric), (3, "clove", .metric),
        (3, "clove", .us), (1, "pinch", .us), (2, "knobs", .metric), (1, "", .us),
    ] as [(Double, String, UnitSystem)])
    func amountsAlreadyInTheSystemCountedOrUnknownAreUnchanged(amount: Double, unit: String, system: UnitSystem) {
        let converted = CookingUnit.convert(amount, unit: unit, to: system)
        #expect(converted.amount == amount)
        #expect(converted.unit == unit)
    }

    @Test(arguments: [
        (2.0, "cup"), (1, "tbsp"), (2, "tsp"), (8, "oz"), (2, "lb"), (0.25, "cup"),
        (500, "g"), (1.5, "kg"), (250, "ml"), (2, "l"), (5, "ml"),
    ] as [(Double, String)])
    func aRoundTripComesBackToTheSameAmount(amount: Double, unit: String) throws {
        let system = try #require(CookingUnit.named(unit)?.system)
        let other: UnitSystem = system == .metric ? .us : .metric
        let there = CookingUnit.convert(amount, unit: unit, to: other)
        #expect(CookingUnit.named(there.unit)?.system == other)
        let back = CookingUnit.convert(there.amount, unit: there.unit, to: system)
        #expect(back.unit == unit)
        #expect(abs(back.amount - amount) < amount * 1e-12)
    }

    @Test func conversionKeepsTheGramsOrMillilitres() throws {
        for unit in CookingUnit.all where unit.baseAmount != nil {
            for system in UnitSystem.allCases {
                let converted = CookingUnit.convert(3, unit: unit.symbol, to: system)
                let base = try #require(CookingUnit.named(converted.unit)?.baseAmount)
                #expect(abs(converted.amount * base - 3 * unit.baseAmount!) < 1e-9, "\(unit.symbol) → \(system)")
            }
        }
    }

    // MARK: - Whole quantities

    @Test func bothEndsOfARangeTakeTheUnitOfTheUpperEnd() throws {
        let grams = IngredientQuantity(amount: 900, amountMax: 1100, unit: "g")
        #expect(grams.converted(to: .metric) == grams)
        let pounds = grams.converted(to: .us)
        #expect(pounds.unit == "lb")
        #expect(abs(try #require(pounds.amount) - 1.98416036) < 1e-6)
        #expect(abs(try #require(pounds.amountMax) - 2.42508488) < 1e-6)

        let cups = IngredientQuantity(amount: 3, amountMax: 5, unit: "cups").converted(to: .metric)
        #expect(cups.unit == "l")
        #expect(cups.text == "0.71–1.18 l")
    }

    @Test func convertedQuantitiesReadAsCooksWriteThem() {
        #expect(IngredientQuantity(amount: 2, unit: "cup").converted(to: .metric).text == "473.18 ml")
        #expect(IngredientQuantity(amount: 250, unit: "ml").converted(to: .us).text == "1.06 cups")
        #expect(IngredientQuantity(amount: 113.4, unit: "g").converted(to: .us).text == "4 oz")
        #expect(IngredientQuantity(amount: 2, amountMax: 3, unit: "lb").converted(to: .metric).text == "0.91–1.36 kg")
    }

    @Test func quantitiesWithoutAnAmountOrAMeasuredUnitAreUnchanged() {
        for quantity in [IngredientQuantity(), IngredientQuantity(amount: 2), IngredientQuantity(amount: 2, unit: "clove"),
                         IngredientQuantity(amount: 1, amountMax: 2, unit: "knobs"), IngredientQuantity(unit: "cup")] {
            #expect(quantity.converted(to: .metric) == quantity)
            #expect(quantity.converted(to: .us) == quantity)
        }
    }
}
