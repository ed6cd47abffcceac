import Foundation
import RecipeHTTP
import Testing

@Suite("Auth")
struct AuthTests {
    static let tokensFile = """
        # sha256:<hex>   actor  role
        \(AccessTokens.line(token: "alice-secret", actor: "alice", role: .writer))
        \(AccessTokens.line(token: "bob-secret", actor: "bob", role: .writer))   # a comment
        """

    @Test func tokensFileParsing() throws {
        let tokens = try AccessTokens(parsing: Self.tokensFile)
        #expect(tokens.entries.map(\.actor) == ["alice", "bob"])
        #expect(tokens.warnings.isEmpty)
        #expect(!Self.tokensFile.contains("alice-secret"))
        #expect(tokens.actor(authorization: "Bearer bob-secret") == "bob")
        #expect(tokens.actor(authorization: "bearer alice-secret") == "alice")
        #expect(tokens.actor(authorization: "Basic alice-secret") == nil)
        #expect(tokens.actor(authorization: "Bearer nope") == nil)
        #expect(throws: AccessTokensError.self) { try AccessTokens(parsing: "just-a-token\n") }
        #expect(throws: AccessTokensError.self) { try AccessTokens(parsing: "# nothing\n") }
    }

    @Test func writesNeedATokenAndActAsItsActor() throws {
        let fixture = try ServiceFixture(api: .init(tokens: try AccessTokens(parsing: Self.tokensFile), privateReads: true))
        let alice = ["Authorization": "Bearer alice-secret"]
        let body = #"{"type":"TitleChanged","data":{"title":"Secret soup"}}"#
        let path = "/v1/recipes/\(UUID().uuidString.lowercased())/commands"

        let none = try fixture.post(path, body)
        #expect(none.status == 401)
        #expect(none.errorCode == "unauthorized")
        #expect(none.headers["www-authenticate"] == "Bearer")
        let wrong = try fixture.post(path, body, headers: ["Authorization": "Bearer mallory-secret"])
        #expect(wrong.status == 401)
        #expect(wrong.errorCode == "unauthorized")
        #expect(try fixture.post("/v1/drafts", "").status == 401)

        let id = try fixture.newRecipe(headers: alice)
        // The body claims another actor: the token decides.
        let claimed = try fixture.command(id, #"{"type":"TitleChanged","data":{"title":"Secret soup"},"actor":"mallory"}"#,
                                                wait: true, headers: alice)
        #expect(claimed["outcome"] as? String == "accepted")

        // Private reads: no token, no data; health, readiness and metrics stay open.
        let anonymous = try fixture.get("/v1/recipes/\(id)/history")
        #expect(anonymous.status == 401)
        #expect(try fixture.get("/v1/recipes").status == 401)
        #expect(try fixture.get("/healthz").status == 200)
        #expect(try fixture.get("/metrics").status == 200)

        let history = try fixture.get("/v1/recipes/\(id)/history", headers: alice)
        #expect(history.status == 200)
        #expect(try history.items.map { $0["actor"] as? String } == ["alice", "alice"])
        fixture.service.shutdown()
    }
}
