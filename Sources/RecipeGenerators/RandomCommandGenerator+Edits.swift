import RecipeDomain
// MARK: - Plausible edits

extension RandomCommandGenerator {
    /// An edit a person would make to `content`, valid unless this draw lands in
    /// `invalidRate`. A recipe without a title or ingredients gets them first more
    /// often, as people type the title and the first ingredient early.
    public mutating func plausibleEdit(for content: RecipeContent) -> RecipeCommand {
        let broken = random.chance(invalidRate)
        if content.title.isEmpty, random.chance(0.5) { return titleChanged(broken) }
        if content.ingredients.isEmpty, random.chance(0.5) { return ingredientAdded(content, broken) }
        let roll = random.int(below: Self.editChoices[Self.editChoices.count - 1].upTo)
        var choice = 0
        while roll >= Self.editChoices[choice].upTo { choice += 1 }
        let kind = Self.editChoices[choice].kind
        switch kind {
        case .titleChanged: return titleChanged(broken)
        case .servingsChanged: return .servingsChanged(servings: broken ? random.pick([0, 101, -3]) : random.int(in: 1...12))
        case .imageChanged: return .imageChanged(url: broken ? random.pick(Vocabulary.badURLs) : random.pick(Vocabulary.imageURLs))
        case .ingredientAdded: return ingredientAdded(content, broken)
        case .ingredientUpdated: return ingredientUpdated(content, broken)
        case .ingredientRemoved: return ingredientRemoved(content, broken)
        case .instructionAdded: return instructionAdded(content, broken)
        case .instructionUpdated: return instructionUpdated(content, broken)
        case .instructionRemoved: return instructionRemoved(content, broken)
        case .instructionMoved: return instructionMoved(content, broken)
        case .tagAdded: return tagAdded(content, broken)
        case .tagChanged: return tagChanged(content, broken)
        case .tagRemoved: return tagRemoved(content, broken)
        case .descriptionChanged:
            return .descriptionChanged(description: broken ? " " : random.chance(0.1) ? nil : random.pick(Vocabulary.descriptions))
        case .yieldChanged: return .yieldChanged(yield: broken ? "" : random.chance(0.1) ? nil : random.pick(Vocabulary.yields))
        case .timesChanged: return timesChanged(broken)
        case .sourceChanged:
            return .sourceChanged(url: broken ? random.pick(Vocabulary.badURLs) : random.pick(Vocabulary.imageURLs))
        case .nutritionChanged: return nutritionChanged(broken)
        case .draftContentSet: return draftContentSet(content, broken)
        case .draftStarted, .recipeSaved, .draftDiscarded, .recipeDeleted, .accessGranted, .accessRevoked,
             .ownershipTransferred:
            preconditionFailure("\(kind) is not an edit, drawn by plausibleCommand")
        }
    }

    /// How often `plausibleEdit` picks each kind, in percent of edits. Every kind is
    /// listed, so a new kind does not compile until it has its share; kinds that are
    /// not edits have none (RandomCommandGeneratorTests checks both ways).
    static func editWeight(of kind: RecipeCommand.Kind) -> Int {
        switch kind {
        case .titleChanged: 9
        case .servingsChanged: 5
        case .imageChanged: 3
        case .ingredientAdded: 21
        case .ingredientUpdated: 10
        case .ingredientRemoved: 5
        case .instructionAdded: 13
        case .instructionUpdated: 7
        case .instructionRemoved: 3
        case .instructionMoved: 4
        case .tagAdded: 5
        case .tagChanged: 4
        case .tagRemoved: 3
        case .descriptionChanged: 2
        case .yieldChanged: 1
        case .timesChanged: 2
        case .sourceChanged: 1
        case .draftContentSet: 1
        case .nutritionChanged: 1
        case .draftStarted, .recipeSaved, .draftDiscarded, .recipeDeleted, .accessGranted, .accessRevoked,
             .ownershipTransferred: 0
        }
    }

    /// The edit kinds in `allCases` order, each with the roll below which it is
    /// picked: the running sum of the weights.
    static let editChoices: [(kind: RecipeCommand.Kind, upTo: Int)] = {
        var total = 0
        return RecipeCommand.Kind.allCases.compactMap { kind in
            let weight = editWeight(of: kind)
            guard weight > 0 else { return nil }
            total += weight
            return (kind, total)
        }
    }()

    // MARK: - By kind

    private mutating func titleChanged(_ broken: Bool) -> RecipeCommand {
        .titleChanged(title: broken ? Vocabulary.overlongTitle : random.pick(Vocabulary.titles))
    }

