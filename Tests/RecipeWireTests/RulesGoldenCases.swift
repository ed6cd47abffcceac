import RecipeDomain
import RecipeGenerators
import RecipeWire

/// The commands of the rules golden, made only when it is regenerated: a seeded
/// random log of a few recipes edited at once, then hand-picked edge cases that
/// reach every rejection code. Once written, the file is the golden: a change
/// here (or in `RandomCommandGenerator`) changes the commands only at the next
/// regeneration.
enum RulesGoldenCases {
    static func commands() -> [RulesGolden.Command] {
        randomLog(count: 240, seed: 0x2025_0025) + edgeCases()
    }

    /// Plausible commands (some broken on purpose, some resent, some with an
    /// expected revision) and a few arbitrary ones, to eight recipes at once;
    /// a fifth carry an actor role, so access is decided too.
    static func randomLog(count: Int, seed: UInt64) -> [RulesGolden.Command] {
        var generator = RandomCommandGenerator(seed: seed, invalidRate: 0.08, duplicateRate: 0.04, expectedRevisionRate: 0.15)
        var recipes = (0..<8).map { _ in Recipe(id: generator.recipeID()) }
        var commands: [RulesGolden.Command] = []
        for _ in 0..<count {
            let slot = generator.random.int(below: recipes.count)
            if recipes[slot].isDeleted { recipes[slot] = Recipe(id: generator.recipeID()) }
            var envelope = generator.random.chance(0.05)
                ? generator.envelope(for: recipes[slot], command: generator.arbitraryCommand())
                : generator.nextEnvelope(for: recipes[slot])
            if generator.random.chance(0.2) { envelope.actorRole = generator.random.pick(ActorRole.allCases) }
            recipes[slot].apply(envelope)
            commands.append(record(envelope))
        }
        return commands
    }

    // MARK: - Edge cases

    static let owned = "e0000000-0000-4000-8000-000000000001"
    static let untouched = "e0000000-0000-4000-8000-000000000002"
    static let tagged = "e0000000-0000-4000-8000-000000000003"

