import Foundation
import RecipeDomain
import RecipeGenerators
import RecipeWire

// MARK: - Wrong examples

/// Records every schema and the decoder must turn down, with the decoder's code.
enum WrongExamples {
    struct DataExample {
        var type: String
        var data: String
        var code: RejectionCode
    }

    struct EnvelopeExample {
        var what: String
        var record: String
        var code: RejectionCode
    }

    static func long(_ count: Int, _ character: String = "x") -> String { String(repeating: character, count: count) }

    /// At least one per command type; lengths just over the limits, counted in
    /// Unicode scalars ("é" is one scalar, two bytes).
    static let data: [DataExample] = [
        DataExample(type: "DraftStarted", data: #"{"force":true}"#, code: .malformed),
        DataExample(type: "TitleChanged", data: #"{"title":"\#(long(201, "é"))"}"#, code: .invalid),
        DataExample(type: "TitleChanged", data: #"{}"#, code: .malformed),
        DataExample(type: "TitleChanged", data: #"{"title":5}"#, code: .malformed),
        DataExample(type: "ServingsChanged", data: #"{"servings":0}"#, code: .invalid),
        DataExample(type: "ServingsChanged", data: #"{"servings":101}"#, code: .invalid),
        DataExample(type: "ServingsChanged", data: #"{"servings":2.5}"#, code: .malformed),
        DataExample(type: "ServingsChanged", data: #"{"servings":"4"}"#, code: .malformed),
        DataExample(type: "ImageChanged", data: #"{}"#, code: .malformed),
        DataExample(type: "ImageChanged", data: #"{"url":"https://x.example/\#(long(2031))"}"#, code: .invalid),
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","amount":0,"unit":"g"}"#, code: .invalid),
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","amount":-2.5,"unit":"g"}"#, code: .invalid),
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","amount":1000000.5,"unit":"g"}"#, code: .invalid),
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","amount":1e999,"unit":"g"}"#, code: .invalid),
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","amount":"250","unit":"g"}"#, code: .malformed),
        DataExample(type: "IngredientAdded", data: #"{"amount":250,"unit":"g"}"#, code: .malformed),
        // v1's `metric` is not a v2 field.
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","amount":250,"metric":"g"}"#, code: .malformed),
        DataExample(type: "IngredientAdded", data: #"{"name":"\#(long(201))","amount":250,"unit":"g"}"#, code: .invalid),
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","amount":250,"unit":"g","ingredientId":"\#(long(129))"}"#, code: .invalid),
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","amount":250,"unit":"g","ingredientId":null}"#, code: .malformed),
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","amount":2,"amountMax":0}"#, code: .invalid),
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","note":"\#(long(501, "é"))"}"#, code: .invalid),
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","section":"\#(long(201))"}"#, code: .invalid),
        DataExample(type: "IngredientAdded", data: #"{"name":"Flour","text":"\#(long(1001))"}"#, code: .invalid),
        DataExample(type: "IngredientAdded", data: #"{"name":"Salt","amount":null}"#, code: .malformed),
        DataExample(type: "IngredientUpdated", data: #"{"name":"Rye flour"}"#, code: .malformed),
        DataExample(type: "IngredientUpdated", data: #"{"ingredientId":"flour-1","amount":-1}"#, code: .invalid),
        DataExample(type: "IngredientUpdated", data: #"{"ingredientId":"flour-1","unit":"\#(long(201))"}"#, code: .invalid),
        DataExample(type: "IngredientUpdated", data: #"{"ingredientId":"flour-1","name":null}"#, code: .malformed),
        DataExample(type: "IngredientUpdated", data: #"{"ingredientId":"flour-1","note":5}"#, code: .malformed),
        DataExample(type: "IngredientRemoved", data: #"{"ingredientId":null}"#, code: .malformed),
        DataExample(type: "InstructionAdded", data: #"{"description":"\#(long(5001))"}"#, code: .invalid),
        DataExample(type: "InstructionAdded", data: #"{"description":"Stir.","position":0}"#, code: .invalid),
        DataExample(type: "InstructionAdded", data: #"{"description":"Stir.","position":202}"#, code: .invalid),
        DataExample(type: "InstructionAdded", data: #"{"description":"Stir.","section":null}"#, code: .malformed),
        DataExample(type: "InstructionUpdated", data: #"{"description":"Stir."}"#, code: .malformed),
        DataExample(type: "InstructionUpdated", data: #"{"instructionId":"step-1","section":"\#(long(201))"}"#, code: .invalid),
        DataExample(type: "InstructionRemoved", data: #"{}"#, code: .malformed),
        DataExample(type: "InstructionMoved", data: #"{"instructionId":"step-1","position":201}"#, code: .invalid),
        DataExample(type: "InstructionMoved", data: #"{"instructionId":"step-1"}"#, code: .malformed),
        DataExample(type: "TagAdded", data: #"{"text":"@\#(long(2048))"}"#, code: .invalid),
        DataExample(type: "TagChanged", data: #"{"name":"spicy"}"#, code: .malformed),
        DataExample(type: "TagRemoved", data: #"{"name":["vegan"]}"#, code: .malformed),
        DataExample(type: "DescriptionChanged", data: #"{}"#, code: .malformed),
        DataExample(type: "DescriptionChanged", data: #"{"description":"\#(long(5001))"}"#, code: .invalid),
        DataExample(type: "YieldChanged", data: #"{"yield":12}"#, code: .malformed),
        DataExample(type: "YieldChanged", data: #"{"yield":"\#(long(201))"}"#, code: .invalid),
        DataExample(type: "TimesChanged", data: #"{"prepTime":"\#(long(33))"}"#, code: .invalid),
        DataExample(type: "TimesChanged", data: #"{"restTime":"PT1H"}"#, code: .malformed),
        DataExample(type: "NutritionChanged", data: #"{"fat":-1}"#, code: .invalid),
        DataExample(type: "NutritionChanged", data: #"{"calories":50001}"#, code: .invalid),
        DataExample(type: "NutritionChanged", data: #"{"sodium":"480 mg"}"#, code: .malformed),
        DataExample(type: "NutritionChanged", data: #"{"servingSize":"\#(long(201))"}"#, code: .invalid),
        DataExample(type: "NutritionChanged", data: #"{"vitaminC":3}"#, code: .malformed),
        DataExample(type: "SourceChanged", data: #"{}"#, code: .malformed),
        DataExample(type: "SourceChanged", data: #"{"url":"https://x.example/\#(long(2031))"}"#, code: .invalid),
        DataExample(type: "DraftContentSet", data: #"{"title":"Soup","ingredients":[],"instructions":[]}"#, code: .malformed),
        DataExample(type: "DraftContentSet", data: #"{"title":"Soup","ingredients":[{"amount":1}],"instructions":[],"tags":[]}"#, code: .malformed),
        DataExample(type: "DraftContentSet", data: #"{"title":"Soup","ingredients":[],"instructions":["Stir."],"tags":[]}"#, code: .malformed),
        DataExample(type: "DraftContentSet", data: #"{"title":"Soup","ingredients":[],"instructions":[],"tags":[1]}"#, code: .malformed),
        DataExample(type: "DraftContentSet", data: #"{"title":"Soup","ingredients":[{"name":"x","metric":"g"}],"instructions":[],"tags":[]}"#, code: .malformed),
        DataExample(type: "DraftContentSet", data: #"{"title":"Soup","servings":0,"ingredients":[],"instructions":[],"tags":[]}"#, code: .invalid),
        DataExample(type: "DraftContentSet", data: #"{"title":"Soup","ingredients":[{"name":"x","amount":0}],"instructions":[],"tags":[]}"#, code: .invalid),
        DataExample(type: "DraftContentSet", data: #"{"title":"Soup","ingredients":[],"instructions":[{"description":"\#(long(5001))"}],"tags":[]}"#, code: .invalid),
        DataExample(type: "RecipeSaved", data: #"{"version":2}"#, code: .malformed),
        DataExample(type: "DraftDiscarded", data: #"[]"#, code: .malformed),
        DataExample(type: "RecipeDeleted", data: #"{"reason":"duplicate"}"#, code: .malformed),
        DataExample(type: "AccessGranted", data: #"{"grantee":"bob","role":"owner"}"#, code: .invalid),
        DataExample(type: "AccessRevoked", data: #"{"grantee":"\#(long(129))"}"#, code: .invalid),
        DataExample(type: "OwnershipTransferred", data: #"{"owner":"bob"}"#, code: .malformed),
    ]

    /// The golden record of `type` (at its current version, or `version`) with its data replaced.
    static func record(_ type: String, data: String, version: Int? = nil) -> String {
        let golden = (try? String(contentsOf: GoldenCases.goldenFile(type, version: version), encoding: .utf8)) ?? ""
        guard let range = golden.range(of: #","data":"#) else { return golden }
        return golden[..<range.lowerBound] + #","data":"# + data + "}"
    }

    static let base = #""specversion":"1.0","id":"c-1","source":"tests","type":"recipes.TitleChanged.v1","subject":"r-1","time":"2026-12-01T10:15:00Z","actor":"alice","data":{"title":"Soup"}"#

    /// The base record with one attribute replaced (or removed, with nil).
    static func envelope(_ attribute: String, _ value: String?) -> String {
        var members = base.components(separatedBy: #",""#).enumerated().map { $0.offset == 0 ? $0.element : "\"" + $0.element }
        if let index = members.firstIndex(where: { $0.hasPrefix("\"\(attribute)\":") }) {
            if let value { members[index] = "\"\(attribute)\":\(value)" } else { members.remove(at: index) }
        } else if let value {
            members.insert("\"\(attribute)\":\(value)", at: members.count - 1)
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static let envelopes: [EnvelopeExample] = [
        EnvelopeExample(what: "no actor", record: envelope("actor", nil), code: .malformed),
        EnvelopeExample(what: "no data", record: envelope("data", nil), code: .malformed),
        EnvelopeExample(what: "no time", record: envelope("time", nil), code: .malformed),
        EnvelopeExample(what: "CloudEvents 0.3", record: envelope("specversion", #""0.3""#), code: .unsupportedVersion),
        EnvelopeExample(what: "unknown command", record: envelope("type", #""recipes.Frobnicated.v1""#), code: .unknownType),
        EnvelopeExample(what: "foreign type", record: envelope("type", #""com.example.order.created""#), code: .unknownType),
        EnvelopeExample(what: "newer version", record: envelope("type", #""recipes.TitleChanged.v2""#), code: .unsupportedVersion),
        EnvelopeExample(what: "month 13", record: envelope("time", #""2026-13-01T10:15:00Z""#), code: .malformed),
        EnvelopeExample(what: "not a time", record: envelope("time", #""yesterday""#), code: .malformed),
        EnvelopeExample(what: "time without offset", record: envelope("time", #""2026-12-01T10:15:00""#), code: .malformed),
        EnvelopeExample(what: "empty id", record: envelope("id", #""""#), code: .malformed),
        EnvelopeExample(what: "long id", record: envelope("id", "\"\(long(129))\""), code: .invalid),
        EnvelopeExample(what: "empty source", record: envelope("source", #""""#), code: .malformed),
        EnvelopeExample(what: "empty subject", record: envelope("subject", #""""#), code: .malformed),
        EnvelopeExample(what: "numeric subject", record: envelope("subject", "42"), code: .malformed),
        EnvelopeExample(what: "negative revision", record: envelope("expectedrevision", "-1"), code: .invalid),
        EnvelopeExample(what: "revision as text", record: envelope("expectedrevision", #""4""#), code: .malformed),
        EnvelopeExample(what: "camelCase attribute", record: envelope("expectedRevision", "4"), code: .malformed),
        EnvelopeExample(what: "binary data", record: envelope("data_base64", #""e30=""#), code: .malformed),
        EnvelopeExample(what: "plain text data", record: envelope("datacontenttype", #""text/plain""#), code: .malformed),
        EnvelopeExample(what: "empty dataschema", record: envelope("dataschema", #""""#), code: .malformed),
        EnvelopeExample(what: "data not an object", record: envelope("data", #""Soup""#), code: .malformed),
    ]
}

// MARK: - Random envelopes

enum RandomEnvelopes {
    /// Half arbitrary envelopes (any values, many breaking limits), half plausible
    /// ones from recipes being edited.
    static func mixed(count: Int, seed: UInt64) -> [CommandEnvelope] {
        var generator = RandomCommandGenerator(seed: seed, expectedRevisionRate: 0.3)
        var recipe = Recipe(id: generator.recipeID())
        var envelopes: [CommandEnvelope] = []
        envelopes.reserveCapacity(count)
        for index in 0..<count {
            if index % 2 == 0 {
                envelopes.append(generator.arbitraryEnvelope())
            } else {
                if recipe.isDeleted || recipe.revision > 60 { recipe = Recipe(id: generator.recipeID()) }
                let envelope = generator.nextEnvelope(for: recipe)
                recipe.apply(envelope)
                envelopes.append(envelope)
            }
        }
        return envelopes
    }
}
