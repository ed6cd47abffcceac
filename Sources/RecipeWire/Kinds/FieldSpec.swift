import RecipeDomain
import RecipeJSON

// MARK: - Field spec

/// One member of a command's or an event's `data`, described once: its name, JSON type
/// and presence (the `DataField` the reader matches), the `RecipeLimits` bound a record
/// is checked against (`RecordLimits`), and the words its JSON Schema says of it. The
/// schema files are generated from these (`ContractGenerator`), so the reader, the
/// writer, the limits and the contract cannot tell different stories.
public struct FieldSpec: Sendable {
    /// What a value must keep to, beyond its JSON type.
    public enum Bound: Sendable, Equatable {
        case none
        /// At most this many Unicode scalars (a string, or each string of a list).
        case maxLength(Int)
        /// An integer in this range.
        case range(ClosedRange<Int>)
        /// An integer at least this.
        case atLeast(Int)
        /// An amount: finite, `RecipeLimits.isAllowedAmount`.
        case amount
        /// A finite number in this range.
        case measure(ClosedRange<Double>)
        /// An actor's name in its one spelling (`ActorName`).
        case actorName
        /// One of these words.
        case oneOf([String])
        /// An RFC 3339 date-time.
        case time

        var isOneOf: Bool {
            if case .oneOf = self { true } else { false }
        }
    }

    /// What an array holds.
    public indirect enum Items: Sendable {
        /// Strings, each kept to a bound.
        case strings(Bound)
        /// Objects with these members, described in the schema under `$defs/<definition>`
        /// (commands) or in place (events, whose `definition` is the words of an item).
        case objects(definition: String, [FieldSpec])
    }

    public let field: DataField
    public let bound: Bound
    public let items: Items?
    /// The schema's `description` of the member.
    public let doc: String

    public var name: String { field.name }

    init(_ key: StaticString, _ type: DataField.ValueType, _ presence: DataField.Presence, _ bound: Bound,
         items: Items? = nil, _ doc: String) {
        field = DataField(key, type, presence)
        self.bound = bound
        self.items = items
        self.doc = doc
    }

    // MARK: - As descriptions write them

    static func string(_ key: StaticString, _ bound: Bound, _ doc: String) -> FieldSpec {
        FieldSpec(key, .string, .required, bound, doc)
    }
    static func string(_ key: StaticString, _ doc: String) -> FieldSpec { string(key, .none, doc) }
    static func optionalString(_ key: StaticString, _ bound: Bound, _ doc: String) -> FieldSpec {
        FieldSpec(key, .string, .optional, bound, doc)
    }
    static func optionalString(_ key: StaticString, _ doc: String) -> FieldSpec { optionalString(key, .none, doc) }
    static func nullableString(_ key: StaticString, _ bound: Bound, _ doc: String) -> FieldSpec {
        FieldSpec(key, .string, .requiredOrNull, bound, doc)
    }
    static func nullableString(_ key: StaticString, _ doc: String) -> FieldSpec { nullableString(key, .none, doc) }
    static func clearableString(_ key: StaticString, _ bound: Bound, _ doc: String) -> FieldSpec {
        FieldSpec(key, .string, .optionalOrNull, bound, doc)
    }
    static func clearableString(_ key: StaticString, _ doc: String) -> FieldSpec { clearableString(key, .none, doc) }
    static func integer(_ key: StaticString, _ bound: Bound, _ doc: String) -> FieldSpec {
        FieldSpec(key, .integer, .required, bound, doc)
    }
    static func integer(_ key: StaticString, _ doc: String) -> FieldSpec { integer(key, .none, doc) }
    static func optionalInteger(_ key: StaticString, _ bound: Bound, _ doc: String) -> FieldSpec {
        FieldSpec(key, .integer, .optional, bound, doc)
    }
    static func optionalInteger(_ key: StaticString, _ doc: String) -> FieldSpec { optionalInteger(key, .none, doc) }
    static func number(_ key: StaticString, _ bound: Bound, _ doc: String) -> FieldSpec {
        FieldSpec(key, .number, .required, bound, doc)
    }
    static func number(_ key: StaticString, _ doc: String) -> FieldSpec { number(key, .none, doc) }
    static func optionalNumber(_ key: StaticString, _ bound: Bound, _ doc: String) -> FieldSpec {
        FieldSpec(key, .number, .optional, bound, doc)
    }
    static func optionalNumber(_ key: StaticString, _ doc: String) -> FieldSpec { optionalNumber(key, .none, doc) }
    static func clearableNumber(_ key: StaticString, _ bound: Bound, _ doc: String) -> FieldSpec {
        FieldSpec(key, .number, .optionalOrNull, bound, doc)
    }
    static func clearableNumber(_ key: StaticString, _ doc: String) -> FieldSpec { clearableNumber(key, .none, doc) }
    static func boolean(_ key: StaticString, _ doc: String) -> FieldSpec {
        FieldSpec(key, .boolean, .required, .none, doc)
    }
    static func array(_ key: StaticString, of items: Items, _ doc: String) -> FieldSpec {
        FieldSpec(key, .array, .required, .none, items: items, doc)
    }
    static func optionalArray(_ key: StaticString, of items: Items, _ doc: String) -> FieldSpec {
        FieldSpec(key, .array, .optional, .none, items: items, doc)
    }
}

// MARK: - Data value

/// One member's value as a description gives it for writing and checking: in the order
/// of its fields, `absent` for a member left out.
public enum DataValue: Sendable {
    case absent
    case null
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    case time(Timestamp)
    case strings([String])
    case objects([[DataValue]])

    /// A value or absence.
    static func optional(_ value: String?) -> DataValue { value.map(DataValue.string) ?? .absent }
    static func optional(_ value: Int?) -> DataValue { value.map(DataValue.integer) ?? .absent }
    static func optional(_ value: Double?) -> DataValue { value.map(DataValue.number) ?? .absent }
    /// A value or `null`.
    static func nullable(_ value: String?) -> DataValue { value.map(DataValue.string) ?? .null }
    /// An update's member: absent keeps, `null` clears, a value sets.
    static func update(_ update: FieldUpdate<String>) -> DataValue {
        switch update {
        case .keep: .absent
        case .clear: .null
        case .set(let value): .string(value)
        }
    }
    static func update(_ update: FieldUpdate<Double>) -> DataValue {
        switch update {
        case .keep: .absent
        case .clear: .null
        case .set(let value): .number(value)
        }
    }
}
