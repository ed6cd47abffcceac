@testable import RecipeHTTP
import Testing

/// The bounds of `AnswerMemory` as `HTTPServer.bounded` applies them to each answer it queues:
/// per client and in all, given back when libmicrohttpd is done with an answer or a connection.
/// (`SlowReaderTests` shows what they hold against `recipes dev`.)
@Suite("What answers hold")
struct AnswerMemoryTests {
    static let kib = 1024
    /// 300 KiB copied, and the connection's 256 KiB: 556 KiB unsent.
    static let large = HTTPResponse(status: 200, body: [UInt8](repeating: 0x61, count: 300 * kib))

    static func server() throws -> HTTPServer {
        var limits = HTTPServer.Limits()
        limits.answerMemory = 2048 * kib
        limits.answerMemoryPerClient = 1024 * kib
        return try HTTPServer(handler: RecipeAPIHandler(readModel: FakeReads(), appender: FakeLog()), port: 0,
                              loopbackOnly: true, limits: limits)
    }

    static func answer(_ response: HTTPResponse, for client: String, on server: HTTPServer,
                       connection: ConnectionState = ConnectionState()) -> (request: RequestState, response: HTTPResponse, closing: Bool) {
        let request = RequestState(uri: "/", refusal: nil)
        request.client = client
        let (sent, closing) = server.bounded(response, closing: false, request: request, connection: connection)
        return (request, sent, closing)
    }

    @Test func pastItsClientsBoundOrTheServersAnAnswerIsBusyAndClosesUntilMemoryComesBack() throws {
        let server = try Self.server()
        defer { server.stop() }
        let first = Self.answer(Self.large, for: "a", on: server)
        #expect(first.response.status == 200)
        #expect(first.request.unsentBytes == 556 * Self.kib)
        let second = Self.answer(Self.large, for: "a", on: server)
        #expect(second.response.status == 503)
        #expect(try second.response.error()["code"] == "busy")
        #expect(second.response.header("retry-after") == "1")
        #expect(second.closing)
        // Other clients go on, until the server's bound: 3 × 556 KiB fit in 2 MiB, a fourth does not.
        #expect(Self.answer(Self.large, for: "b", on: server).response.status == 200)
        #expect(Self.answer(Self.large, for: "c", on: server).response.status == 200)
        #expect(Self.answer(Self.large, for: "d", on: server).response.status == 503)
        // Small answers leave at once, uncounted; a static file counts the buffers only.
        #expect(Self.answer(HTTPResponse(status: 200, body: [UInt8](repeating: 0, count: 16 * Self.kib)), for: "a", on: server).response.status == 200)
        let script = Self.answer(ConsoleRoutes.response(ConsoleRoutes.assets["console.js"]!), for: "d", on: server)
        #expect(script.response.status == 200)
        #expect(script.request.unsentBytes == 256 * Self.kib)
        // A write's answer (a batch's) is sent whatever the bound: its commands are appended by then.
        let batch = RequestState(uri: "/v1/commands", refusal: nil)
        batch.client = "a"
        batch.request = HTTPRequest(method: "POST", uri: "/v1/commands")
        #expect(server.bounded(Self.large, closing: false, request: batch, connection: ConnectionState()).response.status == 200)
        server.unsentAnswers.release(batch.unsentBytes, for: "a")
        // Once the first is done, its client is served again.
        server.unsentAnswers.release(first.request.unsentBytes, for: "a")
        #expect(Self.answer(Self.large, for: "a", on: server).response.status == 200)
    }

    @Test func aClientsConnectionsKeptOpenPastItsBoundAreToldTheyClose() throws {
        let server = try Self.server()
        defer { server.stop() }
        // 256 KiB each: four of a client's connections are kept open, a fifth closes after its answer.
        let small = HTTPResponse(status: 200, body: Array("{}".utf8))
        let connections = (0..<5).map { _ in ConnectionState() }
        let closing = connections.map { Self.answer(small, for: "a", on: server, connection: $0).closing }
        #expect(closing == [false, false, false, false, true])
        // A connection kept open counts once, however many answers it gets.
        #expect(Self.answer(small, for: "a", on: server, connection: connections[0]).closing == false)
        // One closing gives its room back.
        server.keptAliveAnswers.release(connections[1].keptAliveBytes, for: "a")
        #expect(Self.answer(small, for: "a", on: server).closing == false)
    }
}
