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
    case ingredientAdded(IngredientLine, ingredientID: String?)
    /// Changes the given fields of an ingredient (keeps, clears or sets each); at
    /// least one must change.
    case ingredientUpdated(ingredientID: String, changes: IngredientChanges)
    /// Removes an ingredient.
    case ingredientRemoved(ingredientID: String)
    /// Appends a step, or inserts it at `position` (1...n+1) shifting the others down.
    /// Without `instructionID` the id is derived from the command id.
    case instructionAdded(description: String, position: Int?, instructionID: String?, section: String?)
    /// Rewrites a step, moves it to another section or out of any; at least one must change.
    case instructionUpdated(instructionID: String, description: String?, section: FieldUpdate<String>)
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

    // Content version 2: the recipe's own fields and the whole content at once.

    /// Sets the description; `nil` removes it.
    case descriptionChanged(description: String?)
    /// Sets what the recipe makes ("12 muffins"); `nil` removes it.
    case yieldChanged(yield: String?)
    /// Sets, removes or keeps each of the three times (ISO 8601 durations); at least one must change.
    case timesChanged(prepTime: FieldUpdate<String>, cookTime: FieldUpdate<String>, totalTime: FieldUpdate<String>)
    /// Sets the http(s) URL the recipe comes from; `nil` removes it.
    case sourceChanged(url: String?)
    /// Sets, clears or keeps each nutrient per serving and the serving size; at least one must change.
    case nutritionChanged(NutritionChanges)
    /// Replaces the whole content of the draft in one command. Indirect: the content is
    /// several times the size of every other case, and each command would carry its room.
    indirect case draftContentSet(DraftContent)

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
        case descriptionChanged = "DescriptionChanged"
        case yieldChanged = "YieldChanged"
        case timesChanged = "TimesChanged"
        case sourceChanged = "SourceChanged"
        case nutritionChanged = "NutritionChanged"
        case draftContentSet = "DraftContentSet"
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
            case .descriptionChanged, .yieldChanged, .timesChanged, .sourceChanged, .draftContentSet, .nutritionChanged:
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
        case .descriptionChanged: .descriptionChanged
        case .yieldChanged: .yieldChanged
        case .timesChanged: .timesChanged
        case .sourceChanged: .sourceChanged
        case .nutritionChanged: .nutritionChanged
        case .draftContentSet: .draftContentSet
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

// MARK: - The v1 shapes

extension RecipeCommand {
    /// An ingredient as v1 has it: an amount in a unit (`metric` on the wire).
    public static func ingredientAdded(name: String, amount: Double, metric: String, ingredientID: String?) -> RecipeCommand {
        .ingredientAdded(IngredientLine(name: name, amount: amount, unit: metric), ingredientID: ingredientID)
    }

    /// An update as v1 has it: each given field is set, the others kept; none clears.
    public static func ingredientUpdated(ingredientID: String, name: String?, amount: Double?, metric: String?) -> RecipeCommand {
        .ingredientUpdated(ingredientID: ingredientID, changes: IngredientChanges(
            name: name, amount: FieldUpdate(setting: amount), unit: FieldUpdate(setting: metric)))
    }

    /// A step as v1 has it: no section.
    public static func instructionAdded(description: String, position: Int?, instructionID: String?) -> RecipeCommand {
        .instructionAdded(description: description, position: position, instructionID: instructionID, section: nil)
    }

    /// A rewrite as v1 has it: the description, the section kept.
    public static func instructionUpdated(instructionID: String, description: String) -> RecipeCommand {
        .instructionUpdated(instructionID: instructionID, description: description, section: .keep)
    }
}
