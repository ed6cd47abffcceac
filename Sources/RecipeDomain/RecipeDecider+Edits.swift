// MARK: - Edit rules: title, servings, image, ingredients, instructions
//
// Each rule sees the content the edit applies to (open draft, or the copy an
// implicit draft would start from) and returns the one event it causes.
// Order inside a rule: the command's own fields, then lookups, then limits.

extension RecipeDecider {
    static func titleChanged(_ title: String) -> Result<RecipeEvent, Rejection> {
        if let rejection = FieldRules.title(title) { return .failure(rejection) }
        return .success(.titleChanged(title))
    }

    static func servingsChanged(_ servings: Int) -> Result<RecipeEvent, Rejection> {
        if let rejection = FieldRules.servings(servings) { return .failure(rejection) }
        return .success(.servingsChanged(servings))
    }

    static func imageChanged(_ url: String?) -> Result<RecipeEvent, Rejection> {
        if let url, let rejection = FieldRules.imageURL(url) { return .failure(rejection) }
        return .success(.imageChanged(url))
    }

    // MARK: - Ingredients

    static func ingredientAdded(
        _ line: IngredientLine, id: String?, _ envelope: CommandEnvelope, _ content: RecipeContent
    ) -> Result<RecipeEvent, Rejection> {
        if let rejection = FieldRules.ingredientLine(line) { return .failure(rejection) }
        let taken = { (candidate: String) in content.ingredientIndex(id: candidate) != nil }
        let ingredientID: String
        if let id {
            if let rejection = FieldRules.identifier(id, "Ingredient id") { return .failure(rejection) }
            if taken(id) { return .failure(Rejection(.invalid, "Ingredient id \(id) is already in the recipe.")) }
            ingredientID = id
        } else {
            ingredientID = derivedID(from: envelope.commandID, taken: taken)
        }
        if content.ingredients.count >= RecipeLimits.maxIngredients {
            return .failure(Rejection(.limitExceeded, "A recipe has at most \(RecipeLimits.maxIngredients) ingredients."))
        }
        return .success(.ingredientAdded(Ingredient(id: ingredientID, line)))
    }

    /// Each field kept, cleared or set; the line after the update must keep every
    /// rule of a line (so clearing the amount of a range needs its `amountMax`
    /// cleared too).
    static func ingredientUpdated(
        id: String, changes: IngredientChanges, _ content: RecipeContent
    ) -> Result<RecipeEvent, Rejection> {
        if changes.keepsEverything {
            return .failure(Rejection(.invalid, "An ingredient update must change at least one field."))
        }
        // The given values first, as v1 did, so a bad value is `invalid` even for an unknown id.
        if let rejection = changes.name.flatMap(FieldRules.ingredientName) ?? changes.amount.newValue.flatMap(FieldRules.amount)
            ?? changes.unit.newValue.flatMap(FieldRules.metric) {
            return .failure(rejection)
        }
        guard let index = content.ingredientIndex(id: id) else { return .failure(unknownIngredient(id)) }
        var ingredient = content.ingredients[index]
        if let name = changes.name { ingredient.name = name }
        ingredient.amount = changes.amount.applied(to: ingredient.amount)
        ingredient.amountMax = changes.amountMax.applied(to: ingredient.amountMax)
        ingredient.unit = changes.unit.applied(to: ingredient.unit)
        ingredient.note = changes.note.applied(to: ingredient.note)
        ingredient.section = changes.section.applied(to: ingredient.section)
        ingredient.text = changes.text.applied(to: ingredient.text)
        if let rejection = FieldRules.ingredientLine(ingredient.line) { return .failure(rejection) }
        return .success(.ingredientUpdated(ingredient))
    }

    static func ingredientRemoved(id: String, _ content: RecipeContent) -> Result<RecipeEvent, Rejection> {
        guard content.ingredientIndex(id: id) != nil else { return .failure(unknownIngredient(id)) }
        return .success(.ingredientRemoved(id: id))
    }

