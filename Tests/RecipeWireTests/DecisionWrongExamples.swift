import RecipeDomain

/// Decisions the decoder must refuse, each with its code, and whether the schema
/// can say so too (it cannot compare `id` with the position, nor see that `1e999`
/// is no finite number).
enum DecisionWrongExamples {
    struct Example {
        var what: String
        var record: String
        var code: RejectionCode
        var schemaRefuses = true
    }

    /// An accepted decision, as the encoder writes it.
    static let accepted = #"{"specversion":"1.0","id":"3:120","source":"recipes-decider","type":"recipes.decision.v1","subject":"r-1","time":"2026-12-01T10:15:00Z","datacontenttype":"application/json","dataschema":"Schemas/decisions/decision.v1.schema.json","data":{"partition":3,"offset":120,"commandId":"c-1","commandType":"IngredientAdded","actor":"alice","outcome":"accepted","events":[{"type":"DraftOpened.v1","data":{"baseVersion":0,"implicit":true}},{"type":"IngredientAdded.v1","data":{"ingredientId":"c-1","name":"flour","amount":250,"unit":"g"}}],"revision":4,"rulesVersion":1}}"#

    /// An undecodable decision.
    static let undecodable = #"{"specversion":"1.0","id":"3:121","source":"recipes-decider","type":"recipes.decision.v1","subject":"r-1","datacontenttype":"application/json","data":{"partition":3,"offset":121,"outcome":"undecodable","reason":{"code":"malformed","message":"Not valid JSON."},"rulesVersion":1}}"#

    static func changed(_ base: String, _ old: String, _ new: String) -> String {
        precondition(base.contains(old), "\(old) is not in the example")
        return base.replacingOccurrences(of: old, with: new)
    }

    static let events = #"[{"type":"DraftOpened.v1","data":{"baseVersion":0,"implicit":true}},{"type":"IngredientAdded.v1","data":{"ingredientId":"c-1","name":"flour","amount":250,"unit":"g"}}]"#

