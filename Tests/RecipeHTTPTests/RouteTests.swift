import Foundation
import RecipeTestSupport
import Testing

@Suite("Routes")
struct RouteTests {
    @Test func healthReadinessAndMetrics() throws {
        let health = try shared.get("/healthz")
        #expect(health.status == 200)
        #expect(health.object["status"] as? String == "ok")
        // Ready once the decider has read its partitions' decisions and the projector caught up;
        // before, 503 naming why (the shared service may have just started).
        var ready = try shared.get("/readyz")
        try waitFor("the service to be ready", deadline: .seconds(60)) {
            ready = try shared.get("/readyz")
            #expect(ready.status == 200 || (ready.status == 503 && ready.errorCode == "notReady"), "\(ready.text)")
            return ready.status == 200
        }
        #expect(ready.object["status"] as? String == "ready", "\(ready.text)")
        _ = try shared.get("/v1/recipes")
        let metrics = try shared.get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(metrics.text.contains(#"recipes_http_requests_total{route="/v1/recipes",method="GET",status="200"}"#))
        #expect(metrics.text.contains("recipes_http_request_duration_seconds_bucket{le=\"+Inf\"}"))
        #expect(metrics.text.contains("recipes_projector_commands_total{outcome=\"accepted\"}"))
    }

    @Test func theStoryOfARecipe() throws {
        // A new draft: id and position, with the outcome when waiting.
        let started = try shared.post("/v1/drafts?wait=true", "")
        #expect(started.status == 200)
        let id = try #require(started.object["recipeId"] as? String)
        #expect(id == id.lowercased() && UUID(uuidString: id) != nil)
        #expect(started.object["outcome"] as? String == "accepted")
        #expect(started.object["position"] as? String == "\(started.object["partition"]!):\(started.object["offset"]!)")

        let title = try shared.command(id, #"{"type":"TitleChanged","data":{"title":"Pancakes"}}"#)
        #expect(title["commandId"] as? String != nil)
        #expect(title["recipeId"] as? String == id)
        try shared.command(id, #"{"type":"ServingsChanged","data":{"servings":4}}"#)
        try shared.command(id, #"{"type":"IngredientAdded","data":{"name":"Flour","amount":250,"unit":"g"}}"#)
        try shared.command(id, #"{"type":"InstructionAdded","data":{"description":"Mix and fry."}}"#)
        let tag = try shared.command(id, #"{"type":"TagAdded","data":{"text":"@source(grandma)"}}"#)

        let draft = try shared.get("/v1/recipes/\(id)/draft?after=\(tag["position"]!)")
        #expect(draft.status == 200, "\(draft.text)")
        #expect(draft.object["title"] as? String == "Pancakes")
        #expect(draft.object["missing"] as? [String] == [])
        let drafts = try shared.get("/v1/drafts?after=\(tag["position"]!)")
        #expect(try drafts.items.contains { $0["id"] as? String == id })

        let saved = try shared.command(id, #"{"type":"RecipeSaved","data":{}}"#, wait: true)
        #expect(saved["outcome"] as? String == "accepted")
        #expect(saved["revision"] as? Int != nil)
        let position = try #require(saved["position"] as? String)

        let list = try shared.get("/v1/recipes?after=\(position)&q=pancake&tag=source")
        #expect(list.status == 200)
        let item = try #require(try list.items.first { $0["id"] as? String == id })
        #expect(item["title"] as? String == "Pancakes")
        #expect(item["ingredientCount"] as? Int == 1)
        #expect((item["tags"] as? [[String: Any]])?.first?["payload"] as? String == "grandma")

        let detail = try shared.get("/v1/recipes/\(id)?guests=8")
        #expect(detail.status == 200)
        #expect(detail.object["version"] as? Int == 1)
        let ingredient = try #require((detail.object["ingredients"] as? [[String: Any]])?.first)
        #expect(ingredient["amount"] as? Double == 500)
        #expect(ingredient["display"] as? String == "500 g")
        #expect(ingredient["metric"] as? String == "g" && ingredient["unit"] as? String == "g")
        // Scaled, then shown in US units; the stored amount stays 250 g.
        let us = try shared.get("/v1/recipes/\(id)?guests=8&units=us")
        #expect(us.object["units"] as? String == "us")
        #expect((us.object["ingredients"] as? [[String: Any]])?.first?["display"] as? String == "1.1 lb")
        #expect(try shared.get("/v1/recipes/\(id)?units=imperial").status == 400)
        let unscaled = try shared.get("/v1/recipes/\(id)")
        #expect((unscaled.object["ingredients"] as? [[String: Any]])?.first?["amount"] as? Double == 250)
        #expect(try shared.get("/v1/recipes/\(id)?version=1").status == 200)

        let history = try shared.get("/v1/recipes/\(id)/history")
        #expect(history.status == 200)
        #expect(try history.items.count == 7)
        #expect(try history.items.allSatisfy { $0["actor"] as? String == "anonymous" })
        #expect(try history.items.last?["type"] as? String == "RecipeSaved")

        // Saved: no open draft any more.
        let closed = try shared.get("/v1/recipes/\(id)/draft")
        #expect(closed.status == 404)
        #expect(closed.errorCode == "noDraft")
    }

    @Test func waitingReportsARejectionWithItsReason() throws {
        let id = try shared.newRecipe()
        let saved = try shared.command(id, #"{"type":"RecipeSaved","data":{}}"#, wait: true)
        #expect(saved["outcome"] as? String == "rejected")
        let reason = try #require(saved["reason"] as? [String: Any])
        #expect(reason["code"] as? String == "notSavable")
        #expect((reason["message"] as? String)?.isEmpty == false)

        let rejections = try shared.get("/v1/rejections?after=\(saved["position"]!)")
        #expect(rejections.status == 200)
        #expect(try rejections.items.contains { $0["position"] as? String == saved["position"] as? String })
    }

    @Test func aRepeatedCommandIdIsADuplicate() throws {
        let id = try shared.newRecipe()
        let command = #"{"id":"cmd-\#(UUID().uuidString)","type":"TitleChanged","data":{"title":"Soup"}}"#
        let first = try shared.command(id, command, wait: true)
        #expect(first["outcome"] as? String == "accepted")
        let second = try shared.command(id, command, wait: true)
        #expect(second["outcome"] as? String == "duplicate")
        #expect(second["commandId"] as? String == first["commandId"] as? String)
    }

    @Test func expectedRevisionConflicts() throws {
        let id = try shared.newRecipe()
        let result = try shared.command(id, #"{"type":"TitleChanged","data":{"title":"Stew"},"expectedRevision":7}"#, wait: true)
        #expect(result["outcome"] as? String == "rejected")
        #expect((result["reason"] as? [String: Any])?["code"] as? String == "conflict")
    }

    @Test func listPagesWithACursor() throws {
        let tag = "@page\(UInt32.random(in: 0...UInt32.max))"
        var last = ""
        for index in 0..<3 { last = try shared.savedRecipe(title: "Paged \(index)", tag: tag).position }
        let name = String(tag.dropFirst())
        let first = try shared.get("/v1/recipes?tag=\(name)&limit=2&after=\(last)")
        #expect(try first.items.count == 2)
        let cursor = try #require(first.object["nextCursor"] as? String)
        let second = try shared.get("/v1/recipes?tag=\(name)&limit=2&cursor=\(cursor)")
        #expect(try second.items.count == 1)
        #expect(second.object["nextCursor"] == nil)
    }

    /// `GET /v1/drafts` carries summaries: a draft of 1.4 MB of JSON (every text at its limit) is a
    /// few hundred bytes in the list, and its content is `GET …/draft`'s.
    @Test func theDraftsListCarriesSummariesWhateverTheDraftsHold() throws {
        let fixture = try ServiceFixture()
        func text(_ count: Int) -> String { String(repeating: "x", count: count) }
        let ingredient = #"{"name":"\#(text(200))","amount":1.5,"unit":"\#(text(200))","note":"\#(text(500))","section":"\#(text(200))","text":"\#(text(1000))"}"#
        let step = #"{"description":"\#(text(5000))","section":"\#(text(200))"}"#
        let content = #"{"type":"DraftContentSet","data":{"title":"\#(text(200))","description":"\#(text(5000))","ingredients":["#
            + Array(repeating: ingredient, count: 200).joined(separator: ",") + #"],"instructions":["#
            + Array(repeating: step, count: 200).joined(separator: ",") + #"],"tags":["@large"]}}"#
        #expect(content.utf8.count > 1_400_000)
        var ids: [String] = []
        for _ in 0..<3 {
            let id = try fixture.newRecipe()
            let receipt = try fixture.command(id, content, wait: true)
            try #require(receipt["outcome"] as? String == "accepted", "\(receipt)")
            ids.append(id)
        }
        let list = try fixture.get("/v1/drafts?limit=1000")
        try #require(list.status == 200, "\(list.text)")
        #expect(try Set(list.items.compactMap { $0["id"] as? String }) == Set(ids))
        for item in try list.items {
            #expect(item["title"] as? String == text(200))
            #expect(item["ingredientCount"] as? Int == 200 && item["instructionCount"] as? Int == 200)
            #expect(item["missing"] as? [String] == [] && item["revision"] as? Int == 2 && item["baseVersion"] as? Int == 0)
            #expect(item["ingredients"] == nil && item["instructions"] == nil)
        }
        #expect(list.body.count < 3 * 1024, "\(list.body.count) bytes")
        let draft = try fixture.get("/v1/recipes/\(ids[0])/draft")
        #expect((draft.object["ingredients"] as? [Any])?.count == 200 && draft.body.count > 1_400_000)
        fixture.service.shutdown()
    }

    /// The contract says what a cursor is (base64url letters), and every string of that form is
    /// answered: a cursor made up is a place in the list's order, there the page starts.
    @Test func aMadeUpCursorOfTheFormStartsThePageThere() throws {
        let tag = "@place\(UInt32.random(in: 0...UInt32.max))"
        var last = ""
        for title in ["Place A", "Place B", "Place C"] { last = try shared.savedRecipe(title: title, tag: tag).position }
        let name = String(tag.dropFirst())
        func titles(after cursor: String) throws -> [String] {
            let page = try shared.get("/v1/recipes?tag=\(name)&after=\(last)&cursor=\(cursor)")
            try #require(page.status == 200, "\(cursor) → \(page.text)")
            return try page.items.compactMap { $0["title"] as? String }
        }
        // "place b" (the title key, lower case) without an id: after it, every id of that title.
        let placeB = Data("place b".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        #expect(try titles(after: placeB) == ["Place B", "Place C"])
        // "not-a-cursor", which sorts before them; one letter, not a whole byte: the start; bytes
        // that are not UTF-8, read as U+FFFD, which sorts after every title here.
        #expect(try titles(after: "bm90LWEtY3Vyc29y") == ["Place A", "Place B", "Place C"])
        #expect(try titles(after: "_") == ["Place A", "Place B", "Place C"])
        #expect(try titles(after: "__8") == [])
        // Outside the form: 400, naming it.
        for cursor in ["%25%25", "a+b", String(repeating: "A", count: 4097)] {
            let refused = try shared.get("/v1/recipes?cursor=\(cursor)")
            #expect(refused.status == 400 && refused.errorField == "cursor", "\(cursor) → \(refused.text)")
        }
    }
}
