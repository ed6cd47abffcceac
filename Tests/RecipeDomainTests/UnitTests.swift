import RecipeDomain
import Testing

@Suite("Cooking units: names, aliases, plurals")
struct UnitTests {
    @Test(arguments: [
        // as written, canonical symbol
        ("tablespoons", "tbsp"), ("tablespoon", "tbsp"), ("tbsp", "tbsp"), ("Tbsp", "tbsp"), ("tbs", "tbsp"),
        ("T", "tbsp"), ("TBSP", "tbsp"), ("Tablespoons", "tbsp"), ("tbsp.", "tbsp"),
        ("teaspoon", "tsp"), ("teaspoons", "tsp"), ("tsp", "tsp"), ("t", "tsp"), ("TSP", "tsp"), ("Tsp", "tsp"),
        ("grams", "g"), ("gram", "g"), ("g", "g"), ("gr", "g"), ("G", "g"),
        ("kilogram", "kg"), ("kilograms", "kg"), ("kg", "kg"), ("KG", "kg"), ("kilo", "kg"),
        ("milligram", "mg"), ("milligrams", "mg"), ("mg", "mg"),
        ("litre", "l"), ("litres", "l"), ("liter", "l"), ("liters", "l"), ("l", "l"), ("L", "l"),
        ("millilitre", "ml"), ("milliliter", "ml"), ("milliliters", "ml"), ("ml", "ml"), ("mL", "ml"), ("ML", "ml"),
        ("cl", "cl"), ("centilitre", "cl"), ("dl", "dl"), ("deciliter", "dl"), ("decilitres", "dl"),
        ("cup", "cup"), ("cups", "cup"), ("c", "cup"), ("C", "cup"),
        ("fluid ounce", "fl oz"), ("fluid ounces", "fl oz"), ("fl oz", "fl oz"), ("fl. oz.", "fl oz"),
        ("ounce", "oz"), ("ounces", "oz"), ("oz", "oz"), ("oz.", "oz"),
        ("pound", "lb"), ("pounds", "lb"), ("lb", "lb"), ("lbs", "lb"),
        ("pint", "pt"), ("pints", "pt"), ("pt", "pt"),
        ("quart", "qt"), ("quarts", "qt"), ("qt", "qt"),
        ("gallon", "gal"), ("gallons", "gal"), ("gal", "gal"),
        ("pinch", "pinch"), ("pinches", "pinch"), ("dash", "dash"), ("dashes", "dash"),
        ("clove", "clove"), ("cloves", "clove"), ("can", "can"), ("cans", "can"),
        ("package", "package"), ("packages", "package"), ("pkg", "package"),
        ("slice", "slice"), ("slices", "slice"), ("piece", "piece"), ("pieces", "piece"), ("pcs", "piece"), ("pc", "piece"),
        ("bunch", "bunch"), ("bunches", "bunch"), ("sprig", "sprig"), ("sprigs", "sprig"),
        ("handful", "handful"), ("handfuls", "handful"), ("stick", "stick"), ("sticks", "stick"),
        (" cups ", "cup"), ("fl.  oz", "fl oz"),
    ])
    func everySpellingNamesItsUnit(written: String, symbol: String) {
        #expect(CookingUnit.named(written)?.symbol == symbol)
    }

    @Test func onlyTheCaseOfTAndtDecides() {
        #expect(CookingUnit.named("T")?.symbol == "tbsp")
        #expect(CookingUnit.named("t")?.symbol == "tsp")
        #expect(CookingUnit.named("T.")?.symbol == "tbsp")
        // Every other spelling ignores case, both ways.
        #expect(CookingUnit.named("TSP")?.symbol == "tsp")
        #expect(CookingUnit.named("tBsP")?.symbol == "tbsp")
        #expect(CookingUnit.named("C")?.symbol == "cup")
    }

    @Test(arguments: ["knob", "knobs", "", " ", "tablespoonful", "ts", "cups of", "grammar", "litter", "x", "ears"])
    func anUnknownWordNamesNoUnit(written: String) {
        #expect(CookingUnit.named(written) == nil)
    }

    @Test func everyUnitIsNamedByItsSymbolAndEachOfItsAliases() {
        for unit in CookingUnit.all {
            #expect(CookingUnit.named(unit.symbol) == unit)
            for alias in unit.aliases { #expect(CookingUnit.named(alias) == unit, "\(alias)") }
        }
        let symbols = CookingUnit.all.map(\.symbol)
        #expect(Set(symbols).count == symbols.count)
    }

    @Test(arguments: [
        // symbol, dimension, grams or millilitres in one, system
        ("g", CookingUnit.Dimension.mass, 1.0, UnitSystem.metric),
        ("kg", .mass, 1000, .metric), ("mg", .mass, 0.001, .metric),
        ("ml", .volume, 1, .metric), ("cl", .volume, 10, .metric), ("dl", .volume, 100, .metric),
        ("l", .volume, 1000, .metric),
        ("oz", .mass, 28.349523125, .us), ("lb", .mass, 453.59237, .us),
        ("tsp", .volume, 4.92892159375, .us), ("tbsp", .volume, 14.78676478125, .us),
        ("fl oz", .volume, 29.5735295625, .us), ("cup", .volume, 236.5882365, .us),
        ("pt", .volume, 473.176473, .us), ("qt", .volume, 946.352946, .us), ("gal", .volume, 3785.411784, .us),
    ] as [(String, CookingUnit.Dimension, Double, UnitSystem)])
    func measuredUnitsKnowTheirSize(symbol: String, dimension: CookingUnit.Dimension, base: Double, system: UnitSystem) throws {
        let unit = try #require(CookingUnit.named(symbol))
        #expect(unit.dimension == dimension)
        #expect(abs(try #require(unit.baseAmount) - base) < 1e-9)
        #expect(unit.system == system)
    }

    @Test(arguments: ["pinch", "dash", "clove", "can", "package", "slice", "piece", "bunch", "sprig", "handful", "stick"])
    func countedUnitsHaveNoSizeAndNoSystem(symbol: String) throws {
        let unit = try #require(CookingUnit.named(symbol))
        #expect(unit.dimension == .count)
        #expect(unit.baseAmount == nil)
        #expect(unit.system == nil)
    }

    @Test(arguments: [
        // symbol, amount, name written after it
        ("cup", 1.0, "cup"), ("cup", 2, "cups"), ("cup", 0.5, "cup"), ("cup", 1.5, "cups"),
        ("clove", 3, "cloves"), ("clove", 1, "clove"), ("pinch", 2, "pinches"), ("dash", 4, "dashes"),
        ("bunch", 2, "bunches"), ("box", 2, "boxes"), ("handful", 2, "handfuls"), ("piece", 0.25, "piece"),
        ("tbsp", 2, "tbsp"), ("tsp", 3, "tsp"), ("g", 500, "g"), ("ml", 250, "ml"), ("kg", 2, "kg"),
        ("oz", 8, "oz"), ("lb", 2, "lb"), ("fl oz", 4, "fl oz"), ("l", 2, "l"),
    ])
    func unitNamesAreSingularOrPluralByAmount(symbol: String, amount: Double, name: String) throws {
        #expect(try #require(CookingUnit.named(symbol)).name(for: amount) == name)
    }
}
