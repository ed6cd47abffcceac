import Foundation
import RecipeTestSupport
import Testing

/// Every way a recipe id comes in over HTTP and the CLI takes only the one form
/// (`RecipeID.form`), so that no two texts ever name one recipe: a NUL (which the store's
/// C text ended at), other control characters, non-ASCII and the two Unicode spellings of
/// one word (equal to Swift's `String`, different bytes to the store and to Kafka).
@Suite("Recipe ids at the edge")
struct RecipeIDTests {
    /// Path segments, percent-encoded, that are not recipe ids: `id` followed by a NUL and
    /// more, by control characters, by a non-ASCII letter; `crème` in NFC and in NFD; a
    /// slash, a space, a first character that is not a letter or digit, 129 characters.
    static func aliases(of id: String) -> [String] {
        ["\(id)%00junk", "\(id)%00", "\(id)%01", "\(id)%0A", "\(id)%1F", "\(id)%7F", "\(id)%C3%A8",
         "cr%C3%A8me-x1", "cre%CC%80me-x1", "\(id)%2Fx", "\(id)%20", "-\(id)", ".\(id)", String(repeating: "a", count: 129)]
    }

    static let title = #"{"type":"TitleChanged","data":{"title":"Taken over"}}"#

    @Test func aPathIdOutOfTheFormIsRefusedOnEveryRoute() throws {
        let (id, position) = try shared.savedRecipe(title: "Edge soup")
        for alias in Self.aliases(of: id) {
            for path in ["/v1/recipes/\(alias)", "/v1/recipes/\(alias)/draft", "/v1/recipes/\(alias)/history"] {
                let response = try shared.get("\(path)?after=\(position)")
                #expect(response.status == 400 && response.errorCode == "badParameter" && response.errorField == "id",
                        "GET \(path): \(response.status) \(response.text)")
            }
            let post = try shared.post("/v1/recipes/\(alias)/commands?wait=true", Self.title)
            #expect(post.status == 400 && post.errorCode == "badParameter" && post.errorField == "id",
                    "POST \(alias): \(post.status) \(post.text)")
        }
        // The answer shows the text escaped and says what an id is.
        let nul = try shared.get("/v1/recipes/\(id)%00junk")
        let message = (nul.object["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message == "\"\(id)\\u{0}junk\" is not a recipe id "
                + "(1 to 128 ASCII letters, digits, '.', '_' or '-', the first a letter or digit)", "\(message)")

        // Nothing reached the recipe the aliases start with.
        let detail = try shared.get("/v1/recipes/\(id)?after=\(position)")
        #expect(detail.object["version"] as? Int == 1)
        #expect(detail.object["title"] as? String == "Edge soup")
        let history = try shared.get("/v1/recipes/\(id)/history?after=\(position)")
        #expect(try history.items.count == 6, "\(history.text)")

        // Every character of the alphabet, and the longest id, are taken.
        let longest = String(repeating: "a", count: 120) + "Z9._-" + String(UUID().uuidString.prefix(3))
        let made = try shared.post("/v1/recipes/\(longest)/commands?wait=true", Self.title)
        #expect(made.status == 200 && made.object["recipeId"] as? String == longest, "\(made.text)")
    }

    /// The attack of issue 24, with private reads: a grant revoked from bob came back through
    /// `R%00x`, which the fold held as a recipe of its own (a copy of R with bob's grant) and
    /// the store wrote over R's rows.
    @Test func aNULInTheIdCannotCarryARevokedGrantBackToTheRecipe() throws {
        let fixture = try ServiceFixture(api: .init(tokens: AccessRulesTests.tokens, privateReads: true))
        let (alice, bob) = (AccessRulesTests.alice, AccessRulesTests.bob)
        let id = try fixture.newRecipe(headers: alice)
        for command in [#"{"type":"TitleChanged","data":{"title":"Alice's soup"}}"#,
                        #"{"type":"IngredientAdded","data":{"name":"Leek","amount":2,"unit":"pcs"}}"#,
                        #"{"type":"RecipeSaved"}"#,
                        #"{"type":"AccessGranted","data":{"grantee":"bob","role":"editor"}}"#] {
            #expect(try AccessRulesTests.outcome(fixture, id, command, alice) == ("accepted", nil))
        }
        let alias = "/v1/recipes/\(id)%00x/commands?wait=true"
        let whileEditor = try fixture.post(alias, Self.title, headers: bob)
        #expect(whileEditor.status == 400 && whileEditor.errorField == "id", "\(whileEditor.status) \(whileEditor.text)")
        #expect(try AccessRulesTests.outcome(fixture, id, #"{"type":"AccessRevoked","data":{"grantee":"bob"}}"#, alice)
                == ("accepted", nil))
        for command in [Self.title, #"{"type":"RecipeSaved"}"#] {
            let afterRevoke = try fixture.post(alias, command, headers: bob)
            #expect(afterRevoke.status == 400 && afterRevoke.errorField == "id", "\(afterRevoke.status) \(afterRevoke.text)")
        }
        let read = try fixture.get("/v1/recipes/\(id)%00junk", headers: alice)
        #expect(read.status == 400, "the alias answered \(read.text)")

        let detail = try fixture.get("/v1/recipes/\(id)", headers: alice)
        #expect(detail.object["version"] as? Int == 1)
        #expect(detail.object["savedBy"] as? String == "alice")
        #expect(detail.object["title"] as? String == "Alice's soup")
        #expect(try AccessRulesTests.outcome(fixture, id, Self.title, bob) == ("rejected", "forbidden"))
        #expect(try fixture.get("/v1/recipes/\(id)", headers: bob).status == 404)
        fixture.service.shutdown()
    }

    @Test func aBatchRecipeOutOfTheFormIsThatItemsErrorAndTheOthersGo() throws {
        let id = try shared.newRecipe()
        // JSON escapes, as a client writes a NUL or a control character in a string.
        let bad = [#"\#(id)\u0000x"#, #"\#(id)\u0001"#, #"\#(id)\u007f"#, #"\#(id)\n"#, #"cr\u00e8me-x1"#, #"cre\u0300me-x1"#,
                   "cr\u{E8}me-x1", "cre\u{300}me-x1", "\(id)/x", "", String(repeating: "b", count: 129)]
        let lines = bad.map { #"{"type":"TitleChanged","recipe":"\#($0)","data":{"title":"Taken over"}}"# }
            + [#"{"type":"TitleChanged","recipe":"\#(id)","data":{"title":"Mine"}}"#]
        let response = try shared.request("POST", "/v1/commands", body: Array(lines.joined(separator: "\n").utf8),
                                                headers: BatchTests.ndjson)
        #expect(response.status == 202, "\(response.text)")
        #expect(response.object["appended"] as? Int == 1)
        let items = try response.items
        try #require(items.count == bad.count + 1)
        for (index, item) in items.dropLast().enumerated() {
            let error = item["error"] as? [String: Any]
            #expect(error?["code"] as? String == "malformed" && error?["field"] as? String == "recipe", "item \(index): \(item)")
            #expect((error?["message"] as? String)?.contains("is not a recipe id (1 to 128 ASCII letters") == true, "item \(index): \(item)")
            #expect(item["position"] == nil)
        }
        let position = try #require(items.last?["position"] as? String)
        let draft = try shared.get("/v1/recipes/\(id)/draft?after=\(position)")
        #expect(draft.object["title"] as? String == "Mine")
        // The JSON array form is read alike.
        let array = try shared.request("POST", "/v1/commands", body: Array("[\(lines[0])]".utf8),
                                             headers: ["Content-Type": "application/json"])
        #expect(array.status == 422 && array.errorCode == "noValidCommand", "\(array.text)")
    }

    /// A NUL cannot be passed in an argument at all (the kernel ends it there); the rest can.
    @Test func theCLIRefusesAnIdOutOfTheFormInOneLine() throws {
        let missing = "/nonexistent-\(UUID().uuidString)"
        let brokers = shared.kafka.bootstrapServers
        for bad in ["r\u{1}x", "r\u{7F}", "cr\u{E8}me-x1", "cre\u{300}me-x1", "a/b", "r x", "-r"] {
            let quoted = "\"" + bad.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F
                ? String($0) : "\\u{" + String($0.value, radix: 16, uppercase: true) + "}" }.joined() + "\""
            let expected = "\(quoted) is not a recipe id (1 to 128 ASCII letters, digits, '.', '_' or '-', the first a letter or digit)\n"
            let send = try runRecipes(["send", "TitleChanged", "--recipe=\(bad)", "--title", "T", "--brokers", brokers])
            #expect(send.status == 2 && send.err == "recipes: error: --recipe: \(expected)", "send \(quoted): \(send.err)")
            for words in [["show"], ["history"]] {
                let run = try runRecipes(words + ["--db", missing, "--", bad])
                #expect(run.status == 2 && run.err == "recipes: error: ID: \(expected)", "\(words) \(quoted): \(run.err)")
            }
            for words in [["audit", "history"], ["audit", "as-of", "--time", "2026-01-01T00:00:00Z"],
                          ["audit", "diff", "--from-version", "1", "--to-version", "2"]] {
                let run = try runRecipes(words + ["--brokers", brokers, "--", bad])
                #expect(run.status == 2 && run.err == "recipes: error: ID: \(expected)", "\(words) \(quoted): \(run.err)")
            }
        }
        let stdin = try runRecipes(["send", "--stdin", "--brokers", brokers],
                                         input: #"{"type":"DraftStarted","recipe":"r\u0000x","data":{}}"# + "\n")
        #expect(stdin.status == 1)
        #expect(stdin.err.contains(#"line 1: malformed (recipe): "r\u{0}x" is not a recipe id"#), "\(stdin.err)")
    }
}
