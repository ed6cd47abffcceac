import RecipeDomain
import RecipeJSON

// MARK: - Contract generator

/// The parts of the contract that follow from the kinds' descriptions, as text: each
/// command's data schema at its newest version, the envelope's list of types and their
/// data branches, the OpenAPI command bodies, the fuzz dictionary's type names and the
/// list of schema files the server embeds. They are checked in; `scripts/generate-contract`
/// writes them, and `GeneratedContractTests` fails while one is stale.
public enum ContractGenerator {
    /// A whole file: its path from the repository root and its text.
    public struct File: Sendable, Equatable {
        public let path: String
        public let text: String
    }

    /// A region of a hand-written file, between the lines `<comment> generated: <name> begin`
    /// and `<comment> generated: <name> end`.
    public struct Region: Sendable, Equatable {
        public let path: String
        public let name: String
        public let text: String

        public init(path: String, name: String, text: String) {
            self.path = path
            self.name = name
            self.text = text
        }
    }

    public static var files: [File] {
        CommandDescription.all.map { description in
            File(path: WireFormat.dataSchema(description.kind, version: description.version),
                 text: PrettyJSON.text(schema(of: description)))
        } + eventFiles + [File(path: "Sources/RecipeHTTP/Routes/Contract+Schemas.swift", text: embeddedSchemaList)]
    }

    public static var regions: [Region] {
        [
            Region(path: "Schemas/openapi.yaml", name: "commands", text: openAPICommands),
            Region(path: "Schemas/openapi.yaml", name: "batch-commands", text: openAPIBatchCommands),
            Region(path: "Fuzz/wire.dict", name: "types", text: fuzzTypes),
        ]
    }

    /// Replaces each region of `text` named in `regions`; nil when a region's markers are missing.
    public static func replacingRegions(in text: String, _ regions: [Region]) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for region in regions {
            guard let begin = lines.firstIndex(where: { $0.hasSuffix("generated: \(region.name) begin") }),
                  let end = lines.firstIndex(where: { $0.hasSuffix("generated: \(region.name) end") }), begin < end else {
                return nil
            }
            let body = region.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            lines.replaceSubrange((begin + 1)..<end, with: body)
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Data schemas

    static func schema(of description: CommandDescription) -> PrettyJSON {
        let name = "\(description.kind.rawValue) v\(description.version) data"
        let lead = "The `data` of a `\(WireFormat.typeName(description.kind, version: description.version))` record"
        var members: [(String, PrettyJSON)] = [
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string(name)),
            ("description", .string(lead + description.summary)),
            ("type", .string("object")),
        ]
        if !description.fields.isEmpty {
            members.append(("required", .array(description.fields.filter(\.field.presence.isRequired).map { .string($0.name) })))
        }
        members.append(("properties", properties(description.fields)))
        members.append(("additionalProperties", .bool(false)))
        let definitions: [(String, PrettyJSON)] = description.fields.compactMap { field in
            guard case .objects(let definition, let items) = field.items else { return nil }
            return (definition, object(items))
        }
        if !definitions.isEmpty { members.append(("$defs", .object(definitions))) }
        return .object(members)
    }

    private static func object(_ fields: [FieldSpec]) -> PrettyJSON {
        .object([
            ("type", .string("object")),
            ("required", .array(fields.filter(\.field.presence.isRequired).map { .string($0.name) })),
            ("properties", properties(fields)),
            ("additionalProperties", .bool(false)),
        ])
    }

    private static func properties(_ fields: [FieldSpec]) -> PrettyJSON {
        .object(fields.map { ($0.name, property($0)) })
    }

    /// Lines without controls but tab and newline: what every record string keeps to.
    static let textPattern = #"^[^\u0000-\u0008\u000B-\u001F]*$"#
    /// An actor's name: no spaces, controls or `#` (NFC is checked by the reader).
    static let actorNamePattern = #"^[^\s#\u0000-\u001F\u007F-\u009F]+$"#

