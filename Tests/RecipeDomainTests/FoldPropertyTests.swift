import RecipeDomain
import RecipeGenerators
import Testing

/// Invariants over thousands of seeded random command sequences. A failure
/// names the seed, sequence and step, so it can be replayed exactly.
@Suite("Fold properties over random command sequences")
struct FoldPropertyTests {
    static let batches: [UInt64] = Array(0..<8)
    static let sequencesPerBatch = 250

    @Test("Plausible sequences keep every invariant", arguments: batches)
    func plausibleSequences(batch: UInt64) {
        var generator = RandomCommandGenerator(
            seed: 0x5EED_0000 + batch, invalidRate: 0.05, duplicateRate: 0.03, expectedRevisionRate: 0.1)
        var accepted = 0, rejected = 0, duplicates = 0
        for sequence in 0..<Self.sequencesPerBatch {
            let start = Recipe(id: generator.recipeID())
            var log: [CommandEnvelope] = []
            var state = start
            var afterDeletion = 0
            // Up to 120 commands; a deleted recipe gets three more (all rejected or
            // duplicates) and then the sequence ends, as nothing can change it.
            for _ in 0..<generator.random.int(in: 1...120) where afterDeletion < 3 {
                log.append(generator.nextEnvelope(for: state))
                state = fold(state, log.last!)
                if state.isDeleted { afterDeletion += 1 }
            }
            let counts = checkSequence(log, from: start, label: "batch \(batch) sequence \(sequence)")
            accepted += counts.accepted
            rejected += counts.rejected
            duplicates += counts.duplicates
        }
        // The generator must exercise all three outcomes, or the properties prove little.
        #expect(accepted > rejected && rejected > 0 && duplicates > 0)
    }

    @Test("Arbitrary commands keep every invariant", arguments: batches)
    func arbitrarySequences(batch: UInt64) {
        var generator = RandomCommandGenerator(seed: 0xA4B1_0000 + batch)
        for sequence in 0..<Self.sequencesPerBatch {
            let start = Recipe(id: generator.recipeID())
            var log: [CommandEnvelope] = []
            var state = start
            for _ in 0..<generator.random.int(in: 1...40) {
                // Mostly plausible so drafts fill up, with arbitrary values mixed in.
                let command = generator.random.chance(0.4) ? generator.arbitraryCommand() : generator.plausibleCommand(for: state)
                log.append(generator.envelope(for: state, command: command))
                state = fold(state, log.last!)
            }
            checkSequence(log, from: start, label: "arbitrary batch \(batch) sequence \(sequence)")
        }
    }

    // MARK: - Checking one sequence

    private func fold(_ state: Recipe, _ envelope: CommandEnvelope) -> Recipe {
        if case .accepted(let next, _) = RecipeDecider.fold(state, envelope) { return next }
        return state
    }

    /// Folds `log` step by step, checking every invariant and every transition and
    /// that folding the accepted commands' events alone (with no rule) gives the
    /// same recipe at every step, then folds it again (in place) and expects the
    /// very same result.
    @discardableResult
    private func checkSequence(
        _ log: [CommandEnvelope], from start: Recipe, label: String
    ) -> (accepted: Int, rejected: Int, duplicates: Int) {
        var state = start
        // The fold of facts: the accepted commands' events alone, no rule consulted.
        var facts = Recipe(id: start.id)
        var outcomes: [RecipeOutcome] = []
        var accepted = 0, rejected = 0, duplicates = 0
        for (step, envelope) in log.enumerated() {
            let outcome = RecipeDecider.fold(state, envelope)
            outcomes.append(outcome)
            var problems: [String] = []
            switch outcome {
            case .accepted(let next, let events):
                accepted += 1
                problems += transitionProblems(from: state, to: next, events: events)
                state = next
                facts.record(events, ofCommand: envelope.commandID)
                // What the rules read next; the whole recipe is compared after the last step.
                if facts.draft != state.draft || facts.owner != state.owner || facts.grants != state.grants
                    || facts.revision != state.revision || facts.isDeleted != state.isDeleted {
                    problems.append("folding the events alone gives another recipe: \(facts) not \(state)")
                }
            case .rejected:
                rejected += 1
            case .duplicate:
                duplicates += 1
                if !state.hasApplied(envelope.commandID) { problems.append("duplicate of an id never applied") }
            }
            problems += invariantProblems(state)
            if state.revision != accepted { problems.append("revision \(state.revision) but \(accepted) accepted") }
            guard problems.isEmpty else {
                Issue.record("\(label) step \(step) \(envelope.command.name): \(problems)")
                return (accepted, rejected, duplicates)
            }
        }

        #expect(facts == state, "\(label): folding the accepted commands' events alone gives another recipe than deciding")

        // Same input, same output: a second fold, through the in-place path.
        var replay = start
        var replayDecisions: [RecipeDecision] = []
        for envelope in log { replayDecisions.append(replay.apply(envelope)) }
        #expect(replay == state, "\(label): replay differs")
        #expect(replayDecisions.map(Self.summary) == outcomes.map(Self.summary), "\(label): replay outcomes differ")
        return (accepted, rejected, duplicates)
    }

