import RecipeDomain
import RecipeJSON

// MARK: - Contract of events

/// The parts of the contract that follow from the event descriptions: each event's data
/// schema at the version written, and the decision schema's lists of event and command
/// types. An event's schema says less than a command's: an event is a fact the rules
/// already checked, so its strings have no pattern and its bounds are those a reader of
/// the facts relies on.
extension ContractGenerator {
    static var eventFiles: [File] {
        EventDescription.all.map { description in
            File(path: DecisionFormat.eventSchema(description.kind, version: description.version),
                 text: PrettyJSON.text(schema(of: description)))
        }
    }

    static func schema(of description: EventDescription) -> PrettyJSON {
        let type = DecisionFormat.eventTypeName(description.kind, version: description.version)
        let lead = "The `data` of a `\(type)` event in a decision (\(DecisionFormat.dataSchema(version: 1)))"
        return .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("title", .string("\(description.kind.rawValue) v\(description.version) event data")),
            ("description", .string(lead + description.summary + " " + eventFactWords)),
            ("type", .string("object")),
            ("required", requiredNames(description.fields)),
            ("properties", eventProperties(description.fields)),
            ("additionalProperties", .bool(false)),
        ])
    }

    /// What every event schema says last.
    static let eventFactWords = "The rules that decided it are not repeated here: an event is a fact, valid forever."

    /// An RFC 3339 date-time, as the envelope's `time` is checked.
    static let timePattern =
        #"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"#

    private static func requiredNames(_ fields: [FieldSpec]) -> PrettyJSON {
        .array(fields.filter(\.field.presence.isRequired).map { .string($0.name) })
    }

    private static func eventProperties(_ fields: [FieldSpec]) -> PrettyJSON {
        .object(fields.map { ($0.name, eventProperty($0)) })
    }

    private static func eventProperty(_ field: FieldSpec) -> PrettyJSON {
        let type: PrettyJSON = field.field.presence.allowsNull
            ? .array([.string(field.field.type.rawValue), .string("null")])
            : .string(field.field.type.rawValue)
        var members: [(String, PrettyJSON)] = [("type", type)]
        if field.bound == .time {
            members += [("format", .string("date-time")), ("pattern", .string(timePattern))]
        } else {
            members += bound(field.bound)
        }
        switch field.items {
        case nil: break
        case .strings(let bound):
            members.append(("items", .object([("type", .string("string"))] + self.bound(bound))))
        case .objects(let words, let items):
            // In place, the item's words where a command's `$defs` has its name.
            members.append(("items", .object([
                ("type", .string("object")),
                ("description", .string(words)),
                ("required", requiredNames(items)),
                ("properties", eventProperties(items)),
                ("additionalProperties", .bool(false)),
            ])))
        }
        members.append(("description", .string(field.doc)))
        return .object(members)
    }

    // MARK: - The decision schema's lists

    /// Every (kind, version) of an event the decoder reads, in the order of the kinds.
    private static var eventTypeNames: [String] {
        RecipeEvent.Kind.allCases.flatMap { kind in
            DecisionFormat.knownVersions(of: kind).map { DecisionFormat.eventTypeName(kind, version: $0) }
        }
    }

    /// The decision schema `text` with its `commandType` enum, its event `type` enum and its
    /// event's `allOf` branches made from the kinds (JSON has no comments to mark a region:
    /// they are found by their lines, as `envelope(updating:)` finds its own); nil when
    /// they are not where the file keeps them.
    public static func decisionSchema(updating text: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let commandTypes = PrettyJSON.array(RecipeCommand.Kind.allCases.map { .string($0.rawValue) })
        guard let commandType = lines.firstIndex(of: "    \"commandType\": {"),
              replaceEnum(in: &lines, after: commandType, indent: "      ", with: commandTypes, level: 3),
              let event = lines.firstIndex(of: "    \"event\": {"),
              let eventType = lines[event...].firstIndex(of: "        \"type\": {"),
              replaceEnum(in: &lines, after: eventType, indent: "          ", with: .array(eventTypeNames.map(PrettyJSON.string)), level: 5),
              let allOf = lines[event...].firstIndex(of: "      \"allOf\": ["),
              lines.suffix(4) == ["    }", "  }", "}", ""] else { return nil }
        let branches = PrettyJSON.array(eventTypeNames.map { type in
            .object([
                ("if", .object([
                    ("properties", .object([("type", .object([("const", .string(type))]))])),
                    ("required", .array([.string("type")])),
                ])),
                ("then", .object([
                    ("properties", .object([("data", .object([("$ref", .string("../events/\(type).schema.json"))]))])),
                ])),
            ])
        })
        lines.replaceSubrange(allOf..<(lines.count - 4), with: ["      \"allOf\": \(branches.indented(3))"])
        return lines.joined(separator: "\n")
    }

    /// Replaces the `enum` array among the members of the object opened at line `start`
    /// (its members indented by `indent`): the array's lines up to its `],`.
    private static func replaceEnum(in lines: inout [String], after start: Int, indent: String,
                                    with values: PrettyJSON, level: Int) -> Bool {
        guard let open = lines[start...].prefix(4).firstIndex(of: "\(indent)\"enum\": ["),
              let close = lines[open...].firstIndex(of: "\(indent)],") else { return false }
        lines.replaceSubrange(open...close, with: ["\(indent)\"enum\": \(values.indented(level)),"])
        return true
    }
}
