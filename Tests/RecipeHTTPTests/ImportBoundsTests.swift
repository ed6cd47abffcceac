import Foundation
import RecipeHTTP
import RecipeSchemaOrg
import RecipeTestSupport
import Testing
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// What one import may cost the server: its rate is taken before its document is read, a page
/// past the steps an import takes is refused 413, an import whose client went away stops, and
/// a server stopping interrupts one. Outcomes and counts, never times.
@Suite("Import: rate first, work bounded, stopped when no one waits")
struct ImportBoundsTests {
    /// `count` microdata text properties, each opened inside the one before, none closed.
    static func nestedProperties(_ count: Int) -> [UInt8] {
        Array((#"<div itemscope itemtype="https://schema.org/Recipe"><span itemprop="name">x</span>"#
            + String(repeating: #"<div itemprop="recipeIngredient">a"#, count: count)).utf8)
    }

    @Test("the rate is taken before the document is read: refused imports count, and one over the rate is not read")
    func theRateComesFirst() throws {
        var options = RecipeAPIOptions()
        options.appendRate = (perSecond: 0.001, burst: 2)
        let fixture = try ServiceFixture(api: options)
        func post(_ body: String, _ type: String = "application/json") throws -> HTTPResult {
            try fixture.post("/v1/import", body, headers: ["content-type": type])
        }
        // A document with no recipe, and one past the bounds: each counts as the command it could have appended.
        let noRecipe = try post(#"{"@type":"Person","name":"Ada"}"#)
        #expect(noRecipe.status == 422, "\(noRecipe.text)")
        let pastTheBound = #"{"@graph":["# + Array(repeating: #"{"@type":"Thing"}"#, count: 60_000).joined(separator: ",") + "]}"
        let tooComplex = try post(pastTheBound)
        #expect(tooComplex.status == 413 && tooComplex.errorCode == "tooComplex", "\(tooComplex.text)")
        // The burst is spent: a good recipe waits, and a document that would not parse is not read to say so.
        let good = try post(#"{"@type":"Recipe","name":"Soup","recipeIngredient":["1 egg"]}"#)
        #expect(good.status == 429 && good.errorCode == "rateLimited", "\(good.text)")
        let unreadable = try post("{not json")
        #expect(unreadable.status == 429, "\(unreadable.text)")
    }

    @Test("a page of nested properties is answered 413 tooComplex; an import whose client closed its connection stops, counted as 499")
    func boundedAndStoppedWhenTheClientLeaves() throws {
        let fixture = try ServiceFixture()
        let refused = try fixture.request("POST", "/v1/import", body: Self.nestedProperties(7_700), headers: ["content-type": "text/html"])
        #expect(refused.status == 413 && refused.errorCode == "tooComplex", "\(refused.text)")

        // The largest page of them, sent whole, and the connection closed at once.
        let body = Self.nestedProperties((SchemaOrgImport.maxHTMLBytes - 200) / 34)
        let connection = try RawConnection(port: fixture.port)
        #expect(connection.send("POST /v1/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/html\r\nContent-Length: \(body.count)\r\n\r\n"))
        #expect(connection.send(body))
        shutdown(connection.fd, Int32(SHUT_RDWR))
        let gone = #"recipes_http_requests_total{route="/v1/import",method="POST",status="499"} 1"#
        try waitFor("the import to stop as its client's", deadline: .seconds(60)) {
            try fixture.get("/metrics").text.contains(gone)
        }
    }

    /// Imports the page again and again until one is interrupted: an import is running whenever
    /// the server stops, and only the interruption ends the loop.
    final class RepeatedImport: HTTPHandler {
        private let state = Locked<(started: Bool, reasons: [RequestCancellation.Reason?])>((false, []))
        let page = Data(ImportBoundsTests.nestedProperties(7_700))

        var started: Bool { state.withLock { $0.started } }
        var reasons: [RequestCancellation.Reason?] { state.withLock { $0.reasons } }

        func respond(to request: HTTPRequest) -> HTTPResponse {
            state.withLock { $0.started = true }
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                do {
                    _ = try SchemaOrgImport.recipe(from: page, contentType: "text/html", shouldStop: { request.cancellation?.reason != nil })
                } catch .interrupted {
                    state.withLock { $0.reasons.append(request.cancellation?.reason) }
                    return HTTPResponse(error: HTTPError(503, "unavailable", "stopping"))
                } catch {
                    continue
                }
            }
            return HTTPResponse(error: HTTPError(500, "notInterrupted", "never interrupted"))
        }
    }

    @Test("a server stopping interrupts an import in progress, and stop returns")
    func stoppingInterruptsAnImport() throws {
        let handler = RepeatedImport()
        let server = try HTTPServer(handler: handler, port: 0, loopbackOnly: true)
        let connection = try RawConnection(port: server.port)
        #expect(connection.send("POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n"))
        try waitFor("the import to start", deadline: .seconds(30)) { handler.started }
        try Background("stop") { server.stop() }.value(deadline: .seconds(30))
        #expect(handler.reasons == [.serverStopping])
    }
}
