import RecipeDomain

// MARK: - Decision format constants

/// The fixed facts of the record format on the decisions topic, as `WireFormat`
/// has them for commands: type names, schema paths, versions, the size cap.
///
/// ```swift
/// DecisionFormat.typeName(version: 1)                          // "recipes.decision.v1"
/// DecisionFormat.eventTypeName(.ingredientAdded, version: 1)   // "IngredientAdded.v1"
/// DecisionFormat.eventSchema(.ingredientAdded, version: 1)     // "Schemas/events/IngredientAdded.v1.schema.json"
/// ```
public enum DecisionFormat {
    /// Prefix of a decision's `type`; the version follows. Lower case, so that no
    /// command type (`recipes.<Command>.v<N>`, upper camel case) can ever equal it.
    static let typePrefix = "recipes.decision.v"

    /// Largest decision value, in bytes, that is decoded; checked before parsing.
    ///
    /// A decision repeats what its command set: a `DraftContentSet` of up to
    /// `WireFormat.maxRecordSize` comes back as a `ContentSet` event with an id on
    /// each of its up to 400 items (an id of 128 characters, escaped, is at most
    /// 768 bytes) and tags written as objects, so a decision can outgrow its
    /// command by a few hundred KiB. Twice the command's cap covers that with room
    /// to spare; the decisions topic's `max.message.bytes` must follow it.
    public static let maxRecordSize = 2 * WireFormat.maxRecordSize

    /// The CloudEvents `type` of a decision at a data version.
    public static func typeName(version: Int) -> String { "\(typePrefix)\(version)" }

    /// The `dataschema` of a decision at a data version, relative to the repository root.
    public static func dataSchema(version: Int) -> String { "Schemas/decisions/decision.v\(version).schema.json" }

    /// The data version the encoder writes: the newest the decoder reads.
    public static var currentVersion: Int { DecisionFormats.standard.currentVersion }

    /// Every data version the decoder reads, oldest first.
    public static var knownVersions: [Int] { DecisionFormats.standard.versions }

    /// The members of a decision's data at `version`, in canonical order; nil for a
    /// version the decoder does not read.
    public static func dataFields(version: Int) -> [DataField]? {
        DecisionFormats.standard.format(version: version)?.fields
    }

    // MARK: - Events

    /// The `type` of an event inside a decision: its kind and its own data version.
    public static func eventTypeName(_ kind: RecipeEvent.Kind, version: Int) -> String { "\(kind.rawValue).v\(version)" }

    /// The schema of an event's `data` at a version, relative to the repository root.
    public static func eventSchema(_ kind: RecipeEvent.Kind, version: Int) -> String {
        "Schemas/events/\(kind.rawValue).v\(version).schema.json"
    }

    /// The data version the encoder writes for events of `kind`.
    public static func currentVersion(of kind: RecipeEvent.Kind) -> Int {
        EventFormats.standard.currentVersion(of: kind)
    }

    /// Every data version the decoder reads for events of `kind`, oldest first.
    public static func knownVersions(of kind: RecipeEvent.Kind) -> [Int] {
        EventFormats.standard.versions(of: kind)
    }

    /// The members of an event's data at `version`; nil for a version the decoder does not read.
    public static func dataFields(of kind: RecipeEvent.Kind, version: Int) -> [DataField]? {
        EventFormats.standard.format(kind, version: version)?.fields
    }

    // MARK: - Parts of a decision's data, shared by its versions

    /// A rejection: `{"code","message"}`.
    static let reasonFields: [DataField] = [.string("code"), .string("message")]
    /// An event: `{"type":"<Kind>.v<N>","data":{…}}`.
    static let eventFields: [DataField] = [.string("type"), .object("data")]
}

// MARK: - Type names

/// `<name>.v<N>` type names, as decisions write their events' types.
enum VersionedName {
    /// The name and version of `text`, if it is `<name>.v<N>` with a version as
    /// `version(_:)` reads it.
    static func split(_ text: UnsafeRawBufferPointer) -> (name: UnsafeRawBufferPointer, version: Int)? {
        guard let dot = text.lastIndex(of: UInt8(ascii: ".")),
              let version = version(UnsafeRawBufferPointer(rebasing: text[(dot + 1)...]))
        else { return nil }
        return (UnsafeRawBufferPointer(rebasing: text[..<dot]), version)
    }

    /// `v` and a positive decimal without leading zeros, at most six digits, as
    /// command types have them.
    static func version(_ text: UnsafeRawBufferPointer) -> Int? {
        guard text.first == UInt8(ascii: "v"), text.count >= 2, text.count <= 7 else { return nil }
        let digits = text.dropFirst()
        guard digits.first != UInt8(ascii: "0"), digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}

/// A non-negative decimal as positions are written: digits only, no leading zero,
/// at most 18 of them (so it fits an `Int64`).
enum CanonicalDecimal {
    static func value(_ digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18, digits.count == 1 || digits.first != UInt8(ascii: "0"),
              digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return digits.reduce(0) { $0 &* 10 &+ Int($1 &- UInt8(ascii: "0")) }
    }

}

/// A decision's CloudEvents `id`, which must be its command's position `<partition>:<offset>`:
/// read as the two numbers when it is a position, kept as text (for the message) when not.
enum DecisionID {
    case position(partition: Int, offset: Int)
    case other(String)

    init(utf8: UnsafeRawBufferPointer) {
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")),
           let partition = CanonicalDecimal.value(utf8[..<colon]), let offset = CanonicalDecimal.value(utf8[(colon + 1)...]) {
            self = .position(partition: partition, offset: offset)
        } else {
            self = .other(String(decoding: utf8, as: UTF8.self))
        }
    }

    /// Whether it is `<partition>:<offset>`.
    func isPosition(partition: Int, offset: Int) -> Bool {
        if case .position(partition, offset) = self { true } else { false }
    }

    /// The id as written (a position's digits are canonical: written back, they are the same text).
    var text: String {
        switch self {
        case .position(let partition, let offset): "\(partition):\(offset)"
        case .other(let text): text
        }
    }
}
