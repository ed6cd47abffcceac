import Foundation
import RecipeDomain
@testable import RecipeWire
import Testing

/// Schemas/decisions/ and Schemas/events/ describe the decisions the encoder
/// writes and the decoder reads: every decision written validates, wrong ones are
/// refused by both, and every field, type and enumeration in the schemas is the
/// code's. Each failure names the file or entry to change.
@Suite("Decision schemas")
struct DecisionSchemaTests {
    static let record = "decisions/record.schema.json"

    // MARK: - Validation

    @Test func everyGoldenDecisionValidates() throws {
        let files = DecisionGoldenCases.all.map { DecisionTestSupport.goldenFile($0.name) }
        let verdicts = try SchemaValidator.validate(files.map { (Self.record, $0) })
        for (file, verdict) in zip(files, verdicts) {
            #expect(verdict.isValid, "\(file.lastPathComponent): \(verdict.error ?? "")")
        }
    }

    @Test func decidedRandomLogsValidate() throws {
        let directory = try WireTestSupport.temporaryDirectory("decision-schema")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = DecisionTestSupport.decidedLog(count: 600, seed: 31)
        var files: [URL] = []
        for (index, entry) in log.decisions.enumerated() {
            let file = directory.appendingPathComponent("decision-\(index).json")
            try Data(DecisionTestSupport.encoder.encode(entry.decision)).write(to: file)
            files.append(file)
        }
        let verdicts = try SchemaValidator.validate(files.map { (Self.record, $0) })
        for (index, verdict) in verdicts.enumerated() where !verdict.isValid {
            Issue.record("decision \(index) (\(log.decisions[index].decision.outcome.name)): \(verdict.error ?? "")")
        }
    }

    /// Each wrong decision is refused by the decoder with its code and, where a
    /// schema can say it, by the schema too.
    @Test func wrongDecisionsAreRefusedByTheDecoderAndTheSchema() throws {
        let directory = try WireTestSupport.temporaryDirectory("decision-wrong")
        defer { try? FileManager.default.removeItem(at: directory) }
        var checks: [(schema: String, file: URL)] = []
        for (index, example) in DecisionWrongExamples.all.enumerated() {
            let result = DecisionTestSupport.decoder.decode(value: Array(example.record.utf8))
            #expect(result.failureCode == example.code, "\(example.what): \(result)")
            let file = directory.appendingPathComponent("wrong-\(index).json")
            try Data(example.record.utf8).write(to: file)
            checks.append((Self.record, file))
        }
        let verdicts = try SchemaValidator.validate(checks)
        for (example, verdict) in zip(DecisionWrongExamples.all, verdicts) {
            #expect(verdict.isValid != example.schemaRefuses, "\(example.what): the schema says \(verdict.error ?? "valid")")
        }
    }

    // MARK: - Agreement with the code

    @Test func everyEventVersionHasASchemaWithExactlyItsFields() throws {
        for kind in RecipeEvent.Kind.allCases {
            for version in DecisionFormat.knownVersions(of: kind) {
                let path = DecisionFormat.eventSchema(kind, version: version)
                SchemaFields.expect(path, matches: DecisionFormat.dataFields(of: kind, version: version) ?? [],
                                    reader: "EventFormats' \(kind.rawValue) v\(version)")
            }
        }
    }

    @Test func theDecisionSchemaHasExactlyTheDecisionsFields() throws {
        for version in DecisionFormat.knownVersions {
            SchemaFields.expect(DecisionFormat.dataSchema(version: version), matches: DecisionFormat.dataFields(version: version) ?? [],
                                reader: "DecisionFormats' v\(version)")
        }
        let schema = try SchemaFile.load("decisions/decision.v1.schema.json")
        let event = try #require((schema["$defs"] as? [String: Any])?["event"] as? [String: Any])
        SchemaFields.expect(event, matches: DecisionFormat.eventFields, path: "decision.v1.schema.json $defs.event", reader: "DecisionFormat.eventFields")
        let reason = try #require((schema["properties"] as? [String: Any])?["reason"] as? [String: Any])
        SchemaFields.expect(reason, matches: DecisionFormat.reasonFields, path: "decision.v1.schema.json reason", reader: "DecisionFormat.reasonFields")
    }

