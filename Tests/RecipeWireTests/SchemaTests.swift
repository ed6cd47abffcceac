import Foundation
import RecipeDomain
import RecipeWire
import Testing

/// The schemas in Schemas/ and the decoder describe the same records: what the
/// encoder writes validates, and what either refuses the other refuses too.
@Suite("JSON Schemas")
struct SchemaTests {
    /// Today's versions and the older ones (their records stay on the log): each record against
    /// the envelope, and its data against its own version's data schema.
    @Test func everyGoldenFileValidatesAgainstTheEnvelopeAndItsDataSchema() throws {
        let golden = GoldenCases.all.map { (name: $0.name, version: RecipeCommand.Kind(rawValue: $0.name).map(WireFormat.currentVersion) ?? 1) }
            + GoldenCases.older.map { (name: $0.name, version: $0.version) }
        #expect(GoldenCases.older.contains { $0.version == 1 }, "the v1 records of kinds now past v1 are checked too")
        let directory = try WireTestSupport.temporaryDirectory("schema-golden")
        defer { try? FileManager.default.removeItem(at: directory) }
        var checks: [(schema: String, file: URL)] = []
        for (name, version) in golden {
            let file = GoldenCases.goldenFile(name, version: version)
            let record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any], "\(file.lastPathComponent)")
            let data = directory.appendingPathComponent("\(name).v\(version).data.json")
            try JSONSerialization.data(withJSONObject: try #require(record["data"], "\(file.lastPathComponent) has no data")).write(to: data)
            checks += [("envelope.schema.json", file), ("commands/\(name).v\(version).schema.json", data)]
        }
        let verdicts = try SchemaValidator.validate(checks)
        for (check, verdict) in zip(checks, verdicts) {
            #expect(verdict.isValid, "\(check.file.lastPathComponent) against \(check.schema): \(verdict.error ?? "")")
        }
    }

    /// Random commands, valid or not: every record the decoder accepts validates,
    /// and every one it rejects (a limit broken) the schema rejects too.
    @Test func randomRecordsAreJudgedAlikeByTheSchemaAndTheDecoder() throws {
        let directory = try WireTestSupport.temporaryDirectory("schema-random")
        defer { try? FileManager.default.removeItem(at: directory) }
        let envelopes = RandomEnvelopes.mixed(count: 400, seed: 2024)
        var files: [URL] = []
        var decodable: [Bool] = []
        for (index, envelope) in envelopes.enumerated() {
            let bytes = WireTestSupport.encoder.encode(envelope)
            let file = directory.appendingPathComponent("record-\(index).json")
            try Data(bytes).write(to: file)
            files.append(file)
            decodable.append((try? WireTestSupport.decoder.decode(value: bytes).get()) != nil)
        }
        #expect(decodable.filter { $0 }.count > 250, "the mix should be mostly decodable")
        #expect(decodable.contains(false), "the mix should break some limits too")
        let verdicts = try SchemaValidator.validate(files.map { ("envelope.schema.json", $0) })
        for index in files.indices {
            #expect(verdicts[index].isValid == decodable[index],
                    "record-\(index): schema says \(verdicts[index].error ?? "valid"), decoder says \(WireTestSupport.decoder.decode(value: WireTestSupport.encoder.encode(envelopes[index])))")
        }
    }

    /// Every schema turns down at least one wrong example, and the decoder turns
    /// down the same record with the expected code.
    @Test func everySchemaRejectsItsWrongExamples() throws {
        let directory = try WireTestSupport.temporaryDirectory("schema-wrong")
        defer { try? FileManager.default.removeItem(at: directory) }
        var checks: [(schema: String, file: URL)] = []
        var labels: [String] = []
        for (index, example) in WrongExamples.data.enumerated() {
            // The data alone against its own schema, and the whole record against the envelope.
            let dataFile = directory.appendingPathComponent("data-\(index).json")
            try Data(example.data.utf8).write(to: dataFile)
            let version = RecipeCommand.Kind(rawValue: example.type).map(WireFormat.currentVersion) ?? 1
            checks.append(("commands/\(example.type).v\(version).schema.json", dataFile))
            labels.append("\(example.type) data \(example.data.prefix(60))")
            let recordFile = directory.appendingPathComponent("record-data-\(index).json")
            try Data(WrongExamples.record(example.type, data: example.data).utf8).write(to: recordFile)
            checks.append(("envelope.schema.json", recordFile))
            labels.append("\(example.type) record with data \(example.data.prefix(60))")
        }
        for (index, example) in WrongExamples.envelopes.enumerated() {
            let file = directory.appendingPathComponent("record-\(index).json")
            try Data(example.record.utf8).write(to: file)
            checks.append(("envelope.schema.json", file))
            labels.append("envelope: \(example.what)")
        }
        let verdicts = try SchemaValidator.validate(checks)
        for (label, verdict) in zip(labels, verdicts) {
            #expect(!verdict.isValid, "the schema accepted \(label)")
        }
        let rejectingSchemas = Set(zip(checks, verdicts).filter { !$0.1.isValid }.map(\.0.schema))
        let allSchemas = Set(["envelope.schema.json"] + RecipeCommand.Kind.allCases.map {
            "commands/\($0.rawValue).v\(WireFormat.currentVersion(of: $0)).schema.json"
        })
        #expect(rejectingSchemas == allSchemas)

        for example in WrongExamples.data {
            let result = WireTestSupport.decoder.decode(value: Array(WrongExamples.record(example.type, data: example.data).utf8))
            #expect(result.failureCode == example.code, "\(example.type) \(example.data.prefix(80)): \(result)")
        }
        for example in WrongExamples.envelopes {
            let result = WireTestSupport.decoder.decode(value: Array(example.record.utf8))
            #expect(result.failureCode == example.code, "\(example.what): \(result)")
        }
    }

    @Test func theHandWrittenRecordValidates() throws {
        let file = WireTestSupport.fixturesDirectory.appendingPathComponent("kcat-IngredientAdded.json")
        let verdicts = try SchemaValidator.validate([("envelope.schema.json", file)])
        #expect(verdicts.first?.isValid == true, "\(verdicts.first?.error ?? "")")
    }

    // MARK: - Agreement with the code

    @Test func theEnvelopeListsExactlyTheTypesTheDecoderReads() throws {
        let envelope = try SchemaFile.load("envelope.schema.json")
        let listed = try #require((envelope["properties"] as? [String: Any])?["type"] as? [String: Any])["enum"] as? [String]
        var known: [String] = []
        for kind in RecipeCommand.Kind.allCases {
            for version in WireFormat.knownVersions(of: kind) {
                known.append(WireFormat.typeName(kind, version: version))
                let schemaPath = WireFormat.dataSchema(kind, version: version)
                #expect(FileManager.default.fileExists(atPath: WireTestSupport.repositoryRoot.appendingPathComponent(schemaPath).path),
                        "\(schemaPath) is missing")
            }
        }
        #expect(listed == known)
        let branches = try #require(envelope["allOf"] as? [[String: Any]])
        #expect(branches.count == known.count)
    }
}

enum SchemaFile {
    static func load(_ relativePath: String) throws -> [String: Any] {
        let data = try Data(contentsOf: WireTestSupport.schemasDirectory.appendingPathComponent(relativePath))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

extension Result where Failure == WireError {
    /// The rejection code, or nil on success.
    var failureCode: RejectionCode? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
