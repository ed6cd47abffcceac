import Foundation
import RecipeDomain
import RecipeWire
import Testing

// MARK: - Shared test support

enum WireTestSupport {
    /// This folder, found from the source path (not SwiftPM resources), symlinks resolved.
    static let testsDirectory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
    static let goldenDirectory = testsDirectory.appendingPathComponent("Golden")
    static let fixturesDirectory = testsDirectory.appendingPathComponent("Fixtures")
    static let repositoryRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let schemasDirectory = repositoryRoot.appendingPathComponent("Schemas")

    static let encoder = RecordEncoder(source: "recipes-cli")
    static let decoder = RecordDecoder()

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Decodes with the subject as key, as the projector would see a well-keyed record.
    static func decode(_ value: [UInt8], key: String = GoldenCases.recipeID.text) -> Result<DecodedRecord, WireError> {
        decoder.decode(key: Array(key.utf8), value: value)
    }

    static func decode(_ json: String, key: String = GoldenCases.recipeID.text) -> Result<DecodedRecord, WireError> {
        decode(Array(json.utf8), key: key)
    }

    /// A fresh empty temporary folder.
    static func temporaryDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("recipewire-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

// MARK: - Golden cases

/// One envelope per command type, with the metadata of the example record in
/// docs/architecture.md and `RecordEncoder`'s documentation, and values that
/// exercise escaping, non-ASCII, fractions and milliseconds.
enum GoldenCases {
    static let commandID = "0b0e7c52-2f1c-4a0e-9a51-6f9f3c2a1d10"
    static let recipeID: RecipeID = "5a8f2c1e-8d7b-4e3a-9c41-2b7d9e0f6a55"
    /// 2026-12-01T10:15:00Z
    static let time = Timestamp(millisecondsSinceEpoch: 1_796_120_100_000)

    static func envelope(_ command: RecipeCommand, revision: Int? = 4, milliseconds: Int64 = 0) -> CommandEnvelope {
        CommandEnvelope(
            commandID: commandID, recipeID: recipeID, actor: "alice",
            time: Timestamp(millisecondsSinceEpoch: time.millisecondsSinceEpoch + milliseconds),
            expectedRevision: revision, command: command)
    }

    /// The golden envelope of `kind` at its current version; every kind is listed, so
    /// a new kind does not compile until it has one (and then GoldenTests asks for its file).
    static func envelope(for kind: RecipeCommand.Kind) -> CommandEnvelope {
        switch kind {
        case .draftStarted: envelope(.draftStarted, revision: nil)
        case .titleChanged: envelope(.titleChanged(title: "Grandma's \"best\" crème brûlée 🍰\tv2\\final"), milliseconds: 123)
        case .servingsChanged: envelope(.servingsChanged(servings: 4))
        case .imageChanged: envelope(.imageChanged(url: "https://img.example.com/r/1.jpg?size=large&v=2"))
        case .ingredientAdded:
            envelope(.ingredientAdded(IngredientLine(
                name: "garlic", amount: 2, amountMax: 3, unit: "clove", note: "finely chopped", section: "For the sauce",
                text: "2–3 cloves garlic, finely chopped"), ingredientID: nil))
        case .ingredientUpdated:
            envelope(.ingredientUpdated(ingredientID: "flour-1", changes: IngredientChanges(
                name: "Wholemeal flour", amount: .set(1.0 / 3), amountMax: .clear, unit: .set("cup"), note: .set("sifted"),
                section: .clear)), milliseconds: 5)
        case .ingredientRemoved: envelope(.ingredientRemoved(ingredientID: "flour-1"))
        case .instructionAdded:
            envelope(.instructionAdded(
                description: "Preheat the oven to 180 °C.\nGrease the tin.", position: 1, instructionID: "step-1",
                section: "For the cake"))
        case .instructionUpdated: envelope(.instructionUpdated(instructionID: "step-1", description: nil, section: .clear))
        case .instructionRemoved: envelope(.instructionRemoved(instructionID: "step-1"))
        case .instructionMoved: envelope(.instructionMoved(instructionID: "step-1", position: 3))
        case .tagAdded: envelope(.tagAdded(text: "@source(grand-mère)"))
        case .tagChanged: envelope(.tagChanged(name: "spicy", text: "@spicy(3)"))
        case .tagRemoved: envelope(.tagRemoved(name: "vegan"))
        case .recipeSaved: envelope(.recipeSaved)
        case .draftDiscarded: envelope(.draftDiscarded, revision: nil)
        case .recipeDeleted: envelope(.recipeDeleted)
        case .accessGranted:
            CommandEnvelope(commandID: commandID, recipeID: recipeID, actor: "alice", time: time, expectedRevision: 4,
                            actorRole: .writer, command: .accessGranted(grantee: "bob", role: .editor))
        case .accessRevoked: envelope(.accessRevoked(grantee: "bob"))
        case .ownershipTransferred:
            CommandEnvelope(commandID: commandID, recipeID: recipeID, actor: "root", time: time, expectedRevision: nil,
                            actorRole: .admin, command: .ownershipTransferred(newOwner: "chloé"))
        case .descriptionChanged:
            envelope(.descriptionChanged(description: "Crisp outside, soft inside.\nBest eaten warm — « maison »."))
        case .yieldChanged: envelope(.yieldChanged(yield: "one 23 cm loaf"))
        case .timesChanged: envelope(.timesChanged(prepTime: .set("PT20M"), cookTime: .clear, totalTime: .set("PT1H30M")))
        case .sourceChanged: envelope(.sourceChanged(url: "https://example.com/recipes/42?lang=fr"))
        case .nutritionChanged:
            envelope(.nutritionChanged(NutritionChanges(
                amounts: [.calories: .set(240), .fat: .set(9.5), .sugar: .clear, .sodium: .set(480)], servingSize: .set("1 slice (80 g)"))))
        case .draftContentSet:
            envelope(.draftContentSet(DraftContent(
                title: "Shakshuka", servings: 2, image: "https://img.example.com/s.jpg", description: "Eggs poached in a spiced sauce.",
                yield: "2 plates", prepTime: "PT10M", cookTime: "PT20M", totalTime: "PT30M",
                sourceUrl: "https://example.com/shakshuka",
                ingredients: [
                    NewIngredient(id: "eggs", IngredientLine(name: "eggs", amount: 4)),
                    NewIngredient(IngredientLine(name: "tomatoes", amount: 400, unit: "g", note: "chopped", section: "For the sauce")),
                    NewIngredient(IngredientLine(name: "salt", note: "to taste", text: "Salt, to taste")),
                ],
                instructions: [
                    NewInstruction(description: "Simmer the tomatoes.", section: "For the sauce"),
                    NewInstruction(id: "step-eggs", description: "Crack in the eggs; cover for 6 minutes."),
                ],
                tags: ["@vegetarian", "@origin(Maghreb)"])))
        }
    }

    static let all: [(name: String, envelope: CommandEnvelope)] =
        RecipeCommand.Kind.allCases.map { ($0.rawValue, envelope(for: $0)) }

    /// The golden files of older versions, each with the envelope it must decode to
    /// today: its command upcast into today's shape.
    static let older: [(name: String, version: Int, envelope: CommandEnvelope)] = [
        ("IngredientAdded", 1, envelope(.ingredientAdded(name: "Flour", amount: 250, metric: "g", ingredientID: nil))),
        ("IngredientUpdated", 1, envelope(
            .ingredientUpdated(ingredientID: "flour-1", name: "Wholemeal flour", amount: 1.0 / 3, metric: "cup"), milliseconds: 5)),
        ("InstructionAdded", 1, envelope(.instructionAdded(
            description: "Preheat the oven to 180 °C.\nGrease the tin.", position: 1, instructionID: "step-1"))),
        ("InstructionUpdated", 1, envelope(.instructionUpdated(instructionID: "step-1", description: "Preheat to 200 °C."))),
    ]

    /// Golden/<Command>.v<N>.json: the record the encoder writes for a command at its
    /// current version (older versions' files stay, as records that must still decode).
    static func goldenFile(_ name: String, version: Int? = nil) -> URL {
        let version = version ?? RecipeCommand.Kind(rawValue: name).map(WireFormat.currentVersion) ?? 1
        return WireTestSupport.goldenDirectory.appendingPathComponent("\(name).v\(version).json")
    }
}
