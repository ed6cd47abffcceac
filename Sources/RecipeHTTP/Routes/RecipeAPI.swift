import Kafka
import RecipeDecisions
import RecipeDomain
import RecipeProjection
import RecipeWriteSide

/// The API over the store (`ReadModel`) and the edits topic (`CommandAppender`): what `RecipeService` serves.
public typealias RecipeAPI = RecipeAPIHandler<ReadModel, CommandAppender>

/// The HTTP API v1: the query routes over a read side and the command gateway
/// over a command log. Each resource registers its routes, with their
/// handlers, in its own file (`CommandRoutes` with `BatchRoutes`, `RecipeRoutes`,
/// `AuditRoutes`, `ImportRoutes`, `OperationsRoutes`, `ConsoleRoutes`); whatever a
/// handler throws is answered by `HTTPResponse(error:)`.
public final class RecipeAPIHandler<Reads: RecipeReads, Log: CommandLog>: HTTPHandler {
    public typealias Options = RecipeAPIOptions
    public typealias Readiness = ServiceReadiness
    public typealias CommandReceipt = RecipeHTTP.CommandReceipt

    /// The CloudEvents `source` of the commands this API appends.
    public static var source: String { "recipes-http" }

    public let readModel: Reads
    public let appender: Log
    public let metrics: Metrics
    public let options: Options
    private let commands: CommandRoutes<Reads, Log>
    private let router: Router<RouteHandler>
    private let admission: Admission

    /// `readiness` says whether the projector is running and has caught up; `decider`, what the
    /// decider this process runs does with its partitions (nil: none runs here, or it has not started).
    public init(readModel: Reads, appender: Log, metrics: Metrics = Metrics(), options: Options = Options(),
                readiness: @escaping @Sendable () -> Readiness = { .ready },
                decider: @escaping @Sendable () -> DeciderState? = { nil }) {
        self.readModel = readModel
        self.appender = appender
        self.metrics = metrics
        self.options = options
        let access = Access(tokens: options.tokens, privateReads: options.privateReads, anonymousActor: options.anonymousActor,
                            appendLimiter: options.appendRate.map { RateLimiter(perSecond: $0.perSecond, burst: $0.burst) })
        admission = Admission(hostNames: options.hostNames, allowedOrigins: options.allowedOrigins, access: access)
        let waiters = WaiterLimit(max: options.maxWaiters)
        let readYourWrites = ReadYourWrites(reads: readModel, timeout: options.waitTimeout, waiters: waiters, decider: decider)
        commands = CommandRoutes(log: appender, reads: readModel, access: access, waitTimeout: options.waitTimeout,
                                 waiters: waiters, decider: decider, builder: CommandBuilder(source: Self.source))
        var router = Router<RouteHandler>()
        // The order counts where patterns overlap (the first match wins) and in `Allow`.
        commands.register(in: &router)
        RecipeRoutes(reads: readModel, access: access, readYourWrites: readYourWrites).register(in: &router)
        AuditRoutes(reads: readModel, access: access, readYourWrites: readYourWrites).register(in: &router)
        ImportRoutes(log: appender, reads: readModel, access: access, source: Self.source, waitTimeout: options.waitTimeout,
                     waiters: waiters, decider: decider).register(in: &router)
        OperationsRoutes(reads: readModel, metrics: metrics, readiness: readiness, decider: decider).register(in: &router)
        ConsoleRoutes().register(in: &router)
        let fanOut = (readModel as? any RecipeEventReads).map { EventFanOut(reads: $0, pingInterval: options.streamPingInterval, metrics: metrics) }
        EventRoutes(reads: readModel, access: access, fanOut: fanOut, queueBytes: options.streamQueueBytes).register(in: &router)
        self.router = router
    }

    /// Every (method, pattern) the API answers (GET routes answer HEAD too).
    public var routes: [(method: String, pattern: String)] { router.routes }

    /// Refuses from the head what would be refused anyway (`Admission`), before the body is read.
    public func admit(_ head: HTTPRequest) -> HTTPAdmission {
        let start = ContinuousClock.now
        let route = router.match(method: head.method, segments: head.segments, path: head.path)
        switch admission.decide(head, route: route) {
        case .success(let maxBodySize):
            return .read(maxBodySize: maxBodySize)
        case .failure(let error):
            let response = HTTPResponse(error: error)
            metrics.recordRequest(route: (try? route.get().pattern) ?? "unmatched", method: head.method, status: response.status,
                                  seconds: (ContinuousClock.now - start).seconds)
            return .answer(response)
        }
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let start = ContinuousClock.now
        var pattern = "unmatched"
        let response: HTTPResponse
        switch router.match(method: request.method, segments: request.segments, path: request.path) {
        case .failure(let error):
            response = HTTPResponse(error: error)
        case .success(let match):
            pattern = match.pattern
            do {
                response = try answer(request, match)
            } catch {
                response = HTTPResponse(error: error)
            }
        }
        metrics.recordRequest(route: pattern, method: request.method, status: response.status,
                              seconds: (ContinuousClock.now - start).seconds)
        return response
    }

