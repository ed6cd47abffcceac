import Foundation
import RecipeDomain
@testable import RecipeWire
import RecipeTestSupport
import Testing

/// Every command kind at every data version the decoder reads has each file and
/// entry that describes it outside the Swift code, and nothing describes a kind or
/// version that does not exist. Each failure names the kind and what to add (or
/// remove) where; docs/extending.md lists the places in order.
@Suite("Every command kind is complete")
struct CompletenessTests {
    /// Every (kind, version) the decoder reads, with today's version marked.
    static let known: [(kind: RecipeCommand.Kind, version: Int, isCurrent: Bool)] = RecipeCommand.Kind.allCases.flatMap { kind in
        WireFormat.knownVersions(of: kind).map { (kind, $0, $0 == WireFormat.currentVersion(of: kind)) }
    }
    static let knownTypes = Set(known.map { WireFormat.typeName($0.kind, version: $0.version) })
    static let kindNames = Set(RecipeCommand.Kind.allCases.map(\.rawValue))

    static func fields(_ kind: RecipeCommand.Kind, _ version: Int) -> [DataField] {
        WireFormat.dataFields(of: kind, version: version) ?? []
    }

    // MARK: - Schemas

    @Test func everyVersionHasADataSchemaWithExactlyItsFields() throws {
        for (kind, version, _) in Self.known {
            let path = WireFormat.dataSchema(kind, version: version)
            let file = WireTestSupport.repositoryRoot.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: file.path) else {
                Issue.record("\(kind.rawValue) v\(version): add \(path) (the JSON Schema of its data)")
                continue
            }
            let schema = try SchemaFile.load(String(path.dropFirst("Schemas/".count)))
            let properties = schema["properties"] as? [String: Any] ?? [:]
            let fields = Self.fields(kind, version)
            #expect(Set(properties.keys) == Set(fields.map(\.name)),
                    "\(path): properties \(properties.keys.sorted()) differ from the fields of DataFormats' \(kind.rawValue) v\(version) \(fields.map(\.name))")
            let required = Set(schema["required"] as? [String] ?? [])
            #expect(required == Set(fields.filter(\.presence.isRequired).map(\.name)),
                    "\(path): required \(required.sorted()) differs from DataFormats' \(kind.rawValue) v\(version) \(fields)")
            #expect(schema["additionalProperties"] as? Bool == false, "\(path): data is closed per version; add additionalProperties: false")
            for field in fields {
                let type = (properties[field.name] as? [String: Any])?["type"]
                let types = (type as? String).map { [$0] } ?? type as? [String] ?? []
                let expected = field.presence.allowsNull ? [field.type.rawValue, "null"] : [field.type.rawValue]
                #expect(types == expected,
                        "\(path): \(field.name) has type \(types); DataFormats' \(kind.rawValue) v\(version) reads \(field)")
            }
        }
    }

    @Test func theEnvelopeSchemaHasATypeAndADataBranchForEveryVersion() throws {
        let envelope = try SchemaFile.load("envelope.schema.json")
        let listed = ((envelope["properties"] as? [String: Any])?["type"] as? [String: Any])?["enum"] as? [String] ?? []
        var branches: [String: String] = [:]
        for branch in envelope["allOf"] as? [[String: Any]] ?? [] {
            let type = (((branch["if"] as? [String: Any])?["properties"] as? [String: Any])?["type"] as? [String: Any])?["const"]
            let reference = (((branch["then"] as? [String: Any])?["properties"] as? [String: Any])?["data"] as? [String: Any])?["$ref"]
            if let type = type as? String { branches[type] = reference as? String ?? "" }
        }
        for (kind, version, _) in Self.known {
            let type = WireFormat.typeName(kind, version: version)
            let reference = "commands/\(kind.rawValue).v\(version).schema.json"
            #expect(listed.contains(type), "\(kind.rawValue) v\(version): add \"\(type)\" to the type enum of Schemas/envelope.schema.json")
            #expect(branches[type] == reference,
                    "\(kind.rawValue) v\(version): add an allOf entry to Schemas/envelope.schema.json: if type is \"\(type)\" then data is \(reference)")
        }
        for type in Set(listed).union(branches.keys).subtracting(Self.knownTypes) {
            Issue.record("Schemas/envelope.schema.json names \(type), which the decoder does not read: remove it")
        }
    }

    @Test func everyDataSchemaFileIsOfAKnownKindAndVersion() throws {
        let folder = WireTestSupport.schemasDirectory.appendingPathComponent("commands")
        let expected = Set(Self.known.map { "\($0.kind.rawValue).v\($0.version).schema.json" })
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !expected.contains(file) {
            Issue.record("Schemas/commands/\(file) is no command kind and version the decoder reads: remove it, or add its DataFormat")
        }
    }

    // MARK: - Golden records

    @Test func everyVersionHasAGoldenRecordAndEveryGoldenRecordAVersion() throws {
        for (kind, version, _) in Self.known {
            let file = GoldenCases.goldenFile(kind.rawValue, version: version)
            #expect(FileManager.default.fileExists(atPath: file.path),
                    "\(kind.rawValue) v\(version): add Tests/RecipeWireTests/Golden/\(file.lastPathComponent) (run the tests once with RECIPEWIRE_UPDATE_GOLDEN=1 and review it)")
        }
        let expected = Set(Self.known.map { GoldenCases.goldenFile($0.kind.rawValue, version: $0.version).lastPathComponent })
        // The folders beside them hold decisions (decisions/) and the rules golden (rules/).
        let files = try FileManager.default.contentsOfDirectory(atPath: WireTestSupport.goldenDirectory.path).filter { $0.hasSuffix(".json") }
        for file in files where !expected.contains(file) {
            Issue.record("Tests/RecipeWireTests/Golden/\(file) is no command kind and version the decoder reads: remove it")
        }
    }

    // MARK: - Wrong examples

    @Test func everyKindHasAWrongExampleAndEveryWrongExampleAKind() {
        let covered = Set(WrongExamples.data.map(\.type))
        for kind in RecipeCommand.Kind.allCases {
            #expect(covered.contains(kind.rawValue),
                    "\(kind.rawValue): add a DataExample to WrongExamples.data (Tests/RecipeWireTests/WrongExamples.swift), data its schema and the decoder refuse")
        }
        for type in covered.subtracting(Self.kindNames) {
            Issue.record("WrongExamples.data has examples of \(type), which is no command kind: remove them")
        }
    }

    // MARK: - Fuzzing dictionary

    @Test func theFuzzDictionaryHasEveryTypeAndFieldAndNoOtherType() throws {
        let dictionary = WireTestSupport.repositoryRoot.appendingPathComponent("Fuzz/wire.dict")
        let lines = Set(try String(contentsOf: dictionary, encoding: .utf8).split(separator: "\n").map(String.init))
        for (kind, version, _) in Self.known {
            let typeEntry = #""\"\#(WireFormat.typeName(kind, version: version))\"""#
            #expect(lines.contains(typeEntry), "\(kind.rawValue) v\(version): add the line \(typeEntry) to Fuzz/wire.dict")
            for field in Self.fields(kind, version) {
                let fieldEntry = #""\"\#(field.name)\":""#
                #expect(lines.contains(fieldEntry), "\(kind.rawValue) v\(version): add the line \(fieldEntry) (its field \(field.name)) to Fuzz/wire.dict")
            }
        }
        for line in lines {
            guard let match = line.wholeMatch(of: /"\\"(recipes\.[A-Za-z]+\.v[0-9]+)\\""/) else { continue }
            #expect(Self.knownTypes.contains(String(match.1)), "Fuzz/wire.dict has \(match.1), which the decoder does not read: remove it")
        }
    }

    // MARK: - OpenAPI

    @Test func theOpenAPICommandBodyHasEveryKindAtItsCurrentVersionAndNoOther() throws {
        let document = try OpenAPIDocument.load()
        let schemas = ((document["components"] as? [String: Any])?["schemas"] as? [String: Any]) ?? [:]
        let oneOf = ((schemas["Command"] as? [String: Any])?["oneOf"] as? [[String: Any]] ?? []).compactMap { $0["$ref"] as? String }
        let batchOneOf = ((schemas["BatchCommand"] as? [String: Any])?["oneOf"] as? [[String: Any]] ?? []).compactMap { $0["$ref"] as? String }
        for kind in RecipeCommand.Kind.allCases {
            let name = kind.rawValue
            let components = "Schemas/openapi.yaml components.schemas"
            #expect(oneOf.contains("#/components/schemas/\(name)"),
                    "\(name): add - $ref: '#/components/schemas/\(name)' to \(components).Command.oneOf")
            guard let body = schemas[name] as? [String: Any] else {
                Issue.record("\(name): add \(components).\(name), the request body of the command (copy TitleChanged's)")
                continue
            }
            let properties = body["properties"] as? [String: Any] ?? [:]
            #expect((properties["type"] as? [String: Any])?["const"] as? String == name, "\(components).\(name): type must be {const: \(name)}")
            let reference = "commands/\(name).v\(WireFormat.currentVersion(of: kind)).schema.json"
            #expect((properties["data"] as? [String: Any])?["$ref"] as? String == reference, "\(components).\(name): data must be {$ref: '\(reference)'}")
            // Data is required exactly when it has a required member; commands without data may leave it out.
            let needsData = WireFormat.dataFields(of: kind).contains { $0.presence.isRequired }
            let required = body["required"] as? [String] ?? []
            #expect(required.contains("data") == needsData, "\(components).\(name): required must be \(needsData ? "[type, data]" : "[type]")")
            // A batch's command: the same, with the recipe it is for.
            #expect(batchOneOf.contains("#/components/schemas/Batch\(name)"),
                    "\(name): add - $ref: '#/components/schemas/Batch\(name)' to \(components).BatchCommand.oneOf")
            guard let batch = schemas["Batch\(name)"] as? [String: Any] else {
                Issue.record("\(name): add \(components).Batch\(name), a batch's command (copy BatchTitleChanged's)")
                continue
            }
            let batchProperties = batch["properties"] as? [String: Any] ?? [:]
            #expect((batchProperties["type"] as? [String: Any])?["const"] as? String == name, "\(components).Batch\(name): type must be {const: \(name)}")
            #expect((batchProperties["data"] as? [String: Any])?["$ref"] as? String == "#/components/schemas/\(name)/properties/data",
                    "\(components).Batch\(name): data must be {$ref: '#/components/schemas/\(name)/properties/data'}")
            #expect(Set(batch["required"] as? [String] ?? []) == Set(required + ["recipe"]),
                    "\(components).Batch\(name): required must be \(name)'s and recipe")
        }
        for reference in oneOf where !Self.kindNames.contains(String(reference.split(separator: "/").last ?? "")) {
            Issue.record("Schemas/openapi.yaml Command.oneOf has \(reference), which is no command kind: remove it")
        }
        for reference in batchOneOf {
            let name = reference.split(separator: "/").last.map(String.init) ?? ""
            if !(name.hasPrefix("Batch") && Self.kindNames.contains(String(name.dropFirst("Batch".count)))) {
                Issue.record("Schemas/openapi.yaml BatchCommand.oneOf has \(reference), which is no command kind's: remove it")
            }
        }
    }

    // MARK: - Field types across kinds

    /// The CLI turns `--FIELD VALUE` into a number or a string by the field's name
    /// alone, before it knows the command (SendCommand.numericFields).
    @Test func aFieldNameHasOneJSONTypeInEveryCommand() {
        var types: [String: (DataField.ValueType, RecipeCommand.Kind)] = [:]
        for (kind, version, _) in Self.known {
            for field in Self.fields(kind, version) {
                if let (type, other) = types[field.name] {
                    #expect(type == field.type,
                            "data field \(field.name) is \(field.type.rawValue) in \(kind.rawValue) but \(type.rawValue) in \(other.rawValue); the CLI cannot tell which to send")
                } else {
                    types[field.name] = (field.type, kind)
                }
            }
        }
        #expect(types.filter { $0.value.0.isNumeric }.keys.sorted() == [
            "amount", "amountMax", "calories", "carbohydrate", "cholesterol", "fat", "fiber", "position", "protein",
            "saturatedFat", "servings", "sodium", "sugar",
        ])
    }

    @Test func theKindOrdinalIsThePositionInAllCases() {
        for (index, kind) in RecipeCommand.Kind.allCases.enumerated() {
            #expect(kind.ordinal == index, "\(kind)")
        }
    }
}

// MARK: - The OpenAPI document as data

enum OpenAPIDocument {
    /// Schemas/openapi.yaml read by /usr/bin/python3's yaml module (Debian's
    /// python3-yaml, beside python3-jsonschema) and handed over as JSON.
    static func load() throws -> [String: Any] {
        let data = try runSystemPython("import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1], encoding='utf-8')), sys.stdout)",
                                       [WireTestSupport.schemasDirectory.appendingPathComponent("openapi.yaml").path])
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
