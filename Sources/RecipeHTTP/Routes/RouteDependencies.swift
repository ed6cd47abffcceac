import Kafka
import RecipeDomain
import RecipeProjection
import RecipeWriteSide

/// The queries the routes ask of the read side: `ReadModel` over the store, or a
/// test's fake. Errors are `QueryError`s (rendered as their HTTP answers).
public protocol RecipeReads: Sendable {
    /// With `visibleTo`, only the recipes that actor owns or holds a grant on (`--private`).
    func list(tag: String?, query: String?, limit: Int, cursor: String?, visibleTo: String?) throws -> RecipeList
    /// `units`: the system amounts are shown in, for display only.
    func detail(_ id: RecipeID, version: Int?, guests: Int?, units: UnitSystem?) throws -> RecipeDetail
    func draft(_ id: RecipeID) throws -> DraftView
    /// Summaries of the open drafts, most recently edited first (the content is `draft(_:)`'s).
    func drafts(limit: Int, visibleTo: String?) throws -> [DraftSummary]
    /// A recipe's owner and grants, nil when the log never touched it.
    func access(_ id: RecipeID) throws -> RecipeAccessView?
    func history(_ id: RecipeID) throws -> RecipeHistory
    /// With `visibleTo`, only the rejections of recipes that actor owns or holds a grant on (`--private`).
    func rejections(limit: Int, visibleTo: String?) throws -> [RejectionItem]
    /// The outcome of the record at a position, once the read side has it.
    func outcome(partition: Int32, offset: Int64) throws -> HistoryItem?
    /// The next offset of every partition the read side has applied.
    func positions() throws -> [Int32: Int64]
    /// Blocks until the read side has applied the record at each `partition: offset`;
    /// false when `deadline` passes first. Woken by progress, not by a timer.
    func waitUntilReached(_ positions: [Int32: Int64], deadline: ContinuousClock.Instant) throws -> Bool
    /// The log's end (the next offset to be written) of each of `partitions`, as asked of the
    /// brokers no earlier than `notBefore`: a position at or past it is not on the log
    /// yet, and no wait would see it applied. Nil when the read side cannot tell.
    func logEnds(of partitions: [Int32], notBefore: ContinuousClock.Instant) throws -> [Int32: Int64]?
    /// Whether `logEnds` can answer at all: else a query waits without asking.
    var tellsLogEnds: Bool { get }
    /// The log the store is built from, and the heads it lacks (a partial store); nil before its first projection.
    func storeLog() throws -> StoreLog?
    /// Runs `body` when the reads it makes can be answered without waiting (`ReadModel.withoutWaiting`),
    /// nil when they cannot; a read in it that would wait after all throws `ReadWouldWait`.
    func withoutWaiting<T>(_ body: () throws -> T) throws -> T?
}

extension RecipeReads {
    /// Reads that may wait: a request goes to a handler thread.
    public func withoutWaiting<T>(_ body: () throws -> T) throws -> T? { nil }
}

extension RecipeReads {
    public func storeLog() throws -> StoreLog? { nil }
}

extension RecipeReads {
    public func logEnds(of partitions: [Int32], notBefore: ContinuousClock.Instant) throws -> [Int32: Int64]? { nil }
    public var tellsLogEnds: Bool { false }
}

extension ReadModel: RecipeReads {
    public var tellsLogEnds: Bool { logEndSource != nil }

    public func logEnds(of partitions: [Int32], notBefore: ContinuousClock.Instant) throws -> [Int32: Int64]? {
        // Brokers that cannot say leave the query to wait, as it did before the log's end was known.
        try? logEndSource?.ends(of: partitions, notBefore: notBefore)
    }
}

/// Where the command routes append: `CommandAppender` over the edits topic, or a test's fake.
/// Both block the calling thread (an HTTP connection thread) until the log has answered.
public protocol CommandLog: Sendable {
    /// Appends one command as a record of `source`; the report says where it landed.
    func append(_ envelope: CommandEnvelope, source: String) throws -> KafkaDeliveryReport
    /// Appends commands a `CommandBuilder` built (`POST /v1/commands`), whose records it may
    /// already hold (`Command.record`), in the order given, until every one is answered: one
    /// result per command. A failure is the log's (`KafkaError`) or a refusal that answers for
    /// itself (`HTTPResponseError`, e.g. `LogFull`).
    func append(_ commands: [CommandBuilder.Command], source: String) -> [Result<KafkaDeliveryReport, any Error>]
}

extension CommandLog {
    /// One envelope at a time, for logs without a batch of their own that encode records
    /// themselves (the tests' fakes).
    public func append(_ commands: [CommandBuilder.Command], source: String) -> [Result<KafkaDeliveryReport, any Error>] {
        commands.map { command in Result { try append(command.decoded.envelope, source: source) } }
    }
}

extension CommandAppender: CommandLog {}
