// MARK: - Recipe command

/// What a user asked to do to one recipe. The metadata (id, actor, time, expected
/// revision) travels beside it in a `CommandEnvelope`.
public enum RecipeCommand: Sendable, Hashable {
    /// Opens a draft: empty for a new recipe, else a copy of the latest version.
    case draftStarted
    /// Sets the title; may be empty while drafting.
    case titleChanged(title: String)
    /// Sets the number of servings the amounts are for (1...100).
    case servingsChanged(servings: Int)
    /// Sets the picture to an http(s) URL; `nil` removes it.
    case imageChanged(url: String?)
    /// Appends an ingredient. Without `ingredientID` the id is derived from the command id.
    case ingredientAdded(name: String, amount: Double, metric: String, ingredientID: String?)
    /// Changes the given fields of an ingredient; at least one must be given.
    case ingredientUpdated(ingredientID: String, name: String?, amount: Double?, metric: String?)
    /// Removes an ingredient.
    case ingredientRemoved(ingredientID: String)
    /// Appends a step, or inserts it at `position` (1...n+1) shifting the others down.
    /// Without `instructionID` the id is derived from the command id.
    case instructionAdded(description: String, position: Int?, instructionID: String?)
    /// Rewrites a step.
    case instructionUpdated(instructionID: String, description: String)
    /// Removes a step; the ones after it move up.
    case instructionRemoved(instructionID: String)
    /// Moves a step to `position` (1...n); the ones between shift.
    case instructionMoved(instructionID: String, position: Int)
    /// Adds the one tag written in `text`.
    case tagAdded(text: String)
    /// Replaces the tag called `name` by the one tag written in `text`.
    case tagChanged(name: String, text: String)
    /// Removes the tag called `name`.
    case tagRemoved(name: String)
    /// Commits the draft as the next version and closes it.
    case recipeSaved
    /// Closes the draft without committing it.
    case draftDiscarded
    /// Takes the recipe off the list; its versions stay, further commands are rejected.
    case recipeDeleted
    /// Shares the recipe with `grantee` as editor or viewer (replacing an earlier grant).
    case accessGranted(grantee: String, role: AccessRole)
    /// Takes back what was granted to `grantee`.
    case accessRevoked(grantee: String)
    /// Makes `newOwner` the owner; the previous owner keeps no access.
    case ownershipTransferred(newOwner: String)

    // MARK: - Names

    /// The kind of a command without its data; the raw value is its stable name,
    /// used as the CloudEvents `type` on the wire.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case draftStarted = "DraftStarted"
        case titleChanged = "TitleChanged"
        case servingsChanged = "ServingsChanged"
        case imageChanged = "ImageChanged"
        case ingredientAdded = "IngredientAdded"
        case ingredientUpdated = "IngredientUpdated"
        case ingredientRemoved = "IngredientRemoved"
        case instructionAdded = "InstructionAdded"
        case instructionUpdated = "InstructionUpdated"
        case instructionRemoved = "InstructionRemoved"
        case instructionMoved = "InstructionMoved"
        case tagAdded = "TagAdded"
        case tagChanged = "TagChanged"
        case tagRemoved = "TagRemoved"
        case recipeSaved = "RecipeSaved"
        case draftDiscarded = "DraftDiscarded"
        case recipeDeleted = "RecipeDeleted"
        case accessGranted = "AccessGranted"
        case accessRevoked = "AccessRevoked"
        case ownershipTransferred = "OwnershipTransferred"

        /// Whether commands of this kind change who may act on the recipe: only its
        /// owner (or an admin) may issue them.
        public var isAccessChange: Bool {
            self == .accessGranted || self == .accessRevoked || self == .ownershipTransferred
        }

        /// Whether commands of this kind change the content, and so open a draft
        /// implicitly when none is open. Every kind is listed: a new kind must be
        /// placed on one side or the other, not counted as an edit by default.
        public var isEdit: Bool {
            switch self {
            case .draftStarted, .recipeSaved, .draftDiscarded, .recipeDeleted, .accessGranted, .accessRevoked,
                 .ownershipTransferred:
                false
            case .titleChanged, .servingsChanged, .imageChanged, .ingredientAdded, .ingredientUpdated, .ingredientRemoved,
                 .instructionAdded, .instructionUpdated, .instructionRemoved, .instructionMoved, .tagAdded, .tagChanged,
                 .tagRemoved:
                true
            }
        }
    }

    public var kind: Kind {
        switch self {
        case .draftStarted: .draftStarted
        case .titleChanged: .titleChanged
        case .servingsChanged: .servingsChanged
        case .imageChanged: .imageChanged
        case .ingredientAdded: .ingredientAdded
        case .ingredientUpdated: .ingredientUpdated
        case .ingredientRemoved: .ingredientRemoved
        case .instructionAdded: .instructionAdded
        case .instructionUpdated: .instructionUpdated
        case .instructionRemoved: .instructionRemoved
        case .instructionMoved: .instructionMoved
        case .tagAdded: .tagAdded
        case .tagChanged: .tagChanged
        case .tagRemoved: .tagRemoved
        case .recipeSaved: .recipeSaved
        case .draftDiscarded: .draftDiscarded
        case .recipeDeleted: .recipeDeleted
        case .accessGranted: .accessGranted
        case .accessRevoked: .accessRevoked
        case .ownershipTransferred: .ownershipTransferred
        }
    }

    /// The stable name, e.g. "IngredientAdded".
    public var name: String { kind.rawValue }
}