    /// In order, each with the outcome it gets today.
    static func edgeCases() -> [RulesGolden.Command] {
        var sent = 0
        func command(
            _ command: RecipeCommand, to recipe: String = owned, by actor: String = "alice", role: ActorRole? = .writer,
            id: String? = nil, expectedRevision: Int? = nil
        ) -> RulesGolden.Command {
            sent += 1
            return record(CommandEnvelope(
                commandID: id ?? "edge-\(sent)", recipeID: RecipeID(made: recipe), actor: actor,
                time: Timestamp(millisecondsSinceEpoch: 1_796_120_100_000 + Int64(sent) * 60_000),
                expectedRevision: expectedRevision, actorRole: role, command: command))
        }
        func raw(_ value: String, key: String? = owned) -> RulesGolden.Command {
            RulesGolden.Command(key: key.map { Array($0.utf8) }, value: Array(value.utf8))
        }
        let titleChanged = #"{"specversion":"1.0","id":"edge-raw","source":"recipes-cli","type":"recipes.TitleChanged.v1","subject":"\#(owned)","time":"2026-12-01T10:15:00Z","actor":"alice","data":{"title":"Soup"}}"#
        let manyIngredients = (1...(RecipeLimits.maxIngredients + 1)).map { NewIngredient(IngredientLine(name: "item \($0)")) }
        return [
            command(.titleChanged(title: "Soup")), // accepted: alice creates and owns it
            command(.titleChanged(title: "Stew"), by: "bob"), // forbidden: bob holds no grant
            command(.titleChanged(title: "Stew"), by: "carol", role: .reader), // forbidden: a reader
            command(.recipeSaved), // notSavable: no ingredient
            command(.ingredientRemoved(ingredientID: "nope")), // unknownIngredient
            command(.instructionRemoved(instructionID: "nope")), // unknownInstruction
            command(.tagAdded(text: "not a tag")), // invalidTag
            command(.tagAdded(text: "@vegan")), // accepted
            command(.tagAdded(text: "@Vegan")), // duplicateTag
            command(.tagRemoved(name: "quick")), // unknownTag
            command(.draftStarted), // invalid: a draft is open
            command(.titleChanged(title: "Stew"), expectedRevision: 99), // conflict
            command(.draftContentSet(DraftContent(title: "Many", ingredients: manyIngredients))), // limitExceeded
            command(.titleChanged(title: "Soup"), id: "edge-1"), // duplicate of the first
            command(.accessGranted(grantee: "bob", role: .editor)), // accepted
            command(.ingredientAdded(name: "flour", amount: 250, metric: "g", ingredientID: nil), by: "bob"), // accepted: an editor
            command(.accessRevoked(grantee: "bob")), // accepted
            command(.recipeSaved), // accepted: version 1
            command(.draftDiscarded), // noDraft
            command(.ownershipTransferred(newOwner: "chloé"), by: "root", role: .admin), // accepted
            command(.recipeDeleted, by: "chloé"), // accepted
            command(.titleChanged(title: "Again"), role: nil), // deleted
            command(.recipeDeleted, to: untouched, role: nil), // invalid: nothing to delete
            command(.accessGranted(grantee: "bob", role: .viewer), to: untouched, role: nil), // invalid: nothing to share
            raw(#"{"specversion":"1.0","#), // malformed
            raw(titleChanged.replacingOccurrences(of: "recipes.TitleChanged.v1", with: "recipes.Nonsense.v1")), // unknownType
            raw(titleChanged.replacingOccurrences(of: "recipes.TitleChanged.v1", with: "recipes.TitleChanged.v9")), // unsupportedVersion
            raw(titleChanged, key: untouched), // keyMismatch: key and subject differ
            raw(titleChanged, key: nil), // keyMismatch: no key
            raw(titleChanged.replacingOccurrences(of: #""title":"Soup""#, with: #""title":"\#(String(repeating: "x", count: 201))""#)), // invalid: too long
            // Rules version 2: names in one spelling, no control characters, amounts shown, tags whole.
            command(.titleChanged(title: "Soup"), to: tagged, by: "jos\u{E9}"), // accepted: José (NFC) creates and owns it
            command(.titleChanged(title: "Mine"), to: tagged, by: "jose\u{301}"), // invalid: actor not in NFC
            command(.accessGranted(grantee: "jose\u{301}", role: .editor), to: tagged, by: "jos\u{E9}"), // invalid: grantee not in NFC
            command(.ownershipTransferred(newOwner: "mallory"), to: tagged, by: "jose\u{301}"), // invalid: actor not in NFC
            raw(titleChanged.replacingOccurrences(of: #""id":"edge-raw""#, with: #""id":"a\u0000b""#)), // invalid: NUL in the id
            command(.accessGranted(grantee: "bob\u{0}x", role: .viewer), to: tagged, by: "jos\u{E9}"), // invalid: NUL in the grantee
            command(.ingredientAdded(name: "salt", amount: .leastNonzeroMagnitude, metric: "g", ingredientID: nil), to: tagged, by: "jos\u{E9}"), // invalid: amount 5e-324
            command(.tagAdded(text: "@x(payload with ) paren)"), to: tagged, by: "jos\u{E9}"), // invalidTag: ")" closes nothing
            // NutritionChanged (a new kind: no earlier log holds one, the version stays).
            command(.nutritionChanged(NutritionChanges(amounts: [.calories: .set(240), .fat: .set(9)], servingSize: .set("1 slice"))),
                    to: tagged, by: "jos\u{E9}"), // accepted
            command(.nutritionChanged(NutritionChanges(amounts: [.fat: .clear, .sodium: .set(480)])), to: tagged, by: "jos\u{E9}"), // accepted
            command(.nutritionChanged(NutritionChanges()), to: tagged, by: "jos\u{E9}"), // invalid: changes nothing
            command(.nutritionChanged(NutritionChanges(servingSize: .set(" "))), to: tagged, by: "jos\u{E9}"), // invalid: blank size
            command(.tagAdded(text: "@quick"), to: tagged, by: "jos\u{E9}"), // accepted
            command(.tagChanged(name: "quick", text: "@fast"), to: tagged, by: "jos\u{E9}"), // accepted
            command(.draftContentSet(DraftContent(title: "Soup", tags: ["@fast"])), to: tagged, by: "jos\u{E9}"), // accepted: nutrition stays
        ]
    }

    private static func record(_ envelope: CommandEnvelope) -> RulesGolden.Command {
        RulesGolden.Command(key: RecordKey.key(forRecipe: envelope.recipeID), value: WireTestSupport.encoder.encode(envelope))
    }
}
