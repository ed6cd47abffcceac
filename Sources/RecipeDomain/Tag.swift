// MARK: - Tag

/// A label on a recipe, written `@name` or `@name(payload)`: `@vegan`, `@source(grand-mère)`.
///
/// Names are unique on a recipe ignoring case (`@Vegan` and `@vegan` are the same
/// tag) but are kept as written. See `Tag.parseSingle(from:)` for the grammar.
public struct Tag: Sendable, Hashable {
    /// The name without the `@`, as written.
    public var name: String
    /// The text between the parentheses, trimmed; `nil` when absent or empty.
    public var payload: String?

    public init(name: String, payload: String? = nil) {
        self.name = name
        self.payload = payload
    }

    /// The tag written back in its own syntax: `@name` or `@name(payload)`.
    public var text: String {
        guard let payload else { return "@" + name }
        return "@\(name)(\(payload))"
    }

    /// Whether this tag's name equals `otherName` ignoring case; a leading `@` on
    /// `otherName` is tolerated so callers may pass either form.
    public func hasName(_ otherName: String) -> Bool {
        let bare = otherName.utf8.first == UInt8(ascii: "@") ? String(otherName.dropFirst()) : otherName
        return name.equalsIgnoringCase(bare)
    }
}
