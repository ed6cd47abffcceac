// MARK: - Ingredient

/// One line of a recipe's ingredient list, e.g. 250 g flour.
public struct Ingredient: Sendable, Hashable {
    /// Stable id: survives edits, drafts and versions. Given by the command or
    /// derived from the id of the command that added it.
    public var id: String
    /// What it is ("flour"). Never blank.
    public var name: String
    /// How much, in `metric` units: greater than zero and finite.
    public var amount: Double
    /// The unit ("g", "cup", "piece"). Never blank. Called metric on the wire.
    public var metric: String

    public init(id: String, name: String, amount: Double, metric: String) {
        self.id = id
        self.name = name
        self.amount = amount
        self.metric = metric
    }
}
