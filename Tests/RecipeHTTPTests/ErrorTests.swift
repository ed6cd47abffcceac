import Foundation
import RecipeHTTP
import RecipeTestSupport
import RecipeWire
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Errors")
struct ErrorTests {
    @Test func unknownRoutesAndWrongMethods() throws {
        let missing = try shared.get("/v2/nothing")
        #expect(missing.status == 404)
        #expect(missing.errorCode == "notFound")
        let wrong = try shared.request("DELETE", "/v1/recipes")
        #expect(wrong.status == 405)
        #expect(wrong.errorCode == "methodNotAllowed")
        #expect(wrong.headers["allow"] == "GET")
        let put = try shared.request("PUT", "/v1/drafts", json: "{}")
        #expect(put.status == 405)
        #expect(put.headers["allow"] == "POST, GET")
        let getCommands = try shared.get("/v1/recipes/abc/commands")
        #expect(getCommands.status == 405)
        #expect(getCommands.headers["allow"] == "POST")
    }

    @Test func bodiesThatAreTooLargeOrNotJSON() throws {
        let id = UUID().uuidString.lowercased()
        let path = "/v1/recipes/\(id)/commands"
        let large = try shared.request("POST", path, body: Array(repeating: UInt8(ascii: " "), count: WireFormat.maxRecordSize + 1))
        #expect(large.status == 413)
        #expect(large.errorCode == "tooLarge")
        let notJSON = try shared.post(path, "{type: TitleChanged")
        #expect(notJSON.status == 400)
        #expect(notJSON.errorCode == "malformedJSON")
        let invalidUTF8 = try shared.request("POST", path, body: Array(#"{"type":"TitleChanged","data":{"title":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8))
        #expect(invalidUTF8.status == 400)
        #expect(invalidUTF8.errorCode == "malformedJSON")
        let empty = try shared.request("POST", path, body: [])
        #expect(empty.status == 400)
    }

    @Test func commandsThatBreakTheSchemaNameTheField() throws {
        let path = "/v1/recipes/\(UUID().uuidString.lowercased())/commands"
        let cases: [(String, String, String)] = [
            (#"{"type":"IngredientAdded","data":{"name":"Flour","amount":"lots","unit":"g"}}"#, "malformed", "data.amount"),
            (#"{"type":"IngredientAdded","data":{"name":"Flour","amount":-1,"unit":"g"}}"#, "invalid", "data.amount"),
            (#"{"type":"IngredientAdded","data":{"amount":1,"unit":"g"}}"#, "malformed", "data.name"),
            (#"{"type":"TitleChanged","data":{"title":"\#(String(repeating: "x", count: 201))"}}"#, "invalid", "data.title"),
            (#"{"type":"TitleChanged","data":{"title":"A","colour":"red"}}"#, "malformed", "data"),
            (#"{"type":"Teleported","data":{}}"#, "unknownType", "type"),
            (#"{"data":{}}"#, "malformed", "type"),
            (#"{"type":"TitleChanged","data":[]}"#, "malformed", "data"),
            (#"{"type":"TitleChanged","data":{"title":"A"},"expectedRevision":"two"}"#, "malformed", "expectedRevision"),
            (#"{"type":"TitleChanged","data":{"title":"A"},"id":7}"#, "malformed", "id"),
            (#"{"type":"TitleChanged","data":{"title":"A"},"extra":1}"#, "malformed", "extra"),
        ]
        for (body, code, field) in cases {
            let response = try shared.post(path, body)
            #expect(response.status == 422, "\(body) → \(response.status) \(response.text)")
            #expect(response.errorCode == code, "\(body) → \(response.text)")
            #expect(response.errorField == field, "\(body) → \(response.text)")
        }
        let array = try shared.post(path, "[1,2]")
        #expect(array.status == 422)
    }

    @Test func unknownAndDeletedRecipes() throws {
        let unknown = UUID().uuidString.lowercased()
        for path in ["/v1/recipes/\(unknown)", "/v1/recipes/\(unknown)/draft", "/v1/recipes/\(unknown)/history"] {
            let response = try shared.get(path)
            #expect(response.status == 404, "\(path)")
            #expect(response.errorCode == "notFound", "\(path)")
        }
        let (id, _) = try shared.savedRecipe(title: "Doomed")
        let noVersion = try shared.get("/v1/recipes/\(id)?version=9&after=\(try shared.command(id, #"{"type":"TitleChanged","data":{"title":"Doomed 2"}}"#)["position"]!)")
        #expect(noVersion.status == 404)
        #expect(noVersion.errorCode == "noSuchVersion")
        let deleted = try shared.command(id, #"{"type":"RecipeDeleted","data":{}}"#, wait: true)
        #expect(deleted["outcome"] as? String == "accepted")
        let gone = try shared.get("/v1/recipes/\(id)")
        #expect(gone.status == 410)
        #expect(gone.errorCode == "deleted")
        let later = try shared.command(id, #"{"type":"TitleChanged","data":{"title":"Back"}}"#, wait: true)
        #expect((later["reason"] as? [String: Any])?["code"] as? String == "deleted")
    }

    @Test func badQueryParameters() throws {
        let (id, _) = try shared.savedRecipe(title: "Params")
        let cases: [(String, String)] = [
            ("/v1/recipes?limit=abc", "limit"),
            ("/v1/recipes?limit=0", "limit"),
            ("/v1/recipes?cursor=%%%", "cursor"),
            ("/v1/recipes?cursor=bm90LWEt%2BY3Vyc29y", "cursor"),  // `+`: not base64url
            ("/v1/recipes?after=3", "after"),
            ("/v1/recipes?after=a:b", "after"),
            ("/v1/recipes?after=-1:5", "after"),
            ("/v1/recipes?after=%2B1:5", "after"),            // a sign, which Int32("+1") would take
            ("/v1/recipes?after=1234567890:5", "after"),      // more digits than the contract allows
            ("/v1/recipes?after=1:5,", "after"),
            ("/v1/recipes?limit=5%00", "limit"),              // a NUL used to end the value: "5"
            ("/v1/recipes/\(id)?guests=0", "guests"),
            ("/v1/recipes/\(id)?guests=many", "guests"),
            ("/v1/recipes/\(id)?version=x", "version"),
            ("/v1/drafts?limit=-3", "limit"),
            ("/v1/rejections?limit=1.5", "limit"),
        ]
        for (path, field) in cases {
            let response = try shared.get(path)
            #expect(response.status == 400, "\(path) → \(response.text)")
            #expect(response.errorCode == "badParameter", "\(path)")
            #expect(response.errorField == field, "\(path)")
        }
        let wait = try shared.post("/v1/recipes/\(id)/commands?wait=maybe", #"{"type":"TitleChanged","data":{"title":"A"}}"#)
        #expect(wait.status == 400)
    }

    @Test func emptyParametersMeanAbsent() throws {
        let (_, position) = try shared.savedRecipe(title: "Empty params")
        for path in ["/v1/recipes?cursor=&tag=&after=&after=\(position)", "/v1/recipes?after=", "/v1/drafts?after="] {
            let response = try shared.get(path)
            #expect(response.status == 200, "\(path) → \(response.text)")
        }
    }

    @Test func escapedSlashesAndNULsStayInTheirSegment() throws {
        // libmicrohttpd decodes the whole path before routing: `%00` ended it, so the history of
        // "a\0b" was answered by the detail route for "a", and `%2F` split a segment in two.
        // Each now reaches its own route whole, which refuses it as no recipe id.
        let nul = try shared.get("/v1/recipes/a%00b/history")
        #expect(nul.status == 400 && nul.errorField == "id")
        #expect(nul.text.contains(#"\"a\\u{0}b\" is not a recipe id"#), "\(nul.text)")
        let slash = try shared.get("/v1/recipes/%2F/draft")
        #expect(slash.status == 400 && slash.errorField == "id")
        #expect(slash.text.contains(#"\"/\" is not a recipe id"#), "\(slash.text)")
        let list = try shared.get("/v1/recipes/%00")
        #expect(list.status == 400 && list.errorField == "id", "the list answered a request for recipe \\0")
        let command = try shared.post("/v1/recipes/a%2Fb/commands", #"{"type":"TitleChanged","data":{"title":"A"}}"#)
        #expect(command.status == 400 && command.errorField == "id", "\(command.text)")
        #expect(command.text.contains(#"\"a/b\" is not a recipe id"#), "\(command.text)")
    }

    @Test func theURIIsDecodedSegmentBySegment() {
        let request = HTTPRequest(method: "GET", uri: "/v1/recipes/a%2Fb%00/draft?q=soup+pie%21&tag=%ZZ&limit=1&limit=2&flag")
        #expect(request.segments == ["v1", "recipes", "a/b\0", "draft"])
        #expect(request.path == "/v1/recipes/a/b\0/draft")
        #expect(request.query == ["q": "soup pie!", "tag": "%ZZ", "limit": "2", "flag": ""])
        #expect(HTTPRequest(method: "GET", uri: "/x%FF").segments == ["x\u{FFFD}"])
    }

    @Test func aPositionBeyondTheLogsEndIsAheadAtOnce() throws {
        let fixture = try ServiceFixture(api: .init(waitTimeout: .seconds(30)))
        let response = try fixture.get("/v1/recipes?after=0:1000000")
        #expect(response.status == 409)
        #expect(response.errorCode == "positionAhead")
        let noSuchPartition = try fixture.get("/v1/recipes?after=999:0")
        #expect(noSuchPartition.errorCode == "positionAhead")
        #expect(noSuchPartition.text.contains("it has no partition 999"), "\(noSuchPartition.text)")
        fixture.service.shutdown()
    }

    @Test func theServerSurvivesGarbage() throws {
        // Bytes that are not HTTP: refused as a bad request, the connection closed.
        let garbage = try Self.exchange(port: shared.port, Array("\u{1}\u{2}\u{7f} \u{0}junk\r\nX-Junk: \u{7f}\r\n\r\n".utf8))
        #expect(garbage.hasPrefix("HTTP/1.1 400"), "\(garbage.prefix(200))")
        // A body cut off inside its JSON: the API's own error.
        let cut = try shared.request("POST", "/v1/drafts", body: Array("{\"id\":".utf8))
        #expect(cut.status == 400, "\(cut.text)")
        #expect(cut.errorCode == "malformedJSON", "\(cut.text)")
        // And it goes on serving.
        #expect(try shared.get("/healthz").status == 200)
    }

    /// Writes raw bytes on a new connection and reads what comes back until the server closes it (10 s at most).
    static func exchange(port: UInt16, _ bytes: [UInt8]) throws -> String {
        let connection = try RawConnection(port: port)
        _ = connection.send(bytes)
        let (answer, closed) = connection.receiveUntilClosed(timeout: .seconds(10))
        guard closed else { throw WaitTimedOut(description: "waited 10 s for the server to answer and close; got \(answer.count) bytes") }
        return String(decoding: answer, as: UTF8.self)
    }
}