    private mutating func ingredientAdded(_ content: RecipeContent, _ broken: Bool) -> RecipeCommand {
        var name = random.pick(Vocabulary.ingredientNames)
        var amount = random.pick(Vocabulary.amounts)
        var metric = random.pick(Vocabulary.units)
        var id: String? = random.chance(0.1) ? uuid() : nil
        if broken {
            switch random.int(below: 4) {
            case 0: amount = random.pick([0, -1])
            case 1: metric = random.pick(["", "  "])
            case 2: name = ""
            default: id = content.ingredients.isEmpty ? "" : random.pick(content.ingredients).id
            }
        }
        // A third of the lines use what content v2 adds: ranges, no quantity, notes, sections, the text.
        guard !broken, random.chance(0.33) else {
            return .ingredientAdded(name: name, amount: amount, metric: metric, ingredientID: id)
        }
        var line = IngredientLine(name: name, amount: amount, unit: metric)
        switch random.int(below: 3) {
        case 0: line.amountMax = amount + random.pick([0.5, 1, 2])
        case 1: (line.amount, line.unit) = (nil, nil)
        default: line.unit = random.chance(0.5) ? nil : metric
        }
        if random.chance(0.5) { line.note = random.pick(Vocabulary.notes) }
        if random.chance(0.3) { line.section = random.pick(Vocabulary.sections) }
        if random.chance(0.3) { line.text = random.pick(Vocabulary.lineTexts) }
        return .ingredientAdded(line, ingredientID: id)
    }

    private mutating func ingredientUpdated(_ content: RecipeContent, _ broken: Bool) -> RecipeCommand {
        guard !content.ingredients.isEmpty else { return ingredientAdded(content, broken) }
        let id = broken && random.chance(0.5) ? Vocabulary.unknownID : random.pick(content.ingredients).id
        if broken { return .ingredientUpdated(ingredientID: id, name: nil, amount: 0, metric: nil) }
        switch random.int(below: 3) {
        case 0: return .ingredientUpdated(ingredientID: id, name: nil, amount: random.pick(Vocabulary.amounts), metric: nil)
        case 1: return .ingredientUpdated(ingredientID: id, name: random.pick(Vocabulary.ingredientNames), amount: nil, metric: nil)
        default:
            return .ingredientUpdated(
                ingredientID: id, name: nil, amount: random.pick(Vocabulary.amounts), metric: random.pick(Vocabulary.units))
        }
    }

    private mutating func ingredientRemoved(_ content: RecipeContent, _ broken: Bool) -> RecipeCommand {
        guard !content.ingredients.isEmpty, !broken else { return .ingredientRemoved(ingredientID: Vocabulary.unknownID) }
        return .ingredientRemoved(ingredientID: random.pick(content.ingredients).id)
    }

    private mutating func instructionAdded(_ content: RecipeContent, _ broken: Bool) -> RecipeCommand {
        let count = content.instructions.count
        if broken {
            return random.chance(0.5)
                ? .instructionAdded(description: " ", position: nil, instructionID: nil)
                : .instructionAdded(description: random.pick(Vocabulary.steps), position: count + 2, instructionID: nil)
        }
        let position: Int? = random.chance(0.2) ? random.int(in: 1...(count + 1)) : nil
        let id: String? = random.chance(0.1) ? uuid() : nil
        return .instructionAdded(description: random.pick(Vocabulary.steps), position: position, instructionID: id)
    }

    private mutating func instructionUpdated(_ content: RecipeContent, _ broken: Bool) -> RecipeCommand {
        guard !content.instructions.isEmpty else { return instructionAdded(content, broken) }
        let id = broken ? Vocabulary.unknownID : random.pick(content.instructions).id
        if random.chance(0.2) {
            return .instructionUpdated(
                instructionID: id, description: nil,
                section: random.chance(0.3) ? .clear : .set(random.pick(Vocabulary.sections)))
        }
        return .instructionUpdated(instructionID: id, description: random.pick(Vocabulary.steps))
    }

    private mutating func timesChanged(_ broken: Bool) -> RecipeCommand {
        if broken { return .timesChanged(prepTime: .set(random.pick(Vocabulary.badDurations)), cookTime: .keep, totalTime: .keep) }
        let choose = { (generator: inout Self) -> FieldUpdate<String> in
            switch generator.random.int(below: 4) {
            case 0: .keep
            case 1: .clear
            default: .set(generator.random.pick(Vocabulary.durations))
            }
        }
        let prep = choose(&self), cook = choose(&self)
        let total = prep == .keep && cook == .keep ? .set(random.pick(Vocabulary.durations)) : choose(&self)
        return .timesChanged(prepTime: prep, cookTime: cook, totalTime: total)
    }

