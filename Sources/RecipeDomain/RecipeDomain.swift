// MARK: - RecipeDomain
//
// The recipe aggregate, its commands, every rule and the fold, as pure Swift:
// no Foundation, no I/O, no clock, no randomness, no JSON. Identical input gives
// identical output everywhere. The rules' choices (order of checks, implicit
// drafts, owners, ids): docs/architecture.md, "The rules' choices".
//
// Where to start
// - `RecipeID`; `RecipeCommand` + `CommandEnvelope`: what comes from the log.
// - `RecipeJudge`: the one door to the rules (`RecipeDecider.decide / evolve / fold`).
// - `Recipe`, `RecipeContent`, `RecipeVersion`, `RecipeDraft`: the state.
// - `RecipeEvent`: facts an accepted command caused; they fold with no rule
//   (`Recipe.record(_:ofCommand:)`), as projectors fold RecipeWire's decision records.
// - `RecipeDecider.rulesVersion`: raised with every change of a decision.
// - `Rejection` / `RejectionCode`, `RecipeLimits`, `Tag.parseSingle(from:)`, `Quantities`.
