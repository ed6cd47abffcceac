import Foundation
import RecipeDomain
import RecipeWire
import Testing

/// The canonical encoding of every command type is pinned in Golden/<Type>.v1.json.
/// Set RECIPEWIRE_UPDATE_GOLDEN=1 to rewrite them after a deliberate format change
/// (which for records already on the log means a new version; see Schemas/README.md).
@Suite("Golden records")
struct GoldenTests {
    static let updating = ProcessInfo.processInfo.environment["RECIPEWIRE_UPDATE_GOLDEN"] == "1"

    @Test func thereIsOneGoldenCasePerCommandType() {
        #expect(GoldenCases.all.map(\.name) == RecipeCommand.Kind.allCases.map(\.rawValue))
        #expect(GoldenCases.all.map(\.envelope.command.kind) == RecipeCommand.Kind.allCases)
    }

    @Test(arguments: GoldenCases.all.map(\.name))
    func theEncoderWritesExactlyTheGoldenFile(name: String) throws {
        let envelope = try #require(GoldenCases.all.first { $0.name == name }?.envelope)
        let encoded = WireTestSupport.encoder.encode(envelope)
        let file = GoldenCases.goldenFile(name)
        if Self.updating { try Data(encoded).write(to: file) }
        let golden = try [UInt8](Data(contentsOf: file))
        #expect(WireTestSupport.text(encoded) == WireTestSupport.text(golden))
        #expect(encoded == golden)
    }

    @Test(arguments: GoldenCases.all.map(\.name))
    func theGoldenFileDecodesToItsEnvelope(name: String) throws {
        let envelope = try #require(GoldenCases.all.first { $0.name == name }?.envelope)
        let golden = try [UInt8](Data(contentsOf: GoldenCases.goldenFile(name)))
        let decoded = try WireTestSupport.decode(golden).get()
        #expect(decoded.envelope == envelope)
        #expect(decoded.source == "recipes-cli")
        #expect(decoded.typeVersion == WireFormat.currentVersion(of: envelope.command.kind))
    }

    /// Records of older versions stay on the log forever: each older golden file
    /// decodes, upcast, to today's command with the same meaning.
    @Test(arguments: GoldenCases.older.map { "\($0.name).v\($0.version)" })
    func anOlderGoldenFileDecodesToItsUpcastEnvelope(file: String) throws {
        let older = try #require(GoldenCases.older.first { "\($0.name).v\($0.version)" == file })
        let golden = try [UInt8](Data(contentsOf: GoldenCases.goldenFile(older.name, version: older.version)))
        let decoded = try WireTestSupport.decode(golden).get()
        #expect(decoded.envelope == older.envelope)
        #expect(decoded.typeVersion == older.version)
        #expect(older.version < WireFormat.currentVersion(of: older.envelope.command.kind))
    }

    @Test func theDocumentedExampleIsTheGoldenIngredientAdded() throws {
        let golden = try String(contentsOf: GoldenCases.goldenFile("IngredientAdded", version: 1), encoding: .utf8)
        #expect(golden == #"{"specversion":"1.0","id":"0b0e7c52-2f1c-4a0e-9a51-6f9f3c2a1d10","source":"recipes-cli","type":"recipes.IngredientAdded.v1","subject":"5a8f2c1e-8d7b-4e3a-9c41-2b7d9e0f6a55","time":"2026-12-01T10:15:00Z","datacontenttype":"application/json","dataschema":"Schemas/commands/IngredientAdded.v1.schema.json","actor":"alice","expectedrevision":4,"data":{"name":"Flour","amount":250,"metric":"g"}}"#)
    }
}
