/// Matches a method and path to a route: `{name}` segments capture, the
/// first matching pattern wins. A path that matches a pattern with another
/// method is 405 with `Allow`; a path matching none is 404.
public struct Router<Handler: Sendable>: Sendable {
    public struct Match: Sendable {
        public var handler: Handler
        /// The pattern, e.g. `/v1/recipes/{id}`: the route's name in metrics.
        public var pattern: String
        public var parameters: [String: String]
        /// What the route takes before its handler runs.
        public var takes: RouteIntake
    }

    private struct Route: Sendable {
        var method: String
        var pattern: String
        var segments: [String]
        var takes: RouteIntake
        var handler: Handler
    }

    private var table: [Route] = []

    public init() {}

    /// Every route as added: what the OpenAPI document must describe (its test compares the two).
    public var routes: [(method: String, pattern: String)] {
        table.map { ($0.method, $0.pattern) }
    }

    /// A route; `takes` says what it reads before its handler runs (a GET: nothing).
    public mutating func add(_ method: String, _ pattern: String, takes: RouteIntake = .nothing, _ handler: Handler) {
        table.append(Route(method: method, pattern: pattern, segments: Self.segments(pattern), takes: takes, handler: handler))
    }

    /// The route for a path split into decoded segments (`HTTPRequest.segments`), or
    /// the error to answer: 404 or 405.
    public func match(method: String, segments: [String], path: String) -> Result<Match, HTTPError> {
        var allowed: [String] = []
        for route in table {
            guard let parameters = Self.parameters(route.segments, segments) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return .success(Match(handler: route.handler, pattern: route.pattern, parameters: parameters, takes: route.takes))
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if allowed.isEmpty {
            return .failure(.notFound("no route \(path)"))
        }
        return .failure(HTTPError(405, "methodNotAllowed", "\(method) is not allowed on \(path); allowed: \(allowed.joined(separator: ", "))",
                                  headers: [("Allow", allowed.joined(separator: ", "))]))
    }

    private static func segments(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    private static func parameters(_ pattern: [String], _ path: [String]) -> [String: String]? {
        guard pattern.count == path.count else { return nil }
        var parameters: [String: String] = [:]
        for (expected, actual) in zip(pattern, path) {
            if expected.hasPrefix("{") && expected.hasSuffix("}") {
                parameters[String(expected.dropFirst().dropLast())] = actual
            } else if expected != actual {
                return nil
            }
        }
        return parameters
    }
}

/// What a route takes, decided from a request's head before any of its body is read
/// (`RecipeAPIHandler.admit`): whether it needs a writer's token, and its body's media types and size.
public struct RouteIntake: Sendable {
    /// Needs `Authorization: Bearer` with a writer's (or admin's) token when the server has tokens.
    public var writes: Bool
    /// The media types (lowercase, without parameters) of a body; a body of another type is 415.
    /// Empty: the route reads no body, and one of any type up to `maxBodySize` is ignored.
    public var mediaTypes: [String]
    /// The largest body read: a larger one is 413, before it is read when its length is declared.
    public var maxBodySize: Int
    /// The handler reads the store and nothing else, a bounded amount (one recipe, one page):
    /// a polling thread may answer it itself when the store can answer without waiting
    /// (`HTTPHandler.respondWithoutWaiting`), unless it waits for a position (`after=`).
    public var readsStoreOnly = false

    public init(writes: Bool, mediaTypes: [String], maxBodySize: Int) {
        self.writes = writes
        self.mediaTypes = mediaTypes
        self.maxBodySize = maxBodySize
    }

    /// No body, no token needed before the handler.
    public static let nothing = RouteIntake(writes: false, mediaTypes: [], maxBodySize: HTTPServer.defaultMaxBodySize)

    /// `nothing`, and `readsStoreOnly`.
    public static let storeRead: RouteIntake = {
        var intake = RouteIntake.nothing
        intake.readsStoreOnly = true
        return intake
    }()

    /// A JSON body written with a writer's token.
    public static func jsonWrite(maxBodySize: Int = HTTPServer.defaultMaxBodySize) -> RouteIntake {
        RouteIntake(writes: true, mediaTypes: ["application/json"], maxBodySize: maxBodySize)
    }
}
