import Foundation
import Kafka
import RecipeDomain
import RecipeHTTP
import RecipeProjection
import RecipeTestSupport
import RecipeWire
import Testing

/// Who may do what, through HTTP, decided by the fold: alice and bob write,
/// root is an admin, rita only reads. Reads are private.
@Suite("Access rules")
struct AccessRulesTests {
    static let tokens = AccessTokens(tokens: [
        ("alice-token", "alice", .writer), ("bob-token", "bob", .writer),
        ("root-token", "root", .admin), ("rita-token", "rita", .reader),
    ])
    static let alice = ["Authorization": "Bearer alice-token"]
    static let bob = ["Authorization": "Bearer bob-token"]
    static let root = ["Authorization": "Bearer root-token"]
    static let rita = ["Authorization": "Bearer rita-token"]

    /// The outcome and reason code of a command sent with `?wait=true`.
    static func outcome(_ fixture: ServiceFixture, _ id: String, _ json: String, _ headers: [String: String]) throws
        -> (outcome: String?, code: String?) {
        let receipt = try fixture.command(id, json, wait: true, headers: headers)
        return (receipt["outcome"] as? String, (receipt["reason"] as? [String: Any])?["code"] as? String)
    }

    @Test func ownersShareRevokeAndTransferAndAdminsActOnAnyRecipe() throws {
        let fixture = try ServiceFixture(api: .init(tokens: Self.tokens, privateReads: true))
        let title = #"{"type":"TitleChanged","data":{"title":"Alice's soup"}}"#
        let id = try fixture.newRecipe(headers: Self.alice)

        // A stranger may neither edit nor see it.
        #expect(try Self.outcome(fixture, id, title, Self.bob) == ("rejected", "forbidden"))
        #expect(try fixture.get("/v1/recipes/\(id)/history", headers: Self.bob).status == 404)
        #expect(try fixture.get("/v1/recipes/\(id)/draft", headers: Self.bob).status == 404)
        #expect(try fixture.get("/v1/drafts", headers: Self.bob).items.isEmpty)
        // Nor share it, nor take it: the fold says `forbidden` (the history below); a stranger is
        // told what a recipe that does not exist would answer.
        let shareBob = #"{"type":"AccessGranted","data":{"grantee":"bob","role":"editor"}}"#
        #expect(try Self.outcome(fixture, id, shareBob, Self.bob) == ("rejected", "invalid"))
        #expect(try Self.outcome(fixture, id, #"{"type":"OwnershipTransferred","data":{"newOwner":"bob"}}"#, Self.bob)
                == ("rejected", "invalid"))
        // A reader may not write at all: refused before the log.
        let reader = try fixture.post("/v1/recipes/\(id)/commands", title, headers: Self.rita)
        #expect(reader.status == 403)
        #expect(reader.errorCode == "forbidden")

