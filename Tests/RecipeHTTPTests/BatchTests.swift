import Foundation
import RecipeHTTP
import RecipeTestSupport
import Testing

/// `POST /v1/commands` against the broker and the store, and `recipes send --stdin` over many chunks.
@Suite("Batches")
struct BatchTests {
    static let ndjson = ["Content-Type": "application/x-ndjson"]

    func postBatch(_ body: String, headers: [String: String] = BatchTests.ndjson, to fixture: ServiceFixture = shared) throws -> HTTPResult {
        try fixture.request("POST", "/v1/commands", body: Array(body.utf8), headers: headers)
    }

    /// The history of `recipe` once the store has applied `positions`.
    func history(_ recipe: String, after positions: [String], fixture: ServiceFixture = shared,
                 headers: [String: String] = [:]) throws -> [[String: Any]] {
        let response = try fixture.get("/v1/recipes/\(recipe)/history?after=\(positions.joined(separator: ","))", headers: headers)
        try #require(response.status == 200, "\(response.text)")
        return try response.items
    }

    func items(_ response: HTTPResult) -> [[String: Any]] { response.object["items"] as? [[String: Any]] ?? [] }

    @Test func goodAndBadLinesAreAnsweredInOrderAndOnlyTheGoodOnesAreLogged() throws {
        let a = UUID().uuidString.lowercased(), b = UUID().uuidString.lowercased()
        let body = """
            {"type":"DraftStarted","recipe":"\(a)","data":{}}
            {"type":"DraftStarted","recipe":"\(b)"}
            {"type":"IngredientAdded","recipe":"\(a)","data":{"name":"Flour","amount":-1,"metric":"g"}}

            {"type":"TitleChanged","recipe":"\(a)","data":{"title":"Bread"}}
            not json
            {"type":"TitleChanged","recipe":"\(b)","data":{"title":"Soup"},"id":"b-title"}
            {"type":"Nope","recipe":"\(b)","data":{}}
            {"type":"ServingsChanged","recipe":"\(a)","data":{"servings":2},"expectedRevision":2}\r
            {"type":"TitleChanged","data":{"title":"no recipe"}}
            """
        let response = try postBatch(body)
        #expect(response.status == 202, "\(response.text)")
        #expect(response.object["appended"] as? Int == 5)
        #expect(response.object["failed"] as? Int == 4)
        let items = items(response)
        #expect(items.map { $0["index"] as? Int } == Array(0..<9).map { $0 })
        #expect(items.map { $0["line"] as? Int } == [1, 2, 3, 5, 6, 7, 8, 9, 10])
        let errors = items.map { ($0["error"] as? [String: Any])?["code"] as? String }
        #expect(errors == [nil, nil, "invalid", nil, "malformedJSON", nil, "unknownType", nil, "malformed"])
        #expect((items[2]["error"] as? [String: Any])?["field"] as? String == "data.amount")
        #expect(items[5]["commandId"] as? String == "b-title")
        // A command without an id gets a new lowercase UUID, as a single POST's does.
        let made = try #require(items[0]["commandId"] as? String)
        #expect(UUID(uuidString: made)?.uuidString.lowercased() == made)
        let positions = items.compactMap { $0["position"] as? String }
        #expect(positions.count == 5)

        let historyA = try history(a, after: positions)
        #expect(historyA.map { $0["type"] as? String } == ["DraftStarted", "TitleChanged", "ServingsChanged"])
        let positionsA: [String?] = [0, 3, 7].map { items[$0]["position"] as? String }
        #expect(historyA.map { $0["position"] as? String } == positionsA)
        #expect(historyA.map { $0["outcome"] as? String } == ["accepted", "accepted", "accepted"])
        let historyB = try history(b, after: positions)
        #expect(historyB.map { $0["type"] as? String } == ["DraftStarted", "TitleChanged"])
        #expect(historyB.map { $0["actor"] as? String } == ["anonymous", "anonymous"])
    }

    @Test func theArrayFormAndARepeatedBatchIsRecordedAsDuplicates() throws {
        let recipe = UUID().uuidString.lowercased()
        let body = """
            [{"type":"DraftStarted","recipe":"\(recipe)","id":"\(recipe)-1"},
             {"type":"TitleChanged","recipe":"\(recipe)","data":{"title":"Stew"},"id":"\(recipe)-2"},
             {"type":"TitleChanged","recipe":"\(recipe)","data":{"title":7}},
             42]
            """
        let json = ["Content-Type": "application/json"]
        let first = try postBatch(body, headers: json)
        #expect(first.status == 202, "\(first.text)")
        let firstItems = items(first)
        #expect(firstItems.map { $0["index"] as? Int } == [0, 1, 2, 3])
        #expect(firstItems.allSatisfy { $0["line"] == nil })
        #expect(firstItems.map { ($0["error"] as? [String: Any])?["code"] as? String } == [nil, nil, "malformed", "malformed"])

        let again = try postBatch(body, headers: json)
        #expect(again.status == 202, "\(again.text)")
        let positions = (firstItems + items(again)).compactMap { $0["position"] as? String }
        #expect(positions.count == 4)
        let history = try history(recipe, after: positions)
        #expect(history.map { $0["commandId"] as? String } == ["\(recipe)-1", "\(recipe)-2", "\(recipe)-1", "\(recipe)-2"])
        #expect(history.map { $0["outcome"] as? String } == ["accepted", "accepted", "duplicate", "duplicate"])
    }

