import Foundation
import RecipeDomain
import RecipeProjection

/// The event streams (Server-Sent Events, docs/api.md "Event streams"):
/// `GET /v1/recipes/{id}/events` (one recipe's decisions) and `GET /v1/events` (the list's
/// changes). Each sends its history from the read model, `caught-up`, then the decisions
/// the fan-out hands it as they commit; `Last-Event-ID` (or `?after=`) resumes after a position.
struct EventRoutes<Reads: RecipeReads>: Sendable {
    let reads: Reads
    let access: Access
    let fanOut: EventFanOut?
    /// The bound of each stream's queue (`RecipeAPIOptions.streamQueueBytes`).
    let queueBytes: Int
    /// At most this many decisions of history before `caught-up`; more is `reset`.
    static var maxHistory: Int { 10_000 }

    func register(in router: inout Router<RouteHandler>) {
        router.add("GET", "/v1/events", list)
        router.add("GET", "/v1/recipes/{id}/events", recipe)
    }

    func recipe(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.reader(request)
        let id = try request.recipeID()
        let fanOut = try available()
        let start = try resumePosition(request)
        try access.checkVisible(id, to: caller, in: reads)
        let (stream, subscriber) = try open(.recipe(id), caller: caller, fanOut: fanOut)
        do {
            let items = try reads.history(id).items.compactMap { item -> StreamedDecision? in
                guard let (partition, offset) = Self.position(item.position) else { return nil }
                return StreamedDecision(recipeID: id.text, partition: partition, offset: offset, item: item)
            }
            let states = try fanOut.reads.streamStates([id.text])
            if let start, Self.isUnknown(start, in: items) {
                subscriber.endReset(Self.positionsText(start))
            } else {
                let deleted = states[id.text]?.deleted ?? false
                subscriber.catchUp(history: items, states: states, after: start ?? [:], endsAfter: deleted)
            }
        } catch {
            stream.end()
            fanOut.unsubscribe(subscriber)
            throw error
        }
        return Self.answer(stream)
    }

    func list(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.reader(request)
        let fanOut = try available()
        let start = try resumePosition(request)
        let scope = EventSubscriber.Scope.list(tag: request.text("tag"), query: request.text("q"))
        let (stream, subscriber) = try open(scope, caller: caller, fanOut: fanOut)
        do {
            // Where the store is now, as positions sent: live decisions past them follow.
            let now = try reads.positions().compactMapValues { $0 > 0 ? $0 - 1 : nil }
            guard let start else {
                subscriber.catchUp(history: [], states: [:], after: now, endsAfter: false)
                return Self.answer(stream)
            }
            var history: [StreamedDecision] = []
            for partition in Set(now.keys).union(start.keys).sorted() {
                history += try fanOut.reads.decisions(partition: partition, after: start[partition] ?? -1, limit: Self.maxHistory + 1)
            }
            if history.count > Self.maxHistory {
                subscriber.endReset(Self.positionsText(start))
            } else {
                let states = try fanOut.reads.streamStates(Array(Set(history.compactMap(\.recipeID))))
                subscriber.catchUp(history: history, states: states, after: start, endsAfter: false)
            }
        } catch {
            stream.end()
            fanOut.unsubscribe(subscriber)
            throw error
        }
        return Self.answer(stream)
    }

    private func available() throws -> EventFanOut {
        guard let fanOut else { throw HTTPError(501, "notImplemented", "this server's read side has no event streams") }
        return fanOut
    }

    /// Subscribed before the history is read: the seam (`EventSubscriber`).
    private func open(_ scope: EventSubscriber.Scope, caller: Caller?,
                      fanOut: EventFanOut) throws -> (AnswerStream, EventSubscriber) {
        let stream = AnswerStream(maxQueuedBytes: queueBytes)
        let subscriber = EventSubscriber(scope: scope, viewer: access.listFilter(caller), stream: stream, fanOut: fanOut)
        stream.onClose { [weak fanOut, weak subscriber] in
            if let fanOut, let subscriber { fanOut.unsubscribe(subscriber) }
        }
        try fanOut.subscribe(subscriber)
        return (stream, subscriber)
    }

    /// `Last-Event-ID` (what a reconnecting client sends), else `?after=`.
    private func resumePosition(_ request: HTTPRequest) throws -> [Int32: Int64]? {
        guard let lastEventID = request.header("last-event-id"), !lastEventID.isEmpty else { return try request.positions("after") }
        var asked = request
        asked.query["after"] = lastEventID
        do {
            return try asked.positions("after")
        } catch {
            throw HTTPError.badParameter("Last-Event-ID", "Last-Event-ID must be an event's id, partition:offset[,partition:offset…]; got \"\(lastEventID)\"")
        }
    }

    private static func answer(_ stream: AnswerStream) -> HTTPResponse {
        var response = HTTPResponse(status: 200, headers: [("Content-Type", ServerSentEvents.contentType), ("Cache-Control", "no-store"),
                                                           ("X-Accel-Buffering", "no")])
        response.stream = stream
        return response
    }

    /// A position the recipe's history cannot resume after: in no partition of it, or inside
    /// its span but not one of its decisions (an id of another recipe, or of a rebuilt store).
    static func isUnknown(_ start: [Int32: Int64], in items: [StreamedDecision]) -> Bool {
        guard let first = items.first, let last = items.last else { return false }
        guard let offset = start[first.partition], start.count == 1 else { return true }
        if offset < first.offset || offset >= last.offset { return false }
        return !items.contains { $0.offset == offset }
    }

    static func position(_ text: String) -> (Int32, Int64)? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let partition = Int32(parts[0]), let offset = Int64(parts[1]) else { return nil }
        return (partition, offset)
    }

    static func positionsText(_ positions: [Int32: Int64]) -> String { EventSubscriber.positions(positions) }
}

/// The data of a decision's event: the history entry, and the recipe as the store has it as the
/// event is sent (`recipe`), so a client needs no second request; `inList` on the list stream.
struct StreamedEventData: Encodable {
    var position: String
    var recipeId: String?
    var commandId: String?
    var type: String
    var outcome: RecordOutcome
    var actor: String?
    var actorRole: String?
    var time: String?
    var revision: Int?
    var reason: ReasonView?
    var recipe: Summary?
    var inList: Bool?

    struct Summary: Encodable {
        var id: String
        var title: String?
        var version: Int
        var revision: Int
        var deleted: Bool
        var draftRevision: Int?
        var draftTitle: String?
        var tags: [TagView]
        var updatedAt: String?
    }

    init(_ decision: StreamedDecision, recipe: RecipeStreamState?, inList: Bool?) {
        let item = decision.item
        (position, recipeId, commandId, type, outcome) = (item.position, decision.recipeID, item.commandId, item.type, item.outcome)
        (actor, actorRole, time, revision, reason) = (item.actor, item.actorRole, item.time, item.revision, item.reason)
        self.recipe = recipe.map {
            Summary(id: $0.id, title: $0.title, version: $0.version, revision: $0.revision, deleted: $0.deleted,
                    draftRevision: $0.draftRevision, draftTitle: $0.draftTitle, tags: $0.tags, updatedAt: $0.updatedAt)
        }
        self.inList = inList
    }

    func json() -> String {
        (try? String(decoding: JSONCoding.encoder.encode(self), as: UTF8.self)) ?? "{}"
    }
}
