// MARK: - Cooking units

/// Which measuring system a unit belongs to, and which one a reader asks to see
/// amounts in (`?units=metric|us`).
public enum UnitSystem: String, Sendable, Hashable, CaseIterable {
    case metric
    case us
}

/// A unit cooks write amounts in: its canonical symbol, the words that name it,
/// what it measures and how big it is.
///
/// Named `CookingUnit`, not `Unit`, because Foundation has a `Unit` class: a file
/// importing both Foundation and this module could not say `Unit` unqualified.
///
/// Lookup (`named(_:)`) ignores case, periods and repeated spaces — "Tbsp.",
/// "TBSP" and "tbsp" are one unit — with a single exception: "T" is a
/// tablespoon and "t" a teaspoon, as cooks abbreviate them.
public struct CookingUnit: Sendable, Hashable {
    /// What a unit measures. Only mass and volume convert; everything else
    /// (pieces, cans, pinches, cloves) is counted and never converts.
    public enum Dimension: String, Sendable, Hashable {
        case mass
        case volume
        case count
    }

    /// The canonical symbol, stored as the ingredient's unit: "g", "tbsp", "cup", "clove".
    public let symbol: String
    /// The name written after amounts above one: "cups", "cloves"; the symbol itself for
    /// abbreviations, which do not pluralize ("2 tbsp", "500 g").
    public let plural: String
    public let dimension: Dimension
    /// How many grams (mass) or millilitres (volume) one of this unit is; nil for counted units.
    public let baseAmount: Double?
    /// The system the unit belongs to; nil for counted units, which belong to both.
    public let system: UnitSystem?
    /// Every spelling that names the unit, lowercase without periods; the symbol and plural included.
    public let aliases: [String]

    init(_ symbol: String, plural: String? = nil, _ dimension: Dimension, base: Double? = nil,
         system: UnitSystem? = nil, aliases: [String] = []) {
        self.symbol = symbol
        self.plural = plural ?? symbol
        self.dimension = dimension
        self.baseAmount = base
        self.system = system
        var spellings = [symbol, plural ?? symbol] + aliases
        spellings.removeDuplicatesKeepingOrder()
        self.aliases = spellings
    }

    /// The name to write after `amount`: plural above one, singular at one and below
    /// ("½ cup", "1 cup", "1½ cups"). Callers that round the amount for display pass
    /// the rounded value, so "1.004 cup" reads "1 cup".
    public func name(for amount: Double) -> String {
        amount > 1 ? plural : symbol
    }

    // MARK: - The table

    /// Grams per avoirdupois ounce and millilitres per US teaspoon: the two US
    /// units every other US unit is a multiple of.
    static let gramsPerOunce = 28.349523125
    static let millilitresPerTeaspoon = 4.92892159375