    /// Answers a route that reads the store only (`RouteIntake.readsStoreOnly`) on the calling
    /// polling thread when the store can answer without waiting and the read is bounded by the
    /// page or the recipe; nil for any other request (one that waits for a position with
    /// `after=`, a list filtered by `q`/`tag` or by what a caller may see under `--private`,
    /// which may pass over many rows), and when the store cannot: a handler thread then
    /// answers it (`respond`).
    public func respondWithoutWaiting(to request: HTTPRequest) -> HTTPResponse? {
        guard request.query["after"] == nil, !options.privateReads,
              (request.query["q"] ?? "").isEmpty, (request.query["tag"] ?? "").isEmpty,
              case .success(let match) = router.match(method: request.method, segments: request.segments, path: request.path),
              match.takes.readsStoreOnly else { return nil }
        let start = ContinuousClock.now
        let response: HTTPResponse
        do {
            guard let answered = try readModel.withoutWaiting({ try answer(request, match) }) else { return nil }
            response = answered
        } catch is ReadWouldWait {
            return nil
        } catch {
            response = HTTPResponse(error: error)
        }
        metrics.recordRequest(route: match.pattern, method: request.method, status: response.status,
                              seconds: (ContinuousClock.now - start).seconds)
        return response
    }

    /// The route's answer; what it throws is answered by `HTTPResponse(error:)`.
    private func answer(_ request: HTTPRequest, _ match: Router<RouteHandler>.Match) throws -> HTTPResponse {
        var request = request
        request.parameters = match.parameters
        try Access.refuseTokenInQuery(request)
        return try match.handler(request)
    }

    /// Appends a command, blocking until the log has answered: the path every producer of
    /// this process takes (routes, `dev --seed`).
    public func append(_ envelope: CommandEnvelope) throws -> CommandReceipt {
        try commands.append(envelope)
    }
}

public struct RecipeAPIOptions: Sendable {
    /// With tokens, every POST needs `Authorization: Bearer <token>` and writes as the token's actor.
    public var tokens: AccessTokens?
    /// GETs of data need a token too (health, readiness and metrics stay open).
    public var privateReads = false
    /// How long `after=` and `?wait=true` wait at most.
    public var waitTimeout: Duration = .seconds(5)
    /// The actor of commands when there are no tokens.
    public var anonymousActor = "anonymous"
    /// At most this many requests wait for the read model at once (`after=`, `?wait=true`);
    /// more are 503 `busy` with `Retry-After`.
    public var maxWaiters = 64
    /// Appends per actor: a token bucket refilled at `perSecond`, `burst` deep; nil: unlimited.
    public var appendRate: (perSecond: Double, burst: Int)? = nil
    /// The names clients reach the API by (`Host`, without its port, lowercase): others are 421
    /// `unknownHost`, so that no page can reach it through a name of its own (DNS rebinding).
    /// Empty: any name. `RecipeService` adds the loopback names when it listens on loopback only.
    public var hostNames: Set<String> = []
    /// Origins (`https://app.example`) whose pages may call the API besides its own; a request
    /// with any other `Origin` is 403 `crossOrigin`.
    public var allowedOrigins: Set<String> = []
    /// Bytes each event stream may queue for a client that does not read them; past it the
    /// stream gets `overflow` and ends.
    public var streamQueueBytes = 256 * 1024
    /// How often an event stream sends `: ping`.
    public var streamPingInterval: Duration = .seconds(15)

    /// The names of this machine: what a server listening on loopback answers to.
    public static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    public init(tokens: AccessTokens? = nil, privateReads: Bool = false, waitTimeout: Duration = .seconds(5)) {
        self.tokens = tokens
        self.privateReads = privateReads
        self.waitTimeout = waitTimeout
    }
}

/// What `/healthz` and `/readyz` answer from: whether the projector runs and has caught up, and
/// whether the decider of this process decides every partition it holds.
public enum ServiceReadiness: Sendable, Equatable {
    case ready
    case catchingUp(String)
    /// The decider stopped, as a whole or for some partitions (`DeciderState.stoppedSummary`): their
    /// commands are appended and never decided until an operator mends it. Not ready; alive, since a
    /// restart does not mend a bad decision on the log (docs/operations.md).
    case deciderStopped(String)
    /// The projector failed with what may pass (a full disk, brokers away) and is retrying:
    /// not ready, but alive, so a restart would not help.
    case retrying(String)
    case failed(String)
}

/// A route's handler: the request (with its path parameters) in, the answer out;
/// what it throws is answered by `HTTPResponse(error:)`.
typealias RouteHandler = @Sendable (HTTPRequest) throws -> HTTPResponse
