// MARK: - Quantity of an ingredient line

/// How much of an ingredient a line asks for: an amount, or a range of amounts,
/// in a unit — or nothing at all ("salt, to taste").
///
/// Values as stored: `amount` > 0 when present, `amountMax` only with an `amount`
/// and not below it, `unit` a canonical symbol ("g", "cup") or a cook's own word.
public struct IngredientQuantity: Sendable, Hashable {
    /// How much; nil for a line without a quantity.
    public var amount: Double?
    /// The upper end of a range ("2–3 cloves"); nil for a single amount.
    public var amountMax: Double?
    /// The unit; nil for counted things written without one ("2 eggs").
    public var unit: String?

    public init(amount: Double? = nil, amountMax: Double? = nil, unit: String? = nil) {
        self.amount = amount
        self.amountMax = amountMax
        self.unit = unit
    }

    // MARK: Scaling

    /// Both ends of the range × `guests` ÷ `servings`, with `Quantities.scale`'s
    /// arithmetic and errors. A line without an amount comes back unchanged, but
    /// only when the recipe could be scaled at all, so one recipe never half-scales.
    public func scaled(servings: Int?, guests: Int) throws(ScalingError) -> IngredientQuantity {
        // Checks servings and guests even when there is nothing to multiply.
        _ = try Quantities.scale(1, servings: servings, guests: guests)
        var scaled = self
        if let amount { scaled.amount = try Quantities.scale(amount, servings: servings, guests: guests) }
        if let amountMax { scaled.amountMax = try Quantities.scale(amountMax, servings: servings, guests: guests) }
        return scaled
    }

    // MARK: Conversion

    /// The quantity written in `system` (see `CookingUnit.convert`). Both ends of a
    /// range take the unit the upper end would, so "900–1100 g" reads "0.9–1.1 kg".
    public func converted(to system: UnitSystem) -> IngredientQuantity {
        guard let amount, let unit, let from = CookingUnit.named(unit)?.baseAmount else { return self }
        let upper = CookingUnit.convert(amountMax ?? amount, unit: unit, to: system)
        // Unchanged: already in `system`, or a counted unit.
        guard upper.unit != unit, let to = CookingUnit.named(upper.unit)?.baseAmount else { return self }
        return IngredientQuantity(
            amount: amount * from / to,
            amountMax: amountMax.map { $0 * from / to },
            unit: upper.unit)
    }

    // MARK: Text

    /// The quantity as people read it, or nil for a line without an amount:
    /// "375 g", "1.5 kg", "1½ cups", "⅔ cup", "2–3 cloves", "2 eggs" (no unit).
    ///
    /// Metric units (`CookingUnit.system == .metric`: the seven of `Quantities.metricUnits`
    /// under any of their names) get at most two decimals, trailing zeros dropped.
    /// Every other unit, unknown ones and no unit included, gets a whole number and a
    /// fraction in eighths, thirds or two-thirds (⅛ ¼ ⅜ ½ ⅝ ¾ ⅞ ⅓ ⅔) when the amount
    /// is within `Quantities.fractionTolerance` of one, else the same decimals.
    ///
    /// A known unit is written by its canonical name, plural when the (upper) amount
    /// as written is above one: "1 cup", "½ cup", "1½ cups"; abbreviations never
    /// pluralize ("2 tbsp"). An unknown unit is written as given. A range whose ends
    /// read the same is written once.
    public var text: String? {
        guard let amount else { return nil }
        let trimmedUnit = unit?.trimmingWhitespace ?? ""
        let known = CookingUnit.named(trimmedUnit)
        let metric = known?.system == .metric
        func write(_ value: Double) -> String {
            metric ? Quantities.decimalText(value) : QuantityText.fractionText(value)
        }

        let lower = write(amount)
        var number = lower
        var largest = amount
        if let amountMax {
            let upper = write(amountMax)
            if upper != lower {
                number = lower + "–" + upper
                largest = amountMax
            }
        }
        guard !trimmedUnit.isEmpty else { return number }
        // The plural follows the number the reader sees: 1.004 cup is written "1 cup".
        let unitName = known.map { $0.name(for: QuantityText.readValue(largest, text: write(largest))) } ?? trimmedUnit
        return number + " " + unitName
    }
}

// MARK: - Number text

/// Amounts as text in the common fractions of US cooking.
public enum QuantityText {
    /// The fractions non-metric amounts are written with: eighths, thirds and two-thirds.
    public static let fractions: [(value: Double, glyph: String)] = [
        (1.0 / 8, "⅛"), (1.0 / 4, "¼"), (1.0 / 3, "⅓"), (3.0 / 8, "⅜"), (1.0 / 2, "½"),
        (5.0 / 8, "⅝"), (2.0 / 3, "⅔"), (3.0 / 4, "¾"), (7.0 / 8, "⅞"),
    ]

    /// Whole part plus a fraction glyph when one is within `Quantities.fractionTolerance`,
    /// else at most two decimals: "2⅛", "⅔", "3", "0.14".
    public static func fractionText(_ amount: Double) -> String {
        let tolerance = Quantities.fractionTolerance
        guard amount.isFinite, amount > 0 else { return Quantities.decimalText(amount) }
        let whole = amount.wholeRoundedDown
        let fraction = amount - whole
        if fraction < tolerance || fraction > 1 - tolerance {
            return Quantities.decimalText(amount.wholeRoundedToNearest)
        }
        for (value, glyph) in fractions where abs(fraction - value) < tolerance {
            return whole == 0 ? glyph : Quantities.decimalText(whole) + glyph
        }
        return Quantities.decimalText(amount)
    }

    /// The value a reader sees in `text`: exactly 1 when the text is "1", else the amount.
    /// Enough to choose singular or plural, which only changes at one.
    static func readValue(_ amount: Double, text: String) -> Double {
        text == "1" ? 1 : amount
    }
}
