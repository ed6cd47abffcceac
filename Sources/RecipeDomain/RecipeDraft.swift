// MARK: - Recipe draft

/// The open draft of a recipe: work in progress towards the next version.
public struct RecipeDraft: Sendable, Hashable {
    public var content: RecipeContent
    /// The version the draft was copied from; 0 when the recipe had none.
    public let baseVersion: Int

    public init(content: RecipeContent, baseVersion: Int) {
        self.content = content
        self.baseVersion = baseVersion
    }
}
