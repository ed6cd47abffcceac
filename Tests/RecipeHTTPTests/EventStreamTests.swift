import Foundation
import Kafka
import RecipeHTTP
import RecipeTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The event streams against the real server and broker: what a follower of a recipe or of
/// the list receives, checked against the recipe's history.
@Suite("Event streams")
struct EventStreamTests {
    static func title(_ text: String) -> String { #"{"type":"TitleChanged","data":{"title":"\#(text)"}}"# }

    /// The positions of a recipe's history after `after` (all when nil).
    static func historyPositions(_ fixture: ServiceFixture, _ id: String, headers: [String: String] = [:]) throws -> [String] {
        try fixture.get("/v1/recipes/\(id)/history", headers: headers).object["items"].map { items in
            (items as? [[String: Any]] ?? []).compactMap { $0["position"] as? String }
        } ?? []
    }

    /// Waits until the recipe's history holds `position` (the read model has folded it).
    static func waitFolded(_ fixture: ServiceFixture, _ id: String, _ position: String) throws {
        #expect(try fixture.get("/v1/recipes/\(id)/history?after=\(position)").status == 200)
    }

    @Test func historyThenCaughtUpThenLiveWithIDsAndSummaries() throws {
        let (id, saved) = try shared.savedRecipe(title: "Followed soup")
        try Self.waitFolded(shared, id, saved)
        let client = try EventStreamClient(port: shared.port, path: "/v1/recipes/\(id)/events")
        let history = try client.events(through: { $0.name == "caught-up" })
        #expect(client.status == 200)
        #expect(client.head.lowercased().contains("content-type: text/event-stream; charset=utf-8"))
        #expect(client.retry == ServerSentEvents.retryMilliseconds)
        #expect(history.dropLast().map(\.id) == (try Self.historyPositions(shared, id)).map { Optional($0) })
        #expect(history.last?.id == nil && history.last?.object["after"] as? String == saved)
        let receipt = try shared.command(id, Self.title("Followed soup, live"))
        let live = try #require(try client.next())
        #expect(live.name == "accepted" && live.id == receipt["position"] as? String)
        #expect(live.object["type"] as? String == "TitleChanged" && live.object["commandId"] as? String == receipt["commandId"] as? String)
        let recipe = try #require(live.object["recipe"] as? [String: Any])
        #expect(recipe["draftTitle"] as? String == "Followed soup, live" && recipe["title"] as? String == "Followed soup")
        let discarded = try shared.command(id, #"{"type":"DraftDiscarded"}"#)
        let rejected = try shared.command(id, #"{"type":"DraftDiscarded"}"#)
        #expect(try client.next()?.id == discarded["position"] as? String)
        let refusal = try #require(try client.next())
        #expect(refusal.name == "rejected" && refusal.id == rejected["position"] as? String && refusal.object["reason"] != nil)
    }

    /// Commands appended while the stream opens (before, during and after its history is read),
    /// then a dropped connection and a resume with `Last-Event-ID`: every position of the history
    /// once, in order.
    @Test func resumingAfterADroppedConnectionLosesAndRepeatsNothing() throws {
        let id = try shared.newRecipe()
        let writer = Background("writer") {
            (1...40).map { n in (try? shared.command(id, Self.title("Seam \(n)")))?["position"] as? String ?? "" }
        }
        let first = try EventStreamClient(port: shared.port, path: "/v1/recipes/\(id)/events")
        var received = try first.events(through: { $0.name == "caught-up" })
        let written = try writer.value(deadline: .seconds(60))
        #expect(!written.contains(""))
        if !received.contains(where: { $0.id == written[29] }) {
            received += try first.events(through: { $0.id == written[29] })
        }
        // Dropped mid-stream; more come while no one follows.
        shutdown(first.connection.fd, Int32(SHUT_RDWR))
        let missed = try (1...5).map { n in try #require(try shared.command(id, Self.title("Missed \(n)"))["position"] as? String) }
        let lastID = try #require(received.last(where: { $0.id != nil })?.id)
        let second = try EventStreamClient(port: shared.port, path: "/v1/recipes/\(id)/events", headers: ["Last-Event-ID": lastID])
        let resumed = try second.events(through: { $0.id == missed.last })
        let ids = (received + resumed).compactMap(\.id)
        #expect(ids == (try Self.historyPositions(shared, id)))
        #expect(Set(ids).count == ids.count)
        #expect(Set(written + missed).isSubset(of: Set(ids)))
    }

    @Test func aCommandAppendedStraightToTheTopicWithKcatShowsUp() throws {
        let id = try shared.newRecipe()
        let client = try EventStreamClient(port: shared.port, path: "/v1/recipes/\(id)/events")
        _ = try client.events(through: { $0.name == "caught-up" })
        let commandID = UUID().uuidString.lowercased()
        let record = #"{"specversion":"1.0","id":"\#(commandID)","source":"kcat","type":"recipes.TitleChanged.v1","subject":"\#(id)","time":"2026-12-01T10:15:00Z","actor":"anonymous","data":{"title":"From kcat"}}"#
        let run = try runProcess("/usr/bin/kcat", ["-P", "-b", shared.kafka.bootstrapServers, "-t", shared.topic, "-k", id,
                                                  "-X", "partitioner=murmur2_random"], input: record + "\n")
        #expect(run.status == 0, "\(run.err)")
        let event = try client.events(through: { $0.object["commandId"] as? String == commandID }).last
        #expect(event?.name == "accepted" && event?.object["actor"] as? String == "anonymous")
        #expect((event?.object["recipe"] as? [String: Any])?["draftTitle"] as? String == "From kcat")
    }

    @Test func aDeletedRecipeEndsItsStreamAfterItsDeletion() throws {
        let (id, saved) = try shared.savedRecipe(title: "Soon gone")
        try Self.waitFolded(shared, id, saved)
        let client = try EventStreamClient(port: shared.port, path: "/v1/recipes/\(id)/events")
        _ = try client.events(through: { $0.name == "caught-up" })
        let deleted = try shared.command(id, #"{"type":"RecipeDeleted"}"#)
        let rest = try client.eventsUntilClosed()
        #expect(rest.map(\.id) == [deleted["position"] as? String])
        #expect(rest.last?.object["type"] as? String == "RecipeDeleted")
        // Followed again: its history up to its deletion, and the end.
        let followedAgain = try EventStreamClient(port: shared.port, path: "/v1/recipes/\(id)/events")
        let again = try followedAgain.eventsUntilClosed()
        #expect(followedAgain.status == 200, "\(followedAgain.head)")
        #expect(again.last?.id == deleted["position"] as? String)
        // Resumed after its deletion: caught-up, and the end.
        let resumed = try EventStreamClient(port: shared.port, path: "/v1/recipes/\(id)/events",
                                            headers: ["Last-Event-ID": try #require(deleted["position"] as? String)])
        #expect(try resumed.eventsUntilClosed().map(\.name) == ["caught-up"])
    }

    @Test func aPositionTheRecipeCannotResumeAfterIsReset() throws {
        let (id, saved) = try shared.savedRecipe(title: "Reset soup")
        try Self.waitFolded(shared, id, saved)
        let positions = try Self.historyPositions(shared, id)
        let partition = try #require(positions.first?.split(separator: ":").first)
        let otherPartition = (Int(partition)! + 1) % 4
        for asked in ["\(otherPartition):0", "\(partition):\(Int(positions[1].split(separator: ":")[1])! - 1)"]
            where !positions.contains(asked) {
            let events = try EventStreamClient(port: shared.port, path: "/v1/recipes/\(id)/events?after=\(asked)").eventsUntilClosed()
            #expect(events.map(\.name) == ["reset"], "\(asked)")
            #expect(events.first?.object["after"] as? String == asked)
        }
        // Its last position: nothing of the history, caught-up.
        let fromLast = try EventStreamClient(port: shared.port, path: "/v1/recipes/\(id)/events?after=\(positions.last!)")
        #expect(try fromLast.events(through: { $0.name == "caught-up" }).count == 1)
    }

    @Test func theListStreamShowsWhatTheFilteredListShows() throws {
        let tag = "@followed\(UInt32.random(in: 0...UInt32.max))"
        _ = try shared.newRecipe() // a store with a position to resume after
        let client = try EventStreamClient(port: shared.port, path: "/v1/events?tag=\(tag.dropFirst())")
        let caughtUp = try #require(try client.events(through: { $0.name == "caught-up" }).last)
        let start = try #require(caughtUp.object["after"] as? String)
        let (tagged, taggedSave) = try shared.savedRecipe(title: "Tagged", tag: tag)
        let (_, otherSave) = try shared.savedRecipe(title: "Untagged", tag: "@other")
        try Self.waitFolded(shared, tagged, otherSave)
        let deleted = try shared.command(tagged, #"{"type":"RecipeDeleted"}"#)
        let events = try client.events(through: { $0.position == deleted["position"] as? String })
        // Only the tagged recipe is ever in it; the other's save may come, as not in the list.
        #expect(events.filter { $0.object["inList"] as? Bool != false }.allSatisfy { $0.object["recipeId"] as? String == tagged })
        #expect(!events.contains { $0.position == otherSave && $0.object["inList"] as? Bool == true })
        let saved = try #require(events.first { $0.position == taggedSave })
        #expect(saved.object["inList"] as? Bool == true)
        #expect(events.last?.object["inList"] as? Bool == false)
        // Its id resumes the whole stream: from the start, the save and the deletion again, up to the same id.
        let resumed = try EventStreamClient(port: shared.port, path: "/v1/events?tag=\(tag.dropFirst())&after=\(start)")
        let again = try resumed.events(through: { $0.name == "caught-up" }).filter { $0.id != nil }
        #expect(Set([taggedSave, deleted["position"] as? String]).isSubset(of: Set(again.map(\.position))))
        #expect(again.last?.id == events.last?.id)
    }

    /// Two recipes of one partition, their commands interleaved in one batch: the projector
    /// commits them as one chunk per recipe, in the order it first touched each, not by offset.
    /// The unfiltered list stream still gets every position once, in log order, and its ids
    /// resume from any of them without a gap.
    @Test func theListStreamKeepsLogOrderWithinACommit() throws {
        let run = UUID().uuidString.prefix(8).lowercased()
        let candidates = (0..<64).map { "interleaved-\(run)-\($0)" }
        let partitionOf = { (id: String) in KafkaPartitioner.partition(forKey: Array(id.utf8), partitionCount: 4) }
        let first = candidates[0]
        let second = try #require(candidates.dropFirst().first { partitionOf($0) == partitionOf(first) })
        let client = try EventStreamClient(port: shared.port, path: "/v1/events")
        _ = try client.events(through: { $0.name == "caught-up" })
        let lines = (0..<10).flatMap { n in [first, second].map { #"{"type":"TitleChanged","recipe":"\#($0)","data":{"title":"Step \#(n)"}}"# } }
        let batch = try shared.request("POST", "/v1/commands", body: Array(lines.joined(separator: "\n").utf8),
                                       headers: ["Content-Type": "application/x-ndjson"])
        #expect(batch.status == 202, "\(batch.text)")
        let written = try (batch.object["items"] as? [[String: Any]] ?? []).map { try #require($0["position"] as? String) }
        let last = written.max { Self.offset($0) < Self.offset($1) }
        let events = try client.events(through: { $0.position == last })
        let mine = events.filter { written.contains($0.position ?? "") }
        #expect(mine.map(\.position) == written.sorted { Self.offset($0) < Self.offset($1) }.map { Optional($0) })
        // Resumed from the middle: the rest, once.
        let middle = try #require(mine[mine.count / 2].id)
        let resumed = try EventStreamClient(port: shared.port, path: "/v1/events", headers: ["Last-Event-ID": middle])
        let rest = try resumed.events(through: { $0.name == "caught-up" }).filter { written.contains($0.position ?? "") }
        #expect(rest.map(\.position) == mine.suffix(from: mine.count / 2 + 1).map(\.position))
    }

    static func offset(_ position: String) -> Int { Int(position.split(separator: ":").last ?? "") ?? -1 }

    /// A client that does not read fills its queue (a small bound here) and gets `overflow`; a
    /// second client of the same recipe keeps receiving every event.
    @Test func aSlowClientOverflowsWhileAnotherKeepsReceiving() throws {
        var api = RecipeAPIOptions()
        api.streamQueueBytes = 4096
        let fixture = try ServiceFixture(api: api)
        let id = try fixture.newRecipe()
        let slow = try EventStreamClient(port: fixture.port, path: "/v1/recipes/\(id)/events", receiveBuffer: 1024)
        let fast = try EventStreamClient(port: fixture.port, path: "/v1/recipes/\(id)/events")
        _ = try fast.events(through: { $0.name == "caught-up" })
        try waitFor("two streams open", deadline: .seconds(10)) { try Self.openStreams(fixture) == 2 }
        var written: [String] = []
        let long = String(repeating: "slow ", count: 38)
        try waitFor("the slow stream to overflow", deadline: .seconds(60)) {
            let receipt = try fixture.command(id, Self.title("\(long)\(written.count)"))
            written.append(try #require(receipt["position"] as? String))
            return try Self.openStreams(fixture) == 1
        }
        let received = try fast.events(through: { $0.id == written.last })
        #expect(received.compactMap(\.id).suffix(written.count) == written[...])
        let slowEvents = try slow.eventsUntilClosed(deadline: .seconds(30))
        #expect(slowEvents.last?.name == "overflow")
        #expect(slowEvents.count < written.count)
    }

    /// Idle past the connection timeout (1 s here), a stream stays open: pings come (every
    /// 300 ms here) and a decision still arrives.
    @Test func aQuietStreamOutlivesTheConnectionTimeoutWithPings() throws {
        var api = RecipeAPIOptions()
        api.streamPingInterval = .milliseconds(300)
        var server = HTTPServer.Limits()
        server.connectionTimeoutSeconds = 1
        let fixture = try ServiceFixture(api: api, server: server)
        let id = try fixture.newRecipe()
        let client = try EventStreamClient(port: fixture.port, path: "/v1/recipes/\(id)/events")
        _ = try client.events(through: { $0.name == "caught-up" })
        let start = ContinuousClock.now
        #expect(try client.events(untilComments: 8).isEmpty)
        #expect(ContinuousClock.now - start > .seconds(1))
        #expect(Set(client.comments) == ["ping"])
        let receipt = try fixture.command(id, Self.title("Still here"))
        #expect(try client.next()?.id == receipt["position"] as? String)
        // A bad Last-Event-ID is named as such.
        let bad = try fixture.get("/v1/recipes/\(id)/events", headers: ["Last-Event-ID": "nope"])
        #expect(bad.status == 400 && bad.errorField == "Last-Event-ID")
    }

    static func openStreams(_ fixture: ServiceFixture) throws -> Int {
        let metrics = try fixture.get("/metrics").text
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("recipes_http_open_streams ") }
        return line.flatMap { Int($0.split(separator: " ")[1]) } ?? -1
    }

    @Test func shutdownClosesEveryStreamWithinItsDeadline() throws {
        let fixture = try ServiceFixture()
        let id = try fixture.newRecipe()
        let clients = try (0..<20).map { n in
            try EventStreamClient(port: fixture.port, path: n % 2 == 0 ? "/v1/recipes/\(id)/events" : "/v1/events")
        }
        for client in clients { _ = try client.events(through: { $0.name == "caught-up" }) }
        let stopping = Background("shutdown") { fixture.service.shutdown() }
        try stopping.value(deadline: .seconds(20))
        for client in clients {
            #expect(try client.eventsUntilClosed(deadline: .seconds(5)).isEmpty)
            #expect(client.closed)
        }
    }

    @Test func privateStreamsShowOnlyWhatTheCallerMayRead() throws {
        let tokens = AccessTokens(tokens: [("alice-token", "alice", .writer), ("bob-token", "bob", .writer)])
        let fixture = try ServiceFixture(api: .init(tokens: tokens, privateReads: true))
        let (alice, bob) = (["Authorization": "Bearer alice-token"], ["Authorization": "Bearer bob-token"])
        let id = try fixture.newRecipe(headers: alice)
        try fixture.command(id, Self.title("Alice's secret"), headers: alice)

        // A stranger's stream of it answers as a recipe that does not exist; without a token, 401.
        let stranger = try EventStreamClient(port: fixture.port, path: "/v1/recipes/\(id)/events", headers: bob)
        try stranger.readHead()
        let missing = try fixture.get("/v1/recipes/\(UUID().uuidString.lowercased())/events", headers: bob)
        #expect(stranger.status == 404 && missing.status == 404)
        #expect(try stranger.refusalBody().contains(#""code":"notFound""#))
        #expect(try fixture.get("/v1/recipes/\(id)/events").status == 401)

        // Bob's list stream shows none of it (his own draft, written after, comes first), until
        // Alice shares it; a revoked grant ends his recipe stream.
        let bobsList = try EventStreamClient(port: fixture.port, path: "/v1/events", headers: bob)
        _ = try bobsList.events(through: { $0.name == "caught-up" })
        try fixture.command(id, Self.title("Still secret"), wait: true, headers: alice)
        let bobsOwn = try fixture.newRecipe(headers: bob)
        let first = try #require(try bobsList.next())
        #expect(first.object["recipeId"] as? String == bobsOwn)
        let share = try fixture.command(id, #"{"type":"AccessGranted","data":{"grantee":"bob","role":"viewer"}}"#, headers: alice)
        let seen = try bobsList.events(through: { $0.position == share["position"] as? String })
        #expect(seen.allSatisfy { $0.object["recipeId"] as? String == bobsOwn || $0.position == share["position"] as? String })
        let bobsStream = try EventStreamClient(port: fixture.port, path: "/v1/recipes/\(id)/events", headers: bob)
        _ = try bobsStream.events(through: { $0.name == "caught-up" })
        try fixture.command(id, #"{"type":"AccessRevoked","data":{"grantee":"bob"}}"#, headers: alice)
        try fixture.command(id, Self.title("Secret again"), headers: alice)
        #expect(try bobsStream.eventsUntilClosed().isEmpty)
    }
}

@Suite("recipes follow")
struct FollowCommandTests {
    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The history as JSON lines up to `caught-up`, then (followed on) a live decision, then the
    /// recipe's deletion ends it with status 0.
    @Test func printsEachEventAsAJSONLineAndEndsWithTheRecipe() throws {
        let (id, saved) = try shared.savedRecipe(title: "Followed by a script")
        try EventStreamTests.waitFolded(shared, id, saved)
        let server = "http://127.0.0.1:\(shared.port)"
        let history = try runRecipes(["follow", id, "--server", server, "--until-caught-up"])
        #expect(history.status == 0, "\(history.err)")
        let lines = Self.lines(history.out)
        #expect(lines.dropLast().map { $0["id"] as? String } == (try EventStreamTests.historyPositions(shared, id)).map { Optional($0) })
        #expect(lines.dropLast().allSatisfy { ($0["data"] as? [String: Any])?["recipeId"] as? String == id && $0["event"] as? String == "accepted" })
        #expect(lines.last?["event"] as? String == "caught-up")

        let follower = try RecipesProcess(["follow", id, "--server", server, "--after", saved])
        _ = try follower.line(startingWith: #"{"id":null,"event":"caught-up""#)
        let deleted = try #require(try shared.command(id, #"{"type":"RecipeDeleted"}"#)["position"] as? String)
        _ = try follower.line(startingWith: #"{"id":"\#(deleted)","event":"accepted""#)
        try waitFor("follow to exit after the deletion", deadline: .seconds(20)) { !follower.isRunning }
        #expect(follower.status == 0)
    }

    @Test func refusalsAndUsage() throws {
        let missing = try runRecipes(["follow", UUID().uuidString.lowercased(), "--server", "http://127.0.0.1:\(shared.port)"])
        #expect(missing.status == 1 && missing.err.contains("404") && missing.err.contains("notFound"))
        #expect(try runRecipes(["follow", "a b"]).status != 0)
        #expect(try runRecipes(["follow", "--server", "https://example.org"]).err.contains("http://HOST:PORT"))
        #expect(try runRecipes(["follow", "--help"]).out.contains("Usage: recipes follow [RECIPE]"))
    }
}

@Suite("Server-Sent Events framing")
struct ServerSentEventsFramingTests {
    @Test func dataLinesIDsAndNames() {
        #expect(String(decoding: ServerSentEvents.event(id: "2:41", "accepted", data: #"{"a":1}"#), as: UTF8.self)
                == "id: 2:41\nevent: accepted\ndata: {\"a\":1}\n\n")
        // Every line break a client splits at becomes a data line of its own.
        #expect(String(decoding: ServerSentEvents.event(data: "one\ntwo\r\nthree\rfour"), as: UTF8.self)
                == "data: one\ndata: two\ndata: three\ndata: four\n\n")
        #expect(String(decoding: ServerSentEvents.event(data: ""), as: UTF8.self) == "data: \n\n")
        #expect(String(decoding: ServerSentEvents.event(data: "end\n"), as: UTF8.self) == "data: end\ndata: \n\n")
        // An id or name never breaks the frame.
        #expect(String(decoding: ServerSentEvents.event(id: "1\n:2", "a\rb", data: "x"), as: UTF8.self)
                == "id: 1:2\nevent: ab\ndata: x\n\n")
        #expect(String(decoding: ServerSentEvents.comment("ping"), as: UTF8.self) == ": ping\n\n")
        #expect(String(decoding: ServerSentEvents.retry(milliseconds: 2000), as: UTF8.self) == "retry: 2000\n\n")
    }
}
