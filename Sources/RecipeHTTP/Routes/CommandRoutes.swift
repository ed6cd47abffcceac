import Kafka
import RecipeDecisions
import RecipeDomain
import RecipeJSON
import RecipeProjection
import RecipeSchemaOrg
import RecipeWire
import RecipeWriteSide

/// The command gateway: `POST /v1/recipes/{id}/commands` and `POST /v1/drafts`
/// (a new recipe) append a command and answer 202 with where it landed; with
/// `?wait=true`, 200 with its outcome once the read side has projected it.
struct CommandRoutes<Reads: RecipeReads, Log: CommandLog>: Sendable {
    let log: Log
    let reads: Reads
    let access: Access
    /// How long `?wait=true` waits for the outcome; then 202 without it.
    let waitTimeout: Duration
    /// The slots of requests that wait for the read model, shared with `after=`.
    let waiters: WaiterLimit
    /// What the decider of this process does (nil: none here): a command it has not decided is
    /// answered 202 without an outcome, at once on a partition it stopped deciding.
    let decider: @Sendable () -> DeciderState?
    let builder: CommandBuilder

    func register(in router: inout Router<RouteHandler>) {
        router.add("POST", "/v1/recipes/{id}/commands", takes: .jsonWrite(maxBodySize: Self.maxBodySize), command)
        router.add("POST", "/v1/drafts", takes: .jsonWrite(), newDraft)
        BatchRoutes(log: log, access: access, builder: builder).register(in: &router)
    }

    /// A single command's body: as large as a record (a `DraftContentSet` holds a whole recipe).
    static var maxBodySize: Int { WireFormat.maxRecordSize }

    func command(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.writer(request)
        let id = try request.recipeID()
        guard request.body.count <= Self.maxBodySize else { throw HTTPError.tooLarge(Self.maxBodySize) }
        let wait = try request.bool("wait")
        var envelope = try builder.envelope(body: request.body, recipeID: id, actor: caller.actor)
        envelope.actorRole = caller.role
        return try submit(envelope, wait: wait)
    }

    /// The body is empty or `{"id": "<command id>"}`; the recipe id is new.
    /// Its body is held to the server's 64 KiB.
    func newDraft(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.writer(request)
        let wait = try request.bool("wait")
        var envelope = try builder.newDraft(body: request.body, actor: caller.actor)
        envelope.actorRole = caller.role
        return try submit(envelope, wait: wait)
    }

    /// Appends, blocking the calling thread (a connection thread, `dev --seed`'s) until the log has answered.
    func append(_ envelope: CommandEnvelope) throws -> CommandReceipt {
        do { return receipt(envelope, try log.append(envelope, source: builder.source)) } catch { throw Self.answer(error) }
    }

    private func receipt(_ envelope: CommandEnvelope, _ report: KafkaDeliveryReport) -> CommandReceipt {
        CommandReceipt(commandId: envelope.commandID, recipeId: envelope.recipeID.text, partition: report.partition,
                       offset: report.offset, position: report.description)
    }

    /// A refusal answers for itself (`LogFull`); any other failure of the log is 503.
    private static func answer(_ error: any Error) -> any Error {
        if error is LogFull { return error }
        return HTTPError(503, "unavailable", "the command could not be appended to the log: \(error)")
    }

    private func submit(_ envelope: CommandEnvelope, wait: Bool) throws -> HTTPResponse {
        guard wait else { return try append(envelope).accepted }
        // The slot is taken before the append: a command refused as `busy` is not on the log,
        // so trying again cannot append it twice.
        return try waiters.holding { try appendAndWait(envelope) }
    }

    private func appendAndWait(_ envelope: CommandEnvelope) throws -> HTTPResponse {
        let receipt = try append(envelope)
        // On a partition the decider stopped deciding, no outcome comes: in the log, undecided.
        if decider()?.undecided([receipt.partition: receipt.offset]).contains(where: { $0.why != nil }) == true {
            return .json(receipt, status: 202)
        }
        // Not projected in time: the command is in the log all the same.
        // The entry at that position must be this command's: a store that folded another log
        // holds someone else's there, and its outcome is not this command's; and the decider of this
        // process (where it holds the partition) must have decided it: else the outcome is not its.
        guard try reads.waitUntilReached([receipt.partition: receipt.offset], deadline: .now + waitTimeout),
              decider()?.undecided([receipt.partition: receipt.offset]).isEmpty != false,
              let item = try reads.outcome(partition: receipt.partition, offset: receipt.offset),
              item.commandId == envelope.commandID else {
            return .json(receipt, status: 202)
        }
        return .json(try access.receipt(receipt, withOutcome: item, of: envelope, in: reads), status: 200)
    }
}

/// What the gateway answers: where the command landed and, with `?wait=true`, its outcome.
public struct CommandReceipt: Codable, Sendable, Equatable {
    public var commandId: String
    public var recipeId: String
    public var partition: Int32
    public var offset: Int64
    public var position: String
    public var outcome: RecordOutcome?
    public var revision: Int?
    public var reason: ReasonView?
}

extension CommandReceipt {
    /// The 202 answer, written as `HTTPResponse.json` would (sorted keys) but without
    /// `JSONEncoder`, which cost a single POST as much CPU as building its command.
    var accepted: HTTPResponse {
        var writer = JSONWriter(capacity: 192)
        writer.key("commandId", first: true); writer.string(commandId)
        writer.key("offset"); writer.integer(Int(offset))
        writer.key("partition"); writer.integer(Int(partition))
        writer.key("position"); writer.string(position)
        writer.key("recipeId"); writer.string(recipeId)
        writer.raw("}")
        return HTTPResponse(status: 202, headers: [("Content-Type", "application/json")], body: writer.bytes)
    }
}
