import RecipeDomain

// MARK: - recipes.committed

/// What the committed topic (`RecipeTopics.committed`) holds for one recipe as of one
/// effective decision: the detail document of its latest committed version, as
/// `GET /v1/recipes/{id}` serves it, or a tombstone once the recipe is deleted; and
/// where that decision's command is in the edits topic (its `position`).
///
/// The record: key the recipe id; value the detail document (`DocumentJSON`) with one
/// more member, `"position":"P:O"`, or null for a deleted recipe; headers
/// `content-type: application/json` (not on a tombstone) and `position: P:O` (on every record).
/// A consumer keeps, per key, the record with the greatest position: along a
/// partition's effective decisions positions only grow, so an older one that lands
/// late (a paused decider's) is told by its position (docs/operations.md).
///
/// ```swift
/// let value = CommittedRecipe(recipe, partition: 3, offset: 120)?.value()   // inner nil: a tombstone
/// ```
public struct CommittedRecipe: Sendable {
    public enum Document: Sendable {
        /// The latest version, and whether a draft is open on it (the detail's `hasDraft`).
        case version(RecipeVersion, hasDraft: Bool)
        case deleted
    }

    public let recipeID: RecipeID
    public let document: Document
    /// The position of the command whose decision made the document: the recipe's partition and the command's offset.
    public let partition: Int32
    public let offset: Int64

    /// What the topic shows of `recipe` after the decision of the command at `partition:offset`;
    /// nil for a recipe never saved, which the topic does not name (not even when deleted).
    public init?(_ recipe: Recipe, partition: Int32, offset: Int64) {
        guard let latest = recipe.latestVersion else { return nil }
        recipeID = recipe.id
        document = recipe.isDeleted ? .deleted : .version(latest, hasDraft: recipe.hasOpenDraft)
        self.partition = partition
        self.offset = offset
    }

    /// `P:O`, as the HTTP API and the CLI write positions.
    public var position: String { "\(partition):\(offset)" }

    /// The detail document; nil for a deleted recipe.
    public var detail: RecipeDetail? {
        guard case .version(let version, let hasDraft) = document else { return nil }
        return RecipeDetail(id: recipeID.text, version: version, hasDraft: hasDraft)
    }

    /// The record's value: the detail document and its `position`, or nil (a tombstone) for a deleted recipe.
    public func value() -> [UInt8]? {
        detail.map { $0.json(position: position) }
    }

    // MARK: - Headers

    /// The header that holds the position, on every record (a tombstone has no value to hold it).
    public static let positionHeaderName = "position"
    /// The `content-type` header's value (`WireFormat.contentTypeHeaderName`) on a record with a document.
    public static let contentType = "application/json"

    /// The partition and offset a position header (`P:O`) names; nil for anything else.
    public static func position(fromHeader bytes: some Collection<UInt8>) -> (partition: Int32, offset: Int64)? {
        // Byte by byte: the decider reads the header of every document that lands.
        var numbers: (partition: Int64, offset: Int64) = (0, 0)
        var digits = 0, afterColon = false
        for byte in bytes {
            if byte == UInt8(ascii: ":") {
                guard !afterColon, digits > 0 else { return nil }
                (afterColon, digits) = (true, 0)
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10, digits < 18 else { return nil }
            digits += 1
            if afterColon { numbers.offset = numbers.offset * 10 + Int64(digit) } else { numbers.partition = numbers.partition * 10 + Int64(digit) }
        }
        guard afterColon, digits > 0, let partition = Int32(exactly: numbers.partition) else { return nil }
        return (partition, numbers.offset)
    }

    // MARK: - Size

    /// The largest value: every text of a recipe at its limit (`RecipeLimits`) and its actor
    /// as long as a command record allows, each scalar written as the longest JSON escape
    /// (`\u001f`, six bytes), with room for member names, punctuation and numbers. No
    /// recipe the rules accept has a larger document, so the decider never has one it
    /// cannot write; the topic's `max.message.bytes` follows it.
    public static let maxValueSize: Int = {
        let longestEscape = 6
        let id = 2 * RecipeLimits.maxIdentifierLength
        let ingredient = id + RecipeLimits.maxIngredientNameLength + 2 * RecipeLimits.maxUnitLength
            + RecipeLimits.maxIngredientNoteLength + RecipeLimits.maxSectionLength + RecipeLimits.maxIngredientTextLength
            + RecipeLimits.maxUnitLength + 64  // `display`: the amount written out, and the unit
        let instruction = id + RecipeLimits.maxDescriptionLength + RecipeLimits.maxSectionLength
        let tag = RecipeLimits.maxTagNameLength + RecipeLimits.maxTagPayloadLength
        let recipe = RecipeID.maxLength + RecipeLimits.maxTitleLength + RecipeLimits.maxImageURLLength
            + RecipeLimits.maxRecipeDescriptionLength + RecipeLimits.maxYieldLength + 3 * RecipeLimits.maxDurationLength
            + RecipeLimits.maxSourceURLLength + RecipeLimits.maxServingSizeLength
        let texts = recipe + RecipeLimits.maxIngredients * ingredient + RecipeLimits.maxInstructions * instruction
            + RecipeLimits.maxTags * tag + WireFormat.maxRecordSize  // `savedBy`
        // Nutrition: each nutrient per serving and in total, name, amount and unit.
        let nutrients = 2 * 64 * Nutrition.Nutrient.allCases.count
        let structure = 512 * (RecipeLimits.maxIngredients + RecipeLimits.maxInstructions + RecipeLimits.maxTags) + 4096 + nutrients
        return longestEscape * texts + structure
    }()
}

// MARK: - What the document changes with

extension CommittedRecipe {
    /// Whether a decision with these events can change what the topic shows of its recipe: a
    /// version committed, a draft opened or closed (the detail's `hasDraft`), a delete. Any
    /// other event leaves the latest version, the draft's being open and the recipe's being
    /// deleted as they were, and so the document. (A recipe never saved has none either way:
    /// `init` says.) Read from the events, so that the decider looks up no recipe for the
    /// decisions that change nothing, nine in ten.
    public static func mayChange(by events: [RecipeEvent]) -> Bool {
        events.contains { event in
            switch event {
            case .draftOpened, .versionCommitted, .draftDiscarded, .recipeDeleted: true
            default: false
            }
        }
    }
}
