import Foundation
import RecipeDomain
import RecipeWire

/// Why input could not become a command: not JSON at all (HTTP 400), or JSON
/// that breaks the command schema (HTTP 422, naming the field).
public enum CommandInputError: HTTPResponseError, Sendable, CustomStringConvertible {
    case notJSON(String)
    case invalid(WireError)

    public var description: String {
        switch self {
        case .notJSON(let message): message
        case .invalid(let error): error.field.map { "\(error.code.rawValue) (\($0)): \(error.message)" } ?? error.description
        }
    }

    public var status: Int {
        switch self {
        case .notJSON: 400
        case .invalid(let error) where error.code == .tooLarge: 413
        case .invalid: 422
        }
    }

    public var code: String {
        switch self {
        case .notJSON: "malformedJSON"
        case .invalid(let error): error.code.rawValue
        }
    }

    public var message: String {
        switch self {
        case .notJSON(let message): "the body is \(message)"
        case .invalid(let error): error.message
        }
    }

    public var field: String? {
        switch self {
        case .notJSON: nil
        case .invalid(let error): error.field
        }
    }
}

/// Turns what producers write — the HTTP body `{"type","data","id","expectedRevision"}`,
/// or a `recipes send` line — into a command, by building the CloudEvent the
/// server would append and reading it with `RecordDecoder`: a command is
/// accepted here exactly when every projector will be able to decode it.
public struct CommandBuilder: Sendable {
    /// The CloudEvents `source` of what this builder makes (`recipes-http`, `recipes-cli`).
    public var source: String

    public init(source: String) {
        self.source = source
    }

    /// A command from an HTTP body for `recipeID`, written by `actor`: an
    /// `actor` member of the body is ignored, the server decides who writes.
    public func envelope(body: [UInt8], recipeID: String, actor: String,
                         time: Timestamp = .now) throws(CommandInputError) -> CommandEnvelope {
        let members = try Self.object(body)
        return try envelope(members, recipeID: recipeID, recipeField: "recipeId", actor: actor, time: time,
                            allowed: ["type", "data", "id", "expectedRevision", "actor"])
    }

    /// A new recipe's `DraftStarted` from the body of `POST /v1/drafts`: empty, or
    /// `{"id": "<command id>"}` so that a retry is recognised as the same command.
    public func newDraft(body: [UInt8], actor: String, time: Timestamp = .now) throws(CommandInputError) -> CommandEnvelope {
        var members: [String: JSONValue] = ["type": .string(RecipeCommand.Kind.draftStarted.rawValue), "data": .object([:])]
        if !body.isEmpty {
            let given = try Self.object(body)
            if let unknown = given.keys.sorted().first(where: { $0 != "id" }) {
                throw .invalid(WireError(.malformed, "\(unknown) is not a member of a new draft (only id, the command id).", field: unknown))
            }
            switch given["id"] {
            case nil: break
            case .string(let id)?: members["id"] = .string(id)
            case _?: throw .invalid(WireError(.malformed, "id must be a string.", field: "id"))
            }
        }
        return try envelope(members, recipeID: UUID().uuidString.lowercased(), recipeField: "recipeId", actor: actor, time: time,
                            allowed: ["type", "data", "id"])
    }

    /// One line of `recipes send --stdin`: a whole CloudEvent (has `specversion`;
    /// decoded as is, its own actor and time kept) or `{"type","recipe","data"}`
    /// with optional `id`, `expectedRevision` (written by `actor`).
    public func envelope(line: String, actor: String, time: Timestamp = .now) throws(CommandInputError) -> DecodedRecord {
        let bytes = Array(line.utf8)
        let members = try Self.object(bytes)
        if members["specversion"] != nil {
            switch RecordDecoder().decode(value: bytes) {
            case .success(let decoded): return decoded
            case .failure(let error): throw .invalid(error)
            }
        }
        guard case .string(let recipe)? = members["recipe"] else {
            throw .invalid(WireError(.malformed, "recipe must be a string: the recipe id.", field: "recipe"))
        }
        let envelope = try envelope(members, recipeID: recipe, recipeField: "recipe", actor: actor, time: time,
                                    allowed: ["type", "recipe", "data", "id", "expectedRevision"])
        return DecodedRecord(envelope: envelope, source: source, typeVersion: WireFormat.currentVersion(of: envelope.command.kind))
    }

