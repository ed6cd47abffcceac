import RecipeDomain
import RecipeJSON

// MARK: - Record limits

/// The domain's limits that a record is checked against on its own, without the
/// recipe it is for: text lengths and number ranges from `RecipeLimits`, the same
/// numbers the schemas in Schemas/ state as `maxLength`, `minimum`, `maximum`.
///
/// Names too: the command id holds no control character (tab and newline included), and
/// `actor`, `grantee` and `newOwner` are actor names in their one spelling (`ActorName`).
///
/// What is *not* checked here, and left to the fold so that it shows in the
/// recipe's history with the domain's own code: rules that need judgement (blank
/// text, the URL's form, the tag grammar, "an update changes something") and
/// rules that need the recipe (unknown ids, counts, positions beyond the list).
/// Ids and tag names that are only looked up (`ingredientId` of an update, `name`
/// of `TagRemoved`) are not bounded either: a long one is simply not found.
///
/// The decoder rejects a record breaking a limit as `invalid`; producers call
/// `violation(in:)` before appending, to refuse what every reader would reject:
///
/// ```swift
/// if let problem = RecordLimits.violation(in: envelope) { return .badRequest(problem.code, problem.message) }
/// ```
public enum RecordLimits {
    /// The first reason a reader would reject `envelope` once encoded, or nil.
    /// An empty `id` is `malformed` (CloudEvents requires one; the recipe id is a
    /// `RecipeID`, never empty); every other problem is `invalid` and names its field.
    public static func violation(in envelope: CommandEnvelope) -> WireError? {
        if envelope.commandID.isEmpty { return .malformed("id must not be empty.", field: "id") }
        if let problem = maxLength(envelope.commandID, RecipeLimits.maxIdentifierLength, "id") { return problem }
        // Tab and newline too: an id is a name, not text (other controls never get this far).
        var commandID = envelope.commandID
        if commandID.withUTF8({ $0.contains { $0 < 0x20 } }) {
            return .invalid("id", "must not hold control characters, tab and newline included")
        }
        if let problem = actorName(envelope.actor, "actor") { return problem }
        if let revision = envelope.expectedRevision, !(0...JSONNumber.maxSafeInteger).contains(revision) {
            return .invalid("expectedrevision", "must be from 0 to \(JSONNumber.maxSafeInteger), not \(revision)")
        }
        return violation(in: envelope.command)
    }

