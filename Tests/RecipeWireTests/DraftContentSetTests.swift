import RecipeDomain
import RecipeJSON
@testable import RecipeWire
import Testing

/// One `DraftContentSet` carries a whole recipe: at the documented maxima it fits the
/// record limit and comes back exactly.
@Suite("DraftContentSet: a whole recipe in one record")
struct DraftContentSetTests {
    /// Every list at its longest, every text at its limit in `character`, ids at
    /// theirs, amounts with seventeen significant digits.
    static func maximal(_ character: Character) -> DraftContent {
        func text(_ limit: Int) -> String { String(repeating: character, count: limit) }
        let amount = 123_456.789_012_345_67, amountMax = 987_654.321_098_765_4
        return DraftContent(
            title: text(RecipeLimits.maxTitleLength), servings: RecipeLimits.servings.upperBound,
            image: "https://" + text(RecipeLimits.maxImageURLLength - 8),
            description: text(RecipeLimits.maxRecipeDescriptionLength), yield: text(RecipeLimits.maxYieldLength),
            prepTime: text(RecipeLimits.maxDurationLength), cookTime: text(RecipeLimits.maxDurationLength),
            totalTime: text(RecipeLimits.maxDurationLength), sourceUrl: "https://" + text(RecipeLimits.maxSourceURLLength - 8),
            ingredients: (0..<RecipeLimits.maxIngredients).map { index in
                NewIngredient(id: String("\(index)" + text(RecipeLimits.maxIdentifierLength)).prefix(RecipeLimits.maxIdentifierLength).description,
                              IngredientLine(
                                name: text(RecipeLimits.maxIngredientNameLength), amount: amount, amountMax: amountMax,
                                unit: text(RecipeLimits.maxUnitLength), note: text(RecipeLimits.maxIngredientNoteLength),
                                section: text(RecipeLimits.maxSectionLength), text: text(RecipeLimits.maxIngredientTextLength)))
            },
            instructions: (0..<RecipeLimits.maxInstructions).map { index in
                NewInstruction(id: String("\(index)" + text(RecipeLimits.maxIdentifierLength)).prefix(RecipeLimits.maxIdentifierLength).description,
                               description: text(RecipeLimits.maxDescriptionLength), section: text(RecipeLimits.maxSectionLength))
            },
            tags: (0..<RecipeLimits.maxTags).map { _ in text(RecipeLimits.maxTagTextLength) })
    }

    static func envelope(_ content: DraftContent) -> CommandEnvelope {
        CommandEnvelope(
            commandID: String(repeating: "c", count: RecipeLimits.maxIdentifierLength),
            recipeID: GoldenCases.recipeID, actor: String(repeating: "a", count: RecipeLimits.maxIdentifierLength), time: GoldenCases.time,
            expectedRevision: JSONNumber.maxSafeInteger, command: .draftContentSet(content))
    }

    @Test func aRecipeAtEveryLimitInPlainTextFitsTheRecordLimitAndComesBack() throws {
        let envelope = Self.envelope(Self.maximal("x"))
        #expect(RecordLimits.violation(in: envelope) == nil)
        let bytes = WireTestSupport.encoder.encode(envelope)
        // About 1.66 MB: 200 × 2,370 bytes of ingredients, 200 × 5,384 of steps, 50 × 2,051 of tags, 9.7 KB of the rest.
        #expect(bytes.count > 1_600_000 && bytes.count <= WireFormat.maxRecordSize, "\(bytes.count) bytes")
        let decoded = try WireTestSupport.decode(bytes).get()
        #expect(decoded.envelope == envelope)
        #expect(WireTestSupport.encoder.encode(decoded.envelope) == bytes)
    }

    /// In characters of more bytes the same recipe at every limit is larger: 3.3 MB in
    /// "é" (two bytes), 9.8 MB in characters JSON escapes (six): refused before
    /// parsing, never cut; such a recipe is written by single commands.
    @Test func theSameRecipeInWiderCharactersIsTooLarge() {
        for (character, atLeast) in [("é" as Character, 3_200_000), ("\u{1}", 9_700_000)] {
            let bytes = WireTestSupport.encoder.encode(Self.envelope(Self.maximal(character)))
            #expect(bytes.count > atLeast, "\(bytes.count) bytes")
            #expect(WireTestSupport.decode(bytes).failureCode == .tooLarge)
        }
    }

    @Test func itemsBreakingALimitAreInvalidAndNamedByTheirPlace() {
        var content = Self.maximal("x")
        content.ingredients[7].line.note = String(repeating: "x", count: RecipeLimits.maxIngredientNoteLength + 1)
        let problem = RecordLimits.violation(in: Self.envelope(content))
        #expect(problem?.code == .invalid)
        #expect(problem?.field == "data.ingredients[7].note")
        content = Self.maximal("x")
        content.tags[3] += "x"
        #expect(RecordLimits.violation(in: Self.envelope(content))?.field == "data.tags[3]")
    }
}
