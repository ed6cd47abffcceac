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
        router.add("GET", "/v1/recipes", list)
        router.add("GET", "/v1/recipes/{id}", detail)
        router.add("GET", "/v1/recipes/{id}/draft", draft)
        router.add("GET", "/v1/recipes/{id}/history", history)
    }

    func list(_ request: HTTPRequest) throws -> HTTPResponse {
        try access.reader(request)
        let limit = try request.int("limit", in: 1...500) ?? 50
        try readYourWrites.wait(for: request)
        return .json(try reads.list(tag: request.text("tag"), query: request.query["q"], limit: limit, cursor: request.text("cursor")))
    }

    func detail(_ request: HTTPRequest) throws -> HTTPResponse {
        try access.reader(request)
        let version = try request.int("version", in: 1...Int(Int32.max))
        let guests = try request.int("guests", in: RecipeLimits.guests)
        let units = try request.unitSystem("units")
        try readYourWrites.wait(for: request)
        return .json(try reads.detail(request.parameter("id"), version: version, guests: guests, units: units))
    }

    func draft(_ request: HTTPRequest) throws -> HTTPResponse {
        try access.reader(request)
        try readYourWrites.wait(for: request)
        return .json(try reads.draft(request.parameter("id")))
    }

    func drafts(_ request: HTTPRequest) throws -> HTTPResponse {
        try access.reader(request)
        let limit = try request.int("limit", in: 1...1000) ?? 100
        try readYourWrites.wait(for: request)
        return .json(Items(items: try reads.drafts(limit: limit)))
    }

    func history(_ request: HTTPRequest) throws -> HTTPResponse {
        try access.reader(request)
        try readYourWrites.wait(for: request)
        return .json(try reads.history(request.parameter("id")))
    }
}

/// `after=p:o[,p:o…]`, read your writes: a query answers once the read side has
/// applied those positions, or 503 `stale` when `timeout` passes first.
struct ReadYourWrites<Reads: RecipeReads>: Sendable {
    let reads: Reads
    let timeout: Duration

    func wait(for request: HTTPRequest) throws {
        guard let positions = try request.positions("after") else { return }
        guard try reads.waitUntilReached(positions, deadline: .now + timeout) else {
            throw HTTPError.stale("the read model has not reached \(request.query["after"] ?? "") within \(timeout); try again")
        }
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
