import RecipeDomain

/// A recipe as the projector keeps it between records: the fold's state plus
/// what the read models show beside it.
struct ProjectedRecipe {
    var recipe: Recipe
    /// The latest rejection of a command while the draft was open, as JSON.
    var lastRejection: String?
    /// Time of the last accepted command (milliseconds), shown on the draft.
    var updatedAt: Int64
}

/// One record as the history read model and the audit tools show it.
public struct HistoryEntry: Sendable, Equatable {
    public var partition: Int32
    public var offset: Int64
    /// The recipe the record names (its key, else its subject), if any.
    public var recipeID: String?
    public var commandID: String?
    /// The command's own time (milliseconds), when it decoded.
    public var time: Int64?
    public var actor: String?
    /// The command's name (`TitleChanged`), or "unknown" when it did not decode.
    public var type: String
    /// "accepted", "duplicate" or "rejected".
    public var outcome: String
    public var reasonCode: String?
    public var reasonMessage: String?
    /// The recipe's revision after the record.
    public var revision: Int?
    /// The record's Kafka timestamp (milliseconds).
    public var logTime: Int64?

    mutating func reject(_ rejection: Rejection) {
        outcome = "rejected"
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

    public var records: Int { accepted + rejected + duplicates + skipped }

    public static func += (a: inout BatchSummary, b: BatchSummary) {
        a.accepted += b.accepted
        a.rejected += b.rejected
        a.duplicates += b.duplicates
        a.skipped += b.skipped
    }
}
