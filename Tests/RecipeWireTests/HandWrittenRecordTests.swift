import Foundation
import RecipeDomain
import RecipeWire
import Testing

/// A record as someone would type it for `kcat -P`: pretty-printed, members in
/// another order, escapes, an offset time, `2.5e2` and `4.0` for integers, and
/// an extension attribute (`traceparent`) to ignore.
@Suite("Hand-written records")
struct HandWrittenRecordTests {
    @Test func aPrettyPrintedRecordInAnotherOrderDecodes() throws {
        let bytes = try [UInt8](Data(contentsOf: WireTestSupport.fixturesDirectory.appendingPathComponent("kcat-IngredientAdded.json")))
        let decoded = try WireTestSupport.decode(bytes).get()
        #expect(decoded.envelope == GoldenCases.older.first { $0.name == "IngredientAdded" }!.envelope)
        #expect(decoded.source == "kcat")
        #expect(decoded.typeVersion == 1)
        // Written back, it is today's canonical record of the same command: v2, the
        // unit under its v2 name.
        let canonical = try String(contentsOf: GoldenCases.goldenFile("IngredientAdded", version: 1), encoding: .utf8)
            .replacingOccurrences(of: "recipes-cli", with: "kcat")
            .replacingOccurrences(of: "IngredientAdded.v1", with: "IngredientAdded.v2")
            .replacingOccurrences(of: #""metric":"g""#, with: #""unit":"g""#)
        #expect(WireTestSupport.text(RecordEncoder(source: "kcat").encode(decoded.envelope)) == canonical)
    }

    @Test func optionalAttributesMayBeLeftOut() throws {
        let minimal = #"{"specversion":"1.0","id":"c1","source":"/tools/import","type":"recipes.RecipeSaved.v1","subject":"r1","time":"2026-12-01t10:15:00z","actor":"importer","data":{}}"#
        let decoded = try WireTestSupport.decode(minimal, key: "r1").get()
        #expect(decoded.envelope == CommandEnvelope(
            commandID: "c1", recipeID: "r1", actor: "importer", time: GoldenCases.time, expectedRevision: nil, command: .recipeSaved))
    }

    @Test func imageChangedWithNullRemovesThePicture() throws {
        let record = WrongExamples.record("ImageChanged", data: #"{"url":null}"#)
        #expect(try WireTestSupport.decode(record).get().envelope.command == .imageChanged(url: nil))
        let encoded = WireTestSupport.text(WireTestSupport.encoder.encode(GoldenCases.envelope(.imageChanged(url: nil))))
        #expect(encoded.hasSuffix(#""data":{"url":null}}"#))
    }
}
