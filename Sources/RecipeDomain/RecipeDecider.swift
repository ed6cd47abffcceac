// MARK: - Recipe decider
//
// The fold in Decider shape. `decide` holds every rule and changes nothing;
// `evolve` applies events and holds no rule. Both are pure: identical input gives
// identical output on every machine (no clock, no randomness, no iteration over
// hashed collections).

/// The rules of a recipe and the fold that applies commands to it.
public enum RecipeDecider {
    /// Judges `envelope` against `state`: which events it causes, or why not.
    ///
    /// Checks run in this order: duplicate id, recipe id, access (`forbidden`),
    /// deleted, expected revision, command id, then the command's own rules.
    public static func decide(_ envelope: CommandEnvelope, _ state: Recipe) -> RecipeDecision {
        // Duplicates come first: a retried command must never be judged twice,
        // not even after the recipe was deleted by a later command.
        if state.hasApplied(envelope.commandID) { return .duplicate }
        return decideFresh(envelope, state)
    }

    /// Every rule after the duplicate check.
    static func decideFresh(_ envelope: CommandEnvelope, _ state: Recipe) -> RecipeDecision {
        if let rejection = metadataRejection(envelope, state) { return .rejected(rejection) }

        switch decideCommand(envelope, state) {
        case .success(let events) where state.owner == nil:
            // Whoever creates a recipe owns it: said by an event, so folding the
            // events alone gives the owner too.
            return .accepted([.ownerAssigned(owner: envelope.actor)] + events)
        case .success(let events):
            return .accepted(events)
        case .failure(let rejection):
            return .rejected(rejection)
        }
    }

    /// Applies one event. Total and rule-free: an event that does not fit the
    /// state (which `decide` never emits) leaves the state unchanged.
    ///
    /// The revision and the applied command ids are not events: they count and
    /// name the accepted commands, and `Recipe.record(_:ofCommand:)` advances them
    /// once per accepted command.
    public static func evolve(_ state: consuming Recipe, _ event: RecipeEvent) -> Recipe {
        var next = state
        next.evolve(event)
        return next
    }

    /// Decides and, if accepted, evolves: the whole effect of one command.
    ///
    /// For hot loops prefer `RecipeJudge.decide(_:recipe:)`, which changes the state
    /// in place instead of copying it.
    public static func fold(_ state: Recipe, _ envelope: CommandEnvelope) -> RecipeOutcome {
        switch decide(envelope, state) {
        case .accepted(let events):
            var next = state
            next.record(events, commandID: envelope.commandID, commandHash: CommandIDIndex.hash(envelope.commandID))
            return .accepted(next, events)
        case .rejected(let rejection):
            return .rejected(rejection)
        case .duplicate:
            return .duplicate
        }
    }

    // MARK: - Metadata

    private static func metadataRejection(_ envelope: CommandEnvelope, _ state: Recipe) -> Rejection? {
        if envelope.recipeID != state.id {
            return Rejection(.keyMismatch, "Command for recipe \(envelope.recipeID) was routed to recipe \(state.id).")
        }
        // Before `deleted` and `conflict`: someone with no access learns nothing of the recipe.
        if let rejection = accessRejection(envelope, state) { return rejection }
        if state.isDeleted {
            return Rejection(.deleted, "The recipe was deleted.")
        }
        if let expected = envelope.expectedRevision, expected != state.revision {
            return Rejection(.conflict, "Expected revision \(expected) but the recipe is at revision \(state.revision).")
        }
        return FieldRules.identifier(envelope.commandID, "Command id")
    }

    // MARK: - Dispatch

    private static func decideCommand(_ envelope: CommandEnvelope, _ state: Recipe) -> Result<[RecipeEvent], Rejection> {
        switch envelope.command {
        case .draftStarted: return draftStarted(state)
        case .recipeSaved: return recipeSaved(envelope, state)
        case .draftDiscarded: return draftDiscarded(state)
        case .recipeDeleted: return recipeDeleted(state)
        case .accessGranted(let grantee, let role): return accessGranted(grantee: grantee, role: role, state)
        case .accessRevoked(let grantee): return accessRevoked(grantee: grantee, state)
        case .ownershipTransferred(let newOwner): return ownershipTransferred(newOwner: newOwner, state)
        default:
            // Every other command is an edit (`decideEdit` lists each).
            break
        }
        // The edits change the content; with no open draft they edit the copy an
        // implicitly opened draft would start from.
        let edit = decideEdit(envelope, state.workingContent)
        switch edit {
        case .failure(let rejection):
            return .failure(rejection)
        case .success(let event) where state.hasOpenDraft:
            return .success([event])
        case .success(let event):
            return .success([.draftOpened(baseVersion: state.versions.count, implicit: true), event])
        }
    }

