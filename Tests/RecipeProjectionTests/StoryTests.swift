import Foundation
import Kafka
import RecipeDomain
import RecipeProjection
import Testing

@Suite("The app's stories, from producer through projector to queries")
struct StoryTests {
    let recipe: [RecipeCommand] = [
        .titleChanged(title: "Pancakes"),
        .servingsChanged(servings: 4),
        .ingredientAdded(name: "Flour", amount: 250, metric: "g", ingredientID: nil),
        .ingredientAdded(name: "Milk", amount: 1.5, metric: "cup", ingredientID: nil),
        .instructionAdded(description: "Mix", position: nil, instructionID: nil),
        .instructionAdded(description: "Fry", position: nil, instructionID: nil),
    ]

    @Test("a new recipe saved appears in the list and its detail; an open draft does not appear in the list")
    func savedAppearsDraftDoesNot() throws {
        let fixture = try ProjectionFixture()
        let saved = newRecipeID(), drafted = newRecipeID()
        try fixture.send(saved, recipe + [.tagAdded(text: "@breakfast"), .recipeSaved])
        try fixture.send(drafted, [.titleChanged(title: "Half-written soup")])
        try fixture.project()

        let model = try fixture.readModel()
        let list = try model.list()
        #expect(list.items.map(\.id) == [saved.text])
        #expect(list.items.first?.title == "Pancakes")
        #expect(list.items.first?.ingredientCount == 2)
        #expect(list.items.first?.tags == [TagView(name: "breakfast", payload: nil)])
        #expect(try model.list(tag: "@Breakfast").items.map(\.id) == [saved.text])
        #expect(try model.list(tag: "dinner").items.isEmpty)
        #expect(try model.list(query: "pan").items.map(\.id) == [saved.text])

        let detail = try model.detail(saved, guests: 6)
        #expect(detail.version == 1)
        #expect(detail.ingredients.map(\.display) == ["375 g", "2¼ cups"])
        #expect(detail.instructions.map(\.order) == [1, 2])
        #expect(detail.ingredients.allSatisfy { !$0.id.isEmpty })
        #expect(!detail.hasDraft)

        let draft = try model.draft(drafted)
        #expect(draft.title == "Half-written soup")
        #expect(draft.missing == ["ingredients"])
        #expect(throws: QueryError.notFound(drafted.text)) { try model.detail(drafted) }
    }

    @Test("editing a saved recipe shows version 1 until the draft is saved as version 2; version 1 stays")
    func editThenSave() throws {
        let fixture = try ProjectionFixture()
        let id = newRecipeID()
        try fixture.send(id, recipe + [.recipeSaved])
        try fixture.project()
        let flour = try fixture.readModel().detail(id).ingredients[0].id

        try fixture.send(id, [.ingredientRemoved(ingredientID: flour), .tagAdded(text: "@source(grandma)")])
        try fixture.project()
        var model = try fixture.readModel()
        #expect(try model.list().items.first?.version == 1)
        #expect(try model.detail(id).hasDraft)
        #expect(try model.draft(id).baseVersion == 1)

        try fixture.send(id, [.recipeSaved])
        try fixture.project()
        model = try fixture.readModel()
        #expect(try model.list().items.first?.version == 2)
        #expect(try model.detail(id).ingredients.map(\.name) == ["Milk"])
        #expect(try model.detail(id).tags == [TagView(name: "source", payload: "grandma")])
        #expect(try model.detail(id, version: 1).ingredients.map(\.name) == ["Flour", "Milk"])
        #expect(throws: QueryError.noDraft(id.text)) { try model.draft(id) }
    }

    @Test("a discarded draft leaves the recipe as it was; a rejection is kept on the draft")
    func discard() throws {
        let fixture = try ProjectionFixture()
        let id = newRecipeID()
        try fixture.send(id, recipe + [.recipeSaved])
        try fixture.send(id, [.titleChanged(title: "Crêpes"),
                                    .ingredientAdded(name: "Salt", amount: 0, metric: "g", ingredientID: nil)])
        try fixture.project()
        let model = try fixture.readModel()
        #expect(try model.draft(id).lastRejection?.code == "invalid")
        #expect(try model.draft(id).lastRejection?.message.contains("amount") == true)
        try fixture.send(id, [.draftDiscarded])
        try fixture.project()
        #expect(try model.detail(id).title == "Pancakes")
        #expect(try model.drafts().isEmpty)
    }

    @Test("a deleted recipe leaves the list and keeps its history")
    func delete() throws {
        let fixture = try ProjectionFixture()
        let id = newRecipeID()
        try fixture.send(id, recipe + [.recipeSaved, .recipeDeleted, .titleChanged(title: "Too late")])
        try fixture.project()
        let model = try fixture.readModel()
        #expect(try model.list().items.isEmpty)
        #expect(throws: QueryError.deleted(id.text)) { try model.detail(id) }
        let history = try model.history(id).items
        #expect(history.count == recipe.count + 3)
        #expect(history.last?.outcome == .rejected)
        #expect(history.last?.reason?.code == "deleted")
        #expect(history.dropLast().allSatisfy { $0.outcome == .accepted })
    }

    @Test("the same records appended twice change nothing the second time")
    func duplicateDelivery() throws {
        let fixture = try ProjectionFixture()
        let id = newRecipeID()
        let envelopes = (recipe + [.recipeSaved]).enumerated().map { index, command in
            CommandEnvelope(commandID: "cmd-\(index)", recipeID: id, actor: "bob",
                            time: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000 + Int64(index)), command: command)
        }
        try fixture.send(envelopes)
        try fixture.project()
        let before = try fixture.readModel().detail(id)
        try fixture.send(envelopes)
        let summary = try fixture.project()
        #expect(summary.duplicates == envelopes.count)
        #expect(summary.accepted == 0)
        #expect(try fixture.readModel().detail(id) == before)
        #expect(try fixture.readModel().history(id).items.filter { $0.outcome == .duplicate }.count == envelopes.count)
    }

    @Test("list pagination is stable and complete")
    func pagination() throws {
        let fixture = try ProjectionFixture()
        var ids: [RecipeID] = []
        for index in 0..<25 {
            let id = newRecipeID()
            ids.append(id)
            try fixture.send(id, [.titleChanged(title: "Recipe \(index % 5)"),
                                        .ingredientAdded(name: "Egg", amount: 1, metric: "pc", ingredientID: nil), .recipeSaved])
        }
        try fixture.project()
        let model = try fixture.readModel()
        var seen: [String] = []
        var cursor: String?
        repeat {
            let page = try model.list(limit: 7, cursor: cursor)
            seen += page.items.map(\.id)
            cursor = page.nextCursor
        } while cursor != nil
        #expect(seen.count == 25)
        #expect(Set(seen) == Set(ids.map(\.text)))
        #expect(throws: QueryError.badCursor) { try model.list(cursor: "not a cursor!") }
    }
}