    /// Every unit the parser and the display know, metric first.
    public static let all: [CookingUnit] = [
        // Metric mass
        CookingUnit("mg", .mass, base: 0.001, system: .metric,
                    aliases: ["milligram", "milligrams", "milligramme", "milligrammes"]),
        CookingUnit("g", .mass, base: 1, system: .metric,
                    aliases: ["gram", "grams", "gramme", "grammes", "gr", "grm"]),
        CookingUnit("kg", .mass, base: 1000, system: .metric,
                    aliases: ["kilogram", "kilograms", "kilogramme", "kilogrammes", "kilo", "kilos", "kgs"]),
        // Metric volume
        CookingUnit("ml", .volume, base: 1, system: .metric,
                    aliases: ["millilitre", "millilitres", "milliliter", "milliliters"]),
        CookingUnit("cl", .volume, base: 10, system: .metric,
                    aliases: ["centilitre", "centilitres", "centiliter", "centiliters"]),
        CookingUnit("dl", .volume, base: 100, system: .metric,
                    aliases: ["decilitre", "decilitres", "deciliter", "deciliters"]),
        CookingUnit("l", .volume, base: 1000, system: .metric,
                    aliases: ["litre", "litres", "liter", "liters", "ltr"]),
        // US mass
        CookingUnit("oz", .mass, base: gramsPerOunce, system: .us, aliases: ["ounce", "ounces", "ozs"]),
        CookingUnit("lb", .mass, base: gramsPerOunce * 16, system: .us, aliases: ["pound", "pounds", "lbs"]),
        // US volume
        CookingUnit("tsp", .volume, base: millilitresPerTeaspoon, system: .us,
                    aliases: ["teaspoon", "teaspoons", "tsps", "tspn"]),
        CookingUnit("tbsp", .volume, base: millilitresPerTeaspoon * 3, system: .us,
                    aliases: ["tablespoon", "tablespoons", "tbsps", "tbs", "tbl", "tbls", "tblsp", "tbspn"]),
        CookingUnit("fl oz", .volume, base: millilitresPerTeaspoon * 6, system: .us,
                    aliases: ["fluid ounce", "fluid ounces", "fl ounce", "fl ounces", "fluid oz", "floz"]),
        CookingUnit("cup", plural: "cups", .volume, base: millilitresPerTeaspoon * 48, system: .us, aliases: ["c"]),
        CookingUnit("pt", .volume, base: millilitresPerTeaspoon * 96, system: .us, aliases: ["pint", "pints", "pts"]),
        CookingUnit("qt", .volume, base: millilitresPerTeaspoon * 192, system: .us, aliases: ["quart", "quarts", "qts"]),
        CookingUnit("gal", .volume, base: millilitresPerTeaspoon * 768, system: .us,
                    aliases: ["gallon", "gallons", "gals"]),
        // Counted, and cooks' measures with no fixed size
        CookingUnit("pinch", plural: "pinches", .count),
        CookingUnit("dash", plural: "dashes", .count),
        CookingUnit("drop", plural: "drops", .count),
        CookingUnit("clove", plural: "cloves", .count),
        CookingUnit("can", plural: "cans", .count),
        CookingUnit("tin", plural: "tins", .count),
        CookingUnit("jar", plural: "jars", .count),
        CookingUnit("bottle", plural: "bottles", .count),
        CookingUnit("package", plural: "packages", .count, aliases: ["pkg", "pkgs", "pack", "packs"]),
        CookingUnit("packet", plural: "packets", .count),
        CookingUnit("bag", plural: "bags", .count),
        CookingUnit("box", plural: "boxes", .count),
        CookingUnit("slice", plural: "slices", .count),
        CookingUnit("piece", plural: "pieces", .count, aliases: ["pc", "pcs"]),
        CookingUnit("bunch", plural: "bunches", .count),
        CookingUnit("sprig", plural: "sprigs", .count),
        CookingUnit("handful", plural: "handfuls", .count),
        CookingUnit("stick", plural: "sticks", .count),
        CookingUnit("stalk", plural: "stalks", .count),
        CookingUnit("head", plural: "heads", .count),
    ]

    /// The two spellings whose case decides the unit.
    static let caseSensitive: [String: CookingUnit] = [
        "T": CookingUnit.all.first { $0.symbol == "tbsp" }!,
        "t": CookingUnit.all.first { $0.symbol == "tsp" }!,
    ]

    /// Every other spelling, lowercase.
    static let byAlias: [String: CookingUnit] = {
        var table: [String: CookingUnit] = [:]
        for unit in all {
            for alias in unit.aliases {
                precondition(table[alias] == nil, "\(alias) names two units")
                table[alias] = unit
            }
        }
        return table
    }()

    /// The unit `text` names, or nil when it names none (the caller keeps the text as written).
    public static func named(_ text: String) -> CookingUnit? {
        let key = lookupKey(text)
        if let unit = caseSensitive[key] { return unit }
        // "t" and "T" were settled above; lowercasing must not turn "T" into a teaspoon.
        return byAlias[key.lowercased()]
    }

    /// The text without periods ("fl. oz.", "Tbsp."), surrounding or repeated whitespace.
    static func lookupKey(_ text: String) -> String {
        // Visible ASCII without a period (most units: "g", "cup") is its own key, read byte by
        // byte instead of character by character.
        if text.utf8.allSatisfy({ (0x21 ... 0x7E).contains($0) && $0 != UInt8(ascii: ".") }) { return text }
        var key = ""
        var pendingSpace = false
        for character in text {
            if character == "." { continue }
            if character.isWhitespace {
                pendingSpace = !key.isEmpty
                continue
            }
            if pendingSpace { key.append(" ") }
            pendingSpace = false
            key.append(character)
        }
        return key
    }
}

private extension Array where Element: Hashable {
    mutating func removeDuplicatesKeepingOrder() {
        var seen = Set<Element>()
        self = filter { seen.insert($0).inserted }
    }
}
