import RecipeDecisions

/// What operators and tools read, always without a token: `GET /healthz` (the
/// projector runs), `/readyz` (and has caught up, and the decider decides every partition it
/// holds), `/metrics` (Prometheus text),
/// `/openapi.yaml` (the contract) and `/commands/{file}` (the command schemas
/// the contract refers to).
struct OperationsRoutes<Reads: RecipeReads>: Sendable {
    let reads: Reads
    let metrics: Metrics
    let readiness: @Sendable () -> ServiceReadiness
    let decider: @Sendable () -> DeciderState?

    func register(in router: inout Router<RouteHandler>) {
        router.add("GET", "/healthz", health)
        router.add("GET", "/readyz", ready)
        router.add("GET", "/metrics", metricsText)
        router.add("GET", "/openapi.yaml", openAPI)
        router.add("GET", "/commands/{file}", commandSchema)
    }

    func health(_ request: HTTPRequest) throws -> HTTPResponse {
        if case .failed(let why) = readiness() { throw HTTPError(503, "projectorStopped", why) }
        return .json(["status": "ok"])
    }

    func ready(_ request: HTTPRequest) throws -> HTTPResponse {
        switch readiness() {
        case .ready:
            // A partial store is ready, and says what it lacks.
            if let log = try? reads.storeLog(), log.isPartial {
                return .json(["status": "ready", "partial": log.missingHeadsText])
            }
            return .json(["status": "ready"])
        case .catchingUp(let why): throw HTTPError(503, "notReady", why)
        case .retrying(let why): throw HTTPError(503, "projectorRetrying", why)
        case .deciderStopped(let why): throw HTTPError(503, "deciderStopped", why)
        case .failed(let why): throw HTTPError(503, "projectorStopped", why)
        }
    }

    func metricsText(_ request: HTTPRequest) throws -> HTTPResponse {
        // Without positions the page still shows the request counts.
        .text(metrics.render(positions: (try? reads.positions()) ?? [:], partial: (try? reads.storeLog())??.isPartial ?? false,
                            decider: decider()),
              contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    func openAPI(_ request: HTTPRequest) throws -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", Contract.openAPIContentType)], body: Contract.openAPI)
    }

    func commandSchema(_ request: HTTPRequest) throws -> HTTPResponse {
        let file = request.parameter("file")
        guard let schema = Contract.commandSchemas[file] else { throw HTTPError.notFound("no command schema \(file)") }
        return HTTPResponse(status: 200, headers: [("Content-Type", Contract.schemaContentType)], body: schema)
    }
}
