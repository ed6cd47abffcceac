import Foundation
import RecipeHTTP
import RecipeTestSupport
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What one client can hold of the server: waits, connections, oversized requests.
/// Functional checks with generous deadlines; figures go in docs/benchmarks.md.
@Suite("Server limits", .serialized)
struct ServerLimitsTests {
    @Test func farFuturePositionsAreAnsweredAtOnceWhileNormalQueriesGoOn() throws {
        var limits = HTTPServer.Limits()
        limits.maxConnectionsPerClient = 1000
        // A wait far longer than the client's 20 s: an answer that came only when it ran out would fail.
        let fixture = try ServiceFixture(api: .init(waitTimeout: .seconds(30)), server: limits)
        let answers = try inParallel(301, "the queries") { index in
            if index == 300 { return (try fixture.get("/v1/recipes").status, nil as String?) }
            let response = try fixture.get("/v1/recipes?after=\(index % 4):\(1_000_000 + index)")
            return (response.status, response.errorCode)
        }
        #expect(answers.filter { $0 == (409, "positionAhead") }.count == 300, "\(answers.filter { $0 != (409, "positionAhead") })")
        #expect(answers[300].0 == 200)
        fixture.service.shutdown()
    }

    @Test func atMostNQueriesWaitThenBusyWithRetryAfter() throws {
        let reads = FakeReads()
        var options = RecipeAPIOptions(waitTimeout: .seconds(30))
        options.maxWaiters = 1
        let api = RecipeAPIHandler(readModel: reads, appender: FakeLog(), options: options)
        let waiting = Background("a query waiting for 0:5") { api.answer(HTTPRequest(method: "GET", uri: "/v1/drafts?after=0:5")) }
        try reads.waitForPositionReads(1)
        let busy = api.answer(HTTPRequest(method: "GET", uri: "/v1/drafts?after=0:5"))
        #expect(busy.status == 503)
        #expect(busy.headers.contains { $0.0 == "Retry-After" && $0.1 == "1" })
        #expect(try busy.error()["code"] == "busy")
        reads.advance(0, to: 6)
        #expect(try waiting.value().status == 200)
    }

