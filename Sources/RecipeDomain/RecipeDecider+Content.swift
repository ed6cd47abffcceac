// MARK: - Content v2 rules: description, yield, times, source, the whole content

extension RecipeDecider {
    static func descriptionChanged(_ description: String?) -> Result<RecipeEvent, Rejection> {
        if let description,
           let rejection = FieldRules.optionalText(description, "Description", limit: RecipeLimits.maxRecipeDescriptionLength) {
            return .failure(rejection)
        }
        return .success(.descriptionChanged(description))
    }

    static func yieldChanged(_ yield: String?) -> Result<RecipeEvent, Rejection> {
        if let yield, let rejection = FieldRules.optionalText(yield, "Yield", limit: RecipeLimits.maxYieldLength) {
            return .failure(rejection)
        }
        return .success(.yieldChanged(yield))
    }

    static func timesChanged(
        prepTime: FieldUpdate<String>, cookTime: FieldUpdate<String>, totalTime: FieldUpdate<String>,
        _ content: RecipeContent
    ) -> Result<RecipeEvent, Rejection> {
        if prepTime == .keep, cookTime == .keep, totalTime == .keep {
            return .failure(Rejection(.invalid, "A times change must set or remove at least one of prepTime, cookTime, totalTime."))
        }
        if let rejection = prepTime.newValue.flatMap({ FieldRules.duration($0, "prepTime") })
            ?? cookTime.newValue.flatMap({ FieldRules.duration($0, "cookTime") })
            ?? totalTime.newValue.flatMap({ FieldRules.duration($0, "totalTime") }) {
            return .failure(rejection)
        }
        return .success(.timesChanged(
            prepTime: prepTime.applied(to: content.prepTime), cookTime: cookTime.applied(to: content.cookTime),
            totalTime: totalTime.applied(to: content.totalTime)))
    }

    /// Each amount set is finite, not negative and at most its nutrient's maximum; the serving
    /// size is not blank and not too long; something changes.
    static func nutritionChanged(_ changes: NutritionChanges, _ content: RecipeContent) -> Result<RecipeEvent, Rejection> {
        if changes.keepsAll {
            return .failure(Rejection(.invalid, "A nutrition change must set or remove at least one nutrient or the serving size."))
        }
        for nutrient in Nutrition.Nutrient.allCases {
            guard case .set(let amount) = changes.update(of: nutrient) else { continue }
            guard amount.isFinite, amount >= 0, amount <= nutrient.maximum else {
                return .failure(Rejection(.invalid, "\(nutrient.rawValue) must be from 0 to \(Int(nutrient.maximum)) \(nutrient.unit) per serving."))
            }
        }
        if case .set(let size) = changes.servingSize,
           let rejection = FieldRules.optionalText(size, "Serving size", limit: RecipeLimits.maxServingSizeLength) {
            return .failure(rejection)
        }
        return .success(.nutritionChanged(changes.applied(to: content.nutrition)))
    }

    static func sourceChanged(_ url: String?) -> Result<RecipeEvent, Rejection> {
        if let url, let rejection = FieldRules.sourceURL(url) { return .failure(rejection) }
        return .success(.sourceChanged(url))
    }

    // MARK: - The whole content