    static let all: [Example] = [
        Example(what: "not JSON", record: "{\"specversion\":", code: .malformed),
        Example(what: "a command record", record: changed(accepted, "recipes.decision.v1", "recipes.TitleChanged.v1"), code: .unknownType),
        Example(what: "a newer version", record: changed(accepted, "recipes.decision.v1", "recipes.decision.v9"), code: .unsupportedVersion),
        Example(what: "another specversion", record: changed(accepted, #""specversion":"1.0""#, #""specversion":"0.3""#), code: .unsupportedVersion),
        Example(what: "an id that is not the position", record: changed(accepted, #""id":"3:120""#, #""id":"3:119""#), code: .malformed,
                schemaRefuses: false),
        Example(what: "a key given twice", record: changed(accepted, #""actor":"alice""#, #""actor":"alice","actor":"bob""#), code: .malformed),
        Example(what: "an unknown outcome", record: changed(accepted, #""outcome":"accepted""#, #""outcome":"maybe""#), code: .malformed),
        Example(what: "accepted without events", record: changed(accepted, #""events":\#(events),"#, ""), code: .malformed),
        Example(what: "accepted with no event", record: changed(accepted, events, "[]"), code: .malformed),
        Example(what: "accepted with a reason", record: changed(accepted, #""revision":4"#, #""reason":{"code":"invalid","message":"m"},"revision":4"#),
                code: .malformed),
        Example(what: "accepted without a revision", record: changed(accepted, #""revision":4,"#, ""), code: .malformed),
        Example(what: "accepted without an actor", record: changed(accepted, #""actor":"alice","#, ""), code: .malformed),
        Example(what: "accepted without a subject", record: changed(accepted, #""subject":"r-1","#, ""), code: .malformed),
        Example(what: "accepted without a time", record: changed(accepted, #""time":"2026-12-01T10:15:00Z","#, ""), code: .malformed),
        Example(what: "rejected without a reason", record: changed(changed(accepted, #""events":\#(events),"#, ""), #""outcome":"accepted""#,
                                                                     #""outcome":"rejected""#), code: .malformed),
        Example(what: "duplicate with events", record: changed(accepted, #""outcome":"accepted""#, #""outcome":"duplicate""#), code: .malformed),
        Example(what: "undecodable with a revision", record: changed(undecodable, #""rulesVersion":1"#, #""revision":3,"rulesVersion":1"#),
                code: .malformed),
        Example(what: "undecodable with a command type", record: changed(undecodable, #""outcome""#, #""commandType":"TitleChanged","outcome""#),
                code: .malformed),
        Example(what: "an empty subject", record: changed(undecodable, #""subject":"r-1""#, #""subject":"""#), code: .malformed),
        Example(what: "an unknown member of data", record: changed(accepted, #""rulesVersion":1"#, #""rulesVersion":1,"note":"x""#), code: .malformed),
        Example(what: "a negative partition", record: changed(changed(accepted, #""partition":3"#, #""partition":-3"#), #""id":"3:120""#,
                                                                #""id":"-3:120""#), code: .invalid),
        Example(what: "a decider name with a colon", record: changed(accepted, #""rulesVersion":1"#, #""rulesVersion":1,"decider":"a:b""#),
                code: .malformed),
        Example(what: "follows without a decider", record: changed(accepted, #""rulesVersion":1"#, #""rulesVersion":1,"follows":"d1:119""#),
                code: .malformed),
        Example(what: "follows that is no link", record: changed(accepted, #""rulesVersion":1"#, #""rulesVersion":1,"decider":"d2","follows":"d1-119""#),
                code: .malformed),
        Example(what: "follows a later command", record: changed(accepted, #""rulesVersion":1"#, #""rulesVersion":1,"decider":"d2","follows":"d1:120""#),
                code: .invalid, schemaRefuses: false),
        Example(what: "rules version 0", record: changed(accepted, #""rulesVersion":1"#, #""rulesVersion":0"#), code: .invalid),
        Example(what: "an unknown command type", record: changed(accepted, #""commandType":"IngredientAdded""#, #""commandType":"Nope""#),
                code: .unknownType),
        Example(what: "an unknown actor role", record: changed(accepted, #""actor":"alice""#, #""actor":"alice","actorRole":"god""#),
                code: .malformed),
        Example(what: "an unknown rejection code", record: changed(undecodable, #""code":"malformed""#, #""code":"nope""#), code: .unknownType),
        Example(what: "an unknown event", record: changed(accepted, "DraftOpened.v1", "DraftReopened.v1"), code: .unknownType),
        Example(what: "a newer event version", record: changed(accepted, "DraftOpened.v1", "DraftOpened.v2"), code: .unsupportedVersion),
        Example(what: "an event without data", record: changed(accepted, #"{"type":"DraftOpened.v1","data":{"baseVersion":0,"implicit":true}}"#,
                                                               #"{"type":"DraftOpened.v1"}"#), code: .malformed),
        Example(what: "an unknown field in an event", record: changed(accepted, #""unit":"g""#, #""unit":"g","colour":"white""#), code: .malformed),
        Example(what: "an event field missing", record: changed(accepted, #""ingredientId":"c-1","#, ""), code: .malformed),
        Example(what: "a string for a boolean", record: changed(accepted, #""implicit":true"#, #""implicit":"yes""#), code: .malformed),
        Example(what: "a fraction for an integer", record: changed(accepted, #""baseVersion":0"#, #""baseVersion":0.5"#), code: .malformed),
        Example(what: "an amount too large to be finite", record: changed(accepted, #""amount":250"#, #""amount":1e999"#), code: .invalid,
                schemaRefuses: false),
        Example(what: "a role nobody has", record: changed(accepted, #"{"type":"DraftOpened.v1","data":{"baseVersion":0,"implicit":true}}"#,
                                                           #"{"type":"AccessGranted.v1","data":{"actor":"bob","role":"owner"}}"#), code: .invalid),
        Example(what: "a save time that is no time", record: changed(accepted, #"{"type":"DraftOpened.v1","data":{"baseVersion":0,"implicit":true}}"#,
                                                                     #"{"type":"VersionCommitted.v1","data":{"number":1,"savedAt":"yesterday","savedBy":"a"}}"#),
                code: .malformed),
    ]
}
