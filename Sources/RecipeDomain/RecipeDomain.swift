// MARK: - RecipeDomain
//
// The recipe aggregate, its commands, every rule and the fold, as pure Swift:
// no Foundation, no I/O, no clock, no randomness, no JSON. Identical input gives
// identical output everywhere. (Seeded commands for tests and benchmarks:
// RecipeGenerators.)
//
// Where to start
// - `RecipeID`: the one form of a recipe's name (ASCII, compared by bytes).
// - `RecipeCommand` + `CommandEnvelope`: what comes from the log.
// - `RecipeDecider.decide / evolve / fold`: the rules and the fold; `RecipeJudge`,
//   the one door through which the sources ask them (in place, for hot loops).
// - `Recipe`, `RecipeContent`, `RecipeVersion`, `RecipeDraft`: the state.
// - `RecipeEvent`: what an accepted command changed, from `decide` to `evolve`:
//   facts that fold with no rule (`Recipe.record(_:ofCommand:)`), the content of
//   RecipeWire's decision records. Projectors fold them with no rule and
//   build read models from the resulting `Recipe`.
// - `RecipeDecider.rulesVersion`: raised with every change of a decision.
// - `Rejection` / `RejectionCode`: why not. `RecipeLimits`: every bound.
// - `Tag.parseSingle(from:)`, `Quantities`: tag grammar, scaling and display.
//
// Decisions (see the doc comments at each for the why)
// - Order of checks: duplicate id, recipe id (keyMismatch), deleted, expected
//   revision (conflict), command id, then the command's own rules.
// - Only accepted commands are remembered as applied; a rejected id may be retried.
// - Edits with no open draft open one implicitly: the events start with
//   `draftOpened(implicit: true)`. A rejected edit opens nothing.
// - The first accepted command of a recipe makes its actor the owner: its
//   events start with `ownerAssigned`.
// - `DraftStarted` with a draft open: `invalid`. `RecipeDeleted` on a recipe no
//   command touched: `invalid`. Deleting with a draft open discards it first.
// - Ids of created ingredients and instructions: the command id, or with "#2",
//   "#3"… appended if an explicit id already took it.
// - Tags: see Tag+Parsing.swift for the grammar; names unique ignoring case.
// - Text lengths count Unicode scalars, like JSON Schema's maxLength.
// - `limitExceeded` is for counts (ingredients, instructions, tags); a field over
//   its length is `invalid` (`invalidTag` for tag texts).