    private static func property(_ field: FieldSpec) -> PrettyJSON {
        let type: PrettyJSON = field.field.presence.allowsNull
            ? .array([.string(field.field.type.rawValue), .string("null")])
            : .string(field.field.type.rawValue)
        var members: [(String, PrettyJSON)] = [("type", type)]
        members += bound(field.bound)
        if let items = field.items {
            switch items {
            case .strings(let bound):
                var item: [(String, PrettyJSON)] = [("type", .string("string"))]
                item += self.bound(bound)
                item.append(("pattern", .string(textPattern)))
                members.append(("items", .object(item)))
            case .objects(let definition, _):
                members.append(("items", .object([("$ref", .string("#/$defs/\(definition)"))])))
            }
        }
        members.append(("description", .string(field.doc)))
        if field.field.type == .string, !field.bound.isOneOf {
            members.append(("pattern", .string(field.bound == .actorName ? actorNamePattern : textPattern)))
        }
        return .object(members)
    }

    static func bound(_ bound: FieldSpec.Bound) -> [(String, PrettyJSON)] {
        switch bound {
        case .none, .time: []
        case .maxLength(let limit): [("maxLength", .integer(limit))]
        case .actorName: [("maxLength", .integer(RecipeLimits.maxIdentifierLength))]
        case .range(let range): [("minimum", .integer(range.lowerBound)), ("maximum", .integer(range.upperBound))]
        case .atLeast(let least): [("minimum", .integer(least))]
        case .amount:
            [("minimum", .number(RecipeLimits.minIngredientAmount)), ("maximum", .integer(Int(RecipeLimits.maxIngredientAmount)))]
        case .oneOf(let words): [("enum", .array(words.map(PrettyJSON.string)))]
        case .measure(let range): [("minimum", .number(range.lowerBound)), ("maximum", .number(range.upperBound))]
        }
    }

    // MARK: - Lists of kinds

    /// Every (kind, version) the decoder reads, in the order of the kinds.
    private static var typeVersions: [(kind: RecipeCommand.Kind, version: Int)] {
        RecipeCommand.Kind.allCases.flatMap { kind in WireFormat.knownVersions(of: kind).map { (kind, $0) } }
    }

    /// The envelope schema `text` with its `type` enum and `allOf` branches made from the
    /// kinds (JSON has no comments to mark a region: the two are found by their lines); nil
    /// when they are not where the file keeps them.
    public static func envelope(updating text: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let type = lines.firstIndex(of: "    \"type\": {"), lines[type + 1] == "      \"enum\": [",
              let enumEnd = lines[(type + 1)...].firstIndex(of: "      ],") else { return nil }
        let names = PrettyJSON.array(typeVersions.map { .string(WireFormat.typeName($0.kind, version: $0.version)) })
        lines.replaceSubrange((type + 1)...enumEnd, with: ["      \"enum\": \(names.indented(3)),"])
        guard let allOf = lines.firstIndex(of: "  \"allOf\": ["), lines.suffix(2) == ["}", ""] else { return nil }
        let branches = PrettyJSON.array(typeVersions.map { kind, version in
            .object([
                ("if", .object([
                    ("properties", .object([("type", .object([("const", .string(WireFormat.typeName(kind, version: version)))]))])),
                    ("required", .array([.string("type")])),
                ])),
                ("then", .object([
                    ("properties", .object([("data", .object([("$ref", .string(
                        "commands/\(kind.rawValue).v\(version)\(WireFormat.dataSchemaSuffix)"))]))])),
                ])),
            ])
        })
        lines.replaceSubrange(allOf..<(lines.count - 2), with: ["  \"allOf\": \(branches.indented(1))"])
        return lines.joined(separator: "\n")
    }

    private static func needsData(_ description: CommandDescription) -> Bool {
        description.fields.contains { $0.field.presence.isRequired }
    }

