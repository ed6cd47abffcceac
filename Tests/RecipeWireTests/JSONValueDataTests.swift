import Foundation
import RecipeDomain
import RecipeGenerators
import RecipeJSON
@testable import RecipeWire
import Testing

/// `JSONValue.data(ofRecord:)` is what the audit tools show as a command's data: read by the
/// records' scanner where it is certain to read what Foundation's `JSONDecoder` reads, by
/// Foundation otherwise. Both ways must give the same value.
@Suite("A record's data, as the audit tools read it")
struct JSONValueDataTests {
    @Test("the scanner reads the data of thousands of commands as Foundation does, and answers for every plausible one")
    func randomCommands() {
        var generator = RandomCommandGenerator(seed: 11)
        var recipe = Recipe(id: generator.recipeID())
        var (answered, fractions) = (0, 0)
        for index in 0..<4000 {
            // Half plausible edits of one recipe, half arbitrary commands (extreme amounts such as 1e+300 among them).
            let plausible = index.isMultiple(of: 2)
            let envelope = plausible ? generator.nextEnvelope(for: recipe) : generator.arbitraryEnvelope()
            if plausible { _ = recipe.apply(envelope) }
            let bytes = WireTestSupport.encoder.encode(envelope)
            let text = String(decoding: bytes, as: UTF8.self)
            let decoded = JSONValue.decodedData(ofRecord: bytes)
            #expect(JSONValue.data(ofRecord: bytes) == decoded, "\(text)")
            guard let scanned = JSONValue.scannedData(ofRecord: bytes) else {
                if plausible { Issue.record("the scanner left a plausible command to Foundation: \(text)") }
                continue
            }
            answered += 1
            #expect(scanned == decoded, "\(text)")
            if text.contains(#"amount":"#), text.range(of: #"amount":-?[0-9]+\.[0-9]"#, options: .regularExpression) != nil { fractions += 1 }
        }
        #expect(answered > 3900)
        #expect(fractions > 50, "fractional amounts were among those the scanner read")
    }

    @Test("where the scanner answers, it answers as Foundation; where it cannot be sure, Foundation does", arguments: [
        (#"{"data":{"amount":4,"unit":"g"}}"#, true),
        (#"{"data":{"amount":4.5,"servings":-0}}"#, true),
        (#"{"data":{"on":true,"off":false,"one":1,"zero":0,"nothing":null}}"#, true),
        (#"{"data":{"text":"caf\u00e9 \ud83d\ude00 \"quoted\" \\ \/ \n","raw":"crème brûlée"}}"#, true),
        (#"{"data":[1,[2,[3,{"four":[]}]],{}]}"#, true),
        (#"{"data":null}"#, true),
        (#"{"type":"TitleChanged"}"#, true),
        (#"{"data":"text"}"#, true),
        (#"{"data":-12.25}"#, true),
        (#"  {"specversion":"1.0", "data" : { "title" : "Soup" } }  "#, true),
        (#"[{"data":{}}]"#, true),
        (#"{"data":{"huge":1e+300,"negative":-1E+19,"edge":9.3e18}}"#, true),
        // Foundation reads 4.0 and 9.2e18 as integers, 9.3e18 and 1e+300 as doubles, a key given
        // twice as its first, and fails the whole record on 1E400: left to it.
        (#"{"data":{"amount":4.0}}"#, false),
        (#"{"data":{"amount":1e2,"small":1.5e-3,"big":1E400}}"#, false),
        (#"{"data":{"huge":1e+300,"negative":-1E+19,"edge":9.3e18,"inside":9.2e18}}"#, false),
        (#"{"data":{"id":12345678901234567890,"safe":9007199254740993,"min":-9223372036854775808}}"#, false),
        (#"{"data":{"name":"a","name":"b"}}"#, false),
        (#"{"data":1,"data":2}"#, false),
        (#"{"data":{"title":"Soup"}"#, false),
        (#"{"data":{"title":"Soup"}} trailing"#, false),
        (#"not json"#, false),
        ("", false),
    ])
    func trickyRecords(_ text: String, scannerAnswers: Bool) {
        let bytes = Array(text.utf8)
        let decoded = JSONValue.decodedData(ofRecord: bytes)
        let scanned = JSONValue.scannedData(ofRecord: bytes)
        #expect((scanned != nil) == scannerAnswers)
        if let scanned { #expect(scanned == decoded) }
        #expect(JSONValue.data(ofRecord: bytes) == decoded)
    }

    @Test("invalid UTF-8 and nesting past the records' cap are left to Foundation, which reads them as it did")
    func whatTheScannerRefuses() {
        let invalid: [UInt8] = Array(#"{"data":{"title":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)
        let deep = Array((#"{"data":"# + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "}").utf8)
        for bytes in [invalid, deep] {
            #expect(JSONValue.scannedData(ofRecord: bytes) == nil)
            #expect(JSONValue.data(ofRecord: bytes) == JSONValue.decodedData(ofRecord: bytes))
        }
    }
}
