import Foundation
import Kafka
import RecipeDomain
import RecipeHTTP
import RecipeProjection
import RecipeTestSupport
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
    static func outcome(_ fixture: ServiceFixture, _ id: String, _ json: String, _ headers: [String: String]) async throws
        -> (outcome: String?, code: String?) {
        let receipt = try await fixture.command(id, json, wait: true, headers: headers)
        return (receipt["outcome"] as? String, (receipt["reason"] as? [String: Any])?["code"] as? String)
    }

    @Test func ownersShareRevokeAndTransferAndAdminsActOnAnyRecipe() async throws {
        let fixture = try ServiceFixture(api: .init(tokens: Self.tokens, privateReads: true))
        let title = #"{"type":"TitleChanged","data":{"title":"Alice's soup"}}"#
        let id = try await fixture.newRecipe(headers: Self.alice)

        // A stranger may neither edit nor see it.
        #expect(try await Self.outcome(fixture, id, title, Self.bob) == ("rejected", "forbidden"))
        #expect(try await fixture.get("/v1/recipes/\(id)/history", headers: Self.bob).status == 404)
        #expect(try await fixture.get("/v1/recipes/\(id)/draft", headers: Self.bob).status == 404)
        #expect(try await fixture.get("/v1/drafts", headers: Self.bob).items.isEmpty)
        // Nor share it, nor take it.
        let shareBob = #"{"type":"AccessGranted","data":{"grantee":"bob","role":"editor"}}"#
        #expect(try await Self.outcome(fixture, id, shareBob, Self.bob) == ("rejected", "forbidden"))
        #expect(try await Self.outcome(fixture, id, #"{"type":"OwnershipTransferred","data":{"newOwner":"bob"}}"#, Self.bob)
                == ("rejected", "forbidden"))
        // A reader may not write at all: refused before the log.
        let reader = try await fixture.post("/v1/recipes/\(id)/commands", title, headers: Self.rita)
        #expect(reader.status == 403)
        #expect(reader.errorCode == "forbidden")

        // Shared as editor: bob edits and saves, may not delete or share.
        #expect(try await Self.outcome(fixture, id, shareBob, Self.alice) == ("accepted", nil))
        #expect(try await Self.outcome(fixture, id, title, Self.bob) == ("accepted", nil))
        #expect(try await Self.outcome(fixture, id, #"{"type":"IngredientAdded","data":{"name":"Leek","amount":2,"metric":"pcs"}}"#,
                                       Self.bob) == ("accepted", nil))
        #expect(try await Self.outcome(fixture, id, #"{"type":"RecipeSaved"}"#, Self.bob) == ("accepted", nil))
        #expect(try await Self.outcome(fixture, id, #"{"type":"RecipeDeleted"}"#, Self.bob) == ("rejected", "forbidden"))
        #expect(try await Self.outcome(fixture, id, #"{"type":"AccessGranted","data":{"grantee":"rita","role":"viewer"}}"#,
                                       Self.bob) == ("rejected", "forbidden"))
        let bobsList = try await fixture.get("/v1/recipes", headers: Self.bob)
        #expect(bobsList.items.map { $0["id"] as? String } == [id])
        #expect(try await fixture.get("/v1/recipes/\(id)", headers: Self.bob).status == 200)

        // A viewer sees it and may not change it.
        #expect(try await fixture.get("/v1/recipes/\(id)", headers: Self.rita).status == 404)
        #expect(try await Self.outcome(fixture, id, #"{"type":"AccessGranted","data":{"grantee":"rita","role":"viewer"}}"#,
                                       Self.alice) == ("accepted", nil))
        #expect(try await fixture.get("/v1/recipes/\(id)", headers: Self.rita).status == 200)

        // Revoked: bob is a stranger again.
        #expect(try await Self.outcome(fixture, id, #"{"type":"AccessRevoked","data":{"grantee":"bob"}}"#, Self.alice)
                == ("accepted", nil))
        #expect(try await Self.outcome(fixture, id, title, Self.bob) == ("rejected", "forbidden"))
        #expect(try await fixture.get("/v1/recipes", headers: Self.bob).items.isEmpty)

        // Transferred to bob: alice keeps nothing.
        #expect(try await Self.outcome(fixture, id, #"{"type":"OwnershipTransferred","data":{"newOwner":"bob"}}"#, Self.alice)
                == ("accepted", nil))
        #expect(try await Self.outcome(fixture, id, title, Self.alice) == ("rejected", "forbidden"))
        #expect(try await Self.outcome(fixture, id, title, Self.bob) == ("accepted", nil))
        #expect(try await fixture.get("/v1/recipes/\(id)", headers: Self.alice).status == 404)

        // An admin acts on anyone's recipe and sees everything; the history says it was an admin.
        #expect(try await Self.outcome(fixture, id, #"{"type":"RecipeSaved"}"#, Self.root) == ("accepted", nil))
        #expect(try await fixture.get("/v1/recipes", headers: Self.root).items.map { $0["id"] as? String } == [id])
        let history = try await fixture.get("/v1/recipes/\(id)/history", headers: Self.root)
        let items = history.items
        #expect(items.last?["actor"] as? String == "root")
        #expect(items.last?["actorRole"] as? String == "admin")
        #expect(items.first?["actorRole"] as? String == "writer")
        // Every forbidden command is in the history like any rejection.
        let forbidden = items.filter { ($0["reason"] as? [String: Any])?["code"] as? String == "forbidden" }
        #expect(forbidden.map { $0["actor"] as? String } == ["bob", "bob", "bob", "bob", "bob", "bob", "alice"])
        #expect(try await Self.outcome(fixture, id, #"{"type":"RecipeDeleted"}"#, Self.root) == ("accepted", nil))

        // A replay of the log reaches the very same decisions: the stores are equal row by row.
        // On a thread of its own: a replay blocks, and no Swift concurrency thread may.
        let (storePath, bootstrap, topic) = (fixture.storePath, fixture.kafka.bootstrapServers, fixture.topic)
        let (differences, live, replayed) = try await onThread { () throws -> ([StoreComparison.Difference], String, String) in
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            try StoreComparison.snapshot(of: storePath, into: scratch + "/live.db")
            let positions = try ReadModel(path: scratch + "/live.db").positions()
            let projector = try Projector(storePath: scratch + "/replay.db", kafka: KafkaConfig(bootstrapServers: bootstrap),
                                          topic: topic, exclusive: true)
            _ = try projector.catchUp(to: .positions(positions), timeout: nil)
            return (try StoreComparison.differences(live: scratch + "/live.db", replay: scratch + "/replay.db"),
                    try StoreDump.string(storeAt: scratch + "/live.db"), try StoreDump.string(storeAt: scratch + "/replay.db"))
        }
        #expect(differences.isEmpty)
        #expect(live == replayed)
        await fixture.service.shutdown()
    }

    @Test func privateRejectionsAreThoseOfTheRecipesTheCallerMaySee() async throws {
        let fixture = try ServiceFixture(api: .init(tokens: Self.tokens, privateReads: true))
        let alices = try await fixture.newRecipe(headers: Self.alice)
        let bobs = try await fixture.newRecipe(headers: Self.bob)
        // Saved too early, each by its owner; and bob tries alice's recipe.
        #expect(try await Self.outcome(fixture, alices, #"{"type":"RecipeSaved"}"#, Self.alice) == ("rejected", "notSavable"))
        #expect(try await Self.outcome(fixture, bobs, #"{"type":"RecipeSaved"}"#, Self.bob) == ("rejected", "notSavable"))
        #expect(try await Self.outcome(fixture, alices, #"{"type":"TitleChanged","data":{"title":"Mine"}}"#, Self.bob)
                == ("rejected", "forbidden"))
        func rejections(_ headers: [String: String]) async throws -> [String] {
            let response = try await fixture.get("/v1/rejections", headers: headers)
            try #require(response.status == 200, "\(response.text)")
            return response.items.map { "\($0["key"] as? String ?? "-") \(($0["reason"] as? [String: Any])?["code"] as? String ?? "-")" }
        }
        // Newest first (one recipe: one partition); bob's forbidden command is in alice's recipe,
        // which bob may not see.
        #expect(try await rejections(Self.alice) == ["\(alices) forbidden", "\(alices) notSavable"])
        #expect(try await rejections(Self.bob) == ["\(bobs) notSavable"])
        #expect(try await rejections(Self.rita).isEmpty)
        let every: Set = ["\(alices) forbidden", "\(bobs) notSavable", "\(alices) notSavable"]
        #expect(Set(try await rejections(Self.root)) == every)
        #expect(try await fixture.get("/v1/rejections").status == 401)
        // Shared with bob as a viewer: alice's recipe's rejections are his to see too.
        #expect(try await Self.outcome(fixture, alices, #"{"type":"AccessGranted","data":{"grantee":"bob","role":"viewer"}}"#,
                                       Self.alice) == ("accepted", nil))
        #expect(Set(try await rejections(Self.bob)) == every)
        await fixture.service.shutdown()
    }

    @Test func withoutTokensNobodyIsForbidden() async throws {
        let id = try await shared.newRecipe()
        let receipt = try await shared.command(id, #"{"type":"TitleChanged","data":{"title":"Open soup"}}"#, wait: true)
        #expect(receipt["outcome"] as? String == "accepted")
        let history = try await shared.get("/v1/recipes/\(id)/history")
        #expect(history.items.allSatisfy { $0["actorRole"] == nil && $0["actor"] as? String == "anonymous" })
    }

    @Test func aTokenInTheQueryIsRefused() async throws {
        for name in ["token", "access_token"] {
            let response = try await shared.get("/v1/recipes?\(name)=alice-token")
            #expect(response.status == 400)
            #expect(response.errorCode == "tokenInQuery")
        }
    }

    @Test func anActorOverItsAppendRateIsTold429WithRetryAfter() async throws {
        var options = RecipeAPIOptions(tokens: Self.tokens)
        options.appendRate = (perSecond: 0.001, burst: 3)
        let fixture = try ServiceFixture(api: options)
        let id = UUID().uuidString.lowercased()
        let title = #"{"type":"TitleChanged","data":{"title":"Fast soup"}}"#
        for _ in 0..<3 { #expect(try await fixture.post("/v1/recipes/\(id)/commands", title, headers: Self.alice).status == 202) }
        let limited = try await fixture.post("/v1/recipes/\(id)/commands", title, headers: Self.alice)
        #expect(limited.status == 429)
        #expect(limited.errorCode == "rateLimited")
        #expect(Int(limited.headers["retry-after"] ?? "") ?? 0 >= 1)
        // Another actor has a bucket of its own.
        #expect(try await fixture.post("/v1/recipes/\(id)/commands", title, headers: Self.bob).status == 202)
        await fixture.service.shutdown()
    }
}