    /// A label's worth of nutrients per serving, some cleared; a broken one states a negative amount.
    private mutating func nutritionChanged(_ broken: Bool) -> RecipeCommand {
        if broken { return .nutritionChanged(NutritionChanges(amounts: [.fat: .set(-Double(random.int(in: 1...20)))])) }
        var amounts: [Nutrition.Nutrient: FieldUpdate<Double>] = [:]
        for nutrient in Nutrition.Nutrient.allCases where random.chance(0.6) {
            amounts[nutrient] = random.chance(0.1) ? .clear : .set(Double(random.int(in: 0...Int(nutrient.maximum) / 50)) / 10)
        }
        if amounts.isEmpty { amounts[.calories] = .set(Double(random.int(in: 50...900))) }
        return .nutritionChanged(NutritionChanges(
            amounts: amounts, servingSize: random.chance(0.5) ? .set(random.pick(Vocabulary.yields)) : .keep))
    }

    /// The whole content, as an import or an app's "save everything" would send it:
    /// the current content with some changes, keeping the ids.
    private mutating func draftContentSet(_ content: RecipeContent, _ broken: Bool) -> RecipeCommand {
        var draft = DraftContent(
            title: content.title.isEmpty ? random.pick(Vocabulary.titles) : content.title, servings: content.servings,
            image: content.image, description: random.pick(Vocabulary.descriptions), yield: content.yield,
            prepTime: random.pick(Vocabulary.durations), cookTime: content.cookTime, totalTime: content.totalTime,
            sourceUrl: content.sourceUrl,
            ingredients: content.ingredients.map { NewIngredient(id: $0.id, $0.line) },
            instructions: content.instructions.map { NewInstruction(id: $0.id, description: $0.description, section: $0.section) },
            tags: content.tags.map { tag in tag.payload.map { "@\(tag.name)(\($0))" } ?? "@\(tag.name)" })
        if draft.ingredients.count < RecipeLimits.maxIngredients {
            draft.ingredients.append(NewIngredient(IngredientLine(
                name: random.pick(Vocabulary.ingredientNames), amount: random.pick(Vocabulary.amounts),
                unit: random.pick(Vocabulary.units), note: random.chance(0.5) ? random.pick(Vocabulary.notes) : nil)))
        }
        if draft.instructions.count < RecipeLimits.maxInstructions {
            draft.instructions.append(NewInstruction(description: random.pick(Vocabulary.steps)))
        }
        if broken { draft.prepTime = random.pick(Vocabulary.badDurations) }
        return .draftContentSet(draft)
    }

    private mutating func instructionRemoved(_ content: RecipeContent, _ broken: Bool) -> RecipeCommand {
        guard !content.instructions.isEmpty, !broken else { return .instructionRemoved(instructionID: Vocabulary.unknownID) }
        return .instructionRemoved(instructionID: random.pick(content.instructions).id)
    }

    private mutating func instructionMoved(_ content: RecipeContent, _ broken: Bool) -> RecipeCommand {
        guard !content.instructions.isEmpty else { return instructionAdded(content, broken) }
        let id = random.pick(content.instructions).id
        let count = content.instructions.count
        return .instructionMoved(instructionID: id, position: broken ? random.pick([0, count + 1]) : random.int(in: 1...count))
    }

    private mutating func tagAdded(_ content: RecipeContent, _ broken: Bool) -> RecipeCommand {
        if broken { return .tagAdded(text: random.pick(Vocabulary.badTagTexts)) }
        // Prefer a tag the recipe lacks; after a few misses a duplicate is fine (rejected).
        var text = random.pick(Vocabulary.tagTexts)
        for _ in 0..<3 where content.tags.contains(where: { text.contains("@" + $0.name) }) {
            text = random.pick(Vocabulary.tagTexts)
        }
        return .tagAdded(text: random.chance(0.2) ? "mark it \(text) please" : text)
    }

    private mutating func tagChanged(_ content: RecipeContent, _ broken: Bool) -> RecipeCommand {
        guard !content.tags.isEmpty else { return tagAdded(content, broken) }
        let tag = random.pick(content.tags)
        if broken { return .tagChanged(name: tag.name, text: random.pick(Vocabulary.badTagTexts)) }
        // Mostly a new payload; sometimes a rename, which may hit another tag's name.
        if random.chance(0.25) { return .tagChanged(name: tag.name, text: random.pick(Vocabulary.tagTexts)) }
        return .tagChanged(name: tag.name, text: "@\(tag.name)(\(random.pick(Vocabulary.payloads)))")
    }

    private mutating func tagRemoved(_ content: RecipeContent, _ broken: Bool) -> RecipeCommand {
        guard !content.tags.isEmpty, !broken else { return .tagRemoved(name: "no-such-tag") }
        return .tagRemoved(name: random.pick(content.tags).name)
    }
}