    private static func decideEdit(_ envelope: CommandEnvelope, _ content: RecipeContent) -> Result<RecipeEvent, Rejection> {
        switch envelope.command {
        case .titleChanged(let title):
            return titleChanged(title)
        case .servingsChanged(let servings):
            return servingsChanged(servings)
        case .imageChanged(let url):
            return imageChanged(url)
        case .ingredientAdded(let line, let id):
            return ingredientAdded(line, id: id, envelope, content)
        case .ingredientUpdated(let id, let changes):
            return ingredientUpdated(id: id, changes: changes, content)
        case .ingredientRemoved(let id):
            return ingredientRemoved(id: id, content)
        case .instructionAdded(let description, let position, let id, let section):
            return instructionAdded(description: description, position: position, id: id, section: section, envelope, content)
        case .instructionUpdated(let id, let description, let section):
            return instructionUpdated(id: id, description: description, section: section, content)
        case .instructionRemoved(let id):
            return instructionRemoved(id: id, content)
        case .instructionMoved(let id, let position):
            return instructionMoved(id: id, position: position, content)
        case .tagAdded(let text):
            return tagAdded(text: text, content)
        case .tagChanged(let name, let text):
            return tagChanged(name: name, text: text, content)
        case .tagRemoved(let name):
            return tagRemoved(name: name, content)
        case .descriptionChanged(let description):
            return descriptionChanged(description)
        case .yieldChanged(let yield):
            return yieldChanged(yield)
        case .timesChanged(let prepTime, let cookTime, let totalTime):
            return timesChanged(prepTime: prepTime, cookTime: cookTime, totalTime: totalTime, content)
        case .sourceChanged(let url):
            return sourceChanged(url)
        case .nutritionChanged(let changes):
            return nutritionChanged(changes, content)
        case .draftContentSet(let draft):
            return draftContentSet(draft, envelope)
        case .draftStarted, .recipeSaved, .draftDiscarded, .recipeDeleted, .accessGranted, .accessRevoked,
             .ownershipTransferred:
            // Routed to the lifecycle rules before editing; never reached.
            return .failure(Rejection(.invalid, "\(envelope.command.name) is not an edit."))
        }
    }
}

// MARK: - Applying in place

extension Recipe {
    /// Folds one command into this recipe in place: `RecipeJudge.decide(_:recipe:)`,
    /// written on the recipe, for tests. The sources ask `RecipeJudge`.
    @discardableResult
    public mutating func apply(_ envelope: CommandEnvelope) -> RecipeDecision {
        RecipeJudge.decide(envelope, recipe: &self)
    }

    /// Folds in a command that was decided and accepted before, from its events
    /// alone: what a reader of decisions does, with no rule consulted. The events
    /// in order, then one more revision and the command id remembered, exactly
    /// as `RecipeJudge.decide` does after deciding; so folding the accepted commands' events
    /// from a new `Recipe(id:)` gives the recipe that deciding gave.
    public mutating func record(_ events: [RecipeEvent], ofCommand commandID: String) {
        record(events, commandID: commandID, commandHash: CommandIDIndex.hash(commandID))
    }

    /// Folds in an accepted command's events without remembering its id: what a read
    /// model does, which shows what was decided and never decides. The same events and
    /// revision as `record(_:ofCommand:)`, but `hasApplied` learns nothing of the
    /// command, so a recipe folded this way is not one to decide against.
    public mutating func record(_ events: [RecipeEvent]) {
        for event in events { evolve(event) }
        revision += 1
    }

    mutating func record(_ events: [RecipeEvent], commandID: String, commandHash: UInt64) {
        record(events)
        appliedIndex.insert(commandID, hash: commandHash)
    }
}
