import RecipeDomain
import RecipeWire
import Testing

/// The rule every reader applies to the decisions topic, on decisions made by hand.
@Suite("Which decisions count")
struct EffectiveDecisionsTests {
    func decision(_ offset: Int64, by decider: String?, follows: DecisionLink?, partition: Int32 = 0) -> DecisionRecord {
        DecisionRecord(partition: partition, offset: offset, recipeID: "r-1", commandID: "c-\(offset)", commandKind: .titleChanged,
                       actor: "alice", actorRole: nil, time: Timestamp(millisecondsSinceEpoch: 0), outcome: .duplicate(revision: 0),
                       decider: decider, follows: follows)
    }

    @Test("a chain counts; a second decision of a command, and what follows it, do not")
    func firstOnTheChainWins() {
        var rule = EffectiveDecisions()
        let a0 = decision(0, by: "a", follows: nil)
        let a1 = decision(1, by: "a", follows: a0.link)
        let counted1 = rule.admit(a0, onPartition: 0)
        #expect(counted1)
        let counted2 = rule.admit(a1, onPartition: 0)
        #expect(counted2)
        // A stale decider "b" that had adopted a0 decides command 1 again, then 2 after its own 1.
        let b1 = decision(1, by: "b", follows: a0.link)
        let b2 = decision(2, by: "b", follows: b1.link)
        let counted3 = rule.admit(b1, onPartition: 0)
        #expect(!counted3)
        let counted4 = rule.admit(b2, onPartition: 0)
        #expect(!counted4)
        // The live decider goes on after a1.
        let a2 = decision(2, by: "a", follows: a1.link)
        let counted5 = rule.admit(a2, onPartition: 0)
        #expect(counted5)
        let counted6 = rule.admit(a2, onPartition: 0)
        #expect(!counted6, "the same decision read twice counts once")
        #expect(rule.tails[0] == DecisionLink(decider: "a", offset: 2))
        #expect(rule.nextCommandOffset(0) == 3)
        #expect(rule.nextCommandOffset(1) == 0)
    }

    @Test("a stale decider's decision that lands first on the chain counts, and the live one's after it does not")
    func whoeverLandsFirstOnTheChain() {
        var rule = EffectiveDecisions()
        let a0 = decision(0, by: "a", follows: nil)
        let counted7 = rule.admit(a0, onPartition: 0)
        #expect(counted7)
        let stale = decision(1, by: "a", follows: a0.link)
        let live = decision(1, by: "b", follows: a0.link)
        let liveNext = decision(2, by: "b", follows: live.link)
        let counted8 = rule.admit(stale, onPartition: 0)
        #expect(counted8)
        let counted9 = rule.admit(live, onPartition: 0)
        #expect(!counted9)
        let counted10 = rule.admit(liveNext, onPartition: 0)
        #expect(!counted10, "decided against a state that does not count")
    }

    @Test("no decider, another partition, or a first decision that follows something: none counts")
    func outsideTheChain() {
        var rule = EffectiveDecisions()
        let counted11 = rule.admit(decision(0, by: nil, follows: nil), onPartition: 0)
        #expect(!counted11)
        let counted12 = rule.admit(decision(0, by: "a", follows: nil, partition: 1), onPartition: 0)
        #expect(!counted12)
        let followsNothingThatCounts = rule.admit(decision(1, by: "a", follows: DecisionLink(decider: "z", offset: 0)), onPartition: 0)
        #expect(!followsNothingThatCounts)
        #expect(rule.tails.isEmpty)
        // Partitions have chains of their own.
        let counted13 = rule.admit(decision(0, by: "a", follows: nil, partition: 1), onPartition: 1)
        #expect(counted13)
        let counted14 = rule.admit(decision(5, by: "b", follows: nil, partition: 2), onPartition: 2)
        #expect(counted14)
    }

    @Test("the chain is on the wire: decider and follows round-trip, and a link reads back from its text")
    func chainRoundTrips() throws {
        let original = decision(7, by: "9f3a5c0e17b2d4a6", follows: DecisionLink(decider: "9f3a5c0e17b2d4a6", offset: 6))
        let bytes = DecisionEncoder(source: "tests").encode(original)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix(#""rulesVersion":\#(RecipeDecider.rulesVersion),"decider":"9f3a5c0e17b2d4a6","follows":"9f3a5c0e17b2d4a6:6"}}"#))
        #expect(try DecisionDecoder().decode(value: bytes).get() == original)
        #expect(DecisionLink("a.b-c_d:0") == DecisionLink(decider: "a.b-c_d", offset: 0))
        for wrong in ["a", ":1", "a:", "a:01", "a:-1", "a b:1", "a:1x"] { #expect(DecisionLink(wrong) == nil, "\(wrong)") }
    }
}