    @Test func commandsThatWaitForTheirOutcomeTakeAWaiterSlotToo() throws {
        let reads = FakeReads()
        let log = FakeLog()
        log.next.withLock { $0 = (0, 5) }
        var options = RecipeAPIOptions(waitTimeout: .seconds(30))
        options.maxWaiters = 1
        let api = RecipeAPIHandler(readModel: reads, appender: log, options: options)
        // A command waiting for its outcome holds the one slot...
        let waiting = Background("a command waiting for its outcome") { api.answer(HTTPRequest(method: "POST", uri: "/v1/drafts?wait=true")) }
        try reads.waitForPositionReads(1)
        // ...so a query that must wait is busy at once, and so is another command that would wait,
        // which is not appended; a command that does not wait is appended as ever.
        let query = api.answer(HTTPRequest(method: "GET", uri: "/v1/recipes?after=0:5"))
        #expect(query.status == 503)
        #expect(try query.error()["code"] == "busy")
        #expect(query.header("retry-after") == "1")
        let command = HTTPRequest(method: "POST", uri: "/v1/recipes/r1/commands?wait=true",
                                  body: Array(#"{"type":"TitleChanged","data":{"title":"Soup"}}"#.utf8))
        let busy = api.answer(command)
        #expect(busy.status == 503)
        #expect(try busy.error()["code"] == "busy")
        #expect(busy.header("retry-after") == "1")
        #expect(log.appended.withLock { $0.count } == 1)
        let notWaiting = api.answer(HTTPRequest(method: "POST", uri: "/v1/drafts"))
        #expect(notWaiting.status == 202)
        #expect(log.appended.withLock { $0.count } == 2)
        // Projected: the slot is free again, and the same command waits for its outcome.
        reads.advance(0, to: 6)
        #expect(try waiting.value().status == 202)
        log.next.withLock { $0 = (0, 6) }
        let again = Background("the command again, waiting for its outcome") { api.answer(command) }
        try reads.waitForPositionReads(3)
        reads.advance(0, to: 7)
        #expect(try again.value().status == 202)
        #expect(log.appended.withLock { $0.count } == 3)
    }

    /// An address at its limit (by default half the connections) gets no more; other addresses
    /// go on being served, and so do the connections it holds.
    @Test func oneAddressAtItsLimitDoesNotLockOthersOut() throws {
        var limits = HTTPServer.Limits()
        limits.maxConnections = 200
        let fixture = try ServiceFixture(server: limits)
        let port = fixture.port
        let held = try { try (0..<150).map { _ in try RawConnection(port: port, from: "127.0.0.2") } }()
        // The server closes the 50 beyond the limit as it accepts them.
        let closed = try Self.waitUntil("50 of 150 connections from one address are closed") {
            held.count(where: \.isClosedByServer) == 50 ? true : nil
        }
        #expect(closed)
        #expect(try fixture.get("/healthz").status == 200)
        let open = held.filter { !$0.isClosedByServer }
        let answered = Self.healthOnEach(open)
        #expect(answered == 100)
        fixture.service.shutdown()
    }

    /// Behind a proxy every client has the proxy's address: with trusted proxies there is no
    /// per-address limit unless one is given.
    @Test func behindTrustedProxiesThereIsNoPerAddressLimit() throws {
        var limits = HTTPServer.Limits()
        limits.maxConnections = 200
        limits.trustedProxies = try TrustedProxies(["127.0.0.2"])
        let fixture = try ServiceFixture(server: limits)
        let port = fixture.port
        let held = try { try (0..<150).map { _ in try RawConnection(port: port, from: "127.0.0.2") } }()
        let answered = Self.healthOnEach(held)
        #expect(answered == 150)
        fixture.service.shutdown()
    }

    /// Sends `GET /healthz` on each connection, then counts the 200s.
    static func healthOnEach(_ connections: [RawConnection]) -> Int {
        for connection in connections { connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
        return connections.count { $0.receiveResponse(timeout: .seconds(10))?.status == 200 }
    }

    /// Polls `condition` until it answers, or fails naming what was awaited after `deadline`.
    static func waitUntil<T>(_ what: String, deadline: Duration = .seconds(10), _ condition: () -> T?) throws -> T {
        var value: T?
        try waitFor(what, deadline: deadline) {
            value = condition()
            return value != nil
        }
        return value!
    }

    @Test func refusalsAreTheAPIsJSONErrors() throws {
        let fixture = shared
        let longURI = try fixture.get("/v1/recipes?q=" + String(repeating: "a", count: 100_000))
        #expect(longURI.status == 414)
        #expect(longURI.errorCode == "uriTooLong")
        let manyParameters = try fixture.get("/v1/recipes?" + (0..<600).map { "p\($0)=1" }.joined(separator: "&"))
        #expect(manyParameters.status == 400)
        #expect(manyParameters.errorCode == "tooManyParameters")
        let bigHeader = try fixture.get("/v1/recipes", headers: ["X-Padding": String(repeating: "b", count: 40_000)])
        #expect(bigHeader.status == 431)
        #expect(bigHeader.errorCode == "headersTooLarge")
        #expect(try fixture.get("/healthz").status == 200)
    }

    /// Past the connection's memory libmicrohttpd answers by itself (docs/operations.md says why it
    /// cannot be JSON): still a 431 that closes the connection, and the server goes on serving.
    @Test func aHeadPastTheConnectionMemoryIsLibmicrohttpds431AndTheServerGoesOn() throws {
        let fixture = shared
        let huge = try fixture.get("/v1/recipes", headers: ["X-Padding": String(repeating: "b", count: 10_000_000)])
        #expect(huge.status == 431)
        #expect(huge.headers["connection"] == "close")
        #expect(try fixture.get("/healthz").status == 200)
    }

    @Test func aChunkedBodyOverTheLimitIsCutOffAsItPassesIt() throws {
        let port = shared.port
        let answer = try { () throws -> String in
            let connection = try RawConnection(port: port)
            connection.send("POST /v1/drafts HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n")
            // 96 KiB of a body that never ends: the answer must come without its last chunk.
            let chunk = Array("4000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x4000) + Array("\r\n".utf8)
            for _ in 0..<6 { connection.send(chunk) }
            return String(decoding: connection.receiveUntilClosed(timeout: .seconds(30)).bytes, as: UTF8.self)
        }()
        #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
        #expect(answer.contains(#""code":"tooLarge""#))
    }

    @Test func httpsWithATestCertificate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try runProcess("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", folder + "/key.pem", "-out", folder + "/cert.pem",
        ])
        try #require(made.status == 0, "\(made.err)")
        var limits = HTTPServer.Limits()
        limits.tlsKeyPEM = try String(contentsOfFile: folder + "/key.pem", encoding: .utf8)
        limits.tlsCertificatePEM = try String(contentsOfFile: folder + "/cert.pem", encoding: .utf8)
        let fixture = try ServiceFixture(server: limits)
        let curl = try runProcess("/usr/bin/curl", [
            "-sS", "--cacert", folder + "/cert.pem", "-w", "\n%{http_code}", "https://127.0.0.1:\(fixture.port)/healthz",
        ])
        #expect(curl.status == 0, "\(curl.err)")
        #expect(curl.out.hasSuffix("\n200"), "\(curl.out)")
        // Plain HTTP to the HTTPS port gets no answer as HTTP.
        let plain = try runProcess("/usr/bin/curl", ["-sS", "-m", "10", "http://127.0.0.1:\(fixture.port)/healthz"])
        #expect(plain.status != 0)
        fixture.service.shutdown()
    }
}
