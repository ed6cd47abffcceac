import Foundation
import RecipeDomain

// MARK: - Nutrition values as pages write them

/// schema.org's `NutritionInformation` properties, and amounts read from the ways pages write
/// them: `"240 kcal"`, `"240 calories"`, `"9g"`, `"9 grams"`, `"1,200 mg"`, `"0.5 g"` of sodium
/// (500 mg), `"1000 kJ"` (239 kcal), a bare number or a text without a unit (in the
/// nutrient's own unit). Each amount comes out in its nutrient's unit (`Nutrition.Nutrient.unit`).
enum NutritionValues {
    /// Each nutrient's schema.org property, in the nutrients' order.
    static let properties: [(nutrient: Nutrition.Nutrient, property: String)] = [
        (.calories, "calories"), (.fat, "fatContent"), (.saturatedFat, "saturatedFatContent"),
        (.carbohydrate, "carbohydrateContent"), (.sugar, "sugarContent"), (.fiber, "fiberContent"),
        (.protein, "proteinContent"), (.sodium, "sodiumContent"), (.cholesterol, "cholesterolContent"),
    ]

    /// The amount a text states of `nutrient`, in the nutrient's unit; nil when it states no
    /// amount in a unit of the nutrient's kind (`"N/A"`, `""`, `"9 g"` of calories). Words after
    /// the unit (`"9 g (14% DV)"`) are not read.
    static func amount(_ text: String, of nutrient: Nutrition.Nutrient) -> Double? {
        let scalars = Array(text.trimmed.lowercased().unicodeScalars)
        var index = 0
        while index < scalars.count, isNumberPart(scalars[index]) { index += 1 }
        guard let number = number(String(String.UnicodeScalarView(scalars[..<index]))) else { return nil }
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\u{A0}" { index += 1 }
        let unitStart = index
        while index < scalars.count, CharacterSet.letters.contains(scalars[index]) { index += 1 }
        let unit = String(String.UnicodeScalarView(scalars[unitStart..<index]))
        // A unit is a whole word, and a number is not a fraction: "9g2" and "1/2 cup" state no amount;
        // "240 kcal/1004 kJ" states 240 kcal.
        if index < scalars.count {
            let next = scalars[index]
            guard CharacterSet.whitespaces.contains(next) || "(,;".unicodeScalars.contains(next) || (next == "/" && !unit.isEmpty) else { return nil }
        }
        guard let factor = factor(of: unit, for: nutrient) else { return nil }
        return factor == 1 ? number : rounded(number * factor, convertedFrom: unit)
    }

    /// An amount as the export writes it, which `amount(_:of:)` reads back: the shortest
    /// decimal that is the number, then the nutrient's unit ("240 kcal", "9.5 g", "500 mg").
    static func written(_ amount: Double, of nutrient: Nutrition.Nutrient) -> String {
        var text = "\(amount)"
        if text.contains("e") {
            // Swift writes tiny amounts with an exponent ("1e-05"), which pages do not.
            text = String(format: "%.12f", amount)
            while text.hasSuffix("0") { text.removeLast() }
        }
        if text.hasSuffix(".0") { text.removeLast(2) }
        if text.hasSuffix(".") { text.removeLast() }
        return text + " " + nutrient.unit
    }

    /// How many of the nutrient's unit one `unit` is; nil for a unit of another kind. No unit
    /// is the nutrient's own.
    private static func factor(of unit: String, for nutrient: Nutrition.Nutrient) -> Double? {
        if nutrient == .calories {
            switch unit {
            case "", "kcal", "kcals", "cal", "cals", "calorie", "calories", "kilocalorie", "kilocalories": return 1
            case "kj", "kilojoule", "kilojoules": return 1 / 4.184
            default: return nil
            }
        }
        let grams: Double
        switch unit {
        case "": return 1
        case "g", "gr", "gram", "grams", "gramm": grams = 1
        case "mg", "milligram", "milligrams": grams = 0.001
        case "mcg", "µg", "μg", "ug", "microgram", "micrograms": grams = 0.000_001
        case "kg", "kilogram", "kilograms": grams = 1000
        default: return nil
        }
        return nutrient.unit == "mg" ? grams * 1000 : grams
    }

    /// Converted amounts without the noise of binary fractions (1.2 g is 1200 mg, not
    /// 1200.0000000000002); energy from kJ in whole kcal, as labels state it.
    private static func rounded(_ value: Double, convertedFrom unit: String) -> Double {
        if unit.hasPrefix("kj") || unit.hasPrefix("kilojoule") { return value.rounded() }
        return (value * 1000).rounded() / 1000
    }

    private static func isNumberPart(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || scalar == "." || scalar == ","
    }

    /// `1200`, `1,200` and `1,200,000` (thousands), `0.5` and `0,5` (a decimal comma).
    private static func number(_ text: String) -> Double? {
        guard !text.isEmpty, text.contains(where: \.isNumber) else { return nil }
        let groups = text.split(separator: ",", omittingEmptySubsequences: false)
        let plain: String
        if groups.count > 1, !text.contains("."), groups.dropFirst().allSatisfy({ $0.count == 3 }), (1...3).contains(groups[0].count) {
            plain = groups.joined()
        } else if groups.count == 2, !text.contains(".") {
            plain = groups.joined(separator: ".")
        } else {
            plain = text
        }
        guard let value = Double(plain), value.isFinite else { return nil }
        return value
    }
}