    /// The first field of `command`'s data that breaks a record-level limit, or nil.
    public static func violation(in command: RecipeCommand) -> WireError? {
        switch command {
        case .draftStarted, .recipeSaved, .draftDiscarded, .recipeDeleted, .ingredientRemoved, .instructionRemoved,
             .tagRemoved:
            return nil
        case .titleChanged(let title):
            return maxLength(title, RecipeLimits.maxTitleLength, "data.title")
        case .servingsChanged(let servings):
            return range(servings, RecipeLimits.servings, "data.servings")
        case .imageChanged(let url):
            return url.flatMap { maxLength($0, RecipeLimits.maxImageURLLength, "data.url") }
        case .ingredientAdded(let line, let ingredientID):
            return violation(in: line, at: "data")
                ?? ingredientID.flatMap { maxLength($0, RecipeLimits.maxIdentifierLength, "data.ingredientId") }
        case .ingredientUpdated(_, let changes):
            return changes.name.flatMap { maxLength($0, RecipeLimits.maxIngredientNameLength, "data.name") }
                ?? changes.amount.newValue.flatMap { self.amount($0, "data.amount") }
                ?? changes.amountMax.newValue.flatMap { self.amount($0, "data.amountMax") }
                ?? changes.unit.newValue.flatMap { maxLength($0, RecipeLimits.maxUnitLength, "data.unit") }
                ?? changes.note.newValue.flatMap { maxLength($0, RecipeLimits.maxIngredientNoteLength, "data.note") }
                ?? changes.section.newValue.flatMap { maxLength($0, RecipeLimits.maxSectionLength, "data.section") }
                ?? changes.text.newValue.flatMap { maxLength($0, RecipeLimits.maxIngredientTextLength, "data.text") }
        case .instructionAdded(let description, let position, let instructionID, let section):
            return maxLength(description, RecipeLimits.maxDescriptionLength, "data.description")
                ?? position.flatMap { range($0, 1...(RecipeLimits.maxInstructions + 1), "data.position") }
                ?? instructionID.flatMap { maxLength($0, RecipeLimits.maxIdentifierLength, "data.instructionId") }
                ?? section.flatMap { maxLength($0, RecipeLimits.maxSectionLength, "data.section") }
        case .instructionUpdated(_, let description, let section):
            return description.flatMap { maxLength($0, RecipeLimits.maxDescriptionLength, "data.description") }
                ?? section.newValue.flatMap { maxLength($0, RecipeLimits.maxSectionLength, "data.section") }
        case .instructionMoved(_, let position):
            return range(position, 1...RecipeLimits.maxInstructions, "data.position")
        case .tagAdded(let text), .tagChanged(_, let text):
            return maxLength(text, RecipeLimits.maxTagTextLength, "data.text")
        case .accessGranted(let grantee, _), .accessRevoked(let grantee):
            return actorName(grantee, "data.grantee")
        case .ownershipTransferred(let newOwner):
            return actorName(newOwner, "data.newOwner")
        case .descriptionChanged(let description):
            return description.flatMap { maxLength($0, RecipeLimits.maxRecipeDescriptionLength, "data.description") }
        case .yieldChanged(let yield):
            return yield.flatMap { maxLength($0, RecipeLimits.maxYieldLength, "data.yield") }
        case .timesChanged(let prepTime, let cookTime, let totalTime):
            return prepTime.newValue.flatMap { maxLength($0, RecipeLimits.maxDurationLength, "data.prepTime") }
                ?? cookTime.newValue.flatMap { maxLength($0, RecipeLimits.maxDurationLength, "data.cookTime") }
                ?? totalTime.newValue.flatMap { maxLength($0, RecipeLimits.maxDurationLength, "data.totalTime") }
        case .sourceChanged(let url):
            return url.flatMap { maxLength($0, RecipeLimits.maxSourceURLLength, "data.url") }
        case .draftContentSet(let draft):
            return violation(in: draft)
        }
    }

    /// An ingredient line's fields, named under `prefix` (`data`, `data.ingredients[2]`).
    private static func violation(in line: IngredientLine, at prefix: @autoclosure () -> String) -> WireError? {
        maxLength(line.name, RecipeLimits.maxIngredientNameLength, "\(prefix()).name")
            ?? line.amount.flatMap { amount($0, "\(prefix()).amount") }
            ?? line.amountMax.flatMap { amount($0, "\(prefix()).amountMax") }
            ?? line.unit.flatMap { maxLength($0, RecipeLimits.maxUnitLength, "\(prefix()).unit") }
            ?? line.note.flatMap { maxLength($0, RecipeLimits.maxIngredientNoteLength, "\(prefix()).note") }
            ?? line.section.flatMap { maxLength($0, RecipeLimits.maxSectionLength, "\(prefix()).section") }
            ?? line.text.flatMap { maxLength($0, RecipeLimits.maxIngredientTextLength, "\(prefix()).text") }
    }

