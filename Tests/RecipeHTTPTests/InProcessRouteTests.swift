import Foundation
import Kafka
import RecipeDomain
import RecipeHTTP
@testable import RecipeProjection
import RecipeTestSupport
import Testing
import Threads

/// The routes over small fakes of the read side and the log: no broker, no store,
/// no socket. What the real parts do is the other suites' business.
@Suite("Routes in process")
struct InProcessRouteTests {
    @Test func unknownPathsAre404AndOtherMethods405WithAllow() throws {
        let api = RecipeAPIHandler(readModel: FakeReads(), appender: FakeLog())
        let missing = api.answer(HTTPRequest(method: "GET", uri: "/v1/nothing"))
        #expect(missing.status == 404)
        #expect(missing.header("content-type") == "application/json")
        #expect(try missing.error() == ["code": "notFound", "message": "no route /v1/nothing"])
        let wrong = api.answer(HTTPRequest(method: "PUT", uri: "/v1/drafts"))
        #expect(wrong.status == 405)
        #expect(wrong.header("allow") == "POST, GET")
        #expect(try wrong.error()["code"] == "methodNotAllowed")
        // HEAD is answered by the GET route.
        #expect(api.answer(HTTPRequest(method: "HEAD", uri: "/healthz")).status == 200)
    }

    @Test func everyErrorAnswersItself() throws {
        let reads = FakeReads()
        let api = RecipeAPIHandler(readModel: reads, appender: FakeLog())
        let cases: [(String, QueryError, Int, [String: String])] = [
            ("/v1/recipes/r1", .notFound("r1"), 404, ["code": "notFound", "message": "no recipe r1"]),
            ("/v1/recipes/r1", .deleted("r1"), 410, ["code": "deleted", "message": "recipe r1 was deleted"]),
            ("/v1/recipes/r1?version=3", .noSuchVersion("r1", 3), 404, ["code": "noSuchVersion", "message": "recipe r1 has no version 3"]),
            ("/v1/recipes/r1/draft", .noDraft("r1"), 404, ["code": "noDraft", "message": "recipe r1 has no open draft"]),
            ("/v1/recipes/r1?guests=2", .cannotScale("no servings"), 422, ["code": "cannotScale", "message": "no servings"]),
            ("/v1/recipes?cursor=x", .badCursor, 400,
             ["code": "badParameter", "message": QueryError.badCursor.description, "field": "cursor"]),
        ]
        for (uri, error, status, body) in cases {
            reads.failure.withLock { $0 = error }
            let response = api.answer(HTTPRequest(method: "GET", uri: uri))
            #expect(response.status == status, "\(uri)")
            #expect(try response.error() == body, "\(uri)")
        }
        // An error that says nothing of HTTP is a bug: 500 `internal`.
        reads.failure.withLock { $0 = StoreError.corrupted("a page is torn") }
        let broken = api.answer(HTTPRequest(method: "GET", uri: "/v1/recipes"))
        #expect(broken.status == 500)
        #expect(try broken.error()["code"] == "internal")
    }

    @Test func badParametersAre400BeforeTheReadSideIsAsked() throws {
        let reads = FakeReads()
        let api = RecipeAPIHandler(readModel: reads, appender: FakeLog())
        for (uri, field) in [("/v1/recipes?limit=501", "limit"), ("/v1/recipes?after=0:x", "after"),
                             ("/v1/recipes/r1?guests=0", "guests"), ("/v1/rejections?limit=abc", "limit")] {
            let response = api.answer(HTTPRequest(method: "GET", uri: uri))
            #expect(response.status == 400, "\(uri)")
            #expect(try response.error()["field"] == field, "\(uri)")
        }
        #expect(reads.queries.withLock { $0 } == 0)
        #expect(api.answer(HTTPRequest(method: "GET", uri: "/v1/recipes?limit=500&tag=&cursor=")).status == 200)
        #expect(reads.queries.withLock { $0 } == 1)
    }

