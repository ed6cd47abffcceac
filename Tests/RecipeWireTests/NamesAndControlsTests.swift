import RecipeDomain
@testable import RecipeWire
import Testing

/// What a record may spell: actor names in their one spelling (`ActorName`), and no C0
/// control character but tab and newline in any string, checked by the decoders, so
/// that the fold (Swift `==`) and the store (SQLite, bytes, NUL-terminated in its JSON
/// functions) read every record alike.
@Suite("Names and control characters in records")
struct NamesAndControlsTests {
    static let titleChanged = #"{"specversion":"1.0","id":"c-1","source":"recipes-cli","type":"recipes.TitleChanged.v1","subject":"\#(GoldenCases.recipeID.text)","time":"2026-12-01T10:15:00Z","actor":"alice","actorrole":"writer","data":{"title":"Soup"}}"#

    static func refusal(_ json: String) -> WireError? {
        guard case .failure(let error) = WireTestSupport.decode(json) else { return nil }
        return error
    }

    // MARK: - Actor names

    /// The alias of the finding: `jose\u0301` is refused wherever a record names an actor, so it
    /// can never be a second José beside `jos\u00e9` (nor the same one to the fold and not to SQL).
    @Test func anActorOutOfItsOneSpellingIsRefusedWhereverARecordNamesOne() throws {
        let actor = Self.refusal(Self.titleChanged.replacingOccurrences(of: #""actor":"alice""#, with: #""actor":"jose\u0301""#))
        #expect(actor?.code == .invalid && actor?.field == "actor")
        #expect(actor?.message.contains(#"write it "jos\u{E9}""#) == true, "\(String(describing: actor))")
        #expect(actor?.commandID == "c-1" && actor?.recipeID == GoldenCases.recipeID)

        let composed = Self.titleChanged.replacingOccurrences(of: #""actor":"alice""#, with: #""actor":"jos\u00e9""#)
        #expect(try WireTestSupport.decode(composed).get().envelope.actor == "jos\u{E9}")

        for (command, field) in [(RecipeCommand.accessGranted(grantee: "jose\u{301}", role: .editor), "data.grantee"),
                                 (.accessRevoked(grantee: "jose\u{301}"), "data.grantee"),
                                 (.ownershipTransferred(newOwner: "jose\u{301}"), "data.newOwner"),
                                 (.ownershipTransferred(newOwner: "mallory #2"), "data.newOwner")] {
            let envelope = GoldenCases.envelope(command)
            #expect(RecordLimits.violation(in: envelope)?.field == field) // what producers check before appending
            let error = Self.refusal(WireTestSupport.text(WireTestSupport.encoder.encode(envelope)))
            #expect(error?.code == .invalid && error?.field == field, "\(command): \(String(describing: error))")
        }
    }

    // MARK: - Control characters

    /// `a\u0000b` was `a` to SQLite's JSON functions: `?wait=true` never found its outcome.
    @Test func aCommandIDHoldingANULIsRefusedAndNotRepeated() {
        let error = Self.refusal(Self.titleChanged.replacingOccurrences(of: #""id":"c-1""#, with: #""id":"a\u0000b""#))
        #expect(error?.code == .invalid && error?.field == "id", "\(String(describing: error))")
        #expect(error?.message == "id holds the control character U+0000; a record's strings hold none but tab and newline.")
        // The decision of the refused record does not carry the id on: it would hold the NUL again.
        #expect(error?.commandID == nil && error?.recipeID == GoldenCases.recipeID)
        let newline = Self.refusal(Self.titleChanged.replacingOccurrences(of: #""id":"c-1""#, with: #""id":"a\nb""#))
        #expect(newline?.field == "id")
    }

    /// `bob\u0000x` was stored whole but read as `bob` by `json_each`: bob saw the draft.
    @Test func aGrantToANameHoldingANULIsRefused() {
        let grant = GoldenCases.envelope(.accessGranted(grantee: "bob\u{0}x", role: .viewer))
        let error = Self.refusal(WireTestSupport.text(WireTestSupport.encoder.encode(grant)))
        #expect(error?.code == .invalid && error?.field == "data.grantee", "\(String(describing: error))")
        #expect(RecordLimits.violation(in: grant)?.field == "data.grantee")
    }

    @Test func everyC0ControlButTabAndNewlineIsRefusedInEveryStringNamingItsField() throws {
        let escapes = (0x00...0x1F).filter { $0 != 0x09 && $0 != 0x0A }.map { "\\u" + String(format: "%04x", $0) } + [#"\b"#, #"\f"#, #"\r"#]
        for escape in escapes {
            let title = Self.refusal(Self.titleChanged.replacingOccurrences(of: #""title":"Soup""#, with: #""title":"So\#(escape)up""#))
            #expect(title?.code == .invalid && title?.field == "data.title", "\(escape): \(String(describing: title))")
            let source = Self.refusal(Self.titleChanged.replacingOccurrences(of: #""source":"recipes-cli""#, with: #""source":"x\#(escape)""#))
            #expect(source?.field == "source", "\(escape)")
            let extensionValue = Self.refusal(Self.titleChanged.replacingOccurrences(of: #""actorrole""#, with: #""note":"\#(escape)","actorrole""#))
            #expect(extensionValue?.code == .invalid && extensionValue?.field == nil, "\(escape)")
        }
        // Deep in a whole content: the path names the item.
        let content = DraftContent(title: "Soup", ingredients: [NewIngredient(IngredientLine(name: "salt")),
                                                                 NewIngredient(IngredientLine(name: "leek", note: "sliced\u{1}"))])
        let error = Self.refusal(WireTestSupport.text(WireTestSupport.encoder.encode(GoldenCases.envelope(.draftContentSet(content)))))
        #expect(error?.field == "data.ingredients[1].note", "\(String(describing: error))")
        #expect(error?.message.contains("U+0001") == true)
        // Tab and newline are text where text is.
        let lines = Self.titleChanged.replacingOccurrences(of: #""title":"Soup""#, with: #""title":"Soup\tof the day\nwarm""#)
        #expect(try WireTestSupport.decode(lines).get().envelope.command == .titleChanged(title: "Soup\tof the day\nwarm"))
    }

    // MARK: - Amounts

    @Test func anAmountBelowWhatAnyViewShowsIsRefused() throws {
        for amount in [Double.leastNonzeroMagnitude, 0.001, 0.009] { // the first is 5e-324
            let envelope = GoldenCases.envelope(.ingredientAdded(name: "salt", amount: amount, metric: "g", ingredientID: nil))
            let error = Self.refusal(WireTestSupport.text(WireTestSupport.encoder.encode(envelope)))
            #expect(error?.code == .invalid && error?.field == "data.amount", "\(amount)")
            #expect(error?.message == "data.amount must be from 0.01 to 1000000.")
        }
        let least = GoldenCases.envelope(.ingredientAdded(name: "salt", amount: 0.01, metric: "g", ingredientID: nil))
        #expect(try WireTestSupport.decode(WireTestSupport.encoder.encode(least)).get().envelope == least)
    }

    // MARK: - Decisions

    static func decision(actor: String, events: [RecipeEvent], rulesVersion: Int) -> DecisionRecord {
        DecisionRecord(partition: 0, offset: 7, recipeID: GoldenCases.recipeID.text, commandID: "c-1", commandKind: .accessGranted,
                       actor: actor, actorRole: .writer, time: GoldenCases.time, outcome: .accepted(events, revision: 3),
                       rulesVersion: rulesVersion, decider: "d1")
    }

    static func decode(_ decision: DecisionRecord) -> Result<DecisionRecord, WireError> {
        DecisionTestSupport.decoder.decode(value: DecisionTestSupport.encoder.encode(decision))
    }

    /// A decision is read by the rules that made it: from rules version 2 on no decision can
    /// hold a control character or an alias, so one that does is refused; an earlier one
    /// stays decided, its names in their one spelling (the fold's `==` took them so already).
    @Test func decisionsOfTodaysRulesRefuseWhatEarlierOnesAreReadWith() throws {
        let grant = [RecipeEvent.accessGranted(AccessGrant(actor: "bob\u{0}x", role: .viewer))]
        #expect(try Self.decode(Self.decision(actor: "alice", events: grant, rulesVersion: 1)).get().outcome == .accepted(grant, revision: 3))
        guard case .failure(let error) = Self.decode(Self.decision(actor: "alice", events: grant, rulesVersion: 2)) else {
            Issue.record("a rules-v2 decision holding a NUL was read")
            return
        }
        #expect(error.code == .invalid && error.field == "data.events[0].data.actor", "\(error)")

        let alias = [RecipeEvent.ownershipTransferred(newOwner: "jose\u{301}")]
        let old = try Self.decode(Self.decision(actor: "jose\u{301}", events: alias, rulesVersion: 1)).get()
        #expect(old.actor.map { Array($0.utf8) } == Array("jos\u{E9}".utf8))
        guard case .accepted(let events, _) = old.outcome, case .ownershipTransferred(let owner) = events.first else {
            Issue.record("\(old.outcome)")
            return
        }
        #expect(Array(owner.utf8) == Array("jos\u{E9}".utf8))
        for decision in [Self.decision(actor: "jose\u{301}", events: [.titleChanged("x")], rulesVersion: 2),
                         Self.decision(actor: "alice", events: alias, rulesVersion: 2)] {
            guard case .failure(let error) = Self.decode(decision) else {
                Issue.record("a rules-v2 decision naming jose\\u{301} was read")
                continue
            }
            #expect(error.code == .invalid && error.message.contains(#"write it "jos\u{E9}""#), "\(error)")
        }
    }
}
