import Foundation
import RecipeDomain
import RecipeGenerators
import RecipeJSON
@testable import RecipeWire
import Testing

@Suite("Topics, keys, header")
struct TopicsTests {
    @Test func topicNamesTakeThePrefix() {
        #expect(RecipeTopics().edits == "recipes.edits")
        #expect(RecipeTopics(prefix: "staging.").edits == "staging.recipes.edits")
        #expect(RecipeTopics(prefix: "dev-").committed == "dev-recipes.committed")
    }

    @Test func prefixesAreCheckedAgainstKafkasRules() {
        #expect(RecipeTopics.problem(withPrefix: "") == nil)
        #expect(RecipeTopics.problem(withPrefix: "team_a.staging-1.") == nil)
        #expect(RecipeTopics.problem(withPrefix: "staging/") != nil)
        #expect(RecipeTopics.problem(withPrefix: "prod ") != nil)
        #expect(RecipeTopics.problem(withPrefix: String(repeating: "a", count: 240)) != nil)
    }

    @Test func theKeyIsTheRecipeIdsUTF8() {
        #expect(RecordKey.key(forRecipe: "5a8f-e") == Array("5a8f-e".utf8))
        #expect(RecordKey.recipeID(fromKey: Array("r-1".utf8)) == "r-1")
        // A key that is no recipe id names no recipe: not UTF-8, non-ASCII, a NUL.
        #expect(RecordKey.recipeID(fromKey: [0xFF]) == nil)
        #expect(RecordKey.recipeID(fromKey: Array("5a8f-é".utf8)) == nil)
        #expect(RecordKey.recipeID(fromKey: Array("r\0x".utf8)) == nil)
    }

    @Test func theHeaderIsCloudEventsJSON() {
        #expect(WireFormat.contentTypeHeaderName == "content-type")
        #expect(WireFormat.contentType == "application/cloudevents+json")
        #expect(WireFormat.typeName(.ingredientAdded, version: 1) == "recipes.IngredientAdded.v1")
        #expect(WireFormat.dataSchema(.tagAdded, version: 1) == "Schemas/commands/TagAdded.v1.schema.json")
    }
}

@Suite("RFC 3339")
struct RFC3339Tests {
    func parse(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { RFC3339.parse(UnsafeRawBufferPointer($0))?.millisecondsSinceEpoch }
    }

    @Test func writesUTCWithMillisecondsOnlyWhenNotZero() {
        #expect(RFC3339.string(Timestamp(millisecondsSinceEpoch: 0)) == "1970-01-01T00:00:00Z")
        #expect(RFC3339.string(GoldenCases.time) == "2026-12-01T10:15:00Z")
        #expect(RFC3339.string(Timestamp(millisecondsSinceEpoch: 1_796_120_100_123)) == "2026-12-01T10:15:00.123Z")
        #expect(RFC3339.string(Timestamp(millisecondsSinceEpoch: 1_796_120_100_007)) == "2026-12-01T10:15:00.007Z")
        #expect(RFC3339.string(Timestamp(millisecondsSinceEpoch: -1)) == "1969-12-31T23:59:59.999Z")
        #expect(RFC3339.string(Timestamp(millisecondsSinceEpoch: 951_782_400_000)) == "2000-02-29T00:00:00Z")
        #expect(RFC3339.string(Timestamp(millisecondsSinceEpoch: .max)) == "9999-12-31T23:59:59.999Z")
        #expect(RFC3339.string(Timestamp(millisecondsSinceEpoch: .min)) == "0000-01-01T00:00:00Z")
    }

    @Test func readsEveryRFC3339Form() {
        let expected: Int64 = 1_796_120_100_000
        #expect(parse("2026-12-01T10:15:00Z") == expected)
        #expect(parse("2026-12-01t10:15:00z") == expected)
        #expect(parse("2026-12-01T11:15:00+01:00") == expected)
        #expect(parse("2026-12-01T05:45:00-04:30") == expected)
        #expect(parse("2026-12-01T10:15:00.000Z") == expected)
        #expect(parse("2026-12-01T10:15:00.1Z") == expected + 100)
        #expect(parse("2026-12-01T10:15:00.123999999Z") == expected + 123)
        #expect(parse("2026-12-01T10:15:00-00:00") == expected)
        #expect(parse("2016-12-31T23:59:60Z") == parse("2017-01-01T00:00:00Z"))
        #expect(parse("2024-02-29T00:00:00Z") != nil)
    }

    @Test func refusesWhatIsNotADateTime() {
        for text in ["", "2026-12-01", "2026-12-01T10:15Z", "2026-12-01T10:15:00", "2026-12-01 10:15:00Z",
                     "2026-13-01T10:15:00Z", "2026-02-29T10:15:00Z", "2026-04-31T10:15:00Z", "2026-12-01T24:00:00Z",
                     "2026-12-01T10:60:00Z", "2026-12-01T10:15:61Z", "2026-12-01T10:15:00.Z", "2026-12-01T10:15:00+0100",
                     "2026-12-01T10:15:00+24:00", "+2026-12-01T10:15:00Z", "2026-12-01T10:15:00Z ", "２026-12-01T10:15:00Z"] {
            #expect(parse(text) == nil, "\(text)")
        }
    }
}

@Suite("JSON as the records read it")
struct RecordJSONTests {
    /// `DataFields` matches a member to its field by the key's length and first eight
    /// bytes, then the rest: keys shorter than a word, as long as one and longer, two
    /// that only begin like a field's, one written with an escape, and one too near
    /// the end of the record for a word to be read there.
    @Test func aMemberKeyMatchesItsOwnFieldOnly() throws {
        let json = Array(#"{"id":1,"revision":2,"ingredientId":3,"ingredientIdx":4,"ingredientIX":8,"\u0069d":5,"amountMax":6,"ab":7}"#.utf8)
        let fields: [DataField] = [field("id"), field("revision"), field("ingredientId"), field("amountMax"), field("ab"), field("a")]
        try json.withUnsafeBytes { bytes in
            var scanner = JSONScanner(bytes, maxNestingDepth: WireFormat.maxNestingDepth)
            var writer = JSONTapeWriter(capacity: 4)
            _ = try scanner.value(depth: 1, onto: &writer)
            let tape = JSONTape(bytes: bytes, tokens: writer.tokens)
            var matches: [[String]] = []
            tape.forEachMember(ofObject: 0) { key, _ in
                matches.append(fields.filter { $0.isKey(tape[key], in: bytes) }.map(\.name))
            }
            #expect(matches == [["id"], ["revision"], ["ingredientId"], [], [], ["id"], ["amountMax"], ["ab"]])
        }
    }

    private func field(_ name: StaticString) -> DataField { DataField(name, .integer, .required) }

    @Test func escapedTextIsDecoded() throws {
        let record = WrongExamples.record("TitleChanged", data: #"{"title":"\u00e9\ud83c\udf70\n\"\/\\"}"#)
        #expect(try WireTestSupport.decode(record).get().envelope.command == .titleChanged(title: "é🍰\n\"/\\"))
    }
}
