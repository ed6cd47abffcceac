import Foundation
import RecipeDomain
import RecipeGenerators
@testable import RecipeProjection
@testable import RecipeWire
import Testing

/// `ContentField` is the one list of a recipe's content members and `ContentJSON` the one
/// writer: every member of the list is in every document that holds content (the stored
/// form, ContentSet's data, the detail document, the draft view) and reads back from it,
/// and the documents written by `ContentJSON` are the bytes they were before it.
@Suite("One list of content fields, one writer")
struct ContentFieldListTests {
    /// A content holding a value in `field` (beside the title every content has). The switch
    /// names every member: a member added to the list needs a sample here, and then fails
    /// below for each document that leaves it out or does not read it back.
    static func content(with field: ContentField) -> RecipeContent {
        var content = RecipeContent(title: "T")
        switch field {
        case .title: content.title = "Apple pie"
        case .servings: content.servings = 6
        case .image, .sourceUrl: content[text: field] = "https://example.com/\(field)"
        case .description, .yield: content[text: field] = "sample \(field), \"quoted\""
        case .prepTime, .cookTime, .totalTime: content[text: field] = "PT1H15M"
        case .ingredients:
            content.ingredients = [Ingredient(id: "i1", name: "flour", amount: 250, amountMax: 300, unit: "g",
                                              note: "sifted", section: "Dough", text: "250-300 g flour, sifted")]
        case .instructions: content.instructions = [Instruction(id: "s1", description: "Mix.", order: 1, section: "Dough")]
        case .tags: content.tags = [Tag(name: "vegan", payload: nil), Tag(name: "source", payload: "grand-mère")]
        case .nutrition: content.nutrition = Nutrition(amounts: [.calories: 240, .sodium: 0.5], servingSize: "1 slice")
        }
        return content
    }

    private static let plain = RecipeContent(title: "T")

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private static func detail(_ content: RecipeContent) -> RecipeDetail {
        RecipeDetail(id: "r", version: 1, content: content, guests: nil, units: nil, updatedAt: "t", savedBy: "a", hasDraft: false)
    }

    private static func draftView(_ content: RecipeContent, rejection: String? = nil) throws -> DraftView {
        try DraftView(id: "r", content: content, baseVersion: 1, revision: 4, lastRejectionJSON: rejection, updatedAt: 0)
    }

    @Test("every member of the list is stored and read back", arguments: ContentField.allCases)
    func stored(_ field: ContentField) throws {
        let content = Self.content(with: field)
        let text = Self.text(ContentCoding.utf8(content))
        #expect(text.contains("\"\(field.key)\":"), "\(text)")
        #expect(text != Self.text(ContentCoding.utf8(Self.plain)))
        #expect(try ContentCoding.content(fromJSON: text) == content, "\(text)")
    }

    @Test("every member of the list but nutrition is in ContentSet's data and read back", arguments: ContentField.allCases)
    func event(_ field: ContentField) throws {
        let content = Self.content(with: field)
        let decision = DecisionRecord(partition: 0, offset: 7, recipeID: "r", commandID: "c", commandKind: .draftContentSet,
                                      actor: "a", actorRole: nil, time: Timestamp(millisecondsSinceEpoch: 0),
                                      outcome: .accepted([.contentSet(content)], revision: 2))
        let bytes = DecisionEncoder(source: "test").encode(decision)
        let text = Self.text(bytes)
        let read = try DecisionDecoder().decode(value: bytes).get()
        if field == .nutrition {
            // The event keeps the draft's nutrition (NutritionChanged sets it): not in its data.
            #expect(!text.contains("\"nutrition\""), "\(text)")
            var kept = content
            kept.nutrition = nil
            #expect(read.events == [.contentSet(kept)])
        } else {
            #expect(text.contains("\"\(field.key)\":"), "\(text)")
            #expect(read.events == [.contentSet(content)], "\(text)")
        }
    }

    @Test("every member of the list is in the detail document, as the encoder writes it", arguments: ContentField.allCases)
    func detail(_ field: ContentField) throws {
        let detail = Self.detail(Self.content(with: field))
        let text = Self.text(detail.json())
        #expect(text.contains("\"\(field.key)\":"), "\(text)")
        #expect(text != Self.text(Self.detail(Self.plain).json()))
        #expect(detail.json() == Array(try DocumentJSON.encoder.encode(detail)))
        #expect(try JSONDecoder().decode(RecipeDetail.self, from: Data(detail.json())) == detail)
    }

    @Test("every member of the list is in the draft view, as the encoder writes it", arguments: ContentField.allCases)
    func draftView(_ field: ContentField) throws {
        let draft = try Self.draftView(Self.content(with: field))
        let text = Self.text(draft.json())
        #expect(text.contains("\"\(field.key)\":"), "\(text)")
        #expect(text != Self.text(try Self.draftView(Self.plain).json()))
        #expect(draft.json() == Array(try DocumentJSON.encoder.encode(draft)))
        #expect(try JSONDecoder().decode(DraftView.self, from: Data(draft.json())) == draft)
    }

    @Test("the draft view of every draft a random stream opens is the bytes the encoder writes")
    func draftViewsOfAStream() throws {
        var generator = RandomCommandGenerator(seed: 11)
        var states = (0..<40).map { _ in Recipe(id: generator.recipeID()) }
        var compared = 0
        let rejection = #"{"code":"invalid","message":"amount \"0\" / 2","type":"IngredientAdded","commandId":"c-1","position":"0:12"}"#
        for index in 0..<2_000 {
            let slot = index % states.count
            _ = states[slot].apply(generator.nextEnvelope(for: states[slot]))
            guard let draft = states[slot].draft else { continue }
            let view = try Self.draftView(draft.content, rejection: index % 3 == 0 ? rejection : nil)
            #expect(view.json() == Array(try DocumentJSON.encoder.encode(view)), "\(Self.text(view.json()))")
            compared += 1
        }
        #expect(compared > 500, "the stream opened drafts to compare: \(compared)")
    }
}