    static var openAPICommands: String {
        var text = "    Command:\n      description: |\n"
        text += "        One command: `type` names it, `data` follows that command's schema (the same files that\n"
        text += "        describe the records on the log). Commands without data may leave `data` out: the gateway\n"
        text += "        reads a missing `data` as `{}` (which the fold rejects where a change must change something).\n      oneOf:\n"
        for description in CommandDescription.all { text += "        - $ref: '#/components/schemas/\(description.kind.rawValue)'\n" }
        text += "    # One schema per command, alike but for `type` and `data`: `additionalProperties: false`\n"
        text += "    # does not see through allOf, and the tools generating requests do not follow\n"
        text += "    # unevaluatedProperties.\n"
        for description in CommandDescription.all {
            let name = description.kind.rawValue
            text += "    \(name):\n      type: object\n"
            text += "      required: [type\(needsData(description) ? ", data" : "")]\n      properties:\n"
            text += "        type: {const: \(name)}\n"
            text += "        data: {$ref: 'commands/\(name).v\(description.version)\(WireFormat.dataSchemaSuffix)'}\n"
            text += commonMembers
        }
        return text
    }

    static var openAPIBatchCommands: String {
        var text = "    BatchCommand:\n      description: |\n"
        text += "        One command of a batch: a single command's members (`Command`, with its `data`) plus the\n"
        text += "        recipe it is for, checked as a single command is.\n      oneOf:\n"
        for description in CommandDescription.all { text += "        - $ref: '#/components/schemas/Batch\(description.kind.rawValue)'\n" }
        text += "    BatchRecipe:\n      allOf: [{$ref: '#/components/schemas/RecipeId'}]\n"
        text += "      description: The recipe id (the Kafka key) the command is for; out of its form, the item's error is "
        text += "`malformed` with `field` `recipe`.\n"
        for description in CommandDescription.all {
            let name = description.kind.rawValue
            text += "    Batch\(name):\n      type: object\n"
            text += "      required: [type, recipe\(needsData(description) ? ", data" : "")]\n      properties:\n"
            text += "        type: {const: \(name)}\n        recipe: {$ref: '#/components/schemas/BatchRecipe'}\n"
            text += "        data: {$ref: '#/components/schemas/\(name)/properties/data'}\n"
            text += commonMembers
        }
        return text
    }

    private static let commonMembers = """
                id: {$ref: '#/components/schemas/CommandId'}
                expectedRevision: {$ref: '#/components/schemas/ExpectedRevision'}
                actor: {$ref: '#/components/schemas/IgnoredActor'}
              additionalProperties: false

        """

    /// Every type the decoder reads, then every member name of their data (each once, first seen first).
    static var fuzzTypes: String {
        var seen: Set<String> = []
        var names: [String] = []
        for (kind, version) in typeVersions {
            for field in WireFormat.dataFields(of: kind, version: version) ?? [] {
                for name in [field.name] + itemNames(kind, field.name) where seen.insert(name).inserted { names.append(name) }
            }
        }
        return typeVersions.map { "\"\\\"\(WireFormat.typeName($0.kind, version: $0.version))\\\"\"\n" }.joined()
            + names.map { "\"\\\"\($0)\\\":\"\n" }.joined()
    }

    /// The member names of the objects a list field of `kind`'s newest data holds.
    private static func itemNames(_ kind: RecipeCommand.Kind, _ field: String) -> [String] {
        let description = CommandDescription.all[kind.ordinal]
        guard let spec = description.fields.first(where: { $0.name == field }), case .objects(_, let items) = spec.items else { return [] }
        return items.map(\.name)
    }

    /// The schema files of Schemas/commands/ the server embeds, by name.
    static var embeddedSchemaList: String {
        var text = "// Generated by scripts/generate-contract from the command descriptions; do not edit.\n\n"
        text += "extension Contract {\n    /// Every file of Schemas/commands/, by name.\n"
        text += "    static let commandSchemas: [String: [UInt8]] = [\n"
        for (kind, version) in typeVersions {
            let file = "\(kind.rawValue).v\(version)\(WireFormat.dataSchemaSuffix)"
            let resource = file.split(separator: ".").joined(separator: "_")
            text += "        \"\(file)\": PackageResources.\(resource),\n"
        }
        return text + "    ]\n}\n"
    }
}
