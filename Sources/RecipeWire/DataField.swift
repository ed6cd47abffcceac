// MARK: - Data field

/// One member a command's `data` may have at one data version: its name, its JSON
/// type and whether it must be present. The data formats list these (the registry
/// of every command's shape); tools that build `data` from text ask for them
/// through `WireFormat.dataFields(of:)` instead of keeping their own lists.
/// A decision's data and its events' data are listed the same way (`DecisionFormats`,
/// `EventFormats`).
///
/// ```swift
/// WireFormat.dataFields(of: .servingsChanged) // [servings: integer, required]
/// ```
public struct DataField: Sendable, Hashable, CustomStringConvertible {
    /// The JSON type of a field's value, named as JSON Schema names it.
    public enum ValueType: String, Sendable, Hashable {
        case string
        case integer
        case number
        /// A list: of objects (each read by its own fields, e.g. the ingredients of
        /// `DraftContentSet`) or of strings (its tags).
        case array
        /// `true` or `false` (in decisions' events; no command has one).
        case boolean
        /// An object read by its own fields (in decisions: an event's `data`, a `reason`).
        case object

        /// Whether the value is written as a JSON number.
        public var isNumeric: Bool {
            switch self {
            case .string, .array, .boolean, .object: false
            case .integer, .number: true
            }
        }
    }

    /// Whether `data` must have the member, and whether `null` is a value.
    public enum Presence: Sendable, Hashable {
        /// Must be present, never `null`.
        case required
        /// May be absent; `null` is not absence (the canonical form omits the member).
        case optional
        /// Must be present, as a value or `null`.
        case requiredOrNull
        /// A field of an update: absent keeps what is there, `null` clears it, a
        /// value sets it.
        case optionalOrNull

        /// Whether `data` must have the member.
        public var isRequired: Bool {
            switch self {
            case .required, .requiredOrNull: true
            case .optional, .optionalOrNull: false
            }
        }

        /// Whether `null` is a value of the member.
        public var allowsNull: Bool {
            switch self {
            case .requiredOrNull, .optionalOrNull: true
            case .required, .optional: false
            }
        }
    }

    /// The member's name as a static string, so the decoder compares bytes with it
    /// without building a `String`.
    let key: StaticString
    /// Where `key`'s bytes lie, as a number: `DataFields` finds the field a reader names
    /// by it, one comparison of integers per field (`StaticString.utf8Start` checks its
    /// representation at every call: about half of each lookup).
    let keyAddress: UInt
    public let type: ValueType
    public let presence: Presence

    init(_ key: StaticString, _ type: ValueType, _ presence: Presence) {
        self.key = key
        keyAddress = UInt(bitPattern: key.utf8Start)
        self.type = type
        self.presence = presence
    }

    /// The member's name inside `data`, e.g. `ingredientId`.
    public var name: String { key.description }

    public var description: String { "\(name): \(type.rawValue), \(presence)" }

    public static func == (lhs: DataField, rhs: DataField) -> Bool {
        lhs.name == rhs.name && lhs.type == rhs.type && lhs.presence == rhs.presence
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(type)
        hasher.combine(presence)
    }

    // MARK: - As the formats write them

    static func string(_ key: StaticString) -> DataField { DataField(key, .string, .required) }
    static func optionalString(_ key: StaticString) -> DataField { DataField(key, .string, .optional) }
    static func nullableString(_ key: StaticString) -> DataField { DataField(key, .string, .requiredOrNull) }
    static func integer(_ key: StaticString) -> DataField { DataField(key, .integer, .required) }
    static func optionalInteger(_ key: StaticString) -> DataField { DataField(key, .integer, .optional) }
    static func number(_ key: StaticString) -> DataField { DataField(key, .number, .required) }
    static func optionalNumber(_ key: StaticString) -> DataField { DataField(key, .number, .optional) }
    static func clearableString(_ key: StaticString) -> DataField { DataField(key, .string, .optionalOrNull) }
    static func clearableNumber(_ key: StaticString) -> DataField { DataField(key, .number, .optionalOrNull) }
    static func array(_ key: StaticString) -> DataField { DataField(key, .array, .required) }
    static func optionalArray(_ key: StaticString) -> DataField { DataField(key, .array, .optional) }
    static func boolean(_ key: StaticString) -> DataField { DataField(key, .boolean, .required) }
    static func object(_ key: StaticString) -> DataField { DataField(key, .object, .required) }
    static func optionalObject(_ key: StaticString) -> DataField { DataField(key, .object, .optional) }
}
