// MARK: - Rejection

/// A command turned down: a stable code for programs and a sentence for people.
public struct Rejection: Error, Sendable, Hashable {
    public var code: RejectionCode
    /// Human-readable; wording may change between releases, the code may not.
    public var message: String

    public init(_ code: RejectionCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
