import Foundation
import Kafka
import RecipeDomain
import RecipeHTTP
import RecipeWriteSide
import Testing

@Suite("recipes send")
struct SendTests {
    @Test func aBadLineInTheMiddleIsReportedAndTheRestGo() throws {
        let recipe = UUID().uuidString.lowercased()
        let sender = CommandSender(appender: CommandAppender(producer: shared.service.producer, topic: shared.topic))
        let lines = [
            #"{"type":"DraftStarted","recipe":"\#(recipe)","data":{}}"#,
            #"{"type":"IngredientAdded","recipe":"\#(recipe)","data":{"name":"Flour","amount":"lots","unit":"g"}}"#,
            "",
            "not json at all",
            #"{"specversion":"1.0","id":"ce-\#(recipe)","source":"kcat","type":"recipes.TitleChanged.v1","subject":"\#(recipe)","time":"2026-12-01T10:15:00Z","actor":"alice","data":{"title":"Bread"}}"#,
            #"{"type":"IngredientAdded","recipe":"\#(recipe)","data":{"name":"Flour","amount":250,"unit":"g"},"id":"last"}"#,
        ]
        let outcomes = sender.send(Array(lines.enumerated().map { ($0.offset + 1, $0.element) }), actor: "carol")
        #expect(outcomes.map(\.line) == [1, 2, 4, 5, 6])
        guard case .failed(2, let message) = outcomes[1] else { Issue.record("line 2: \(outcomes[1])"); return }
        #expect(message.contains("data.amount"))
        guard case .failed(4, _) = outcomes[2] else { Issue.record("line 4: \(outcomes[2])"); return }
        var positions: [String] = []
        for outcome in [outcomes[0], outcomes[3], outcomes[4]] {
            guard case .appended(_, let position, _, let recipeID) = outcome else { Issue.record("\(outcome)"); return }
            #expect(recipeID == recipe)
            positions.append(position)
        }
        let history = try shared.get("/v1/recipes/\(recipe)/history?after=\(positions.joined(separator: ","))")
        #expect(history.status == 200, "\(history.text)")
        #expect(try history.items.map { $0["type"] as? String } == ["DraftStarted", "TitleChanged", "IngredientAdded"])
        #expect(try history.items.map { $0["actor"] as? String } == ["carol", "alice", "carol"])
        #expect(try history.items.map { $0["outcome"] as? String } == ["accepted", "accepted", "accepted"])
        #expect(try history.items.last?["commandId"] as? String == "last")
    }

    @Test func aCloudEventLineMustHaveAllItsAttributes() throws {
        let builder = CommandBuilder(source: "recipes-cli")
        #expect(throws: CommandInputError.self) {
            try builder.envelope(line: #"{"specversion":"1.0","type":"recipes.TitleChanged.v1","data":{"title":"A"}}"#, actor: "x")
        }
        #expect(throws: CommandInputError.self) {
            try builder.envelope(line: #"{"type":"TitleChanged","data":{"title":"A"}}"#, actor: "x")
        }
        let record = try builder.envelope(line: #"{"type":"ServingsChanged","recipe":"r-1","data":{"servings":3}}"#, actor: "x")
        #expect(record.envelope.command == .servingsChanged(servings: 3))
        #expect(record.envelope.actor == "x")
        #expect(record.source == "recipes-cli")
    }
}
