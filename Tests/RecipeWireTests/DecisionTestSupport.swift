import Foundation
import RecipeDomain
import RecipeGenerators
import RecipeWire
import Testing

// MARK: - Decisions: shared test support

enum DecisionTestSupport {
    static let encoder = DecisionEncoder(source: "recipes-decider")
    static let decoder = DecisionDecoder()
    static let goldenDirectory = WireTestSupport.goldenDirectory.appendingPathComponent("decisions")

    /// Golden/decisions/<name>.v<N>.json, N the decision data version the encoder writes.
    static func goldenFile(_ name: String) -> URL {
        goldenDirectory.appendingPathComponent("\(name).v\(DecisionFormat.currentVersion).json")
    }

    /// A decided command log, as a decider would make it: random commands to a few
    /// recipes at once, some with an actor role (so access is decided too), some
    /// records breaking a limit (undecodable), each on the partition its recipe has
    /// (the index of the recipe mod 6) at the next offset of that partition.
    struct DecidedLog {
        var decisions: [(key: [UInt8]?, decision: DecisionRecord)] = []
        /// Each recipe as deciding left it.
        var recipes: [RecipeID: Recipe] = [:]
    }

    static func decidedLog(count: Int, seed: UInt64) -> DecidedLog {
        var generator = RandomCommandGenerator(seed: seed, invalidRate: 0.05, duplicateRate: 0.03, expectedRevisionRate: 0.1)
        var log = DecidedLog()
        var ids = (0..<12).map { _ in generator.recipeID() }
        var offsets = [Int64](repeating: 0, count: 6)
        for _ in 0..<count {
            let slot = generator.random.int(below: ids.count)
            let partition = slot % 6
            defer { offsets[partition] += 1 }
            var recipe = log.recipes[ids[slot]] ?? Recipe(id: ids[slot])
            if recipe.isDeleted {
                ids[slot] = generator.recipeID()
                recipe = Recipe(id: ids[slot])
            }
            var envelope = generator.random.chance(0.1)
                ? generator.envelope(for: recipe, command: generator.arbitraryCommand())
                : generator.nextEnvelope(for: recipe)
            if generator.random.chance(0.2) { envelope.actorRole = generator.random.pick(ActorRole.allCases) }
            // Through the record format, as the decider reads commands: what breaks a limit is undecodable.
            let key = RecordKey.key(forRecipe: envelope.recipeID)
            switch WireTestSupport.decoder.decode(key: key, value: WireTestSupport.encoder.encode(envelope)) {
            case .success(let decoded):
                let decided = RecipeJudge.decide(decoded.envelope, recipe: &recipe)
                let decision = DecisionRecord(decided, of: decoded.envelope, revision: recipe.revision, partition: Int32(partition),
                                              offset: offsets[partition])
                log.recipes[recipe.id] = recipe
                log.decisions.append((key, decision))
            case .failure(let error):
                log.decisions.append((key, DecisionRecord(undecodable: error, key: key, partition: Int32(partition),
                                                          offset: offsets[partition])))
            }
        }
        return log
    }
}

// MARK: - Golden decisions

/// One decision of each outcome, and one accepted decision holding an event of
/// every kind, with values that exercise escaping, non-ASCII, fractions and
/// milliseconds; pinned in Golden/decisions/.
enum DecisionGoldenCases {
    static let recipeID = GoldenCases.recipeID
    static let commandID = GoldenCases.commandID

