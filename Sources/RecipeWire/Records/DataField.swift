import RecipeJSON

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
    /// `key`'s length and its first eight bytes as a little-endian word (zeros after a
    /// shorter key): a member's key is matched to the field by these, two comparisons of
    /// integers for most keys (`isKey`).
    private let keyLength: Int
    private let keyPrefix: UInt64
    public let type: ValueType
    public let presence: Presence

    init(_ key: StaticString, _ type: ValueType, _ presence: Presence) {
        self.key = key
        keyAddress = UInt(bitPattern: key.utf8Start)
        keyLength = key.utf8CodeUnitCount
        keyPrefix = Self.prefix(UnsafeRawBufferPointer(start: key.utf8Start, count: keyLength))
        self.type = type
        self.presence = presence
    }

    /// Whether the key of a member, the string token `token` of `bytes`, is this field's.
    /// Comparing each member's bytes through `JSONToken.text(in:equals:)` (a closure, the
    /// lengths, then the words) was 6 % of decoding a decision.
    @inline(__always)
    func isKey(_ token: JSONToken, in bytes: UnsafeRawBufferPointer) -> Bool {
        guard !token.flag else { return token.text(in: bytes, equals: key) }
        let (start, length) = (token.start, token.end &- token.start)
        guard length == keyLength else { return false }
        let word = start &+ 8 <= bytes.count
            ? UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
                & (length >= 8 ? ~0 : (1 &<< UInt64(length &* 8)) &- 1)
            : Self.prefix(UnsafeRawBufferPointer(rebasing: bytes[start..<(start &+ length)]))
        guard word == keyPrefix else { return false }
        return length <= 8 || JSONScanner.same(
            UnsafeRawBufferPointer(rebasing: bytes[(start &+ 8)..<(start &+ length)]),
            UnsafeRawBufferPointer(start: key.utf8Start + 8, count: length &- 8))
    }

    /// The first eight bytes of `bytes` as a little-endian word, zeros after fewer.
    private static func prefix(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var word: UInt64 = 0
        for (index, byte) in bytes.prefix(8).enumerated() { word |= UInt64(byte) << UInt64(index * 8) }
        return word
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
