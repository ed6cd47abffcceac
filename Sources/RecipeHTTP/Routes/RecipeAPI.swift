import Foundation
import Kafka
import RecipeDomain
import RecipeProjection
import RecipeWire
import Synchronization

/// The HTTP API v1 (DESIGN.md): the query routes over a `ReadModel` and the
/// command gateway over a `CommandAppender`. Every route's error is an
/// `HTTPError`, rendered in one place (`respond`).
public final class RecipeAPI: HTTPHandler {
    public struct Options: Sendable {
        /// With tokens, every POST needs `Authorization: Bearer <token>` and writes as the token's actor.
        public var tokens: AccessTokens?
        /// GETs of data need a token too (health, readiness and metrics stay open).
        public var privateReads = false
        /// How long `after=` and `?wait=true` wait at most.
        public var waitTimeout: Duration = .seconds(5)
        /// The actor of commands when there are no tokens.
        public var anonymousActor = "anonymous"

        public init(tokens: AccessTokens? = nil, privateReads: Bool = false, waitTimeout: Duration = .seconds(5)) {
            self.tokens = tokens
            self.privateReads = privateReads
            self.waitTimeout = waitTimeout
        }
    }

    enum Endpoint: Sendable {
        case command, newDraft, list, detail, draft, drafts, history, rejections, healthz, readyz, metrics, openAPI, commandSchema
    }

    public static let source = "recipes-http"

    public let readModel: ReadModel
    public let appender: CommandAppender
    public let metrics: Metrics
    public let options: Options
    let builder = CommandBuilder(source: RecipeAPI.source)
    private let router: Router<Endpoint>
    private let readiness: @Sendable () -> Readiness

    /// `readiness` says whether the projector is running and has caught up.
    public init(readModel: ReadModel, appender: CommandAppender, metrics: Metrics = Metrics(), options: Options = Options(),
                readiness: @escaping @Sendable () -> Readiness = { .ready }) {
        self.readModel = readModel
        self.appender = appender
        self.metrics = metrics
        self.options = options
        self.readiness = readiness
        var router = Router<Endpoint>()
        router.add("POST", "/v1/recipes/{id}/commands", .command)
        router.add("POST", "/v1/drafts", .newDraft)
        router.add("GET", "/v1/drafts", .drafts)
        router.add("GET", "/v1/recipes", .list)
        router.add("GET", "/v1/recipes/{id}", .detail)
        router.add("GET", "/v1/recipes/{id}/draft", .draft)
        router.add("GET", "/v1/recipes/{id}/history", .history)
        router.add("GET", "/v1/rejections", .rejections)
        router.add("GET", "/healthz", .healthz)
        router.add("GET", "/readyz", .readyz)
        router.add("GET", "/metrics", .metrics)
        router.add("GET", "/openapi.yaml", .openAPI)
        router.add("GET", "/commands/{file}", .commandSchema)
        self.router = router
    }

    /// Every (method, pattern) the API answers (GET routes answer HEAD too).
    public var routes: [(method: String, pattern: String)] { router.routes }

    public enum Readiness: Sendable, Equatable {
        case ready
        case catchingUp(String)
        case failed(String)
    }

