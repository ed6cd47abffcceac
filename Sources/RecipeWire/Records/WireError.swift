import RecipeDomain
import RecipeJSON

// MARK: - Wire error

/// Why a record's bytes are not a command: a stable code and a sentence naming
/// the attribute or `data` field at fault.
///
/// | code | when |
/// | --- | --- |
/// | `tooLarge` | the value is over `WireFormat.maxRecordSize` bytes (checked before parsing) |
/// | `malformed` | not JSON (syntax, invalid UTF-8, lone surrogate, nesting over 32, a key twice), or a required attribute or field missing, of the wrong JSON type, or unexpected; a key or `subject` that is not a `RecipeID` |
/// | `unknownType` | `type` names no command (`recipes.<Command>.v<N>` with an unknown command, or another form) |
/// | `unsupportedVersion` | a known command at a data version this decoder does not read, or a `specversion` other than 1.0 |
/// | `keyMismatch` | the Kafka key is absent or differs from `subject` (both recipe ids) |
/// | `invalid` | a value out of the domain's record-level limits (`RecipeLimits`): too long, out of range, not finite |
///
/// ```swift
/// case .failure(let error): history.reject(position, error.rejection) // e.g. invalid: "data.title is longer than 200 characters."
/// ```
public struct WireError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: RejectionCode
    /// For people; names the field, e.g. `data.amount must be a finite number.` Wording may change.
    public var message: String
    /// The attribute or field at fault as a path (`subject`, `data.amount`); nil when
    /// the record as a whole is (size, syntax).
    public var field: String?
    /// The command id and recipe id as the record states them, when it could be read
    /// that far (and its `subject` is a recipe id), so a rejection can be shown beside
    /// the recipe it was meant for. Not trustworthy beyond that: the record was rejected.
    public var commandID: String?
    public var recipeID: RecipeID?

    public init(_ code: RejectionCode, _ message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// The same as a domain rejection, for read models that store both kinds alike.
    public var rejection: Rejection { Rejection(code, message) }

    public var description: String { "\(code.rawValue): \(message)" }

    // MARK: - Common errors

    static func malformed(_ message: String, field: String? = nil) -> WireError {
        WireError(.malformed, message, field: field)
    }

    /// Bad JSON: the scanner's error, as the records' `malformed`.
    static func malformed(_ syntax: JSONSyntaxError) -> WireError {
        WireError(.malformed, syntax.message)
    }

    static func missing(_ field: String) -> WireError {
        WireError(.malformed, "\(field) is missing.", field: field)
    }

    static func wrongType(_ field: String, expected: String) -> WireError {
        WireError(.malformed, "\(field) must be \(expected).", field: field)
    }

    static func invalid(_ field: String, _ problem: String) -> WireError {
        WireError(.invalid, "\(field) \(problem).", field: field)
    }
}
