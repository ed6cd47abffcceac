import Foundation
import RecipeHTTP
import RecipeTestSupport
import Testing
import Threads

/// Requests the handler can answer without blocking are answered on the polling thread,
/// without the hand-off to a handler thread, and answered as a handler thread would answer them.
@Suite("Answered at once")
struct AnsweredAtOnceTests {
    /// Holds its handler thread until released; answers `/quick` without waiting.
    final class HeldHandler: HTTPHandler {
        let state = Locked((responding: false, released: false))

        func respond(to request: HTTPRequest) -> HTTPResponse {
            state.withLock { $0.responding = true }
            _ = state.wait(until: { $0.released })
            return .text("held")
        }

        func respondWithoutWaiting(to request: HTTPRequest) -> HTTPResponse? {
            request.path == "/quick" ? .text("quick") : nil
        }
    }

    @Test("a request answered without waiting is answered while every handler thread is taken")
    func answeredWhileHandlerThreadsAreTaken() throws {
        let handler = HeldHandler()
        var limits = HTTPServer.Limits()
        limits.handlerThreads = 1
        let server = try HTTPServer(handler: handler, port: 0, loopbackOnly: true, limits: limits)
        defer { server.stop() }
        // Released before the server stops (it waits for its handler threads), however the test ends.
        defer { handler.state.withLock { $0.released = true } }
        let held = try RawConnection(port: server.port)
        #expect(held.send("GET /held HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        try waitFor("the handler thread to be taken", deadline: .seconds(30)) { handler.state.withLock { $0.responding } }

        // Handed off, it would wait behind the held request for the only handler thread.
        let quick = try HTTPClient.request(port: server.port, method: "GET", path: "/quick", body: nil)
        #expect(quick.status == 200 && quick.text == "quick")
        #expect(handler.state.withLock { !$0.released })

        handler.state.withLock { $0.released = true }
        let answer = held.receiveResponse(timeout: .seconds(30))
        #expect(answer?.status == 200)
    }

    @Test("detail, list and draft answered at once are what a handler thread answers; waits and other routes are not answered at once")
    func answeredAtOnceAsHandled() throws {
        let fixture = try ServiceFixture()
        let (id, position) = try fixture.savedRecipe(title: "Answered at once")
        try #require(fixture.get("/v1/recipes/\(id)?after=\(position)").status == 200)
        let api = fixture.service.api
        let paths = ["/v1/recipes/\(id)", "/v1/recipes/\(id)?guests=8&units=us", "/v1/recipes/\(id)?format=jsonld",
                     "/v1/recipes?limit=20", "/v1/recipes?tag=&q=", "/v1/recipes/\(id)/draft",
                     "/v1/recipes/\(UUID().uuidString.lowercased())", "/v1/recipes/\(id)?guests=0", "/v1/recipes?cursor=%21"]
        for path in paths {
            let request = HTTPRequest(method: "GET", uri: path)
            var atOnce: HTTPResponse?
            // Nil only while every read connection is taken (by the service's own reads).
            try waitFor("\(path) answered at once", deadline: .seconds(30)) {
                atOnce = api.respondWithoutWaiting(to: request)
                return atOnce != nil
            }
            let handled = api.respond(to: request)
            #expect(atOnce?.status == handled.status, "\(path)")
            #expect(atOnce?.headers.map { "\($0.0): \($0.1)" } == handled.headers.map { "\($0.0): \($0.1)" }, "\(path)")
            #expect(atOnce?.body == handled.body, "\(path)")
        }
        // A filtered list may pass over many rows before it fills a page: not on a polling thread.
        for (method, path) in [("GET", "/v1/recipes/\(id)?after=\(position)"), ("GET", "/v1/recipes/\(id)/history"),
                               ("GET", "/v1/drafts"), ("POST", "/v1/recipes/\(id)/commands"),
                               ("GET", "/v1/recipes?q=answered"), ("GET", "/v1/recipes?tag=dinner&limit=5")] {
            #expect(api.respondWithoutWaiting(to: HTTPRequest(method: method, uri: path)) == nil, "\(method) \(path)")
        }
    }
}
