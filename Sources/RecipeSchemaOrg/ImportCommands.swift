import RecipeDomain

// MARK: - The commands of an import

/// The records an import appends for a new recipe (`all`, in order), decided beforehand by the decider's own
/// judge (`RecipeJudge`), so that nothing is appended to fail later.
public struct ImportCommands: Sendable {
    /// `DraftContentSet` of the new recipe: the whole content in one record.
    public var content: CommandEnvelope
    /// `NutritionChanged`, after the content, when the page states nutrition (a whole content
    /// does not carry it).
    public var nutrition: CommandEnvelope?
    /// `RecipeSaved`, when a save was asked and the fold will accept it.
    public var save: CommandEnvelope?
    /// The records in the order they are appended: the content, the nutrition, the save.
    public var all: [CommandEnvelope] { [content] + [nutrition, save].compactMap { $0 } }
    /// Why an asked save is not appended: the rejection the fold would give it (`notSavable`:
    /// a recipe without ingredients is a draft until someone adds them).
    public var saveRefused: Rejection?
}

extension ImportedRecipe {
    /// The commands that import this recipe as the new recipe `recipeID`, each decided as the
    /// decider will decide it (`RecipeJudge`, the judge `CommandJudge` asks, from a new recipe,
    /// with the same actor and role): content the rules refuse is `refusedByRules` (the reader
    /// fits every field to its rule, so this names a bug, not a page); a save they refuse is
    /// left out, and `saveRefused` says why.
    public func commands(recipeID: RecipeID, actor: String, actorRole: ActorRole?, time: Timestamp, save: Bool,
                         newCommandID: () -> String) throws(SchemaOrgImportError) -> ImportCommands {
        let content = CommandEnvelope(commandID: newCommandID(), recipeID: recipeID, actor: actor, time: time, actorRole: actorRole,
                                      command: .draftContentSet(document.draftContent))
        var drafted = Recipe(id: recipeID)
        switch RecipeJudge.decide(content, recipe: &drafted) {
        case .accepted: break
        case .rejected(let rejection): throw .refusedByRules(reason: rejection.message)
        case .duplicate: throw .refusedByRules(reason: "the command id \(content.commandID) was given twice")
        }
        var commands = ImportCommands(content: content)
        if let nutrition = document.nutrition {
            let changes = NutritionChanges(amounts: nutrition.amounts.mapValues { .set($0) },
                                           servingSize: nutrition.servingSize.map { .set($0) } ?? .keep)
            let stating = CommandEnvelope(commandID: newCommandID(), recipeID: recipeID, actor: actor, time: time, actorRole: actorRole,
                                          command: .nutritionChanged(changes))
            switch RecipeJudge.decide(stating, recipe: &drafted) {
            case .accepted: commands.nutrition = stating
            case .rejected(let rejection): throw .refusedByRules(reason: rejection.message)
            case .duplicate: throw .refusedByRules(reason: "the command id \(stating.commandID) was given twice")
            }
        }
        guard save else { return commands }
        let saving = CommandEnvelope(commandID: newCommandID(), recipeID: recipeID, actor: actor, time: time, actorRole: actorRole,
                                     command: .recipeSaved)
        switch RecipeJudge.decide(saving, against: drafted) {
        case .accepted: commands.save = saving
        case .rejected(let rejection): commands.saveRefused = rejection
        case .duplicate: commands.saveRefused = Rejection(.invalid, "The save's command id is an earlier record's.")
        }
        return commands
    }
}
