import RecipeDecisions
import RecipeSchemaOrg
import Threads
import RecipeDomain
import RecipeProjection

/// The recipes and their drafts: `GET /v1/recipes` (the list), `/v1/recipes/{id}`
/// (a version, scaled for guests), `/v1/recipes/{id}/draft`, `/v1/drafts` (every
/// open draft) and `/v1/recipes/{id}/history`. Each answers after `after=`.
struct RecipeRoutes<Reads: RecipeReads>: Sendable {
    let reads: Reads
    let access: Access
    let readYourWrites: ReadYourWrites<Reads>

    func register(in router: inout Router<RouteHandler>) {
        router.add("GET", "/v1/drafts", drafts)
        router.add("GET", "/v1/recipes", takes: .storeRead, list)
        router.add("GET", "/v1/recipes/{id}", takes: .storeRead, detail)
        router.add("GET", "/v1/recipes/{id}/draft", takes: .storeRead, draft)
        router.add("GET", "/v1/recipes/{id}/history", history)
    }

    func list(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.reader(request)
        let limit = try request.int("limit", in: 1...500) ?? 50
        try readYourWrites.wait(for: request)
        return .json(try reads.list(tag: request.text("tag"), query: request.query["q"], limit: limit, cursor: request.text("cursor"),
                                    visibleTo: access.listFilter(caller)))
    }

    func detail(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.reader(request)
        let id = try request.recipeID()
        let version = try request.int("version", in: 1...Int(Int32.max))
        let guests = try request.int("guests", in: RecipeLimits.guests)
        let units = try request.unitSystem("units")
        try readYourWrites.wait(for: request)
        // `?format=jsonld`, or an Accept that asks for it: the recipe as schema.org publishes one.
        let format = request.text("format")
        guard format == nil || format == "json" || format == "jsonld" else {
            throw HTTPError.badParameter("format", "format is json or jsonld, not \(format!)")
        }
        let jsonLD = format == "jsonld" || (format == nil && (request.header("accept") ?? "").contains("application/ld+json"))
        try access.checkVisible(id, to: caller, in: reads)
        let detail = try reads.detail(id, version: version, guests: guests, units: units)
        guard jsonLD else { return .json(detail) }
        let document = RecipeDocument(detail)
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/ld+json")],
                            body: Array(SchemaOrgExport.jsonLD(document, version: detail.version)))
    }

    func draft(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.reader(request)
        let id = try request.recipeID()
        try readYourWrites.wait(for: request)
        try access.checkVisible(id, to: caller, in: reads)
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: try reads.draft(id).json())
    }

    func drafts(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.reader(request)
        let limit = try request.int("limit", in: 1...1000) ?? 100
        try readYourWrites.wait(for: request)
        return .json(Items(items: try reads.drafts(limit: limit, visibleTo: access.listFilter(caller))))
    }

    func history(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.reader(request)
        let id = try request.recipeID()
        try readYourWrites.wait(for: request)
        try access.checkVisible(id, to: caller, in: reads)
        return .json(try reads.history(id))
    }
}

/// `after=p:o[,p:o…]`, read your writes: a query answers once the read side has
/// applied those positions, or 503 `stale` when `timeout` passes first. A
/// position not on the log yet (at or past its end, or in no partition) is 409
/// `positionAhead` at once: only true lag waits. Where this process's decider holds the
/// partition, its word counts over the store's: a position at or past what it decided on a
/// partition it stopped deciding is 503 `notDecided` at once, and so is one the store shows
/// applied but the decider has not decided (the store folded a decision not its own, such as
/// one appended by hand for a command past the log's end). A query that waits takes one of the
/// `waiters` slots (shared with `?wait=true` on commands); one whose positions are
/// applied already takes none (where the log's ends are known, as in the service).
struct ReadYourWrites<Reads: RecipeReads>: Sendable {
    let reads: Reads
    let timeout: Duration
    let waiters: WaiterLimit
    let decider: @Sendable () -> DeciderState?

