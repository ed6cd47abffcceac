import RecipeDomain

// MARK: - The commands of an import

/// The records an import appends for a new recipe, decided beforehand by the fold's own
/// rules, so that nothing is appended to fail later.
public struct ImportCommands: Sendable {
    /// `DraftContentSet` of the new recipe: the whole content in one record.
    public var content: CommandEnvelope
    /// `RecipeSaved`, when a save was asked and the fold will accept it.
    public var save: CommandEnvelope?
    /// Why an asked save is not appended: the rejection the fold would give it (`notSavable`:
    /// a recipe without ingredients is a draft until someone adds them).
    public var saveRefused: Rejection?
}

extension ImportedRecipe {
    /// The commands that import this recipe as the new recipe `recipeID`, each decided as the
    /// fold will decide it (`RecipeDecider.fold` from a new recipe, with the same actor and
    /// role): content the rules refuse is `refusedByRules` (the reader fits every field to its
    /// rule, so this names a bug, not a page); a save they refuse is left out, and
    /// `saveRefused` says why.
    public func commands(recipeID: RecipeID, actor: String, actorRole: ActorRole?, time: Timestamp, save: Bool,
                         newCommandID: () -> String) throws(SchemaOrgImportError) -> ImportCommands {
        let content = CommandEnvelope(commandID: newCommandID(), recipeID: recipeID, actor: actor, time: time, actorRole: actorRole,
                                      command: .draftContentSet(document.draftContent))
        let drafted: Recipe
        switch RecipeDecider.fold(Recipe(id: recipeID), content) {
        case .accepted(let recipe, _): drafted = recipe
        case .rejected(let rejection): throw .refusedByRules(reason: rejection.message)
        case .duplicate: throw .refusedByRules(reason: "the command id \(content.commandID) was given twice")
        }
        var commands = ImportCommands(content: content)
        guard save else { return commands }
        let saving = CommandEnvelope(commandID: newCommandID(), recipeID: recipeID, actor: actor, time: time, actorRole: actorRole,
                                     command: .recipeSaved)
        switch RecipeDecider.fold(drafted, saving) {
        case .accepted: commands.save = saving
        case .rejected(let rejection): commands.saveRefused = rejection
        case .duplicate: commands.saveRefused = Rejection(.invalid, "The save's command id is the content's.")
        }
        return commands
    }
}
