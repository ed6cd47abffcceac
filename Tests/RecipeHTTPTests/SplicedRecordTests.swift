import Foundation
import RecipeDomain
import RecipeHTTP
import RecipeWire
import RecipeWriteSide
import Testing

/// `CommandBuilder` appends the bytes it spliced together and validated, instead of encoding
/// the decoded command again, when they are canonical: those bytes must be exactly what the
/// encoder writes (the old path), and what the decoder reads back as the same command.
@Suite("Records from validated bytes")
struct SplicedRecordTests {
    static let goldenDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RecipeWireTests/Golden")

    struct Golden {
        var name: String
        var bytes: [UInt8]
        var decoded: DecodedRecord
        /// The `data` object as the file writes it.
        var data: String
    }

    static func goldens() throws -> [Golden] {
        let names = try FileManager.default.contentsOfDirectory(atPath: goldenDirectory.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            let text = try String(contentsOf: goldenDirectory.appendingPathComponent(name), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let bytes = Array(text.utf8)
            let decoded = try RecordDecoder().decode(value: bytes).get()
            let data = try #require(text.range(of: #","data":"#, options: .backwards))
            return Golden(name: name, bytes: bytes, decoded: decoded, data: String(text[data.upperBound...].dropLast()))
        }
    }

    /// A `send --stdin` line for the golden's command, its data written as `data`.
    static func line(_ golden: Golden, data: String, id: String? = nil) -> [UInt8] {
        let envelope = golden.decoded.envelope
        var line = #"{"type":"\#(envelope.command.kind.rawValue)","recipe":"\#(envelope.recipeID)","id":"\#(id ?? envelope.commandID)""#
        if let expected = envelope.expectedRevision { line += #","expectedRevision":\#(expected)"# }
        return Array((line + #","data":\#(data)}"#).utf8)
    }

    /// What `recipes send` appends for the line (`CommandAppender.message(_:)` takes `value`), and
    /// what the path before (encoding the decoded command) appended.
    static func appended(_ line: [UInt8], _ golden: Golden) throws -> (new: [UInt8], old: [UInt8], command: CommandBuilder.Command) {
        let builder = CommandBuilder(source: golden.decoded.source)
        var chunk = CommandBuilder.Chunk(time: golden.decoded.envelope.time, commands: 1)
        let command = try builder.command(line: line, actor: golden.decoded.envelope.actor, chunk: &chunk)
        let old = RecordEncoder(source: builder.source)
            .encode(try builder.envelope(line: line, actor: golden.decoded.envelope.actor, time: golden.decoded.envelope.time).envelope)
        return (command.value, old, command)
    }

    @Test func aCanonicalLineIsAppendedAsTheGoldenRecordItself() throws {
        var spliced = 0
        for golden in try Self.goldens() {
            let (new, old, command) = try Self.appended(Self.line(golden, data: golden.data), golden)
            #expect(new == old, "\(golden.name)")
            #expect(try RecordDecoder().decode(value: new).get().envelope == command.decoded.envelope, "\(golden.name)")
            // The command's record key is the recipe's.
            #expect(command.key == RecordKey.key(forRecipe: golden.decoded.envelope.recipeID))
            let current = golden.decoded.typeVersion == WireFormat.currentVersion(of: golden.decoded.envelope.command.kind)
            // An older version is written at today's (the same bytes when its data is also today's, as
            // InstructionAdded.v1's is v2's without a section): `new == old` above is the check.
            guard current else { continue }
            // A line cannot give an actor role: its record is the golden's without one.
            guard golden.decoded.envelope.actorRole == nil else { continue }
            #expect(command.record == golden.bytes, "\(golden.name)")
            spliced += 1
        }
        #expect(spliced >= 20)
    }

    @Test func aBatchItemIsAppendedAsTheGoldenRecordWithItsActorRole() throws {
        var spliced = 0
        for golden in try Self.goldens() {
            let envelope = golden.decoded.envelope
            let builder = CommandBuilder(source: golden.decoded.source)
            var chunk = CommandBuilder.Chunk(time: envelope.time, commands: 1)
            let command = try Self.line(golden, data: golden.data).withUnsafeBytes { item in
                try builder.command(batchItem: item, actor: envelope.actor, actorRole: envelope.actorRole, chunk: &chunk)
            }
            #expect(command.decoded.envelope.actorRole == envelope.actorRole, "\(golden.name)")
            #expect(command.value == RecordEncoder(source: builder.source).encode(command.decoded.envelope), "\(golden.name)")
            guard golden.decoded.typeVersion == WireFormat.currentVersion(of: envelope.command.kind) else { continue }
            #expect(command.record == golden.bytes, "\(golden.name)")
            spliced += 1
        }
        #expect(spliced >= 20)
    }

    @Test func aLineWrittenAnotherWayIsEncodedAgainToTheSameBytes() throws {
        for golden in try Self.goldens() {
            let envelope = golden.decoded.envelope
            // Whitespace in the data; the id with an escape (`\u0030` is `0`).
            let spaced = golden.data.replacingOccurrences(of: ":", with: " : ")
            let escapedID = envelope.commandID.replacingOccurrences(of: "0", with: #"\u0030"#)
            for line in [Self.line(golden, data: spaced), Self.line(golden, data: golden.data, id: escapedID)]
            where line != Self.line(golden, data: golden.data) {
                let (new, old, command) = try Self.appended(line, golden)
                #expect(command.record == nil, "\(golden.name): \(String(decoding: line, as: UTF8.self))")
                #expect(new == old, "\(golden.name)")
                #expect(try RecordDecoder().decode(value: new).get().envelope == command.decoded.envelope)
            }
        }
    }

    @Test func dataMembersInAnotherOrderOrAnAmountWrittenAnotherWayAreNotTakenAsCanonical() throws {
        let builder = CommandBuilder(source: "recipes-cli")
        var chunk = CommandBuilder.Chunk(time: Timestamp(millisecondsSinceEpoch: 1_764_584_100_000), commands: 3)
        let lines = [
            #"{"type":"IngredientAdded","recipe":"r-1","data":{"amount":250,"name":"Flour","unit":"g"}}"#,
            #"{"type":"IngredientAdded","recipe":"r-1","data":{"name":"Flour","amount":250.0,"unit":"g"}}"#,
            #"{"type":"IngredientAdded","recipe":"r-1","expectedRevision":4.0,"data":{"name":"Flour","amount":250,"unit":"g"}}"#,
            #"{"type":"IngredientAdded","recipe":"r-1","data":{"name":"Flour","amount":250,"metric":"g"}}"#,
        ]
        for line in lines {
            let command = try builder.command(line: Array(line.utf8), actor: "bench", chunk: &chunk)
            #expect(command.record == nil, "\(line)")
        }
        let canonical = try builder.command(line: Array(#"{"type":"IngredientAdded","recipe":"r-1","data":{"name":"Flour","amount":250,"unit":"g"}}"#.utf8),
                                            actor: "bench", chunk: &chunk)
        #expect(canonical.record == RecordEncoder(source: "recipes-cli").encode(canonical.decoded.envelope))
    }

    @Test func theIDsOfAChunkAreDistinctVersion4UUIDs() {
        var chunk = CommandBuilder.Chunk(commands: 600)
        let builder = CommandBuilder(source: "recipes-cli")
        let ids = (0..<600).compactMap { _ in
            try? builder.command(line: Array(#"{"type":"RecipeSaved","recipe":"r-1"}"#.utf8), actor: "a", chunk: &chunk).decoded.envelope.commandID
        }
        #expect(ids.count == 600)
        #expect(Set(ids).count == 600)
        #expect(ids.allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.lowercased() && Array($0)[14] == "4" })
    }
}