    /// Every field by the rule its own command has, every item by the rule of
    /// adding it, in the content's order; the first problem rejects the whole
    /// command, so a draft never holds half of it. Counts over the limits are
    /// `limitExceeded`, a tag text that is not one tag `invalidTag`, two tags of one
    /// name `duplicateTag`, two items of one id `invalid`.
    static func draftContentSet(_ draft: DraftContent, _ envelope: CommandEnvelope) -> Result<RecipeEvent, Rejection> {
        if let rejection = FieldRules.title(draft.title)
            ?? draft.servings.flatMap(FieldRules.servings)
            ?? draft.image.flatMap(FieldRules.imageURL)
            ?? draft.description.flatMap({ FieldRules.optionalText($0, "Description", limit: RecipeLimits.maxRecipeDescriptionLength) })
            ?? draft.yield.flatMap({ FieldRules.optionalText($0, "Yield", limit: RecipeLimits.maxYieldLength) })
            ?? draft.prepTime.flatMap({ FieldRules.duration($0, "prepTime") })
            ?? draft.cookTime.flatMap({ FieldRules.duration($0, "cookTime") })
            ?? draft.totalTime.flatMap({ FieldRules.duration($0, "totalTime") })
            ?? draft.sourceUrl.flatMap(FieldRules.sourceURL) {
            return .failure(rejection)
        }
        if draft.ingredients.count > RecipeLimits.maxIngredients {
            return .failure(Rejection(.limitExceeded, "A recipe has at most \(RecipeLimits.maxIngredients) ingredients, not \(draft.ingredients.count)."))
        }
        if draft.instructions.count > RecipeLimits.maxInstructions {
            return .failure(Rejection(.limitExceeded, "A recipe has at most \(RecipeLimits.maxInstructions) instructions, not \(draft.instructions.count)."))
        }
        if draft.tags.count > RecipeLimits.maxTags {
            return .failure(Rejection(.limitExceeded, "A recipe has at most \(RecipeLimits.maxTags) tags, not \(draft.tags.count)."))
        }

        var content = RecipeContent()
        content.copyScalars(from: draft)

        // Explicit ids first, so a derived id steps around every one of them.
        var ingredientIDs = Set<String>()
        for (index, item) in draft.ingredients.enumerated() {
            if let rejection = FieldRules.ingredientLine(item.line, "Ingredient \(index + 1)") { return .failure(rejection) }
            guard let id = item.id else { continue }
            if let rejection = FieldRules.identifier(id, "Ingredient \(index + 1) id") { return .failure(rejection) }
            if !ingredientIDs.insert(id).inserted {
                return .failure(Rejection(.invalid, "Ingredient id \(id) is given twice."))
            }
        }
        content.ingredients.reserveCapacity(draft.ingredients.count)
        for (index, item) in draft.ingredients.enumerated() {
            let id = item.id ?? contentItemID(envelope.commandID, "i", index, taken: { ingredientIDs.contains($0) })
            if item.id == nil { ingredientIDs.insert(id) }
            content.ingredients.append(Ingredient(id: id, item.line))
        }

        var instructionIDs = Set<String>()
        for (index, item) in draft.instructions.enumerated() {
            if let rejection = FieldRules.description(item.description).map({ prefixed($0, "Instruction \(index + 1)") })
                ?? item.section.flatMap({ FieldRules.optionalText($0, "Instruction \(index + 1) section", limit: RecipeLimits.maxSectionLength) }) {
                return .failure(rejection)
            }
            guard let id = item.id else { continue }
            if let rejection = FieldRules.identifier(id, "Instruction \(index + 1) id") { return .failure(rejection) }
            if !instructionIDs.insert(id).inserted {
                return .failure(Rejection(.invalid, "Instruction id \(id) is given twice."))
            }
        }
        content.instructions.reserveCapacity(draft.instructions.count)
        for (index, item) in draft.instructions.enumerated() {
            let id = item.id ?? contentItemID(envelope.commandID, "s", index, taken: { instructionIDs.contains($0) })
            if item.id == nil { instructionIDs.insert(id) }
            content.instructions.append(Instruction(id: id, description: item.description, order: index + 1, section: item.section))
        }

        for text in draft.tags {
            let tag: Tag
            switch Tag.parseSingle(from: text) {
            case .success(let parsed): tag = parsed
            case .failure(let rejection): return .failure(rejection)
            }
            if let existing = content.tagIndex(named: tag.name) {
                return .failure(Rejection(.duplicateTag, "The tag @\(content.tags[existing].name) is given twice."))
            }
            content.tags.append(tag)
        }
        return .success(.contentSet(content))
    }

    /// The id of the item at `index` (0-based) of a `DraftContentSet` that names
    /// none: the command id, `:i` for ingredients or `:s` for steps, and the
    /// 1-based place, e.g. `0b0e…:i3`. Deterministic from the log, and telling which
    /// command made the item, as `derivedID` is for single adds; an explicit id that
    /// took it gets "#2", "#3"… appended until free.
    static func contentItemID(_ commandID: String, _ kind: String, _ index: Int, taken: (String) -> Bool) -> String {
        derivedID(from: "\(commandID):\(kind)\(index + 1)", taken: taken)
    }

    private static func prefixed(_ rejection: Rejection, _ place: String) -> Rejection {
        Rejection(rejection.code, rejection.message.hasPrefix("Instruction ")
            ? place + " " + rejection.message.dropFirst("Instruction ".count) : rejection.message)
    }
}
