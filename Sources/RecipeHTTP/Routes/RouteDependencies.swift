import Kafka
import RecipeDomain
import RecipeProjection

/// The queries the routes ask of the read side: `ReadModel` over the store, or a
/// test's fake. Errors are `QueryError`s (rendered as their HTTP answers).
public protocol RecipeReads: Sendable {
    func list(tag: String?, query: String?, limit: Int, cursor: String?) throws -> RecipeList
    /// `units`: the system amounts are shown in, for display only.
    func detail(_ id: String, version: Int?, guests: Int?, units: UnitSystem?) throws -> RecipeDetail
    func draft(_ id: String) throws -> DraftView
    func drafts(limit: Int) throws -> [DraftView]
    func history(_ id: String) throws -> RecipeHistory
    func rejections(limit: Int) throws -> [RejectionItem]
    /// The outcome of the record at a position, once the read side has it.
    func outcome(partition: Int32, offset: Int64) throws -> HistoryItem?
    /// The next offset of every partition the read side has applied.
    func positions() throws -> [Int32: Int64]
    /// Blocks until the read side has applied the record at each `partition: offset`;
    /// false when `deadline` passes first. Woken by progress, not by a timer.
    func waitUntilReached(_ positions: [Int32: Int64], deadline: ContinuousClock.Instant) throws -> Bool
}

extension ReadModel: RecipeReads {}

/// Where the command routes append: `CommandAppender` over the edits topic, or a test's fake.
public protocol CommandLog: Sendable {
    /// Appends one command as a record of `source`; the report says where it landed.
    func append(_ envelope: CommandEnvelope, source: String) async throws -> KafkaDeliveryReport
}

extension CommandAppender: CommandLog {}
