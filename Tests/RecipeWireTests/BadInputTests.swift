import Foundation
import RecipeDomain
import RecipeWire
import Testing

/// Each class of bad input gets its own code, and field errors name the field.
@Suite("Bad input")
struct BadInputTests {
    /// A v1 record: records of the first version stay on the log, so the decoder's
    /// checks are shown on one.
    static let golden = WrongExamples.record("IngredientAdded", data: #"{"name":"Flour","amount":250,"metric":"g"}"#, version: 1)

    func decode(_ json: String, key: String? = GoldenCases.recipeID.text) -> Result<DecodedRecord, WireError> {
        WireTestSupport.decoder.decode(key: key.map { Array($0.utf8) }, value: Array(json.utf8))
    }

    func expectError(_ json: String, _ code: RejectionCode, field: String? = nil, mentions: String? = nil,
                     key: String? = GoldenCases.recipeID.text, sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .failure(let error) = decode(json, key: key) else {
            Issue.record("decoded \(json.prefix(200))", sourceLocation: sourceLocation)
            return
        }
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let field {
            #expect(error.field == field, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(field), "\(error)", sourceLocation: sourceLocation)
        }
        if let mentions { #expect(error.message.contains(mentions), "\(error)", sourceLocation: sourceLocation) }
    }

    @Test func theBaseRecordDecodes() throws {
        #expect(try decode(Self.golden).get().envelope == GoldenCases.older[0].envelope)
    }

    @Test func malformedJSONIsMalformed() {
        for bad in ["", " ", "{", "}", "[]", "null", "\"text\"", "{\"a\":}", "{\"a\" 1}", "{\"a\":1,}", "{,}", "{\"a\":01}",
                    "{\"a\":1.}", "{\"a\":.5}", "{\"a\":+1}", "{\"a\":tru}", "{\"a\":NaN}", "{\"a\":Infinity}",
                    "{'a':1}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12G4\"}", "{\"a\":\"tab\there\"}", Self.golden + "x",
                    Self.golden + "{}", String(Self.golden.dropLast()), "\u{FEFF}" + Self.golden] {
            expectError(bad, .malformed, mentions: "JSON")
        }
    }

    @Test func invalidUTF8IsMalformed() {
        var bytes = Array(Self.golden.utf8)
        let flour = bytes.firstIndex(of: UInt8(ascii: "F"))!
        for sequence: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3]] {
            var broken = bytes
            broken.replaceSubrange(flour...flour, with: sequence)
            let result = WireTestSupport.decoder.decode(key: Array(GoldenCases.recipeID.text.utf8), value: broken)
            #expect(result.failureCode == .malformed)
            if case .failure(let error) = result { #expect(error.message.contains("UTF-8")) }
        }
        bytes.replaceSubrange(flour...flour, with: Array("\\ud83c".utf8)) // a lone high surrogate
        #expect(WireTestSupport.decoder.decode(value: bytes).failureCode == .malformed)
    }

    @Test func repeatedKeysAreMalformed() {
        expectError(Self.golden.replacingOccurrences(of: #""actor":"alice""#, with: #""actor":"alice","actor":"mallory""#),
                    .malformed, field: "actor", mentions: "twice")
        expectError(Self.golden.replacingOccurrences(of: #""amount":250"#, with: #""amount":250,"amount":2500"#),
                    .malformed, field: "data.amount", mentions: "twice")
        // The same key spelled with an escape is the same key.
        expectError(Self.golden.replacingOccurrences(of: #""actor":"alice""#, with: #""actor":"alice","\u0061ctor":"eve""#),
                    .malformed, field: "actor")
        expectError(Self.golden.replacingOccurrences(of: #""actor":"alice""#, with: #""actor":"alice","trace":1,"trace":2"#),
                    .malformed, mentions: "twice")
    }

    @Test func deepNestingIsMalformedWithoutRecursingDeeply() {
        // 100,000 brackets are over the size cap; the scanner alone is checked with
        // them in RobustnessTests. Under the cap, nesting stops at depth 32.
        let deep = String(repeating: "[", count: 60_000)
        expectError(deep, .malformed, mentions: "expected an object")
        expectError(#"{"x":"# + deep, .malformed, mentions: "nested")
        expectError(String(repeating: #"{"a":"#, count: 10_000), .malformed, mentions: "nested")
        // The envelope is depth 1, so an extension may nest 31 arrays (depth 32), not 32.
        let nested = String(repeating: "[", count: 31) + String(repeating: "]", count: 31)
        #expect(decode(Self.golden.replacingOccurrences(of: #""actor""#, with: #""ext":\#(nested),"actor""#)).failureCode == nil)
        let tooDeep = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        expectError(Self.golden.replacingOccurrences(of: #""actor""#, with: #""ext":\#(tooDeep),"actor""#), .malformed, mentions: "32")
    }

    @Test func missingOrMistypedFieldsAreMalformedAndNamed() {
        expectError(WrongExamples.envelope("actor", nil), .malformed, field: "actor", key: "r-1")
        expectError(WrongExamples.envelope("id", "7"), .malformed, field: "id", key: "r-1")
        expectError(WrongExamples.envelope("time", "1796120100"), .malformed, field: "time", key: "r-1")
        expectError(WrongExamples.envelope("data", "null"), .malformed, field: "data", key: "r-1")
        expectError(WrongExamples.envelope("data", #"{"title":null}"#), .malformed, field: "data.title", key: "r-1")
        expectError(WrongExamples.envelope("data", #"{"name":"x"}"#), .malformed, field: "data", mentions: "name", key: "r-1")
        expectError(WrongExamples.record("IngredientAdded", data: #"{"name":"Flour","metric":"g"}"#, version: 1),
                    .malformed, field: "data.amount")
        expectError(WrongExamples.record("IngredientAdded", data: #"{"name":"Flour","amount":"1","metric":"g"}"#, version: 1),
                    .malformed, field: "data.amount", mentions: "a number")
        expectError(WrongExamples.record("IngredientAdded", data: #"{"name":"Flour","amount":"1"}"#),
                    .malformed, field: "data.amount", mentions: "a number")
        // An item of a list is named by its place.
        expectError(WrongExamples.record("DraftContentSet", data: #"{"title":"x","ingredients":[{"name":"a"},{"name":5}],"instructions":[],"tags":[]}"#),
                    .malformed, field: "data.ingredients[1].name")
        expectError(WrongExamples.record("DraftContentSet", data: #"{"title":"x","ingredients":[],"instructions":[{"description":"a","extra":1}],"tags":[]}"#),
                    .malformed, field: "data.instructions[0]", mentions: "extra")
        expectError(WrongExamples.record("ServingsChanged", data: #"{"servings":2.5}"#), .malformed, field: "data.servings")
    }

    @Test func unknownTypesAndVersionsHaveTheirOwnCodes() {
        expectError(WrongExamples.envelope("type", #""recipes.Frobnicated.v1""#), .unknownType, field: "type", key: "r-1")
        expectError(WrongExamples.envelope("type", #""recipes.titlechanged.v1""#), .unknownType, field: "type", key: "r-1")
        expectError(WrongExamples.envelope("type", #""recipes.TitleChanged""#), .unknownType, field: "type", key: "r-1")
        expectError(WrongExamples.envelope("type", #""recipes.TitleChanged.v01""#), .unknownType, field: "type", key: "r-1")
        expectError(WrongExamples.envelope("type", #""recipes.TitleChanged.v2""#), .unsupportedVersion, field: "type",
                    mentions: "v1", key: "r-1")
        expectError(WrongExamples.envelope("type", #""recipes.TitleChanged.v999999""#), .unsupportedVersion, key: "r-1")
        expectError(WrongExamples.envelope("specversion", #""2.0""#), .unsupportedVersion, field: "specversion", key: "r-1")
        expectError(WrongExamples.envelope("type", "1"), .malformed, field: "type", key: "r-1")
    }

    @Test func theKeyMustBeTheSubject() {
        expectError(Self.golden, .keyMismatch, field: "subject", key: "another-recipe")
        expectError(Self.golden, .keyMismatch, field: "subject", key: nil)
        expectError(Self.golden, .keyMismatch, field: "subject", key: GoldenCases.recipeID.text.uppercased())
        #expect(decode(Self.golden, key: GoldenCases.recipeID.text).failureCode == nil)
        // Without a key to compare with (records from files), nothing is compared.
        #expect(WireTestSupport.decoder.decode(value: Array(Self.golden.utf8)).failureCode == nil)
    }

    /// Texts that are not recipe ids, each as the record's JSON writes it: a NUL (which the
    /// store's C text ended at), control characters, non-ASCII (both spellings of `crème`,
    /// one recipe to Swift's `String`, two to the store), and the rest of what the form leaves out.
    static let notIDs: [(text: String, json: String)] = [
        (GoldenCases.recipeID.text + "\0x", GoldenCases.recipeID.text + #"\u0000x"#), ("r\u{1}", #"r\u0001"#), ("r\n", #"r\n"#),
        ("r\u{1F}", #"r\u001f"#), ("r\u{7F}", "r\u{7F}"), ("cr\u{E8}me-x1", "cr\u{E8}me-x1"), ("cr\u{E8}me-x1", #"cr\u00e8me-x1"#),
        ("cre\u{300}me-x1", "cre\u{300}me-x1"), ("a/b", "a/b"), ("a b", "a b"), ("-a", "-a"), ("", ""),
        (String(repeating: "a", count: 129), String(repeating: "a", count: 129)),
    ]

    @Test func aSubjectThatIsNoRecipeIDIsMalformedWhateverTheKey() {
        let subject = #""subject":"\#(GoldenCases.recipeID)""#
        for bad in Self.notIDs {
            let record = Self.golden.replacingOccurrences(of: subject, with: #""subject":"\#(bad.json)""#)
            for key in [bad.text, GoldenCases.recipeID.text] {
                guard case .failure(let error) = decode(record, key: key) else {
                    Issue.record("decoded the subject \(bad.text.debugDescription)")
                    continue
                }
                #expect(error.code == .malformed && error.field == "subject", "\(error)")
                #expect(error.message == "subject \(RecipeID.quoted(bad.text)) is not a recipe id (\(RecipeID.form)).", "\(error)")
                #expect(error.recipeID == nil, "a rejection names no recipe the record could not name")
            }
            // Read from a file, without a key, it is refused the same.
            #expect(WireTestSupport.decoder.decode(value: Array(record.utf8)).failureCode == .malformed)
        }
    }

    @Test func aKeyThatIsNoRecipeIDIsMalformed() {
        for bad in Self.notIDs {
            guard case .failure(let error) = decode(Self.golden, key: bad.text) else {
                Issue.record("decoded the key \(bad.text.debugDescription)")
                continue
            }
            #expect(error.code == .malformed, "\(error)")
            #expect(error.message == "The record key \(RecipeID.quoted(bad.text)) is not a recipe id (\(RecipeID.form)).", "\(error)")
            // The subject is the recipe the record meant; it is named for the rejection's sake only.
            #expect(error.recipeID == GoldenCases.recipeID)
        }
        let notUTF8 = WireTestSupport.decoder.decode(key: Array(GoldenCases.recipeID.text.utf8) + [0xFF], value: Array(Self.golden.utf8))
        #expect(notUTF8.failureCode == .malformed)
    }

    @Test func recordsOverTheSizeCapAreTooLargeBeforeParsing() {
        let padding = String(repeating: "x", count: WireFormat.maxRecordSize)
        let big = Self.golden.replacingOccurrences(of: #""actor""#, with: #""pad":"\#(padding)","actor""#)
        expectError(big, .tooLarge, mentions: String(WireFormat.maxRecordSize))
        // Size comes first: even garbage over the cap is tooLarge, not malformed.
        expectError(String(repeating: "[", count: WireFormat.maxRecordSize + 1), .tooLarge)
        // Exactly at the cap is read.
        let fill = WireFormat.maxRecordSize - Self.golden.utf8.count - #""pad":"","#.utf8.count
        let atCap = Self.golden.replacingOccurrences(of: #""actor""#, with: #""pad":"\#(String(repeating: "x", count: fill))","actor""#)
        #expect(atCap.utf8.count == WireFormat.maxRecordSize)
        #expect(decode(atCap).failureCode == nil)
    }

    @Test func valuesOutOfTheDomainsLimitsAreInvalidAndNamed() {
        let record = { (data: String) in WrongExamples.record("IngredientAdded", data: data, version: 1) }
        expectError(record(#"{"name":"Flour","amount":1e999,"metric":"g"}"#), .invalid, field: "data.amount", mentions: "finite")
        expectError(record(#"{"name":"Flour","amount":-1e999,"metric":"g"}"#), .invalid, field: "data.amount")
        expectError(record(#"{"name":"Flour","amount":0,"metric":"g"}"#), .invalid, field: "data.amount")
        expectError(record(#"{"name":"Flour","amount":1e-400,"metric":"g"}"#), .invalid, field: "data.amount")
        expectError(record(#"{"name":"\#(String(repeating: "日", count: 201))","amount":1,"metric":"g"}"#),
                    .invalid, field: "data.name", mentions: "200")
        expectError(WrongExamples.record("InstructionUpdated", data: #"{"instructionId":"s","description":"\#(String(repeating: "x", count: 60_000))"}"#),
                    .invalid, field: "data.description")
        expectError(WrongExamples.record("ServingsChanged", data: #"{"servings":1e30}"#), .invalid, field: "data.servings")
        expectError(WrongExamples.record("ServingsChanged", data: #"{"servings":-100000000000000000000}"#), .invalid, field: "data.servings")
        expectError(Self.golden.replacingOccurrences(of: #""expectedrevision":4"#, with: #""expectedrevision":9007199254740992"#),
                    .invalid, field: "expectedrevision")
        // 201 scalars but exactly 200 characters as a person sees them would be: scalars count.
        expectError(WrongExamples.record("TitleChanged", data: #"{"title":"\#(String(repeating: "e\u{301}", count: 100))e"}"#),
                    .invalid, field: "data.title")
    }

    @Test func failuresCarryTheCommandAndRecipeOnceKnown() throws {
        let result = decode(WrongExamples.record("ServingsChanged", data: #"{"servings":0}"#))
        guard case .failure(let error) = result else { throw WireError(.invalid, "decoded") }
        #expect(error.commandID == GoldenCases.commandID)
        #expect(error.recipeID == GoldenCases.recipeID)
        #expect(error.rejection == Rejection(.invalid, error.message))
        let unknown = decode(Self.golden.replacingOccurrences(of: "recipes.IngredientAdded.v1", with: "recipes.Baked.v1"))
        guard case .failure(let unknownType) = unknown else { throw WireError(.invalid, "decoded") }
        #expect(unknownType.code == .unknownType && unknownType.commandID == GoldenCases.commandID)
        guard case .failure(let syntax) = decode("{") else { throw WireError(.invalid, "decoded") }
        #expect(syntax.commandID == nil && syntax.recipeID == nil && syntax.field == nil)
    }
}
