// MARK: - Quantities

/// Why amounts cannot be scaled.
public enum ScalingError: Error, Sendable, Hashable {
    /// The recipe says not how many people its amounts are for.
    case recipeHasNoServings
    /// Guests outside `RecipeLimits.guests`.
    case guestsOutOfRange(Int)
}

/// Scaling amounts for a number of guests and writing them for people.
public enum Quantities {
    /// Units written as decimals, never as fractions; compared ignoring case
    /// and surrounding whitespace. Every other unit (cup, tbsp, piece…) gets
    /// common fractions.
    public static let metricUnits: Set<String> = ["g", "kg", "mg", "ml", "l", "cl", "dl"]

    /// How close an amount must be to a common fraction to be written as one.
    public static let fractionTolerance = 0.01

    /// The fractions non-metric amounts are written with, by value.
    static let commonFractions: [(value: Double, glyph: String)] = [
        (1.0 / 8, "⅛"), (1.0 / 4, "¼"), (1.0 / 3, "⅓"), (1.0 / 2, "½"), (2.0 / 3, "⅔"), (3.0 / 4, "¾"),
    ]

    /// Whether `unit` is one of `metricUnits`.
    public static func isMetric(_ unit: String) -> Bool {
        metricUnits.contains(unit.trimmingWhitespace.lowercased())
    }

    /// `amount × guests ÷ servings`.
    public static func scale(_ amount: Double, servings: Int?, guests: Int) throws(ScalingError) -> Double {
        guard let servings, servings > 0 else { throw .recipeHasNoServings }
        guard RecipeLimits.guests.contains(guests) else { throw .guestsOutOfRange(guests) }
        return amount * Double(guests) / Double(servings)
    }

    /// The amount and unit as people read them: "375 g", "1½ cup", "⅓ cup", "1.23 kg".
    ///
    /// Metric units get at most two decimals without trailing zeros; other units
    /// get a whole number and one of ½ ⅓ ⅔ ¼ ¾ ⅛ when the amount is within
    /// `fractionTolerance` of one, else the same decimals. A blank unit is left out.
    public static func readable(_ amount: Double, unit: String) -> String {
        let number = isMetric(unit) ? decimalText(amount) : fractionText(amount)
        let trimmedUnit = unit.trimmingWhitespace
        return trimmedUnit.isEmpty ? number : number + " " + trimmedUnit
    }

    // MARK: - Number text

    /// Whole part plus a fraction glyph when one is close enough, else decimals.
    static func fractionText(_ amount: Double) -> String {
        guard amount.isFinite, amount > 0 else { return decimalText(amount) }
        let whole = amount.wholeRoundedDown
        let fraction = amount - whole
        if fraction < fractionTolerance || fraction > 1 - fractionTolerance {
            return decimalText(amount.wholeRoundedToNearest)
        }
        for (value, glyph) in commonFractions where abs(fraction - value) < fractionTolerance {
            return whole == 0 ? glyph : decimalText(whole) + glyph
        }
        return decimalText(amount)
    }

    /// At most two decimals, trailing zeros dropped; "0" for anything that rounds to zero.
    static func decimalText(_ amount: Double) -> String {
        let hundredths = (amount * 100).wholeRoundedToNearest
        // Past 2^53 a Double has no hundredths to show; let Swift print it.
        guard hundredths.isFinite, abs(hundredths) < 9.0e15 else { return "\(amount)" }
        let value = Int64(hundredths)
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        let whole = magnitude / 100
        let cents = magnitude % 100
        if cents == 0 { return "\(sign)\(whole)" }
        if cents % 10 == 0 { return "\(sign)\(whole).\(cents / 10)" }
        return "\(sign)\(whole).\(cents < 10 ? "0" : "")\(cents)"
    }
}

// MARK: - Rounding without libm
//
// `Double.rounded` calls C's `round`/`floor` on Linux, and a module that imports
// nothing but the standard library does not get libm linked. Converting to Int64
// truncates in hardware, and the remainder of a value below 2^52 is exact.

extension Double {
    /// The nearest whole number, halves away from zero.
    var wholeRoundedToNearest: Double {
        guard abs(self) < 0x1p52 else { return self } // already whole, or NaN / infinite
        let whole = Double(Int64(self))
        let rest = self - whole
        if rest >= 0.5 { return whole + 1 }
        if rest <= -0.5 { return whole - 1 }
        return whole
    }

    /// The largest whole number not above this one.
    var wholeRoundedDown: Double {
        guard abs(self) < 0x1p52 else { return self }
        let whole = Double(Int64(self))
        return whole > self ? whole - 1 : whole
    }
}

// MARK: - Scaling a recipe

extension RecipeContent {
    /// The ingredients with amounts for `guests` people: both ends of a range
    /// scaled, lines without an amount unchanged.
    public func scaledIngredients(forGuests guests: Int) throws(ScalingError) -> [Ingredient] {
        guard let servings, servings > 0 else { throw .recipeHasNoServings }
        guard RecipeLimits.guests.contains(guests) else { throw .guestsOutOfRange(guests) }
        return ingredients.map { ingredient in
            var scaled = ingredient
            // Same arithmetic as `Quantities.scale`, so both give identical amounts.
            scaled.amount = ingredient.amount.map { $0 * Double(guests) / Double(servings) }
            scaled.amountMax = ingredient.amountMax.map { $0 * Double(guests) / Double(servings) }
            return scaled
        }
    }

    /// The ingredients with their quantities written in `system`, for display only.
    public func ingredients(convertedTo system: UnitSystem) -> [Ingredient] {
        ingredients.map { $0.converted(to: system) }
    }
}

extension Ingredient {
    /// The quantity as people read it (`IngredientQuantity.text`): "1½ cups", "375 g",
    /// "2–3 cloves", "2" (no unit); the empty text for a line without an amount
    /// ("salt, to taste"), which has nothing to measure.
    public var readableQuantity: String { quantity.text ?? "" }

    /// The ingredient with its quantity in `system` (`IngredientQuantity.converted`).
    public func converted(to system: UnitSystem) -> Ingredient {
        let converted = quantity.converted(to: system)
        var ingredient = self
        ingredient.amount = converted.amount
        ingredient.amountMax = converted.amountMax
        ingredient.unit = converted.unit
        return ingredient
    }
}
