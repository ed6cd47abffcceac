import Foundation
import RecipeDomain
import RecipeJSON
import RecipeWire
@testable import RecipeSchemaOrg
import Testing

@Suite("Import: JSON read as pages write it")
struct LenientJSONTests {
    static func read(_ text: String) -> Result<JSONValue, LenientJSONReader.Failure> {
        var budget = LenientJSONReader.Budget(values: 1_000, depth: 16)
        return LenientJSONReader.read(Array(text.utf8)[...], budget: &budget)
    }

    @Test(arguments: [
        // What browsers and other importers take, and what it means.
        ("{\"a\": \"two\nlines\"}", JSONValue.object(["a": .string("two\nlines")])),
        ("{\"a\": \"tab\there\"}", .object(["a": .string("tab\there")])),
        (#"{"a": "Don\'t"}"#, .object(["a": .string("Don't")])),
        (#"{"a": 'single'}"#, .object(["a": .string("single")])),
        (#"{a: 1, "@b": true}"#, .object(["a": .integer(1), "@b": .bool(true)])),
        (#"{"a": [1, 2,], "b": 3,}"#, .object(["a": .array([.integer(1), .integer(2)]), "b": .integer(3)])),
        ("{\"a\": 1};", .object(["a": .integer(1)])),
        ("// <![CDATA[\n{\"a\": 1}\n// ]]>", .object(["a": .integer(1)])),
        ("/*<![CDATA[*/{\"a\": 1}/*]]>*/", .object(["a": .integer(1)])),
        ("<!-- {\"a\": 1} -->", .object(["a": .integer(1)])),
        ("<![CDATA[ {\"a\": 1} ]]>", .object(["a": .integer(1)])),
        ("\u{FEFF}\u{00A0}{\"a\": 1}", .object(["a": .integer(1)])),
        (#"{"a": 1}{"b": 2}"#, .array([.object(["a": .integer(1)]), .object(["b": .integer(2)])])),
        ("{\"a\": 1}\n{\"b\": 2}\n", .array([.object(["a": .integer(1)]), .object(["b": .integer(2)])])),
        (#"{"a": 1} window.other = 2;"#, .object(["a": .integer(1)])),
        (#"{"a": undefined, "b": NaN}"#, .object(["a": .null, "b": .null])),
        (#"{"a": "x" "b": "y"}"#, .object(["a": .string("x"), "b": .string("y")])),
        (#"{"a": "\ud83c\udf4b \ud83c \u00e9 \q"}"#, .object(["a": .string("🍋 \u{FFFD} é q")])),
        (#"[-1.5e3, +2, .5, 9007199254740993]"#, .array([.number(-1500), .integer(2), .number(0.5), .integer(9_007_199_254_740_993)])),
    ])
    func readsWhatPagesWrite(text: String, value: JSONValue) {
        #expect(Self.read(text) == .success(value))
    }

    @Test(arguments: [
        (#"{"a": }"#, "expected a value at line 1, column 7"),
        ("{\n  \"a\": \"cut off", "expected the end of a string at line 2, column 16"),
        (#"{"a" 1}"#, "expected \":\" after a member name at line 1, column 6"),
        ("[1, 2", "expected \"]\" at line 1, column 6"),
        ("", "there is no value in it"),
        ("hello", "expected a value at line 1, column 1"),
    ])
    func refusesWhatIsNotJSONShapedSayingWhere(text: String, reason: String) {
        guard case .failure(.syntax(let message)) = Self.read(text) else {
            Issue.record("\(text.debugDescription) was read")
            return
        }
        #expect(message.hasPrefix(reason), "\(message)")
    }

    @Test("valid JSON reads exactly as the strict decoder reads it (800 generated exports)")
    func validJSONReadsAsTheStrictDecoder() throws {
        var generator = DocumentGenerator(seed: 26)
        for _ in 0..<800 {
            let data = SchemaOrgExport.jsonLD(generator.document())
            var budget = LenientJSONReader.Budget(values: SchemaOrgImport.maxValues, depth: SchemaOrgImport.maxDepth)
            let lenient = LenientJSONReader.read(Array(data)[...], budget: &budget)
            let strict = try JSONDecoder().decode(JSONValue.self, from: data)
            #expect(lenient == .success(strict), "\(String(decoding: data, as: UTF8.self))")
        }
    }

    @Test("the budget counts every value and bounds the depth")
    func theBudget() {
        var budget = LenientJSONReader.Budget(values: 5, depth: 2)
        #expect(LenientJSONReader.read(Array(#"{"a": [1, 2]}"#.utf8)[...], budget: &budget) == .success(.object(["a": .array([.integer(1), .integer(2)])])))
        #expect(budget.values == 1)
        #expect(LenientJSONReader.read(Array("[1, 2]".utf8)[...], budget: &budget) == .failure(.overBudget("more than 5 values")))
        var deep = LenientJSONReader.Budget(values: 100, depth: 2)
        #expect(LenientJSONReader.read(Array("[[[1]]]".utf8)[...], budget: &deep) == .failure(.overBudget("objects and lists nested deeper than 2 levels")))
    }
}
