// MARK: - Recipe event

/// What an accepted command changed: the step between the fold's two halves.
/// `decide` holds every rule and says which events a command causes; `evolve`
/// holds none and applies them. They are not stored: the log holds commands, and
/// read models are built from the `Recipe` the fold leaves (its versions, draft
/// and revision), not from events. `RecipeDecision.accepted` hands them out so a
/// caller can see what a command did, as the domain's tests do.
public enum RecipeEvent: Sendable, Hashable {
    /// A draft was opened from version `baseVersion` (0: a new recipe, empty draft).
    /// `implicit` when an edit opened it rather than `DraftStarted`.
    case draftOpened(baseVersion: Int, implicit: Bool)
    case titleChanged(String)
    case servingsChanged(Int)
    /// `nil` when the image was removed.
    case imageChanged(String?)
    case ingredientAdded(Ingredient)
    /// Carries the ingredient as it is after the update.
    case ingredientUpdated(Ingredient)
    case ingredientRemoved(id: String)
    /// Carries the step with the order it was inserted at; later steps shift down.
    case instructionAdded(Instruction)
    /// Carries the step's description and section as they are after the update.
    case instructionUpdated(id: String, description: String, section: String?)
    /// Later steps move up.
    case instructionRemoved(id: String)
    case instructionMoved(id: String, position: Int)
    case tagAdded(Tag)
    /// `previousName` is the name as it was stored.
    case tagChanged(previousName: String, tag: Tag)
    /// `name` is the name as it was stored.
    case tagRemoved(name: String)
    case descriptionChanged(String?)
    case yieldChanged(String?)
    /// The three times as they are after the change.
    case timesChanged(prepTime: String?, cookTime: String?, totalTime: String?)
    case sourceChanged(String?)
    /// The draft's whole content was replaced by this one.
    case contentSet(RecipeContent)
    /// The draft became version `number` and was closed.
    case versionCommitted(number: Int, savedAt: Timestamp, savedBy: String)
    /// The draft was closed without a new version.
    case draftDiscarded
    /// The recipe left the list; its versions stay.
    case recipeDeleted
    /// `grant.actor` now holds `grant.role` (replacing what it held).
    case accessGranted(AccessGrant)
    /// `actor` holds no grant any more.
    case accessRevoked(actor: String)
    /// `newOwner` owns the recipe; it holds no grant beside that.
    case ownershipTransferred(newOwner: String)

    /// A stable name for logs and history, e.g. "versionCommitted".
    public var name: String {
        switch self {
        case .draftOpened: "draftOpened"
        case .titleChanged: "titleChanged"
        case .servingsChanged: "servingsChanged"
        case .imageChanged: "imageChanged"
        case .ingredientAdded: "ingredientAdded"
        case .ingredientUpdated: "ingredientUpdated"
        case .ingredientRemoved: "ingredientRemoved"
        case .instructionAdded: "instructionAdded"
        case .instructionUpdated: "instructionUpdated"
        case .instructionRemoved: "instructionRemoved"
        case .instructionMoved: "instructionMoved"
        case .tagAdded: "tagAdded"
        case .tagChanged: "tagChanged"
        case .tagRemoved: "tagRemoved"
        case .descriptionChanged: "descriptionChanged"
        case .yieldChanged: "yieldChanged"
        case .timesChanged: "timesChanged"
        case .sourceChanged: "sourceChanged"
        case .contentSet: "contentSet"
        case .versionCommitted: "versionCommitted"
        case .draftDiscarded: "draftDiscarded"
        case .recipeDeleted: "recipeDeleted"
        case .accessGranted: "accessGranted"
        case .accessRevoked: "accessRevoked"
        case .ownershipTransferred: "ownershipTransferred"
        }
    }
}