    // MARK: - Dispatch

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let start = ContinuousClock.now
        var pattern = "unmatched"
        let response: HTTPResponse
        switch router.match(method: request.method, segments: request.segments, path: request.path) {
        case .failure(let error):
            response = error.response
        case .success(let match):
            pattern = match.pattern
            do {
                response = try handle(match.handler, request, match.parameters)
            } catch let error as HTTPError {
                response = error.response
            } catch let error as QueryError {
                response = Self.httpError(error).response
            } catch {
                response = HTTPError.internal("\(error)").response
            }
        }
        let elapsed = ContinuousClock.now - start
        metrics.recordRequest(route: pattern, method: request.method, status: response.status,
                              seconds: elapsed.seconds)
        return response
    }

    private func handle(_ endpoint: Endpoint, _ request: HTTPRequest, _ parameters: [String: String]) throws -> HTTPResponse {
        let id = parameters["id"] ?? ""
        switch endpoint {
        case .healthz:
            if case .failed(let why) = readiness() { throw HTTPError(503, "projectorStopped", why) }
            return .json(["status": "ok"])
        case .readyz:
            switch readiness() {
            case .ready: return .json(["status": "ready"])
            case .catchingUp(let why): throw HTTPError(503, "notReady", why)
            case .failed(let why): throw HTTPError(503, "projectorStopped", why)
            }
        case .metrics:
            return .text(metrics.render(positions: (try? readModel.positions()) ?? [:]),
                         contentType: "text/plain; version=0.0.4; charset=utf-8")
        case .openAPI:
            return HTTPResponse(status: 200, headers: [("Content-Type", Contract.openAPIContentType)], body: Contract.openAPI)
        case .commandSchema:
            guard let schema = parameters["file"].flatMap({ Contract.commandSchemas[$0] }) else {
                throw HTTPError.notFound("no command schema \(parameters["file"] ?? "")")
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", Contract.schemaContentType)], body: schema)
        case .command:
            let actor = try writer(request)
            let wait = try Self.bool(request, "wait")
            let envelope: CommandEnvelope
            do {
                envelope = try builder.envelope(body: request.body, recipeID: id, actor: actor)
            } catch {
                throw error.httpError
            }
            return try submit(envelope, wait: wait)
        case .newDraft:
            let actor = try writer(request)
            let wait = try Self.bool(request, "wait")
            var commandID: String?
            if !request.body.isEmpty {
                do {
                    let members = try CommandBuilder.object(request.body)
                    if let unknown = members.keys.sorted().first(where: { $0 != "id" }) {
                        throw HTTPError(422, "malformed", "\(unknown) is not a member of a new draft (only id, the command id).", field: unknown)
                    }
                    if let value = members["id"] {
                        guard let text = value as? String else { throw HTTPError(422, "malformed", "id must be a string.", field: "id") }
                        commandID = text
                    }
                } catch let error as CommandInputError {
                    throw error.httpError
                }
            }
            let envelope: CommandEnvelope
            do {
                envelope = try builder.envelope(kind: .draftStarted, data: [:], recipeID: UUID().uuidString.lowercased(),
                                                actor: actor, commandID: commandID)
            } catch {
                throw error.httpError
            }
            return try submit(envelope, wait: wait)
        case .list:
            try reader(request)
            let limit = try Self.int(request, "limit", in: 1...500) ?? 50
            try waitForPositions(request)
            // Empty means absent, as a form with an empty field sends it.
            let tag = request.query["tag"].flatMap { $0.isEmpty ? nil : $0 }
            let cursor = request.query["cursor"].flatMap { $0.isEmpty ? nil : $0 }
            do {
                return .json(try readModel.list(tag: tag, query: request.query["q"], limit: limit, cursor: cursor))
            } catch QueryError.badCursor {
                throw HTTPError.badParameter("cursor", QueryError.badCursor.description)
            }
        case .detail:
            try reader(request)
            let version = try Self.int(request, "version", in: 1...Int(Int32.max))
            let guests = try Self.int(request, "guests", in: RecipeLimits.guests)
            try waitForPositions(request)
            return .json(try readModel.detail(id, version: version, guests: guests))
        case .draft:
            try reader(request)
            try waitForPositions(request)
            return .json(try readModel.draft(id))
        case .drafts:
            try reader(request)
            let limit = try Self.int(request, "limit", in: 1...1000) ?? 100
            try waitForPositions(request)
            return .json(Items(items: try readModel.drafts(limit: limit)))
        case .history:
            try reader(request)
            try waitForPositions(request)
            return .json(try readModel.history(id))
        case .rejections:
            try reader(request)
            let limit = try Self.int(request, "limit", in: 1...1000) ?? 100
            try waitForPositions(request)
            return .json(Items(items: try readModel.rejections(limit: limit)))
        }
    }

    struct Items<Item: Encodable>: Encodable {
        var items: [Item]
    }

    // MARK: - Commands

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

    /// Appends a command; the path every producer of this process takes (routes, `dev --seed`).
    public func append(_ envelope: CommandEnvelope) async throws -> CommandReceipt {
        let report: KafkaDeliveryReport
        do {
            report = try await appender.append(envelope, source: Self.source)
        } catch {
            throw HTTPError(503, "unavailable", "the command could not be appended to the log: \(error)")
        }
        return CommandReceipt(commandId: envelope.commandID, recipeId: envelope.recipeID, partition: report.partition,
                              offset: report.offset, position: report.description)
    }

    private func submit(_ envelope: CommandEnvelope, wait: Bool) throws -> HTTPResponse {
        var receipt = try blocking { [self] in try await append(envelope) }
        guard wait else { return .json(receipt, status: 202) }
        let deadline = ContinuousClock.now + options.waitTimeout
        while true {
            if let item = try readModel.outcome(partition: receipt.partition, offset: receipt.offset) {
                receipt.outcome = item.outcome
                receipt.revision = item.revision
                receipt.reason = item.outcome == .rejected ? item.reason : nil
                return .json(receipt, status: 200)
            }
            // Not projected in time: the command is in the log all the same.
            if ContinuousClock.now >= deadline { return .json(receipt, status: 202) }
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    // MARK: - Access

    private func writer(_ request: HTTPRequest) throws -> String {
        guard let tokens = options.tokens else { return options.anonymousActor }
        guard let actor = tokens.actor(authorization: request.header("authorization")) else {
            throw HTTPError.unauthorized(request.header("authorization") == nil
                                         ? "writing needs Authorization: Bearer <token>" : "the token is not known")
        }
        return actor
    }

    private func reader(_ request: HTTPRequest) throws {
        guard options.privateReads else { return }
        _ = try writer(request)
    }

    static func httpError(_ error: QueryError) -> HTTPError {
        switch error {
        case .notFound: HTTPError(404, "notFound", error.description)
        case .deleted: HTTPError(410, "deleted", error.description)
        case .noSuchVersion: HTTPError(404, "noSuchVersion", error.description)
        case .noDraft: HTTPError(404, "noDraft", error.description)
        case .cannotScale: HTTPError(422, "cannotScale", error.description)
        case .badCursor: HTTPError.badParameter("cursor", error.description)
        }
    }
}