    /// A command of `kind` with `data` given as a JSON object's members.
    public func envelope(kind: RecipeCommand.Kind, data: [String: any Sendable], recipeID: String, actor: String,
                         commandID: String? = nil, time: Timestamp = .now) throws(CommandInputError) -> CommandEnvelope {
        guard let data = JSONValue(data) else {
            throw .invalid(WireError(.malformed, "the data of \(kind.rawValue) has a value JSON cannot hold.", field: "data"))
        }
        var members: [String: JSONValue] = ["type": .string(kind.rawValue), "data": data]
        if let commandID { members["id"] = .string(commandID) }
        return try envelope(members, recipeID: recipeID, recipeField: "recipeId", actor: actor, time: time,
                            allowed: ["type", "data", "id"])
    }

    // MARK: - Steps

    private static func object(_ bytes: [UInt8]) throws(CommandInputError) -> [String: JSONValue] {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .notJSON("not valid UTF-8") }
        guard !bytes.isEmpty else { throw .notJSON("empty; expected a JSON object") }
        let parsed: JSONValue
        do {
            parsed = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw .notJSON("not JSON; expected a JSON object")
        }
        guard case .object(let members) = parsed else {
            throw .invalid(WireError(.malformed, "expected a JSON object."))
        }
        return members
    }

    private func envelope(_ members: [String: JSONValue], recipeID: String, recipeField: String, actor: String,
                          time: Timestamp, allowed: Set<String>) throws(CommandInputError) -> CommandEnvelope {
        if let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .invalid(WireError(.malformed, "\(unknown) is not a member of a command (expected \(allowed.sorted().joined(separator: ", "))).",
                                     field: unknown))
        }
        guard case .string(let typeName)? = members["type"] else {
            throw .invalid(WireError(.malformed, "type must be a string naming the command, e.g. \"IngredientAdded\".", field: "type"))
        }
        guard let kind = RecipeCommand.Kind(rawValue: typeName) else {
            let known = RecipeCommand.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalid(WireError(.unknownType, "type \"\(typeName)\" is not a command; one of: \(known).", field: "type"))
        }
        guard !recipeID.isEmpty, recipeID.unicodeScalars.count <= RecipeLimits.maxIdentifierLength else {
            throw .invalid(WireError(.invalid, "the recipe id must be 1 to \(RecipeLimits.maxIdentifierLength) characters.",
                                     field: recipeField))
        }
        let version = WireFormat.currentVersion(of: kind)
        var event: [String: JSONValue] = [
            "specversion": .string(WireFormat.specVersion),
            "id": members["id"] ?? .string(UUID().uuidString.lowercased()),
            "source": .string(source),
            "type": .string(WireFormat.typeName(kind, version: version)),
            "subject": .string(recipeID),
            "time": .string(RFC3339.string(time)),
            "datacontenttype": .string(WireFormat.dataContentType),
            "dataschema": .string(WireFormat.dataSchema(kind, version: version)),
            "actor": .string(actor),
            "data": members["data"] ?? .object([:]),
        ]
        if let expected = members["expectedRevision"] { event["expectedrevision"] = expected }
        let bytes: [UInt8]
        do {
            bytes = Array(try JSONEncoder().encode(event))
        } catch {
            throw .invalid(WireError(.malformed, "the command cannot be written as JSON: \(error)."))
        }
        switch RecordDecoder().decode(key: RecordKey.key(forRecipe: recipeID), value: bytes) {
        case .success(let decoded):
            return decoded.envelope
        case .failure(var error):
            // Name the field as the producer wrote it, not as the CloudEvent spells it.
            switch error.field {
            case "expectedrevision":
                error.field = "expectedRevision"
                error.message = error.message.replacingOccurrences(of: "expectedrevision", with: "expectedRevision")
            case "subject":
                error.field = recipeField
            default:
                break
            }
            throw .invalid(error)
        }
    }
}

extension Timestamp {
    /// The wall clock, for commands made now.
    public static var now: Timestamp {
        Timestamp(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
    }
}
