import Foundation
import Kafka
import RecipeDomain
import RecipeHTTP
import RecipeTestSupport
import RecipeWire
import Testing

/// `jos\u00e9` and `jose\u0301` were two actors to the tokens file and one to the fold: the
/// second read, edited and took the first's recipe, while the drafts list (bytes) showed
/// it to neither. Every way a name comes in now takes one spelling only (`ActorName`).
@Suite("Actor aliases")
struct ActorAliasTests {
    static let composed = "jos\u{E9}"
    static let decomposed = "jose\u{301}"

    @Test func theTokensFileRefusesASecondSpellingOfAnActor() throws {
        let text = AccessTokens.line(token: "first", actor: Self.composed, role: .writer) + "\n"
            + AccessTokens.line(token: "second", actor: Self.decomposed, role: .writer) + "\n"
        #expect(throws: AccessTokensError.self) { try AccessTokens(parsing: text, source: "t") }
        do {
            _ = try AccessTokens(parsing: text, source: "t")
        } catch let error as AccessTokensError {
            #expect(error.message.hasPrefix("t:2: ") && error.message.contains(#"write it "jos\u{E9}""#), "\(error.message)")
        }
        let alone = try AccessTokens(parsing: AccessTokens.line(token: "first", actor: Self.composed, role: .writer), source: "t")
        #expect(alone.actor(authorization: "Bearer first") == Self.composed)
    }

    @Test func tokensAddRefusesANameOutOfItsSpellingAndWritesNothing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)").path
        defer { unlink(path) }
        let refused = try runRecipes(["tokens", "add", Self.decomposed, "--file", path])
        #expect(refused.status == 2)
        #expect(refused.err.contains(#"recipes: error: ACTOR: "jose\u{301}" is not an actor name in its canonical spelling (Unicode NFC): write it "jos\u{E9}""#),
                "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: path))
        for name in ["bob\u{1}x", "bob x", "bob#1", ""] { // (no NUL: a program's arguments end at one)
            #expect(try runRecipes(["tokens", "add", name, "--file", path]).status == 2, "\(name.debugDescription)")
        }
        #expect(try runRecipes(["tokens", "add", Self.composed, "--file", path]).status == 0)
    }

    /// The attack: no second José can be given a token, share or ownership through the API,
    /// and a record naming him straight on the log changes nothing of José's recipe.
    @Test func theSecondSpellingCanNeitherBeGrantedNorTakeTheFirstsRecipe() throws {
        let tokens = AccessTokens(tokens: [("jose-token", Self.composed, .writer), ("root-token", "root", .admin)])
        let jose = ["Authorization": "Bearer jose-token"], root = ["Authorization": "Bearer root-token"]
        let fixture = try ServiceFixture(api: .init(tokens: tokens, privateReads: true))
        let id = try fixture.newRecipe(headers: jose)
        #expect(try fixture.command(id, #"{"type":"TitleChanged","data":{"title":"Jos\u00e9's soup"}}"#, wait: true, headers: jose)["outcome"]
                as? String == "accepted")

        for (json, field) in [(#"{"type":"AccessGranted","data":{"grantee":"jose\u0301","role":"editor"}}"#, "data.grantee"),
                              (#"{"type":"OwnershipTransferred","data":{"newOwner":"jose\u0301"}}"#, "data.newOwner"),
                              (#"{"type":"AccessGranted","data":{"grantee":"bob\u0000x","role":"viewer"}}"#, "data.grantee"),
                              // Its outcome was never found: SQLite's JSON functions read the id as "a".
                              (#"{"type":"TitleChanged","data":{"title":"x"},"id":"a\u0000b"}"#, "id")] {
            for headers in [jose, root] {
                let response = try fixture.post("/v1/recipes/\(id)/commands", json, headers: headers)
                #expect(response.status == 422 && response.errorCode == "invalid" && response.errorField == field, "\(json): \(response.text)")
            }
        }

        // Written by any producer that reaches the log: the decider finds it undecodable.
        let producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: fixture.kafka.bootstrapServers))
        defer { try? producer.shutdown() }
        let forged = CommandEnvelope(commandID: UUID().uuidString.lowercased(), recipeID: RecipeID(made: id), actor: Self.decomposed,
                                     time: .now, actorRole: .writer, command: .ownershipTransferred(newOwner: Self.decomposed))
        let report = try producer.send(KafkaProducerMessage(topic: fixture.topic, key: RecordKey.key(forRecipe: forged.recipeID),
                                                            value: RecordEncoder(source: "forger").encode(forged)))
        let history = try fixture.get("/v1/recipes/\(id)/history?after=\(report.partition):\(report.offset)", headers: jose)
        let last = try history.items.last
        #expect(last?["outcome"] as? String == "rejected")
        #expect((last?["reason"] as? [String: Any])?["code"] as? String == "invalid")

        // José still owns it, in the fold and in SQL alike: his drafts list (compared as bytes) shows it.
        #expect(try fixture.command(id, #"{"type":"TitleChanged","data":{"title":"Still mine"}}"#, wait: true, headers: jose)["outcome"]
                as? String == "accepted")
        #expect(try fixture.get("/v1/drafts", headers: jose).items.map { $0["id"] as? String } == [id])
        fixture.service.shutdown()
    }

    /// Under `--private` an edit to a recipe the caller may not see is `forbidden` (it was not
    /// applied) while one to an id no recipe holds starts a recipe: the answers differ, and say
    /// only that the id is taken. docs/api.md says so: the protection is the id's randomness.
    @Test func aStrangersEditIsForbiddenWhereAFreshIDWouldStartARecipe() throws {
        let tokens = AccessTokens(tokens: [("alice-token", "alice", .writer), ("bob-token", "bob", .writer)])
        let fixture = try ServiceFixture(api: .init(tokens: tokens, privateReads: true))
        let alices = try fixture.newRecipe(headers: ["Authorization": "Bearer alice-token"])
        let bob = ["Authorization": "Bearer bob-token"], edit = #"{"type":"TitleChanged","data":{"title":"Mine"}}"#
        let onAlices = try fixture.command(alices, edit, wait: true, headers: bob)
        #expect(onAlices["outcome"] as? String == "rejected" && onAlices["revision"] as? Int == 0)
        #expect((onAlices["reason"] as? [String: Any])?["message"] as? String == "bob has no access to this recipe; its owner may share it.")
        let fresh = try fixture.command(UUID().uuidString.lowercased(), edit, wait: true, headers: bob)
        #expect(fresh["outcome"] as? String == "accepted" && fresh["revision"] as? Int == 1)
        fixture.service.shutdown()
    }
}