    /// Every field of the whole content by the bound of the command that sets it
    /// alone. How many items there are is the fold's (`limitExceeded`), as for the
    /// single adds; the record size bounds the record.
    private static func violation(in draft: DraftContent) -> WireError? {
        if let problem = maxLength(draft.title, RecipeLimits.maxTitleLength, "data.title")
            ?? draft.servings.flatMap({ range($0, RecipeLimits.servings, "data.servings") })
            ?? draft.image.flatMap({ maxLength($0, RecipeLimits.maxImageURLLength, "data.image") })
            ?? draft.description.flatMap({ maxLength($0, RecipeLimits.maxRecipeDescriptionLength, "data.description") })
            ?? draft.yield.flatMap({ maxLength($0, RecipeLimits.maxYieldLength, "data.yield") })
            ?? draft.prepTime.flatMap({ maxLength($0, RecipeLimits.maxDurationLength, "data.prepTime") })
            ?? draft.cookTime.flatMap({ maxLength($0, RecipeLimits.maxDurationLength, "data.cookTime") })
            ?? draft.totalTime.flatMap({ maxLength($0, RecipeLimits.maxDurationLength, "data.totalTime") })
            ?? draft.sourceUrl.flatMap({ maxLength($0, RecipeLimits.maxSourceURLLength, "data.sourceUrl") }) {
            return problem
        }
        for (index, item) in draft.ingredients.enumerated() {
            let prefix = { "data.ingredients[\(index)]" }
            if let problem = item.id.flatMap({ maxLength($0, RecipeLimits.maxIdentifierLength, "\(prefix()).ingredientId") })
                ?? violation(in: item.line, at: prefix()) {
                return problem
            }
        }
        for (index, item) in draft.instructions.enumerated() {
            let prefix = { "data.instructions[\(index)]" }
            if let problem = item.id.flatMap({ maxLength($0, RecipeLimits.maxIdentifierLength, "\(prefix()).instructionId") })
                ?? maxLength(item.description, RecipeLimits.maxDescriptionLength, "\(prefix()).description")
                ?? item.section.flatMap({ maxLength($0, RecipeLimits.maxSectionLength, "\(prefix()).section") }) {
                return problem
            }
        }
        for (index, tag) in draft.tags.enumerated() {
            if let problem = maxLength(tag, RecipeLimits.maxTagTextLength, "data.tags[\(index)]") { return problem }
        }
        return nil
    }

    // MARK: - Checks

    /// Amounts: the domain's rule (`RecipeLimits.isAllowedAmount`), with its own
    /// message for a number too large to be finite (`1e999`).
    private static func amount(_ amount: Double, _ field: @autoclosure () -> String) -> WireError? {
        guard amount.isFinite else { return .invalid(field(), "must be a finite number") }
        guard RecipeLimits.isAllowedAmount(amount) else {
            return .invalid(field(), "must be \(RecipeLimits.amountRange)")
        }
        return nil
    }

    /// An actor's name in its one spelling (`ActorName`): `jose\u{301}` is refused, naming
    /// `jos\u{E9}`, so that the fold's `==` and the store's bytes never tell two apart.
    private static func actorName(_ name: String, _ field: String) -> WireError? {
        if let problem = maxLength(name, RecipeLimits.maxIdentifierLength, field) { return problem }
        guard let problem = ActorName.problem(name) else { return nil }
        return WireError(.invalid, "\(field) \(problem).", field: field)
    }

    private static func range(_ value: Int, _ range: ClosedRange<Int>, _ field: String) -> WireError? {
        guard !range.contains(value) else { return nil }
        return .invalid(field, "must be from \(range.lowerBound) to \(range.upperBound), not \(value)")
    }

    /// Lengths count Unicode scalars, as the domain and JSON Schema's `maxLength` do.
    /// `field` is made only for a problem: item paths (`data.ingredients[3].name`) cost
    /// an allocation, which every record would otherwise pay.
    private static func maxLength(_ text: String, _ limit: Int, _ field: @autoclosure () -> String) -> WireError? {
        // UTF-8 takes 1…4 bytes per scalar: the byte count (O(1) for native
        // strings) settles nearly every case without walking the text.
        let bytes = text.utf8.count
        if bytes <= limit { return nil }
        if bytes <= limit * 4, text.unicodeScalars.count <= limit { return nil }
        return .invalid(field(), "is longer than \(limit) characters")
    }
}