        // Shared as editor: bob edits and saves, may not delete or share.
        #expect(try Self.outcome(fixture, id, shareBob, Self.alice) == ("accepted", nil))
        #expect(try Self.outcome(fixture, id, title, Self.bob) == ("accepted", nil))
        #expect(try Self.outcome(fixture, id, #"{"type":"IngredientAdded","data":{"name":"Leek","amount":2,"metric":"pcs"}}"#,
                                       Self.bob) == ("accepted", nil))
        #expect(try Self.outcome(fixture, id, #"{"type":"RecipeSaved"}"#, Self.bob) == ("accepted", nil))
        #expect(try Self.outcome(fixture, id, #"{"type":"RecipeDeleted"}"#, Self.bob) == ("rejected", "forbidden"))
        #expect(try Self.outcome(fixture, id, #"{"type":"AccessGranted","data":{"grantee":"rita","role":"viewer"}}"#,
                                       Self.bob) == ("rejected", "forbidden"))
        let bobsList = try fixture.get("/v1/recipes", headers: Self.bob)
        #expect(try bobsList.items.map { $0["id"] as? String } == [id])
        #expect(try fixture.get("/v1/recipes/\(id)", headers: Self.bob).status == 200)

        // A viewer sees it and may not change it.
        #expect(try fixture.get("/v1/recipes/\(id)", headers: Self.rita).status == 404)
        #expect(try Self.outcome(fixture, id, #"{"type":"AccessGranted","data":{"grantee":"rita","role":"viewer"}}"#,
                                       Self.alice) == ("accepted", nil))
        #expect(try fixture.get("/v1/recipes/\(id)", headers: Self.rita).status == 200)

        // Revoked: bob is a stranger again.
        #expect(try Self.outcome(fixture, id, #"{"type":"AccessRevoked","data":{"grantee":"bob"}}"#, Self.alice)
                == ("accepted", nil))
        #expect(try Self.outcome(fixture, id, title, Self.bob) == ("rejected", "forbidden"))
        #expect(try fixture.get("/v1/recipes", headers: Self.bob).items.isEmpty)

        // Transferred to bob: alice keeps nothing.
        #expect(try Self.outcome(fixture, id, #"{"type":"OwnershipTransferred","data":{"newOwner":"bob"}}"#, Self.alice)
                == ("accepted", nil))
        #expect(try Self.outcome(fixture, id, title, Self.alice) == ("rejected", "forbidden"))
        #expect(try Self.outcome(fixture, id, title, Self.bob) == ("accepted", nil))
        #expect(try fixture.get("/v1/recipes/\(id)", headers: Self.alice).status == 404)

        // An admin acts on anyone's recipe and sees everything; the history says it was an admin.
        #expect(try Self.outcome(fixture, id, #"{"type":"RecipeSaved"}"#, Self.root) == ("accepted", nil))
        #expect(try fixture.get("/v1/recipes", headers: Self.root).items.map { $0["id"] as? String } == [id])
        let history = try fixture.get("/v1/recipes/\(id)/history", headers: Self.root)
        let items = try history.items
        #expect(items.last?["actor"] as? String == "root")
        #expect(items.last?["actorRole"] as? String == "admin")
        #expect(items.first?["actorRole"] as? String == "writer")
        // Every forbidden command is in the history like any rejection.
        let forbidden = items.filter { ($0["reason"] as? [String: Any])?["code"] as? String == "forbidden" }
        #expect(forbidden.map { $0["actor"] as? String } == ["bob", "bob", "bob", "bob", "bob", "bob", "alice"])
        #expect(try Self.outcome(fixture, id, #"{"type":"RecipeDeleted"}"#, Self.root) == ("accepted", nil))

        // A replay of the log reaches the very same decisions: the stores are equal row by row.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try StoreComparison.snapshot(of: fixture.storePath, into: scratch + "/live.db")
        let positions = try ReadModel(path: scratch + "/live.db").decisionPositions()
        let projector = try Projector(storePath: scratch + "/replay.db", kafka: KafkaConfig(bootstrapServers: fixture.kafka.bootstrapServers),
                                      topic: RecipeTopics().decisions)
        _ = try projector.catchUp(to: .positions(positions), timeout: .seconds(30))
        #expect(try StoreComparison.differences(live: scratch + "/live.db", replay: scratch + "/replay.db").isEmpty)
        #expect(try StoreDump.string(storeAt: scratch + "/live.db") == (try StoreDump.string(storeAt: scratch + "/replay.db")))
        fixture.service.shutdown()
    }

    /// Under `--private`, `?wait=true` tells a stranger what a recipe that does not exist would:
    /// not that the recipe exists, nor who owns it, nor how far it got.
    @Test func aStrangerWaitingOnARecipeItMayNotSeeIsAnsweredAsForOneThatDoesNotExist() throws {
        let fixture = try ServiceFixture(api: .init(tokens: Self.tokens, privateReads: true))
        let alices = try fixture.newRecipe(headers: Self.alice)
        #expect(try Self.outcome(fixture, alices, #"{"type":"TitleChanged","data":{"title":"Alice's soup"}}"#, Self.alice)
                == ("accepted", nil))
        let missing = UUID().uuidString.lowercased()
        /// The outcome, revision and reason of a command bob sends with `?wait=true`.
        func told(_ id: String, _ json: String) throws -> String {
            let receipt = try fixture.command(id, json, wait: true, headers: Self.bob)
            let reason = receipt["reason"] as? [String: Any]
            return "\(receipt["outcome"] ?? "-") \(receipt["revision"] ?? "-") \(reason?["code"] ?? "-"): \(reason?["message"] ?? "-")"
        }
        for json in [#"{"type":"RecipeDeleted"}"#, #"{"type":"AccessGranted","data":{"grantee":"bob","role":"editor"}}"#,
                     #"{"type":"AccessRevoked","data":{"grantee":"rita"}}"#, #"{"type":"OwnershipTransferred","data":{"newOwner":"bob"}}"#,
                     #"{"type":"RecipeSaved"}"#, #"{"type":"DraftDiscarded"}"#,
                     #"{"type":"TitleChanged","data":{"title":"Mine"},"expectedRevision":2}"#] {
            let onAlices = try told(alices, json)
            #expect(onAlices == (try told(missing, json)), "\(json)")
            #expect(!onAlices.contains("alice") && onAlices.hasPrefix("rejected 0 "), "\(json): \(onAlices)")
        }
        // An edit would start a recipe under an id nobody holds; on alice's it is forbidden, naming no one.
        #expect(try told(alices, #"{"type":"TitleChanged","data":{"title":"Mine"}}"#)
                == "rejected 0 forbidden: bob has no access to this recipe; its owner may share it.")
        // Her own commands, and an admin's, are answered as the fold decided them.
        let saved = try fixture.command(alices, #"{"type":"RecipeSaved"}"#, wait: true, headers: Self.alice)
        #expect(saved["outcome"] as? String == "rejected" && (saved["reason"] as? [String: Any])?["code"] as? String == "notSavable")
        #expect(saved["revision"] as? Int == 2)
        let deleted = try fixture.command(missing, #"{"type":"RecipeDeleted"}"#, wait: true, headers: Self.root)
        #expect((deleted["reason"] as? [String: Any])?["code"] as? String == "invalid")
        // What the fold decided is in the history, for those who may see it.
        let history = try fixture.get("/v1/recipes/\(alices)/history", headers: Self.alice)
        let bobs = try history.items.filter { $0["actor"] as? String == "bob" }
        #expect(bobs.count == 8 && bobs.allSatisfy { ($0["reason"] as? [String: Any])?["code"] as? String == "forbidden" })
        fixture.service.shutdown()
    }

    /// `--append-rate` counts commands: a batch takes one per command, an import with
    /// `?save=true` two; a batch larger than the burst goes ahead on a full bucket only.
    @Test func theAppendRateCountsCommandsNotRequests() throws {
        var options = RecipeAPIOptions(tokens: Self.tokens)
        options.appendRate = (perSecond: 0.001, burst: 5)
        let fixture = try ServiceFixture(api: options)
        func batch(_ count: Int, _ headers: [String: String]) throws -> HTTPResult {
            let lines = (0..<count).map { _ in #"{"type":"DraftStarted","recipe":"\#(UUID().uuidString.lowercased())"}"# }
            return try fixture.request("POST", "/v1/commands", body: Array(lines.joined(separator: "\n").utf8),
                                             headers: headers.merging(["Content-Type": "application/x-ndjson"]) { $1 })
        }
        #expect(try batch(3, Self.alice).status == 202)
        let limited = try batch(3, Self.alice)
        #expect(limited.status == 429 && limited.errorCode == "rateLimited", "\(limited.text)")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        #expect(limited.text.contains("this request has 3 commands"), "\(limited.text)")
        #expect(try batch(2, Self.alice).status == 202)
        let single = try fixture.post("/v1/recipes/\(UUID().uuidString.lowercased())/commands", #"{"type":"DraftStarted"}"#,
                                            headers: Self.alice)
        #expect(single.status == 429)

        // More than the burst: on a full bucket it goes, and the bucket is then owed the rest.
        let large = try batch(8, Self.bob)
        #expect(large.status == 202 && large.object["appended"] as? Int == 8, "\(large.text)")
        let after = try batch(1, Self.bob)
        #expect(after.status == 429)
        // 3 owed and 1 to take: 4 commands at 0.001 a second, 4,000 s less what refilled while the
        // test ran; one command's wait would be 1,000 s at most.
        #expect(Int(after.headers["retry-after"] ?? "") ?? 0 > 3_000, "\(after.headers)")

        // An import with ?save=true appends two commands, and counts two.
        let document = #"{"@context":"https://schema.org","@type":"Recipe","name":"Rate soup","recipeIngredient":["1 leek"]}"#
        let jsonLD = Self.root.merging(["content-type": "application/ld+json"]) { $1 }
        // With ?save=true the import answers the save's outcome: 200, or 202 when the wait runs out.
        #expect([200, 202].contains(try fixture.post("/v1/import?save=true", document, headers: jsonLD).status))
        #expect([200, 202].contains(try fixture.post("/v1/import?save=true", document, headers: jsonLD).status))
        #expect(try fixture.post("/v1/import?save=true", document, headers: jsonLD).status == 429)
        #expect(try fixture.post("/v1/import", document, headers: jsonLD).status == 202)
        fixture.service.shutdown()
    }

    @Test func privateRejectionsAreThoseOfTheRecipesTheCallerMaySee() throws {
        let fixture = try ServiceFixture(api: .init(tokens: Self.tokens, privateReads: true))
        let alices = try fixture.newRecipe(headers: Self.alice)
        let bobs = try fixture.newRecipe(headers: Self.bob)
        // Saved too early, each by its owner; and bob tries alice's recipe.
        #expect(try Self.outcome(fixture, alices, #"{"type":"RecipeSaved"}"#, Self.alice) == ("rejected", "notSavable"))
        #expect(try Self.outcome(fixture, bobs, #"{"type":"RecipeSaved"}"#, Self.bob) == ("rejected", "notSavable"))
        #expect(try Self.outcome(fixture, alices, #"{"type":"TitleChanged","data":{"title":"Mine"}}"#, Self.bob)
                == ("rejected", "forbidden"))
        func rejections(_ headers: [String: String]) throws -> [String] {
            let response = try fixture.get("/v1/rejections", headers: headers)
            try #require(response.status == 200, "\(response.text)")
            return try response.items.map { "\($0["key"] as? String ?? "-") \(($0["reason"] as? [String: Any])?["code"] as? String ?? "-")" }
        }
        // Newest first (one recipe: one partition); bob's forbidden command is in alice's recipe,
        // which bob may not see.
        #expect(try rejections(Self.alice) == ["\(alices) forbidden", "\(alices) notSavable"])
        #expect(try rejections(Self.bob) == ["\(bobs) notSavable"])
        #expect(try rejections(Self.rita).isEmpty)
        let every: Set = ["\(alices) forbidden", "\(bobs) notSavable", "\(alices) notSavable"]
        #expect(Set(try rejections(Self.root)) == every)
        #expect(try fixture.get("/v1/rejections").status == 401)
        // Shared with bob as a viewer: alice's recipe's rejections are his to see too.
        #expect(try Self.outcome(fixture, alices, #"{"type":"AccessGranted","data":{"grantee":"bob","role":"viewer"}}"#,
                                       Self.alice) == ("accepted", nil))
        #expect(Set(try rejections(Self.bob)) == every)
        fixture.service.shutdown()
    }

    @Test func withoutTokensNobodyIsForbidden() throws {
        let id = try shared.newRecipe()
        let receipt = try shared.command(id, #"{"type":"TitleChanged","data":{"title":"Open soup"}}"#, wait: true)
        #expect(receipt["outcome"] as? String == "accepted")
        let history = try shared.get("/v1/recipes/\(id)/history")
        let items = try history.items
        #expect(items.map { $0["type"] as? String } == ["DraftStarted", "TitleChanged"])
        #expect(items.allSatisfy { $0["actorRole"] == nil && $0["actor"] as? String == "anonymous" }, "\(history.text)")
    }

    @Test func aTokenInTheQueryIsRefused() throws {
        for name in ["token", "access_token"] {
            let response = try shared.get("/v1/recipes?\(name)=alice-token")
            #expect(response.status == 400)
            #expect(response.errorCode == "tokenInQuery")
        }
    }

    @Test func anActorOverItsAppendRateIsTold429WithRetryAfter() throws {
        var options = RecipeAPIOptions(tokens: Self.tokens)
        options.appendRate = (perSecond: 0.001, burst: 3)
        let fixture = try ServiceFixture(api: options)
        let id = UUID().uuidString.lowercased()
        let title = #"{"type":"TitleChanged","data":{"title":"Fast soup"}}"#
        for _ in 0..<3 { #expect(try fixture.post("/v1/recipes/\(id)/commands", title, headers: Self.alice).status == 202) }
        let limited = try fixture.post("/v1/recipes/\(id)/commands", title, headers: Self.alice)
        #expect(limited.status == 429)
        #expect(limited.errorCode == "rateLimited")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        // Another actor has a bucket of its own.
        #expect(try fixture.post("/v1/recipes/\(id)/commands", title, headers: Self.bob).status == 202)
        fixture.service.shutdown()
    }
}
