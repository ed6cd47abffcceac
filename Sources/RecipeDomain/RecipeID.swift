// MARK: - Recipe id

/// The name of a recipe: its records' Kafka key and CloudEvent `subject`, the `{id}` of
/// its URLs, its rows' `recipe_id`. One form only: 1 to 128 ASCII letters, digits, `.`,
/// `_` and `-`, the first a letter or digit (`RecipeID.form`). The lowercase UUIDs the
/// server and the CLI make for new recipes are of it.
///
/// Why so narrow: each layer decides differently when two texts are one name. Swift's
/// `String` equality is canonical equivalence while Kafka and SQLite compare bytes, and
/// C APIs end text at a NUL. In this alphabet two ids are one recipe exactly when their
/// bytes are equal, in every layer. Every way in makes one through `init(_:)` and refuses the rest:
/// the HTTP path and batch `recipe`, the CLI, and the record decoder (a record whose key
/// or `subject` is not an id is `malformed`, never folded).
///
/// ```swift
/// let id = try RecipeID(request.parameter("id"))   // throws RecipeID.Invalid, naming the form
/// ```
public struct RecipeID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The id, every byte of it ASCII: compared, hashed and ordered as `String` does,
    /// which for ASCII is byte for byte.
    public let text: String

    /// The longest id, in bytes (= characters: every one is ASCII).
    public static let maxLength = 128
    /// The form, for messages.
    public static let form = "1 to \(maxLength) ASCII letters, digits, '.', '_' or '-', the first a letter or digit"
    /// The form as a regular expression, as `Schemas/` state it (`pattern`).
    public static let pattern = "^[A-Za-z0-9][A-Za-z0-9._-]{0,\(maxLength - 1)}$"

    /// `text` if it is an id, else `Invalid`, whose message names the form.
    public init(_ text: String) throws(Invalid) {
        // Over the contiguous bytes, not the generic walk of a `UTF8View`: every record read makes an id.
        var text = text
        guard text.withUTF8({ Self.isID($0) }) else { throw Invalid(text) }
        self.text = text
    }

    /// The id whose UTF-8 bytes these are (a record's key), or nil.
    public init?(utf8 bytes: some Collection<UInt8>) {
        guard Self.isID(bytes) else { return nil }
        // Every byte is ASCII: the text is these bytes, nothing repaired.
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `bytes` spell an id. No Unicode is looked at: a byte outside the
    /// alphabet (a NUL, a control character, any byte of a non-ASCII letter) refuses.
    public static func isID(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first, bytes.count <= maxLength, isAlphanumeric(first) else { return false }
        return bytes.allSatisfy(isIDByte)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "A") < 26 || byte &- UInt8(ascii: "0") < 10
    }

    /// The alphabet as two bit sets, bytes 0–63 and 64–127: one shift and test a byte rather
    /// than five comparisons (every command and decision read checks an id or two).
    private static let idBytesBelow64: UInt64 = 0x03FF_6000_0000_0000 // '-', '.', '0'...'9'
    private static let idBytesFrom64: UInt64 = 0x07FF_FFFE_87FF_FFFE // 'A'...'Z', '_', 'a'...'z'

    private static func isIDByte(_ byte: UInt8) -> Bool {
        guard byte < 128 else { return false }
        return (byte < 64 ? idBytesBelow64 : idBytesFrom64) >> (byte & 63) & 1 != 0
    }

    public var description: String { text }

    public static func < (a: RecipeID, b: RecipeID) -> Bool { a.text < b.text }

    // MARK: - Refusal

    /// Text that is not a recipe id; its message says what it is and what an id is.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text as given, escaped (`RecipeID.quoted`): safe to show in a line of text.
        public let quotedText: String

        public init(_ text: String) {
            quotedText = RecipeID.quoted(text)
        }

        /// `"R\u{0}x" is not a recipe id (1 to 128 ASCII letters, …)`
        public var message: String { "\(quotedText) is not a recipe id (\(RecipeID.form))" }
        public var description: String { message }
    }

    /// Text that failed to be an id, quoted so that it can be shown and logged: printable
    /// ASCII as it is, every other Unicode scalar as `\u{…}` (a NUL, a control character,
    /// the two spellings of `è`), bytes that are not UTF-8 as `\u{FFFD}`; cut after 80.
    public static func quoted(_ text: String) -> String {
        var quoted = "\""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 80 {
                quoted += "…"
                break
            }
            switch scalar.value {
            case 0x22, 0x5C: quoted += "\\" + String(scalar)
            case 0x20..<0x7F: quoted.unicodeScalars.append(scalar)
            default: quoted += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return quoted + "\""
    }

    /// Bytes (a record's key) that failed to be an id, quoted as text is.
    public static func quoted(utf8 bytes: some Collection<UInt8>) -> String {
        quoted(String(decoding: bytes, as: UTF8.self))
    }
}

extension RecipeID: ExpressibleByStringLiteral {
    /// An id the code itself makes (a new UUID's text) or writes (tests, samples): one out
    /// of the form is a bug there, not input.
    public init(made text: String) {
        do { try self.init(text) } catch { preconditionFailure(error.message) }
    }

    public init(stringLiteral text: String) {
        self.init(made: text)
    }
}