    // MARK: - Instructions

    static func instructionAdded(
        description: String, position: Int?, id: String?, section: String?,
        _ envelope: CommandEnvelope, _ content: RecipeContent
    ) -> Result<RecipeEvent, Rejection> {
        if let rejection = FieldRules.description(description)
            ?? section.flatMap({ FieldRules.optionalText($0, "Instruction section", limit: RecipeLimits.maxSectionLength) }) {
            return .failure(rejection)
        }
        let count = content.instructions.count
        if let position, !(1...(count + 1)).contains(position) {
            return .failure(Rejection(.invalid, "Position must be from 1 to \(count + 1), not \(position)."))
        }
        let taken = { (candidate: String) in content.instructionIndex(id: candidate) != nil }
        let instructionID: String
        if let id {
            if let rejection = FieldRules.identifier(id, "Instruction id") { return .failure(rejection) }
            if taken(id) { return .failure(Rejection(.invalid, "Instruction id \(id) is already in the recipe.")) }
            instructionID = id
        } else {
            instructionID = derivedID(from: envelope.commandID, taken: taken)
        }
        if count >= RecipeLimits.maxInstructions {
            return .failure(Rejection(.limitExceeded, "A recipe has at most \(RecipeLimits.maxInstructions) instructions."))
        }
        let order = position ?? count + 1
        return .success(.instructionAdded(Instruction(id: instructionID, description: description, order: order, section: section)))
    }

    static func instructionUpdated(
        id: String, description: String?, section: FieldUpdate<String>, _ content: RecipeContent
    ) -> Result<RecipeEvent, Rejection> {
        if description == nil, section == .keep {
            return .failure(Rejection(.invalid, "An instruction update must change its description or its section."))
        }
        if let rejection = description.flatMap(FieldRules.description)
            ?? section.newValue.flatMap({ FieldRules.optionalText($0, "Instruction section", limit: RecipeLimits.maxSectionLength) }) {
            return .failure(rejection)
        }
        guard let index = content.instructionIndex(id: id) else { return .failure(unknownInstruction(id)) }
        let instruction = content.instructions[index]
        return .success(.instructionUpdated(
            id: id, description: description ?? instruction.description, section: section.applied(to: instruction.section)))
    }

    static func instructionRemoved(id: String, _ content: RecipeContent) -> Result<RecipeEvent, Rejection> {
        guard content.instructionIndex(id: id) != nil else { return .failure(unknownInstruction(id)) }
        return .success(.instructionRemoved(id: id))
    }

    static func instructionMoved(id: String, position: Int, _ content: RecipeContent) -> Result<RecipeEvent, Rejection> {
        guard content.instructionIndex(id: id) != nil else { return .failure(unknownInstruction(id)) }
        let count = content.instructions.count
        guard (1...count).contains(position) else {
            return .failure(Rejection(.invalid, "Position must be from 1 to \(count), not \(position)."))
        }
        return .success(.instructionMoved(id: id, position: position))
    }

    // MARK: - Ids

    /// The id of an item a command creates without naming it: the command id
    /// itself, so replays give the same id and the history can tell which command
    /// made which item. Command ids are unique per recipe, so it can only be taken
    /// by an explicit id someone chose equal to it; then "#2", "#3"… is appended
    /// until free, which is still deterministic.
    static func derivedID(from commandID: String, taken: (String) -> Bool) -> String {
        if !taken(commandID) { return commandID }
        var suffix = 2
        while taken("\(commandID)#\(suffix)") { suffix += 1 }
        return "\(commandID)#\(suffix)"
    }

    static func unknownIngredient(_ id: String) -> Rejection {
        Rejection(.unknownIngredient, "No ingredient with id \(id) in the recipe.")
    }

    private static func unknownInstruction(_ id: String) -> Rejection {
        Rejection(.unknownInstruction, "No instruction with id \(id) in the recipe.")
    }
}
