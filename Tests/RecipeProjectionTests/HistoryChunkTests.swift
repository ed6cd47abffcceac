import RecipeDomain
@testable import RecipeProjection
@testable import RecipeWire
import Testing

/// The projector writes an accepted or duplicate decision's history entry straight from the
/// decision; the history view, `audit history` and a store made before read the entries
/// `HistoryEntry(decision, …)` gives. Both ways must write the same bytes.
@Suite("History entries written from a decision")
struct HistoryChunkTests {
    static let decisions: [DecisionRecord] = [
        DecisionRecord(partition: 3, offset: 41, recipeID: "r1", commandID: "c-41", commandKind: .titleChanged,
                       actor: "alice \"the cook\"", actorRole: .admin, time: Timestamp(millisecondsSinceEpoch: 1_733_000_000_123),
                       outcome: .accepted([.titleChanged("Soup")], revision: 7)),
        DecisionRecord(partition: 3, offset: 42, recipeID: "r1", commandID: "c-41", commandKind: .titleChanged,
                       actor: "bob", actorRole: nil, time: nil, outcome: .duplicate(revision: 7), rulesVersion: 1),
        DecisionRecord(partition: 3, offset: 43, recipeID: "r1", commandID: nil, commandKind: .recipeDeleted,
                       actor: nil, actorRole: .writer, time: Timestamp(millisecondsSinceEpoch: 0),
                       outcome: .accepted([], revision: 8)),
    ]

    @Test("a chunk of accepted and duplicate decisions is the bytes their HistoryEntry values give")
    func entriesFromDecisions() throws {
        let id = try RecipeID("r1")
        var fromEntries = HistoryChunk(recipeID: id, partition: 3)
        var fromDecisions = HistoryChunk(recipeID: id, partition: 3)
        for decision in Self.decisions {
            let entry = HistoryEntry(decision, logTime: 99, recipeID: id)
            fromEntries.append(entry)
            fromDecisions.append(decision, outcome: entry.outcome)
        }
        #expect(String(decoding: fromDecisions.entries, as: UTF8.self) == String(decoding: fromEntries.entries, as: UTF8.self))
        #expect(fromDecisions.firstOffset == 41 && fromDecisions.lastOffset == 43)
        #expect(fromEntries.firstOffset == 41 && fromEntries.lastOffset == 43)
    }
}
