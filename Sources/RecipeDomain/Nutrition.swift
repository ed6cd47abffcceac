// MARK: - Nutrition

/// What one serving of a recipe holds, as its cook or its page states it: some of the
/// nutrients schema.org's `NutritionInformation` names, each an amount in its nutrient's
/// unit, and the serving they are for in words ("1 slice", "250 g"). Kept per serving,
/// as pages and labels state it; a document scaled to a number of guests shows the
/// amounts for all of them beside it.
public struct Nutrition: Sendable, Hashable {
    /// A nutrient, in the order documents list them; its unit is fixed.
    public enum Nutrient: String, Sendable, Hashable, CaseIterable {
        case calories
        case fat
        case saturatedFat
        case carbohydrate
        case sugar
        case fiber
        case protein
        case sodium
        case cholesterol

        /// kcal for energy, mg for sodium and cholesterol, g for the rest.
        public var unit: String {
            switch self {
            case .calories: "kcal"
            case .sodium, .cholesterol: "mg"
            case .fat, .saturatedFat, .carbohydrate, .sugar, .fiber, .protein: "g"
            }
        }

        /// The most one serving may state, in `unit`: well above any dish, low enough to
        /// catch an amount typed in the wrong unit.
        public var maximum: Double {
            switch self {
            case .calories: RecipeLimits.maxCaloriesPerServing
            case .sodium, .cholesterol: RecipeLimits.maxMilligramsPerServing
            case .fat, .saturatedFat, .carbohydrate, .sugar, .fiber, .protein: RecipeLimits.maxGramsPerServing
            }
        }
    }

    /// Per serving, in each nutrient's unit; a nutrient not stated is absent.
    public var amounts: [Nutrient: Double]
    /// The serving the amounts are for, in words; never blank.
    public var servingSize: String?

    public init(amounts: [Nutrient: Double] = [:], servingSize: String? = nil) {
        self.amounts = amounts
        self.servingSize = servingSize
    }

    /// Whether it states nothing: a recipe whose nutrition was all cleared has none.
    public var isEmpty: Bool { amounts.isEmpty && servingSize == nil }

    /// The amounts for `count` servings (per serving × count), for a document scaled to them:
    /// a stated decimal times a whole number is that decimal's digits times it, so 0.1 g for
    /// three servings reads 0.3, not the binary product's 0.30000000000000004.
    public func amounts(forServings count: Int) -> [Nutrient: Double] {
        amounts.mapValues { Self.decimalProduct($0, count) }
    }

    /// `amount` × `count`, computed on `amount`'s shortest decimal digits (up to nine places)
    /// so the result is the double nearest the exact decimal product; the plain binary
    /// product where the amount has more places or the digits would not fit.
    static func decimalProduct(_ amount: Double, _ count: Int) -> Double {
        var scale = 1.0
        for _ in 0...9 {
            let scaled = amount * scale
            let whole = scaled.wholeRoundedToNearest
            // `scaled` is within rounding of a whole number: `amount` has this many places.
            if abs(scaled - whole) <= scaled * 0x1p-50, whole * Double(count) < 0x1p52 {
                return whole * Double(count) / scale
            }
            scale *= 10
        }
        return amount * Double(count)
    }
}

/// What a `NutritionChanged` command does to each nutrient and to the serving size:
/// keep, clear or set. At least one must change.
public struct NutritionChanges: Sendable, Hashable {
    public var amounts: [Nutrition.Nutrient: FieldUpdate<Double>]
    public var servingSize: FieldUpdate<String>

    public init(amounts: [Nutrition.Nutrient: FieldUpdate<Double>] = [:], servingSize: FieldUpdate<String> = .keep) {
        self.amounts = amounts.filter { $0.value != .keep }
        self.servingSize = servingSize
    }

    public func update(of nutrient: Nutrition.Nutrient) -> FieldUpdate<Double> { amounts[nutrient] ?? .keep }

    /// Whether it keeps everything.
    public var keepsAll: Bool { amounts.isEmpty && servingSize == .keep }

    /// `nutrition` after the changes; nil when nothing is left.
    public func applied(to nutrition: Nutrition?) -> Nutrition? {
        var result = nutrition ?? Nutrition()
        for nutrient in Nutrition.Nutrient.allCases {
            result.amounts[nutrient] = update(of: nutrient).applied(to: result.amounts[nutrient])
        }
        result.servingSize = servingSize.applied(to: result.servingSize)
        return result.isEmpty ? nil : result
    }
}

// Described in the nutrients' order, so that equal values read alike (a dictionary's own
// order depends on how it was built).
extension Nutrition: CustomStringConvertible {
    public var description: String {
        let amounts = Nutrient.allCases.compactMap { nutrient in self.amounts[nutrient].map { "\(nutrient.rawValue): \($0)" } }
        return "Nutrition(\(amounts.joined(separator: ", ")), servingSize: \(servingSize.map { "\"\($0)\"" } ?? "nil"))"
    }
}

extension NutritionChanges: CustomStringConvertible {
    public var description: String {
        let amounts = Nutrition.Nutrient.allCases.compactMap { nutrient in self.amounts[nutrient].map { "\(nutrient.rawValue): \($0)" } }
        return "NutritionChanges(\(amounts.joined(separator: ", ")), servingSize: \(servingSize))"
    }
}
