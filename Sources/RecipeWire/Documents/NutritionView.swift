import RecipeDomain
import RecipeJSON

/// A recipe's nutrition as the detail document and the draft view show it: `perServing`
/// is what the recipe states and never changes; `total` is `perServing` × `forServings`,
/// which is the guests asked for (`?guests=`) or else the recipe's servings. `?units=`
/// leaves both alone. Nutrients are keyed by name (`Nutrition.Nutrient`); only those
/// stated are present. Absent from the document when the recipe states no nutrition.
public struct NutritionView: Codable, Sendable, Equatable {
    /// An amount in its nutrient's fixed unit (kcal, g, mg).
    public struct Amount: Codable, Sendable, Equatable {
        public var amount: Double
        public var unit: String

        public init(amount: Double, unit: String) {
            self.amount = amount
            self.unit = unit
        }
    }

    public var servingSize: String?
    public var perServing: [String: Amount]
    /// The servings `total` is for; absent when neither guests nor the recipe's servings are known.
    public var forServings: Int?
    /// Absent without `forServings`.
    public var total: [String: Amount]?

    public init(servingSize: String?, perServing: [String: Amount], forServings: Int?, total: [String: Amount]?) {
        self.servingSize = servingSize
        self.perServing = perServing
        self.forServings = forServings
        self.total = total
    }

    /// `nutrition` for `servings` servings (nil: per serving only); nil for no nutrition.
    public init?(_ nutrition: Nutrition?, forServings servings: Int?) {
        guard let nutrition, !nutrition.isEmpty else { return nil }
        self.init(servingSize: nutrition.servingSize, perServing: Self.amounts(nutrition.amounts), forServings: servings,
                  total: servings.map { Self.amounts(nutrition.amounts(forServings: $0)) })
    }

    private static func amounts(_ amounts: [Nutrition.Nutrient: Double]) -> [String: Amount] {
        Dictionary(uniqueKeysWithValues: amounts.map { ($0.key.rawValue, Amount(amount: $0.value, unit: $0.key.unit)) })
    }
}

extension NutritionView {
    /// The member as `DocumentJSON.encoder` writes it: members and nutrients sorted by name.
    public func write(to writer: inout JSONWriter) {
        writer.raw("{")
        if let forServings { writer.member("forServings"); writer.integer(forServings) }
        writer.member("perServing"); Self.write(perServing, to: &writer)
        if let servingSize { writer.member("servingSize"); writer.string(servingSize) }
        if let total { writer.member("total"); Self.write(total, to: &writer) }
        writer.raw("}")
    }

    private static func write(_ amounts: [String: Amount], to writer: inout JSONWriter) {
        writer.raw("{")
        for (index, name) in amounts.keys.sorted().enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(name)
            writer.raw(":")
            let amount = amounts[name]!
            writer.key("amount", first: true); writer.number(amount.amount)
            writer.key("unit"); writer.string(amount.unit)
            writer.raw("}")
        }
        writer.raw("}")
    }
}