    static let all: [(name: String, decision: DecisionRecord)] = [
        ("accepted", DecisionRecord(
            partition: 3, offset: 120, recipeID: recipeID.text, commandID: commandID, commandKind: .titleChanged, actor: "alice",
            actorRole: .writer, time: Timestamp(millisecondsSinceEpoch: GoldenCases.time.millisecondsSinceEpoch + 123),
            outcome: .accepted([
                .ownerAssigned(owner: "alice"), .draftOpened(baseVersion: 0, implicit: true),
                .titleChanged("Grandma's \"best\" crème brûlée 🍰\tv2\\final"),
            ], revision: 1), rulesVersion: 1)),
        ("every-event", DecisionRecord(
            partition: 0, offset: 9_007_199_254, recipeID: recipeID.text, commandID: commandID, commandKind: .draftContentSet,
            actor: "chloé", actorRole: nil, time: GoldenCases.time,
            outcome: .accepted(RecipeEvent.Kind.allCases.map(event(for:)), revision: 42), rulesVersion: 1)),
        ("rejected", DecisionRecord(
            partition: 3, offset: 121, recipeID: recipeID.text, commandID: "c-2", commandKind: .ingredientRemoved, actor: "bob",
            actorRole: .reader, time: GoldenCases.time,
            outcome: .rejected(Rejection(.forbidden, "bob is a reader and may not write."), revision: 1), rulesVersion: 1)),
        ("duplicate", DecisionRecord(
            partition: 3, offset: 122, recipeID: recipeID.text, commandID: commandID, commandKind: .titleChanged, actor: "alice",
            actorRole: .writer, time: GoldenCases.time, outcome: .duplicate(revision: 1), rulesVersion: 1)),
        ("undecodable", DecisionRecord(
            undecodable: Rejection(.unsupportedVersion, #"type "recipes.TitleChanged.v9": this reader knows TitleChanged v1 only."#),
            recipeID: recipeID.text, commandID: "c-4", partition: 3, offset: 123)),
        ("undecodable-keyless", DecisionRecord(
            undecodable: Rejection(.malformed, "Not valid JSON at byte 0: expected an object."),
            recipeID: nil, commandID: nil, partition: 5, offset: 0)),
    ]

    /// An event of `kind`; every kind is listed, so a new kind does not compile until
    /// it has one (and then the golden file and the schema tests ask for the rest).
    static func event(for kind: RecipeEvent.Kind) -> RecipeEvent {
        switch kind {
        case .draftOpened: .draftOpened(baseVersion: 2, implicit: false)
        case .titleChanged: .titleChanged("Shakshuka « maison »")
        case .servingsChanged: .servingsChanged(4)
        case .imageChanged: .imageChanged(nil)
        case .ingredientAdded:
            .ingredientAdded(Ingredient(id: "garlic", name: "garlic", amount: 2, amountMax: 3, unit: "clove", note: "finely chopped",
                                        section: "For the sauce", text: "2–3 cloves garlic, finely chopped"))
        case .ingredientUpdated: .ingredientUpdated(Ingredient(id: "flour-1", name: "Wholemeal flour", amount: 1.0 / 3, unit: "cup"))
        case .ingredientRemoved: .ingredientRemoved(id: "salt")
        case .instructionAdded: .instructionAdded(Instruction(id: "step-1", description: "Preheat to 180 °C.\nGrease the tin.", order: 1,
                                                              section: "For the cake"))
        case .instructionUpdated: .instructionUpdated(id: "step-1", description: "Preheat to 200 °C.", section: nil)
        case .instructionRemoved: .instructionRemoved(id: "step-2")
        case .instructionMoved: .instructionMoved(id: "step-1", position: 3)
        case .tagAdded: .tagAdded(Tag(name: "source", payload: "grand-mère"))
        case .tagChanged: .tagChanged(previousName: "Spicy", tag: Tag(name: "spicy", payload: "3"))
        case .tagRemoved: .tagRemoved(name: "vegan")
        case .descriptionChanged: .descriptionChanged("Crisp outside, soft inside.")
        case .yieldChanged: .yieldChanged(nil)
        case .timesChanged: .timesChanged(prepTime: "PT20M", cookTime: nil, totalTime: "PT1H30M")
        case .sourceChanged: .sourceChanged("https://example.com/recipes/42?lang=fr")
        case .nutritionChanged: .nutritionChanged(Nutrition(amounts: [.calories: 240, .fat: 9.5, .sodium: 480], servingSize: "1 slice"))
        case .contentSet:
            .contentSet(RecipeContent(
                title: "Shakshuka", servings: 2, image: "https://img.example.com/s.jpg", description: "Eggs in a spiced sauce.",
                yield: "2 plates", prepTime: "PT10M", cookTime: "PT20M", totalTime: "PT30M", sourceUrl: "https://example.com/s",
                ingredients: [
                    Ingredient(id: "eggs", name: "eggs", amount: 4),
                    Ingredient(id: "0b0e7c52-2f1c-4a0e-9a51-6f9f3c2a1d10:i2", name: "salt", note: "to taste", text: "Salt, to taste"),
                ],
                instructions: [
                    Instruction(id: "0b0e7c52-2f1c-4a0e-9a51-6f9f3c2a1d10:s1", description: "Simmer the tomatoes.", order: 1,
                                section: "For the sauce"),
                    Instruction(id: "step-eggs", description: "Crack in the eggs.", order: 2),
                ],
                tags: [Tag(name: "vegetarian"), Tag(name: "origin", payload: "Maghreb")]))
        case .versionCommitted:
            .versionCommitted(number: 3, savedAt: Timestamp(millisecondsSinceEpoch: GoldenCases.time.millisecondsSinceEpoch + 5),
                              savedBy: "alice")
        case .draftDiscarded: .draftDiscarded
        case .recipeDeleted: .recipeDeleted
        case .accessGranted: .accessGranted(AccessGrant(actor: "bob", role: .editor))
        case .accessRevoked: .accessRevoked(actor: "bob")
        case .ownershipTransferred: .ownershipTransferred(newOwner: "chloé")
        case .ownerAssigned: .ownerAssigned(owner: "alice")
        }
    }
}
