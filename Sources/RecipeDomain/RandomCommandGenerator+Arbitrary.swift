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
            return .ingredientAdded(
                name: arbitraryText(), amount: arbitraryAmount(), metric: arbitraryText(), ingredientID: optionalID())
        case .ingredientUpdated:
            return .ingredientUpdated(
                ingredientID: arbitraryID(),
                name: random.chance(0.5) ? arbitraryText() : nil,
                amount: random.chance(0.5) ? arbitraryAmount() : nil,
                metric: random.chance(0.5) ? arbitraryText() : nil)
        case .ingredientRemoved: return .ingredientRemoved(ingredientID: arbitraryID())
        case .instructionAdded:
            return .instructionAdded(
                description: arbitraryText(), position: random.chance(0.5) ? arbitraryInt() : nil, instructionID: optionalID())
        case .instructionUpdated: return .instructionUpdated(instructionID: arbitraryID(), description: arbitraryText())
        case .instructionRemoved: return .instructionRemoved(instructionID: arbitraryID())
        case .instructionMoved: return .instructionMoved(instructionID: arbitraryID(), position: arbitraryInt())
        case .tagAdded: return .tagAdded(text: arbitraryTagText())
        case .tagChanged: return .tagChanged(name: arbitraryText(), text: arbitraryTagText())
        case .tagRemoved: return .tagRemoved(name: arbitraryText())
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

    /// An arbitrary command in an envelope with arbitrary metadata.
    public mutating func arbitraryEnvelope() -> CommandEnvelope {
        CommandEnvelope(
            commandID: random.chance(0.9) ? uuid() : arbitraryText(),
            recipeID: uuid(),
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

    private mutating func arbitraryAmount() -> Double {
        switch random.int(below: 4) {
        case 0: return random.pick(Vocabulary.amounts + [0, -1, 1e-9, 1e300, -0.0])
        case 1: return Double(random.int(in: 1...1000))
        default: return Double(random.int(in: 0...2000)) / 8 - 10
        }
    }
}
