import RecipeDomain
// MARK: - Arbitrary commands

extension RandomCommandGenerator {
    /// Any command, every kind equally likely, with field values that may break
    /// every rule: for encoders and decoders, which must carry what they are given.
    /// Amounts are always finite (JSON has no NaN or infinity).
    public mutating func arbitraryCommand() -> RecipeCommand {
        switch random.pick(RecipeCommand.Kind.allCases) {
        case .draftStarted: return .draftStarted
        case .titleChanged: return .titleChanged(title: arbitraryText())
        case .servingsChanged: return .servingsChanged(servings: arbitraryInt())
        case .imageChanged: return .imageChanged(url: random.chance(0.2) ? nil : arbitraryURL())
        case .ingredientAdded:
            return .ingredientAdded(arbitraryLine(), ingredientID: optionalID())
        case .ingredientUpdated:
            return .ingredientUpdated(ingredientID: arbitraryID(), changes: IngredientChanges(
                name: random.chance(0.5) ? arbitraryText() : nil,
                amount: arbitraryUpdate { $0.arbitraryAmount() },
                amountMax: arbitraryUpdate { $0.arbitraryAmount() },
                unit: arbitraryUpdate { $0.arbitraryText() },
                note: arbitraryUpdate { $0.arbitraryText() },
                section: arbitraryUpdate { $0.arbitraryText() },
                text: arbitraryUpdate { $0.arbitraryText() }))
        case .ingredientRemoved: return .ingredientRemoved(ingredientID: arbitraryID())
        case .instructionAdded:
            return .instructionAdded(
                description: arbitraryText(), position: random.chance(0.5) ? arbitraryInt() : nil, instructionID: optionalID(),
                section: optionalText())
        case .instructionUpdated:
            return .instructionUpdated(
                instructionID: arbitraryID(), description: random.chance(0.7) ? arbitraryText() : nil,
                section: arbitraryUpdate { $0.arbitraryText() })
        case .instructionRemoved: return .instructionRemoved(instructionID: arbitraryID())
        case .instructionMoved: return .instructionMoved(instructionID: arbitraryID(), position: arbitraryInt())
        case .tagAdded: return .tagAdded(text: arbitraryTagText())
        case .tagChanged: return .tagChanged(name: arbitraryText(), text: arbitraryTagText())
        case .tagRemoved: return .tagRemoved(name: arbitraryText())
        case .descriptionChanged: return .descriptionChanged(description: optionalText())
        case .yieldChanged: return .yieldChanged(yield: optionalText())
        case .timesChanged:
            return .timesChanged(
                prepTime: arbitraryUpdate { $0.arbitraryDuration() }, cookTime: arbitraryUpdate { $0.arbitraryDuration() },
                totalTime: arbitraryUpdate { $0.arbitraryDuration() })
        case .sourceChanged: return .sourceChanged(url: random.chance(0.2) ? nil : arbitraryURL())
        case .nutritionChanged:
            var amounts: [Nutrition.Nutrient: FieldUpdate<Double>] = [:]
            for nutrient in Nutrition.Nutrient.allCases { amounts[nutrient] = arbitraryUpdate { $0.arbitraryAmount() } }
            return .nutritionChanged(NutritionChanges(amounts: amounts, servingSize: arbitraryUpdate { $0.arbitraryText() }))
        case .draftContentSet: return .draftContentSet(arbitraryDraftContent())
        case .recipeSaved: return .recipeSaved
        case .draftDiscarded: return .draftDiscarded
        case .recipeDeleted: return .recipeDeleted
        case .accessGranted:
            return .accessGranted(grantee: random.chance(0.9) ? random.pick(Vocabulary.actors) : arbitraryText(),
                                  role: random.pick(AccessRole.allCases))
        case .accessRevoked: return .accessRevoked(grantee: random.pick(Vocabulary.actors))
        case .ownershipTransferred:
            return .ownershipTransferred(newOwner: random.chance(0.9) ? random.pick(Vocabulary.actors) : arbitraryText())
        }
    }

    /// Any ingredient line: each optional field there or not, any text, any amounts.
    public mutating func arbitraryLine() -> IngredientLine {
        IngredientLine(
            name: arbitraryText(), amount: random.chance(0.8) ? arbitraryAmount() : nil,
            amountMax: random.chance(0.2) ? arbitraryAmount() : nil, unit: random.chance(0.8) ? arbitraryText() : nil,
            note: optionalText(), section: optionalText(), text: optionalText())
    }

