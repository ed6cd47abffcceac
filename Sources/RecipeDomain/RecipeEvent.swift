// MARK: - Recipe event

/// What an accepted command changed: a fact. `decide` holds every rule and says
/// which events a command causes; `evolve` holds none and applies them.
///
/// Each event carries everything `evolve` needs, so folding the events of the
/// accepted commands alone, in order and with no rule (`Recipe.record(_:ofCommand:)`),
/// gives the very recipe that deciding gave; FoldPropertyTests checks it. What an
/// event reads from the state it is applied to is itself made of earlier facts
/// (the version `draftOpened` copies, the draft `versionCommitted` commits), so
/// an event needs no copy of it. The decision record (`DecisionRecord` in
/// RecipeWire) carries them on the decisions topic; projectors, replays and
/// audits fold them and decide nothing.
public enum RecipeEvent: Sendable, Hashable {
    /// A draft was opened from version `baseVersion` (0: a new recipe, empty draft),
    /// as a copy of that version's content. `implicit` when an edit opened it rather
    /// than `DraftStarted`.
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
    /// The nutrition as it is after the change; nil when none is left.
    case nutritionChanged(Nutrition?)
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
    /// `owner` owns the recipe, which had no owner: the first event of the first
    /// command accepted for a recipe, whose actor created it. An event rather
    /// than a side effect of folding, so that who owns a recipe is a fact of the
    /// log and not a rule of the build that folds it.
    case ownerAssigned(owner: String)

    /// The kinds of events, with their stable names.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case draftOpened = "DraftOpened"
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
        case descriptionChanged = "DescriptionChanged"
        case yieldChanged = "YieldChanged"
        case timesChanged = "TimesChanged"
        case sourceChanged = "SourceChanged"
        case nutritionChanged = "NutritionChanged"
        case contentSet = "ContentSet"
        case versionCommitted = "VersionCommitted"
        case draftDiscarded = "DraftDiscarded"
        case recipeDeleted = "RecipeDeleted"
        case accessGranted = "AccessGranted"
        case accessRevoked = "AccessRevoked"
        case ownershipTransferred = "OwnershipTransferred"
        case ownerAssigned = "OwnerAssigned"
    }

    public var kind: Kind {
        switch self {
        case .draftOpened: .draftOpened
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
        case .descriptionChanged: .descriptionChanged
        case .yieldChanged: .yieldChanged
        case .timesChanged: .timesChanged
        case .sourceChanged: .sourceChanged
        case .nutritionChanged: .nutritionChanged
        case .contentSet: .contentSet
        case .versionCommitted: .versionCommitted
        case .draftDiscarded: .draftDiscarded
        case .recipeDeleted: .recipeDeleted
        case .accessGranted: .accessGranted
        case .accessRevoked: .accessRevoked
        case .ownershipTransferred: .ownershipTransferred
        case .ownerAssigned: .ownerAssigned
        }
    }

    /// A stable name for logs and history, e.g. "versionCommitted": the kind's
    /// name with a lower-case first letter.
    public var name: String {
        let kindName = kind.rawValue
        return kindName.prefix(1).lowercased() + kindName.dropFirst()
    }
}