    @Test func writesNeedAKnownTokenAndActAsItsActor() throws {
        let log = FakeLog()
        let options = RecipeAPIOptions(tokens: try AccessTokens(parsing: "alice-secret alice\n"), privateReads: true)
        let api = RecipeAPIHandler(readModel: FakeReads(), appender: log, options: options)
        let body = Array(#"{"type":"TitleChanged","data":{"title":"Soup"}}"#.utf8)
        let anonymous = api.answer(HTTPRequest(method: "POST", uri: "/v1/recipes/r1/commands", body: body))
        #expect(anonymous.status == 401)
        #expect(anonymous.header("www-authenticate") == "Bearer")
        let stranger = api.answer(HTTPRequest(method: "POST", uri: "/v1/recipes/r1/commands",
                                                   headers: ["authorization": "Bearer guess"], body: body))
        #expect(try stranger.error() == ["code": "unauthorized", "message": "the token is not known"])
        #expect(log.appended.withLock { $0 }.isEmpty)

        let alice = api.answer(HTTPRequest(method: "POST", uri: "/v1/recipes/r1/commands",
                                                headers: ["authorization": "Bearer alice-secret"], body: body))
        #expect(alice.status == 202)
        #expect(log.appended.withLock { $0 }.map(\.actor) == ["alice"])
        // Private reads: data needs the token, operations do not.
        #expect(api.answer(HTTPRequest(method: "GET", uri: "/v1/drafts")).status == 401)
        #expect(api.answer(HTTPRequest(method: "GET", uri: "/v1/drafts", headers: ["authorization": "Bearer alice-secret"])).status == 200)
        #expect(api.answer(HTTPRequest(method: "GET", uri: "/readyz")).status == 200)
    }

    @Test func waitingAnswersTheOutcomeOnceProjectedElse202() throws {
        let reads = FakeReads()
        let log = FakeLog()
        log.next.withLock { $0 = (partition: 1, offset: 7) }
        reads.outcomes.withLock {
            $0["1:7"] = HistoryItem(position: "1:7", time: nil, actor: "anonymous", type: "RecipeSaved", commandId: "c1",
                                    outcome: .rejected, reason: ReasonView(code: "notSavable", message: "no title"), revision: 3)
        }
        let body = Array(#"{"type":"RecipeSaved","id":"c1","data":{}}"#.utf8)
        let request = HTTPRequest(method: "POST", uri: "/v1/recipes/r1/commands?wait=true", body: body)

        let notYet = RecipeAPIHandler(readModel: reads, appender: log, options: RecipeAPIOptions(waitTimeout: .zero)).answer(request)
        #expect(notYet.status == 202, "the command is in the log, its outcome not yet known")
        let receipt = try JSONDecoder().decode(CommandReceipt.self, from: Data(notYet.body))
        #expect(receipt.position == "1:7" && receipt.outcome == nil)

        reads.advance(1, to: 8)
        let projected = RecipeAPIHandler(readModel: reads, appender: log).answer(request)
        #expect(projected.status == 200)
        let outcome = try JSONDecoder().decode(CommandReceipt.self, from: Data(projected.body))
        #expect(outcome.outcome == .rejected)
        #expect(outcome.reason == ReasonView(code: "notSavable", message: "no title"))
        #expect(outcome.revision == 3)

        // Another command at that position (a store that folded another log) is never this one's outcome.
        let other = HTTPRequest(method: "POST", uri: "/v1/recipes/r1/commands?wait=true",
                                body: Array(#"{"type":"RecipeSaved","id":"c2","data":{}}"#.utf8))
        let mixed = RecipeAPIHandler(readModel: reads, appender: log).answer(other)
        #expect(mixed.status == 202)
        #expect(try JSONDecoder().decode(CommandReceipt.self, from: Data(mixed.body)).outcome == nil)
    }

    @Test func aQueryAfterAPositionWaitsUntilTheReadSideReportsIt() throws {
        let reads = FakeReads()
        reads.advance(0, to: 3)
        let api = RecipeAPIHandler(readModel: reads, appender: FakeLog(), options: RecipeAPIOptions(waitTimeout: .seconds(30)))
        let answer = Background("a query waiting for 0:5") { api.answer(HTTPRequest(method: "GET", uri: "/v1/drafts?after=0:5")) }
        try reads.waitForPositionReads(1)
        // Not reached by another partition's progress.
        reads.advance(1, to: 100)
        try reads.waitForPositionReads(2)
        #expect(reads.queries.withLock { $0 } == 0, "answered before the read side reached 0:5")
        reads.advance(0, to: 6)
        let response = try answer.value()
        #expect(response.status == 200)
        // Read once at the start and once after each progress: woken, never polled.
        #expect(reads.positionReads.withLock { $0 } == 3)
    }

    @Test func aPositionNotReachedInTimeIsStale() throws {
        let api = RecipeAPIHandler(readModel: FakeReads(), appender: FakeLog(), options: RecipeAPIOptions(waitTimeout: .zero))
        let response = api.answer(HTTPRequest(method: "GET", uri: "/v1/recipes?after=2:9"))
        #expect(response.status == 503)
        #expect(try response.error()["code"] == "stale")
    }

    @Test func aLogThatCannotAppendIs503() throws {
        let log = FakeLog()
        log.fails.withLock { $0 = true }
        let api = RecipeAPIHandler(readModel: FakeReads(), appender: log)
        let response = api.answer(HTTPRequest(method: "POST", uri: "/v1/drafts"))
        #expect(response.status == 503)
        #expect(try response.error()["code"] == "unavailable")
    }
}

// MARK: - Fakes

/// A read side in memory whose positions the test moves; its waits are woken
/// by `CommitSignal`, as the real one's are by the projector.
final class FakeReads: RecipeReads {
    let failure = Locked<(any Error)?>(nil)
    let outcomes = Locked<[String: HistoryItem]>([:])
    /// Queries of data answered (not positions).
    let queries = Locked(0)
    /// Waited on by `waitForPositionReads`.
    let positionReads = Locked(0)
    private let stored = Locked<[Int32: Int64]>([:])
    private let commits = CommitSignal()

    /// The read side has applied `partition` up to `next` (exclusive).
    func advance(_ partition: Int32, to next: Int64) {
        stored.withLock { $0[partition] = next }
        commits.committed()
    }

    /// Blocks until the positions have been read `count` times (or 10 s pass: then throws).
    func waitForPositionReads(_ count: Int) throws {
        try positionReads.withLock(when: { $0 >= count }, deadline: .now + .seconds(10)) { read, reached in
            guard reached else { throw FakeError(description: "waited 10 s for the positions to be read \(count) times; read \(read)") }
        }
    }

    /// Counted once read: a test that waited for the count sees what the read saw.
    func positions() throws -> [Int32: Int64] {
        let positions = stored.withLock { $0 }
        positionReads.withLock { $0 += 1 }
        return positions
    }

    func waitUntilReached(_ positions: [Int32: Int64], deadline: ContinuousClock.Instant) throws -> Bool {
        try commits.wait(until: {
            let stored = try self.positions()
            return positions.allSatisfy { (stored[$0.key] ?? 0) > $0.value }
        }, deadline: deadline)
    }

    private func served<T>(_ value: T) throws -> T {
        if let error = failure.withLock({ $0 }) { throw error }
        queries.withLock { $0 += 1 }
        return value
    }

    func list(tag: String?, query: String?, limit: Int, cursor: String?, visibleTo: String?) throws -> RecipeList {
        try served(RecipeList(items: [], nextCursor: nil))
    }

    func detail(_ id: RecipeID, version: Int?, guests: Int?, units: UnitSystem?) throws -> RecipeDetail {
        try served(())
        throw QueryError.notFound(id.text)
    }

    func draft(_ id: RecipeID) throws -> DraftView {
        try served(())
        throw QueryError.noDraft(id.text)
    }

    func drafts(limit: Int, visibleTo: String?) throws -> [DraftSummary] { try served([]) }
    func access(_ id: RecipeID) throws -> RecipeAccessView? { nil }
    func history(_ id: RecipeID) throws -> RecipeHistory { try served(RecipeHistory(items: [])) }
    func rejections(limit: Int, visibleTo: String?) throws -> [RejectionItem] { try served([]) }

    func outcome(partition: Int32, offset: Int64) throws -> HistoryItem? {
        outcomes.withLock { $0["\(partition):\(offset)"] }
    }
}

/// A log that keeps what it is given and reports the next position it was told.
final class FakeLog: CommandLog {
    let appended = Locked<[CommandEnvelope]>([])
    let next = Locked((partition: Int32(0), offset: Int64(0)))
    let fails = Locked(false)

    func append(_ envelope: CommandEnvelope, source: String) throws -> KafkaDeliveryReport {
        if fails.withLock({ $0 }) { throw FakeError(description: "the log is down") }
        appended.withLock { $0.append(envelope) }
        let (partition, offset) = next.withLock { $0 }
        return KafkaDeliveryReport(topic: "recipes.edits", partition: partition, offset: offset)
    }
}

struct FakeError: Error, CustomStringConvertible {
    var description: String
}

extension RecipeAPIHandler {
    /// The answer, as a connection thread of the server asks for it: a command route blocks
    /// its caller while it appends, a query with `after=` while it waits.
    func answer(_ request: HTTPRequest) -> HTTPResponse {
        respond(to: request)
    }
}

extension HTTPResponse {
    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name }?.1
    }

    /// The members of `{"error":{…}}`.
    func error() throws -> [String: String] {
        struct Body: Decodable { var error: [String: String] }
        return try JSONDecoder().decode(Body.self, from: Data(body)).error
    }
}