    /// Any whole content, with up to a few of each item.
    mutating func arbitraryDraftContent() -> DraftContent {
        var draft = DraftContent(
            title: arbitraryText(), servings: random.chance(0.7) ? arbitraryInt() : nil,
            image: random.chance(0.5) ? arbitraryURL() : nil, description: optionalText(), yield: optionalText(),
            prepTime: random.chance(0.5) ? arbitraryDuration() : nil, cookTime: random.chance(0.5) ? arbitraryDuration() : nil,
            totalTime: random.chance(0.5) ? arbitraryDuration() : nil, sourceUrl: random.chance(0.5) ? arbitraryURL() : nil)
        for _ in 0..<random.int(in: 0...4) { draft.ingredients.append(NewIngredient(id: optionalID(), arbitraryLine())) }
        for _ in 0..<random.int(in: 0...3) {
            draft.instructions.append(NewInstruction(id: optionalID(), description: arbitraryText(), section: optionalText()))
        }
        for _ in 0..<random.int(in: 0...3) { draft.tags.append(arbitraryTagText()) }
        return draft
    }

    /// Keep, clear or set, a third each.
    private mutating func arbitraryUpdate<Value>(_ value: (inout Self) -> Value) -> FieldUpdate<Value> {
        switch random.int(below: 3) {
        case 0: return .keep
        case 1: return .clear
        default: return .set(value(&self))
        }
    }

    private mutating func optionalText() -> String? {
        random.chance(0.5) ? nil : arbitraryText()
    }

    private mutating func arbitraryDuration() -> String {
        random.chance(0.6) ? random.pick(Vocabulary.durations + Vocabulary.badDurations) : arbitraryText()
    }

    /// An arbitrary command in an envelope with arbitrary metadata.
    public mutating func arbitraryEnvelope() -> CommandEnvelope {
        CommandEnvelope(
            commandID: random.chance(0.9) ? uuid() : arbitraryText(),
            recipeID: recipeID(),
            actor: random.chance(0.9) ? random.pick(Vocabulary.actors) : arbitraryText(),
            time: Timestamp(millisecondsSinceEpoch: Int64(random.int(in: 0...4_102_444_800_000))), // up to 2100
            expectedRevision: random.chance(0.3) ? random.int(in: 0...10_000) : nil,
            command: arbitraryCommand())
    }

    // MARK: - Values

    /// Text made of zero to five pieces, from plain words to emoji, quotes,
    /// backslashes, control characters and now and then an over-long run.
    public mutating func arbitraryText() -> String {
        var pieces: [String] = []
        for _ in 0..<random.int(in: 0...5) { pieces.append(random.pick(Vocabulary.textPieces)) }
        if random.chance(0.02) { pieces.append(String(repeating: random.pick(["x", "é", "日"]), count: random.int(in: 100...6000))) }
        return pieces.joined(separator: random.pick([" ", "", "\n"]))
    }

    private mutating func arbitraryTagText() -> String {
        random.chance(0.5) ? random.pick(Vocabulary.tagTexts + Vocabulary.badTagTexts) : arbitraryText()
    }

    private mutating func arbitraryURL() -> String {
        random.chance(0.6) ? random.pick(Vocabulary.imageURLs + Vocabulary.badURLs) : arbitraryText()
    }

    private mutating func arbitraryID() -> String {
        random.chance(0.7) ? uuid() : arbitraryText()
    }

    private mutating func optionalID() -> String? {
        random.chance(0.5) ? nil : arbitraryID()
    }

    private mutating func arbitraryInt() -> Int {
        random.chance(0.8) ? random.int(in: -5...120) : random.pick([Int(Int32.min), Int(Int32.max), 0, 1_000_000])
    }

    mutating func arbitraryAmount() -> Double {
        switch random.int(below: 4) {
        case 0: return random.pick(Vocabulary.amounts + [0, -1, 1e-9, 1e300, -0.0])
        case 1: return Double(random.int(in: 1...1000))
        default: return Double(random.int(in: 0...2000)) / 8 - 10
        }
    }
}
