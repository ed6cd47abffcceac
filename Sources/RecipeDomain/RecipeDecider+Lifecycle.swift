// MARK: - Lifecycle rules: drafts, saving, deleting

extension RecipeDecider {
    /// Opens a draft. With one already open it is rejected (`invalid`) rather than
    /// ignored or restarted: restarting would silently throw away the open edits,
    /// and accepting it as a no-op would hide that the client's view is stale.
    /// `conflict` is kept for `expectedRevision` alone.
    static func draftStarted(_ state: Recipe) -> Result<[RecipeEvent], Rejection> {
        if state.hasOpenDraft {
            return .failure(Rejection(.invalid, "A draft is already open; save or discard it first."))
        }
        return .success([.draftOpened(baseVersion: state.versions.count, implicit: false)])
    }

    /// Commits the draft as the next version. It needs a title that is not blank
    /// and at least one ingredient; otherwise the draft stays open as it was.
    static func recipeSaved(_ envelope: CommandEnvelope, _ state: Recipe) -> Result<[RecipeEvent], Rejection> {
        guard state.hasOpenDraft else {
            return .failure(Rejection(.noDraft, "There is no open draft to save."))
        }
        if state.workingContent.title.isBlank {
            return .failure(Rejection(.notSavable, "A recipe needs a title to be saved."))
        }
        if state.workingContent.ingredients.isEmpty {
            return .failure(Rejection(.notSavable, "A recipe needs at least one ingredient to be saved."))
        }
        return .success([
            .versionCommitted(number: state.versions.count + 1, savedAt: envelope.time, savedBy: envelope.actor)])
    }

    /// Closes the draft; committed versions are untouched.
    static func draftDiscarded(_ state: Recipe) -> Result<[RecipeEvent], Rejection> {
        guard state.hasOpenDraft else {
            return .failure(Rejection(.noDraft, "There is no open draft to discard."))
        }
        return .success([.draftDiscarded])
    }

    /// Deletes the recipe; an open draft is discarded first, so the history says so.
    ///
    /// A recipe that no command ever touched is rejected (`invalid`): there is
    /// nothing on the list to remove, and accepting would tombstone an id that
    /// never existed, so a later "new recipe" under it would be refused as deleted.
    static func recipeDeleted(_ state: Recipe) -> Result<[RecipeEvent], Rejection> {
        if state.revision == 0 {
            return .failure(Rejection(.invalid, "There is no recipe to delete."))
        }
        return .success(state.hasOpenDraft ? [.draftDiscarded, .recipeDeleted] : [.recipeDeleted])
    }
}
