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

/// One row of the history read model.
struct HistoryEntry {
    var partition: Int32
    var offset: Int64
    var recipeID: String?
    var commandID: String?
    var time: Int64?
    var actor: String?
    var type: String
    var outcome: String
    var reasonCode: String?
    var reasonMessage: String?
    var revision: Int?
    /// The record's Kafka timestamp.
    var logTime: Int64?
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
