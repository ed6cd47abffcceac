// MARK: - Converting amounts between systems
//
// Conversion is for display only: a stored amount keeps the unit its cook wrote.
// A reader asking for metric or US amounts gets them computed from the stored ones.

extension CookingUnit {
    /// `amount` of `unit` written in `system`: mass and volume convert through grams
    /// and millilitres, then take the unit that reads best at that size:
    ///
    /// - metric mass: g, or kg from 1000 g; metric volume: ml, or l from 1000 ml;
    /// - US mass: oz, or lb from one pound; US volume: tsp below a tablespoon,
    ///   tbsp below a quarter cup, cup from there on.
    ///
    /// An amount already in `system`, a counted unit (clove, can, pinch) and a unit
    /// the table does not know come back unchanged, unit text as given.
    public static func convert(_ amount: Double, unit: String, to system: UnitSystem) -> (amount: Double, unit: String) {
        guard let known = named(unit), let base = known.baseAmount,
              let from = known.system, from != system
        else { return (amount, unit) }
        let target = displayUnit(for: amount * base, dimension: known.dimension, in: system)
        return (amount * base / target.base, target.symbol)
    }

    /// The unit `system` writes an amount of `baseAmount` grams or millilitres in.
    static func displayUnit(for baseAmount: Double, dimension: Dimension, in system: UnitSystem)
        -> (symbol: String, base: Double)
    {
        let ladder: [(symbol: String, from: Double)]
        switch (system, dimension) {
        case (.metric, .mass): ladder = [("g", 0), ("kg", 1000)]
        case (.metric, .volume): ladder = [("ml", 0), ("l", 1000)]
        case (.us, .mass): ladder = [("oz", 0), ("lb", gramsPerOunce * 16)]
        case (.us, .volume):
            ladder = [("tsp", 0), ("tbsp", millilitresPerTeaspoon * 3), ("cup", millilitresPerTeaspoon * 12)]
        case (_, .count): preconditionFailure("counted units have no base amount")
        }
        // The largest unit the amount reaches; the smallest for tiny amounts.
        let symbol = ladder.last { baseAmount >= $0.from }?.symbol ?? ladder[0].symbol
        return (symbol, named(symbol)!.baseAmount!)
    }
}