    @Test func theDecisionSchemaListsEveryEventTypeWithItsDataSchema() throws {
        let schema = try SchemaFile.load("decisions/decision.v1.schema.json")
        let event = try #require((schema["$defs"] as? [String: Any])?["event"] as? [String: Any])
        let listed = ((event["properties"] as? [String: Any])?["type"] as? [String: Any])?["enum"] as? [String] ?? []
        var branches: [String: String] = [:]
        for branch in event["allOf"] as? [[String: Any]] ?? [] {
            let type = (((branch["if"] as? [String: Any])?["properties"] as? [String: Any])?["type"] as? [String: Any])?["const"]
            let reference = (((branch["then"] as? [String: Any])?["properties"] as? [String: Any])?["data"] as? [String: Any])?["$ref"]
            if let type = type as? String { branches[type] = reference as? String ?? "" }
        }
        var known: [String] = []
        for kind in RecipeEvent.Kind.allCases {
            for version in DecisionFormat.knownVersions(of: kind) {
                let type = DecisionFormat.eventTypeName(kind, version: version)
                known.append(type)
                #expect(listed.contains(type), "add \"\(type)\" to $defs.event.properties.type.enum of Schemas/decisions/decision.v1.schema.json")
                #expect(branches[type] == "../events/\(type).schema.json",
                        "add an allOf branch to $defs.event of Schemas/decisions/decision.v1.schema.json: if type is \"\(type)\" then data is ../events/\(type).schema.json")
            }
        }
        for type in Set(listed).union(branches.keys).subtracting(known) {
            Issue.record("Schemas/decisions/decision.v1.schema.json names the event \(type), which the decoder does not read: remove it")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: WireTestSupport.schemasDirectory.appendingPathComponent("events").path)
        for file in files where !known.map({ "\($0).schema.json" }).contains(file) {
            Issue.record("Schemas/events/\(file) is no event kind and version the decoder reads: remove it, or add its EventFormat")
        }
    }

    @Test func theEnumerationsAreTheCodes() throws {
        let schema = try SchemaFile.load("decisions/decision.v1.schema.json")
        let properties = schema["properties"] as? [String: Any] ?? [:]
        func enumeration(_ property: Any?) -> [String] { (property as? [String: Any])?["enum"] as? [String] ?? [] }
        #expect(enumeration(properties["commandType"]) == RecipeCommand.Kind.allCases.map(\.rawValue),
                "decision.v1.schema.json commandType.enum must list every command kind (a decision of a command this reader does not know is unknownType)")
        #expect(enumeration(properties["actorRole"]) == ActorRole.allCases.map(\.rawValue))
        let reason = (properties["reason"] as? [String: Any])?["properties"] as? [String: Any]
        #expect(enumeration(reason?["code"]) == RejectionCode.allCases.map(\.rawValue), "decision.v1.schema.json reason.code.enum must list every RejectionCode")
        let granted = try SchemaFile.load("events/AccessGranted.v1.schema.json")["properties"] as? [String: Any]
        #expect(enumeration(granted?["role"]) == AccessRole.allCases.map(\.rawValue))
        let record = try SchemaFile.load(Self.record)
        let types = enumeration((record["properties"] as? [String: Any])?["type"])
        #expect(types == DecisionFormat.knownVersions.map { DecisionFormat.typeName(version: $0) })
        let decisionFiles = try FileManager.default.contentsOfDirectory(atPath: WireTestSupport.schemasDirectory.appendingPathComponent("decisions").path)
        #expect(Set(decisionFiles) == Set(["record.schema.json"] + DecisionFormat.knownVersions.map { "decision.v\($0).schema.json" }))
    }
}

// MARK: - A schema's fields against a format's

enum SchemaFields {
    /// The schema file at `path` (from the repository root) has exactly `fields`.
    static func expect(_ path: String, matches fields: [DataField], reader: String) {
        let file = WireTestSupport.repositoryRoot.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: file.path) else {
            Issue.record("add \(path), the JSON Schema of \(reader)")
            return
        }
        do {
            expect(try SchemaFile.load(String(path.dropFirst("Schemas/".count))), matches: fields, path: path, reader: reader)
        } catch {
            Issue.record("\(path): \(error)")
        }
    }

    /// `schema`, an object schema, has exactly `fields`: names, required ones, JSON
    /// types (with `null` where the field allows it), and no others.
    static func expect(_ schema: [String: Any], matches fields: [DataField], path: String, reader: String) {
        let properties = schema["properties"] as? [String: Any] ?? [:]
        #expect(Set(properties.keys) == Set(fields.map(\.name)),
                "\(path): properties \(properties.keys.sorted()) differ from the fields of \(reader) \(fields.map(\.name))")
        let required = Set(schema["required"] as? [String] ?? [])
        #expect(required == Set(fields.filter(\.presence.isRequired).map(\.name)), "\(path): required \(required.sorted()) differs from \(reader) \(fields)")
        #expect(schema["additionalProperties"] as? Bool == false, "\(path): add additionalProperties: false")
        for field in fields {
            let type = (properties[field.name] as? [String: Any])?["type"]
            let types = (type as? String).map { [$0] } ?? type as? [String] ?? []
            let expected = field.presence.allowsNull ? [field.type.rawValue, "null"] : [field.type.rawValue]
            #expect(types == expected, "\(path): \(field.name) has type \(types); \(reader) reads \(field)")
        }
    }
}
