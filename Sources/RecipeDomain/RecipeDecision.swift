// MARK: - Decision and outcome

/// What `decide` says about a command.
public enum RecipeDecision: Sendable, Hashable {
    /// The command applies and changes the recipe by these events, in order.
    case accepted([RecipeEvent])
    /// The command breaks a rule; nothing changes.
    case rejected(Rejection)
    /// A command with this id was already applied to the recipe; nothing changes.
    case duplicate
}

/// What folding a command into a recipe gives.
public enum RecipeOutcome: Sendable, Hashable {
    /// The recipe after the command, and what changed.
    case accepted(Recipe, [RecipeEvent])
    /// The command breaks a rule; the recipe stays as it was.
    case rejected(Rejection)
    /// A command with this id was already applied; the recipe stays as it was.
    case duplicate
}
