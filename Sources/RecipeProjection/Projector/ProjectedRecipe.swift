import RecipeDomain
import RecipeJSON
import RecipeWire

/// A recipe as the projector keeps it between decisions: the fold's state plus
/// what the read models show beside it. The audit tools fold with it too (`fold`).
public struct ProjectedRecipe: Sendable {
    public internal(set) var recipe: Recipe
    /// The latest rejection of a command while the draft was open, as JSON.
    var lastRejection: String?
    /// Time of the last accepted command (milliseconds), shown on the draft.
    public internal(set) var updatedAt: Int64

    public init(id: RecipeID) {
        self.init(recipe: Recipe(id: id), lastRejection: nil, updatedAt: 0)
    }

    init(recipe: Recipe, lastRejection: String?, updatedAt: Int64) {
        self.recipe = recipe
        self.lastRejection = lastRejection
        self.updatedAt = updatedAt
    }

    /// Folds an effective decision about this recipe as it was recorded: an accepted
    /// one's events, with no rule; a rejection is the last word on an open draft. The
    /// recipe is the one the decider had (the audit tools' states), applied ids and all.
    public mutating func fold(_ decision: DecisionRecord, entry: HistoryEntry) {
        fold(decision, entry: entry, keepsAppliedIDs: true)
    }

    /// The same; without `keepsAppliedIDs`, an accepted command's id is not kept: the
    /// projector's read models show what was decided and never decide, so they need no
    /// ids to tell duplicates by (hashing and indexing each was a twentieth of the fold).
    mutating func fold(_ decision: DecisionRecord, entry: HistoryEntry, keepsAppliedIDs: Bool) {
        switch decision.outcome {
        case .accepted, .duplicate: foldEvents(of: decision, keepsAppliedIDs: keepsAppliedIDs)
        case .rejected(let rejection, _), .undecodable(let rejection): noteRejection(rejection, entry: entry)
        }
    }

    /// Folds an accepted decision's events (a duplicate changes nothing): what `fold`
    /// does with those, for a caller that has no history entry at hand.
    mutating func foldEvents(of decision: DecisionRecord, keepsAppliedIDs: Bool) {
        guard case .accepted(let events, _) = decision.outcome else { return }
        if keepsAppliedIDs { recipe.record(events, ofCommand: decision.commandID ?? "") } else { recipe.record(events) }
        updatedAt = decision.time?.millisecondsSinceEpoch ?? updatedAt
        if !recipe.hasOpenDraft { lastRejection = nil }
    }

    /// A rejected or undecodable record is the last word on an open draft.
    public mutating func noteRejection(_ rejection: Rejection, entry: HistoryEntry) {
        guard recipe.hasOpenDraft else { return }
        var writer = JSONWriter(capacity: 128)
        writer.key("code", first: true)
        writer.string(rejection.code.rawValue)
        writer.key("message")
        writer.string(rejection.message)
        writer.key("type")
        writer.string(entry.type)
        writer.key("commandId")
        writer.string(entry.commandID ?? "")
        writer.key("position")
        writer.string("\(entry.partition):\(entry.offset)")
        writer.raw("}")
        lastRejection = String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The open draft as the drafts read model shows it.
    public var draftView: DraftView? {
        get throws {
            guard let draft = recipe.draft else { return nil }
            return try DraftView(id: recipe.id.text, content: draft.content, baseVersion: draft.baseVersion,
                                 revision: recipe.revision, lastRejectionJSON: lastRejection, updatedAt: updatedAt)
        }
    }
}

/// What the fold made of one record: the history's `outcome`.
public enum RecordOutcome: String, Sendable, Codable, CaseIterable {
    /// Applied to its recipe.
    case accepted
    /// Not applied: its reason says why (a rule, or a record that cannot be read).
    case rejected
    /// A command id the recipe had already applied: no second effect.
    case duplicate
}

/// One record as the history read model and the audit tools show it.
public struct HistoryEntry: Sendable, Equatable {
    public var partition: Int32
    public var offset: Int64
    /// The recipe the record names (its key, else its subject), if any: a key or
    /// subject that is not a recipe id names none.
    public var recipeID: RecipeID?
    public var commandID: String?
    /// The command's own time (milliseconds), when it decoded.
    public var time: Int64?
    public var actor: String?
    /// The command's name (`TitleChanged`), or "unknown" when it did not decode.
    public var type: String
    public var outcome: RecordOutcome
    public var reasonCode: String?
    public var reasonMessage: String?
    /// The recipe's revision after the record.
    public var revision: Int?
    /// The record's `actorrole` (admin, writer, reader), when it carries one.
    public var actorRole: String?
    /// The rules version of the build that decided it (`RecipeDecider.rulesVersion`).
    public var rulesVersion: Int?
    /// The record's Kafka timestamp (milliseconds).
    public var logTime: Int64?

    mutating func reject(_ rejection: Rejection) {
        outcome = .rejected
        reasonCode = rejection.code.rawValue
        reasonMessage = rejection.message
    }
}

/// What one transaction of the projector did.
public struct BatchSummary: Sendable, Equatable {
    public var accepted = 0
    public var rejected = 0
    public var duplicates = 0
    /// Records below the stored position (already applied, e.g. re-delivered after a rebalance).
    public var skipped = 0
    /// Records of the decisions topic that do not count (`EffectiveDecisions`): a second
    /// decision of a command, a stale decider's, anything that is not a decision.
    public var superseded = 0

    public var records: Int { accepted + rejected + duplicates + skipped + superseded }

    public static func += (a: inout BatchSummary, b: BatchSummary) {
        a.accepted += b.accepted
        a.rejected += b.rejected
        a.duplicates += b.duplicates
        a.skipped += b.skipped
        a.superseded += b.superseded
    }
}
