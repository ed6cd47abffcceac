// MARK: - Rules version

extension RecipeDecider {
    /// The version of the rules `decide` applies, written into every decision
    /// (`DecisionRecord.rulesVersion` in RecipeWire) so a reader can tell which
    /// rules decided a command.
    ///
    /// Raise it by one with any change that makes some command decide otherwise:
    /// another outcome, rejection code or message, other events or other values
    /// in them (a derived id, a clamped position), a check moved before another.
    /// A change that decides every command as before (a faster rule, a new
    /// command kind that no earlier log holds) keeps it. You need not judge
    /// alone: the rules golden (Tests/RecipeWireTests/Golden/rules, decided
    /// again by `RulesGoldenTests`) fails on a changed decision until this is
    /// raised and the golden regenerated (`scripts/regenerate-rules-golden`);
    /// docs/extending.md, "Changing a rule".
    public static let rulesVersion = 2
}
