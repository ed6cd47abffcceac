/// What the projector refused: `GET /v1/rejections`, the most recent rejected or
/// undecodable records, newest first. Answers after `after=`. Under `--private` a caller
/// sees only the rejections of recipes it may see (`Access.listFilter`).
struct AuditRoutes<Reads: RecipeReads>: Sendable {
    let reads: Reads
    let access: Access
    let readYourWrites: ReadYourWrites<Reads>

    func register(in router: inout Router<RouteHandler>) {
        router.add("GET", "/v1/rejections", rejections)
    }

    func rejections(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.reader(request)
        let limit = try request.int("limit", in: 1...1000) ?? 100
        try readYourWrites.wait(for: request)
        return .json(Items(items: try reads.rejections(limit: limit, visibleTo: access.listFilter(caller))))
    }
}
