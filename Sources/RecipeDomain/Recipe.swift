// MARK: - Recipe

/// The aggregate: everything the rules need to know about one recipe.
///
/// Only the fold changes it (the setters are internal), so every value other
/// modules see is one that a sequence of commands produced.
public struct Recipe: Sendable, Hashable {
    /// The key of its records.
    public let id: RecipeID
    /// Committed versions; `versions[i].number == i + 1`. Never changed once made.
    public internal(set) var versions: [RecipeVersion]
    /// The version the open draft was copied from (0 for a new recipe), or `nil`
    /// when no draft is open.
    public internal(set) var draftBaseVersion: Int?
    /// The number of commands accepted for this recipe.
    public internal(set) var revision: Int
    /// Set by `RecipeDeleted`; the recipe then takes no more commands.
    public internal(set) var isDeleted: Bool
    /// The actor of the first accepted command, or whom it was transferred to;
    /// `nil` until a command is accepted.
    public internal(set) var owner: String?
    /// Whom the owner shared the recipe with, sorted by actor (one grant each).
    public internal(set) var grants: [AccessGrant]

    /// The content edits apply to: the open draft's or, with no draft open, the
    /// latest version's (empty for a new recipe), which is exactly what an
    /// implicitly opened draft starts from. Kept materialised, rather than behind
    /// an optional draft, so the rules can read it without copying and edits
    /// change it in place; it shares storage with the version until edited.
    var workingContent: RecipeContent
    /// Ids of the accepted commands, for duplicate detection.
    var appliedIndex: CommandIDIndex

    /// A recipe no command has touched yet.
    public init(id: RecipeID) {
        self.id = id
        versions = []
        draftBaseVersion = nil
        revision = 0
        isDeleted = false
        owner = nil
        grants = []
        workingContent = .empty
        appliedIndex = CommandIDIndex()
    }

    /// Restores a state the fold produced earlier, e.g. from a snapshot.
    /// It does not check invariants: pass only what a fold made.
    public init(
        id: RecipeID,
        versions: [RecipeVersion],
        draft: RecipeDraft?,
        revision: Int,
        isDeleted: Bool,
        appliedCommandIDs: [String],
        owner: String? = nil,
        grants: [AccessGrant] = []
    ) {
        self.id = id
        self.versions = versions
        draftBaseVersion = draft?.baseVersion
        self.revision = revision
        self.isDeleted = isDeleted
        self.owner = owner
        self.grants = grants.sorted { $0.actor < $1.actor }
        workingContent = draft?.content ?? versions.last?.content ?? .empty
        appliedIndex = CommandIDIndex(appliedCommandIDs)
    }

    // MARK: - Reading

    /// The open draft, if any.
    public var draft: RecipeDraft? {
        draftBaseVersion.map { RecipeDraft(content: workingContent, baseVersion: $0) }
    }

    /// Whether a draft is open.
    public var hasOpenDraft: Bool { draftBaseVersion != nil }

    /// The most recent committed version.
    public var latestVersion: RecipeVersion? { versions.last }

    /// The draft's content when one is open, else the latest version's; `nil`
    /// for a recipe that has neither.
    public var currentContent: RecipeContent? {
        hasOpenDraft || !versions.isEmpty ? workingContent : nil
    }

    /// Ids of the accepted commands, in the order they were accepted (so
    /// `appliedCommandIDs.count == revision`). Rejected ids are not kept, so a
    /// rejected command may be sent again and judged again.
    public var appliedCommandIDs: [String] { appliedIndex.ids }

    /// Whether a command with this id was accepted for this recipe.
    public func hasApplied(_ commandID: String) -> Bool {
        appliedIndex.contains(commandID, hash: CommandIDIndex.hash(commandID))
    }
}