    func wait(for request: HTTPRequest) throws {
        guard let positions = try request.positions("after") else { return }
        try refuseUndecided(positions, reached: false)
        let arrived = ContinuousClock.now
        if reads.tellsLogEnds {
            // Applied already: no slot taken. Else lag, or a position no one has written, asked of
            // the log as it is now, not as it was: the client may have just written that very position.
            if try reads.waitUntilReached(positions, deadline: arrived) { return try refuseUndecided(positions, reached: true) }
            if let ends = try reads.logEnds(of: positions.keys.sorted(), notBefore: arrived) {
                let ahead = positions.sorted { $0.key < $1.key }.filter { partition, offset in offset >= (ends[partition] ?? 0) }
                if !ahead.isEmpty {
                    let named = ahead.map { "\($0.key):\($0.value)" }.joined(separator: ",")
                    let missing = ahead.filter { ends[$0.key] == nil }.map { String($0.key) }
                    guard missing.isEmpty else {
                        throw HTTPError(409, "positionAhead", "\(named) is not on the log: it has no partition "
                                        + missing.joined(separator: ",") + "; pass a position a write answered", field: "after")
                    }
                    let end = ahead.compactMap { partition, _ in ends[partition].map { "\(partition):\($0)" } }.joined(separator: ",")
                    throw HTTPError(409, "positionAhead",
                                    "\(named) is not on the log: it ends before it (next offset \(end)); pass a position a write answered",
                                    field: "after")
                }
            }
        }
        let reached = try waiters.holding { try reads.waitUntilReached(positions, deadline: arrived + timeout) }
        guard reached else {
            throw HTTPError.stale("the read model has not reached \(request.query["after"] ?? "") within \(timeout); try again",
                                  retryAfter: 1)
        }
        try refuseUndecided(positions, reached: true)
    }

    /// 503 `notDecided` for the positions the decider of this process has not decided: on a
    /// partition it stopped, at once; on one it decides, once the store shows them applied.
    private func refuseUndecided(_ positions: [Int32: Int64], reached: Bool) throws {
        let undecided = (decider()?.undecided(positions) ?? []).filter { reached || $0.why != nil }
        guard !undecided.isEmpty else { return }
        let named = undecided.map { position in
            let at = "\(position.partition):\(position.offset)"
            guard let why = position.why else {
                return "\(at) (the store shows a decision of it, but the decider has decided up to \(position.partition):\(position.decidedUpTo) only: the decision is not its own)"
            }
            return "\(at) (the decider stopped deciding partition \(position.partition) at \(position.partition):\(position.decidedUpTo): \(why))"
        }
        throw HTTPError(503, "notDecided", "not decided: " + named.joined(separator: "; ") + "; /readyz says whether the decider stopped")
    }
}

/// How many requests may wait for the read model at once (`--max-waiters`): queries with
/// `after=` and commands with `?wait=true` alike. One more is 503 `busy` with `Retry-After`,
/// at once, so waits cannot take every connection thread.
final class WaiterLimit: Sendable {
    let max: Int
    private let count = Locked(0)

    init(max: Int) { self.max = max }

    /// `body`, run holding a slot; 503 `busy` without running it when every slot is taken.
    func holding<T>(_ body: () throws -> T) throws -> T {
        let entered = count.withLock { count in
            guard count < max else { return false }
            count += 1
            return true
        }
        guard entered else {
            throw HTTPError(503, "busy", "\(max) requests are waiting for the read model already; try again",
                            headers: [("Retry-After", "1")])
        }
        defer { count.withLock { $0 -= 1 } }
        return try body()
    }
}

/// A page of a collection without a cursor: `{"items":[…]}`.
struct Items<Item: Encodable>: Encodable {
    var items: [Item]
}

/// How the read side's errors are answered.
extension QueryError: HTTPResponseError {
    public var status: Int {
        switch self {
        case .notFound, .noSuchVersion, .noDraft: 404
        case .deleted: 410
        case .cannotScale: 422
        case .badCursor: 400
        }
    }

    public var code: String {
        switch self {
        case .notFound: "notFound"
        case .deleted: "deleted"
        case .noSuchVersion: "noSuchVersion"
        case .noDraft: "noDraft"
        case .cannotScale: "cannotScale"
        case .badCursor: "badParameter"
        }
    }

    public var message: String { description }

    public var field: String? { self == .badCursor ? "cursor" : nil }
}