    private static func summary(_ outcome: RecipeOutcome) -> String {
        switch outcome {
        case .accepted(_, let events): "accepted \(events)"
        case .rejected(let rejection): "rejected \(rejection.code)"
        case .duplicate: "duplicate"
        }
    }

    private static func summary(_ decision: RecipeDecision) -> String {
        switch decision {
        case .accepted(let events): "accepted \(events)"
        case .rejected(let rejection): "rejected \(rejection.code)"
        case .duplicate: "duplicate"
        }
    }

    // MARK: - Properties

    private func transitionProblems(from before: Recipe, to after: Recipe, events: [RecipeEvent]) -> [String] {
        var problems: [String] = []
        if events.isEmpty { problems.append("accepted without events") }
        if before.isDeleted { problems.append("a deleted recipe accepted a command") }
        if after.revision != before.revision + 1 { problems.append("revision did not advance by one") }
        if Array(after.versions.prefix(before.versions.count)) != before.versions {
            problems.append("a committed version changed")
        }
        if !(before.versions.count...before.versions.count + 1).contains(after.versions.count) {
            problems.append("versions went from \(before.versions.count) to \(after.versions.count)")
        }
        return problems
    }

    private func invariantProblems(_ recipe: Recipe) -> [String] {
        var problems: [String] = []
        if recipe.versions.enumerated().contains(where: { $0.element.number != $0.offset + 1 }) {
            problems.append("versions not numbered 1…n")
        }
        if Set(recipe.appliedCommandIDs).count != recipe.appliedCommandIDs.count { problems.append("applied ids repeat") }
        if recipe.appliedCommandIDs.count != recipe.revision { problems.append("applied ids and revision disagree") }
        if recipe.isDeleted, recipe.draft != nil { problems.append("a deleted recipe has a draft") }
        if let draft = recipe.draft {
            if draft.baseVersion > recipe.versions.count { problems.append("draft based on a future version") }
            problems += contentProblems(draft.content).map { "draft: " + $0 }
        }
        for version in recipe.versions {
            problems += contentProblems(version.content).map { "version \(version.number): " + $0 }
            if version.content.ingredients.isEmpty || version.content.title.allSatisfy(\.isWhitespace) {
                problems.append("version \(version.number) is not savable")
            }
        }
        return problems
    }

    private func contentProblems(_ content: RecipeContent) -> [String] {
        var problems: [String] = []
        if content.instructions.enumerated().contains(where: { $0.element.order != $0.offset + 1 }) {
            problems.append("instruction orders \(content.instructions.map(\.order))")
        }
        if Set(content.ingredients.map(\.id)).count != content.ingredients.count { problems.append("ingredient ids repeat") }
        if Set(content.instructions.map(\.id)).count != content.instructions.count { problems.append("instruction ids repeat") }
        if Set(content.tags.map { $0.name.lowercased() }).count != content.tags.count { problems.append("tag names repeat") }
        if content.ingredients.count > RecipeLimits.maxIngredients { problems.append("too many ingredients") }
        if content.instructions.count > RecipeLimits.maxInstructions { problems.append("too many instructions") }
        if content.tags.count > RecipeLimits.maxTags { problems.append("too many tags") }
        if content.ingredients.contains(where: { ingredient in
            [ingredient.amount, ingredient.amountMax].contains { $0.map { !($0 > 0 && $0.isFinite) } ?? false }
        }) { problems.append("bad amount") }
        if content.ingredients.contains(where: { $0.amountMax != nil && ($0.amount == nil || $0.amountMax! < $0.amount!) }) {
            problems.append("bad range")
        }
        if let servings = content.servings, !RecipeLimits.servings.contains(servings) { problems.append("bad servings") }
        if content.title.unicodeScalars.count > RecipeLimits.maxTitleLength { problems.append("title too long") }
        return problems
    }
}