    @Test func aBatchWithNoValidCommandIs422AndBadBodiesAre4xx() throws {
        let none = try postBatch(#"{"type":"Nope","recipe":"r","data":{}}"#)
        #expect(none.status == 422, "\(none.text)")
        #expect(none.errorCode == "noValidCommand")
        #expect(items(none).count == 1)
        #expect(try postBatch("[1,2", headers: ["Content-Type": "application/json"]).errorCode == "malformedJSON")
        #expect(try postBatch("\n\n").errorCode == "emptyBatch")
        let text = try postBatch("{}", headers: ["Content-Type": "text/plain"])
        #expect(text.status == 415)
        #expect(text.errorCode == "unsupportedMediaType")
    }

    @Test func overTheLimitIs413() throws {
        let recipe = UUID().uuidString.lowercased()
        let line = #"{"type":"TitleChanged","recipe":"\#(recipe)","data":{"title":"x"}}"#
        let many = try postBatch(Array(repeating: line, count: 1_001).joined(separator: "\n"))
        #expect(many.status == 413)
        #expect(many.errorCode == "tooManyCommands")
        let padded = #"{"type":"TitleChanged","recipe":"\#(recipe)","data":{"title":"\#(String(repeating: "y", count: 2_000))"}}"#
        let big = try postBatch(Array(repeating: padded, count: 600).joined(separator: "\n"))
        #expect(big.status == 413)
        #expect(big.errorCode == "tooLarge")
        let exactly = try postBatch(Array(repeating: line, count: 1_000).joined(separator: "\n"))
        #expect(exactly.status == 202, "\(exactly.status) \(exactly.errorCode ?? "")")
        #expect(exactly.object["appended"] as? Int == 1_000)
        // Nothing of either refused batch reached the log: once the one that fits is projected,
        // the recipe's history holds its 1,000 commands and no more.
        let last = try #require(try exactly.items.last?["position"] as? String)
        let history = try shared.get("/v1/recipes/\(recipe)/history?after=\(last)")
        #expect(try history.items.count == 1_000, "\(history.status) \(history.text.prefix(200))")
    }

    @Test func withTokensEveryCommandIsTheTokensActor() throws {
        let fixture = try ServiceFixture(api: .init(tokens: try AccessTokens(parsing: "alice-secret alice\n")))
        let recipe = UUID().uuidString.lowercased()
        let body = """
            {"type":"DraftStarted","recipe":"\(recipe)","actor":"mallory"}
            {"type":"TitleChanged","recipe":"\(recipe)","data":{"title":"Mine"},"actor":"mallory"}
            """
        let anonymous = try postBatch(body, to: fixture)
        #expect(anonymous.status == 401)
        #expect(anonymous.errorCode == "unauthorized")
        let alice = ["Authorization": "Bearer alice-secret"]
        let response = try postBatch(body, headers: Self.ndjson.merging(alice) { $1 }, to: fixture)
        #expect(response.status == 202, "\(response.text)")
        let positions = items(response).compactMap { $0["position"] as? String }
        let history = try history(recipe, after: positions, fixture: fixture, headers: alice)
        #expect(history.map { $0["actor"] as? String } == ["alice", "alice"])
        fixture.service.shutdown()
    }

    @Test func sendStdinOverManyChunksReportsEveryBadLineAndAppendsTheRestInOrder() throws {
        let recipe = UUID().uuidString.lowercased()
        // Over two of the sender's 2,000-line chunks, with bad lines at the start, at a chunk's edge and last.
        let count = 4_500
        let bad: Set<Int> = [2, 2_000, 2_001, 4_500]
        var lines = [#"{"type":"DraftStarted","recipe":"\#(recipe)","data":{}}"#]
        for number in 2...count {
            lines.append(bad.contains(number)
                         ? #"{"type":"TitleChanged","recipe":"\#(recipe)","data":{"title":\#(number)}}"#
                         : #"{"type":"TitleChanged","recipe":"\#(recipe)","data":{"title":"T\#(number)"}}"#)
        }
        let input = lines.joined(separator: "\n") + "\n"
        let result = try runRecipes(["send", "--stdin", "--brokers", shared.kafka.bootstrapServers], input: input)
        #expect(result.status == 1)
        let out = result.out.split(separator: "\n")
        #expect(out.count == count - bad.count)
        let numbers = out.compactMap { Int($0.dropFirst("line ".count).prefix { $0 != ":" }) }
        #expect(numbers == (1...count).filter { !bad.contains($0) })
        let reported = result.err.split(separator: "\n").filter { $0.hasPrefix("line ") }
            .compactMap { Int($0.dropFirst("line ".count).prefix { $0 != ":" }) }
        #expect(reported == bad.sorted())
        #expect(result.err.contains("4 of \(count) lines failed"))

        let positions = out.compactMap { $0.split(separator: " ").last }.map(String.init)
        let history = try history(recipe, after: [positions.last!])
        #expect(history.count == count - bad.count)
        #expect(history.compactMap { $0["position"] as? String } == positions)

        let quiet = try runRecipes(["send", "--stdin", "--quiet", "--brokers", shared.kafka.bootstrapServers],
                                         input: lines[2] + "\n" + lines[1] + "\n")
        #expect(quiet.status == 1)
        #expect(quiet.out == "appended 1 of 2 lines\n", "\(quiet.out)")
        #expect(quiet.err.contains("line 2: "), "\(quiet.err)")
    }
}
