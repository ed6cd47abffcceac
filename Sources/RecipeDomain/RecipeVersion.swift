// MARK: - Recipe version

/// A committed version: an immutable snapshot of the content at a save.
public struct RecipeVersion: Sendable, Hashable {
    /// 1, 2, 3… in the order they were saved.
    public let number: Int
    public let content: RecipeContent
    /// The time of the `RecipeSaved` command.
    public let savedAt: Timestamp
    /// The actor of the `RecipeSaved` command.
    public let savedBy: String

    public init(number: Int, content: RecipeContent, savedAt: Timestamp, savedBy: String) {
        self.number = number
        self.content = content
        self.savedAt = savedAt
        self.savedBy = savedBy
    }
}
