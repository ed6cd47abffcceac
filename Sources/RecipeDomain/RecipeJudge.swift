// MARK: - Recipe judge

/// The one door to the rules for the sources: every program that asks what the
/// rules say of a command asks here. The decider stage's `CommandJudge`
/// (RecipeDecisions) wraps it for records of the edits topic; the gateway's
/// receipt under `--private` and the schema.org importer ask it of a recipe no
/// command touched. Everyone else folds the recorded decisions' events, with no
/// rule (`Recipe.record(_:ofCommand:)`). `OneDoorToTheRulesTests` keeps it so.
///
/// ```swift
/// var recipe = Recipe(id: envelope.recipeID)
/// let decision = RecipeJudge.decide(envelope, recipe: &recipe)   // moves `recipe` on when accepted
/// ```
public enum RecipeJudge {
    /// Decides `envelope` against `recipe` and, when it is accepted, moves `recipe` on
    /// in place: the same rules and result as `RecipeDecider.fold`, without copying the
    /// state. Changes the recipe only when the command is accepted.
    @discardableResult
    public static func decide(_ envelope: borrowing CommandEnvelope, recipe: inout Recipe) -> RecipeDecision {
        // Same order of checks as `RecipeDecider.decide`, hashing the id once.
        let commandHash = CommandIDIndex.hash(envelope.commandID)
        if recipe.appliedIndex.contains(envelope.commandID, hash: commandHash) { return .duplicate }
        let decision = RecipeDecider.decideFresh(envelope, recipe)
        if case .accepted(let events) = decision {
            recipe.record(events, commandID: envelope.commandID, commandHash: commandHash)
        }
        return decision
    }

    /// What the rules say of `envelope` against `recipe`, changing nothing.
    public static func decide(_ envelope: CommandEnvelope, against recipe: Recipe) -> RecipeDecision {
        RecipeDecider.decide(envelope, recipe)
    }
}
