import Foundation
import RecipeTestSupport
import Testing

@Suite("CLI")
struct CLITests {
    @Test func sendStdinReportsTheBadLineAndSendsTheRest() async throws {
        let recipe = UUID().uuidString.lowercased()
        let input = """
            {"type":"DraftStarted","recipe":"\(recipe)","data":{}}
            {"type":"TitleChanged","recipe":"\(recipe)","data":{"title":42}}
            {"type":"TitleChanged","recipe":"\(recipe)","data":{"title":"Focaccia"}}

            """
        let result = try await runRecipes(["send", "--stdin", "--brokers", shared.kafka.bootstrapServers, "--actor", "dora"],
                                          input: input)
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.out)")
        #expect(lines.first?.hasPrefix("line 1: ") == true)
        #expect(lines.last?.hasPrefix("line 3: ") == true)
        #expect(result.err.contains("line 2: malformed (data.title)"), "\(result.err)")
        #expect(result.err.contains("1 of 3 lines failed"))

        let positions = lines.compactMap { $0.split(separator: " ").last }.joined(separator: ",")
        let draft = try await shared.get("/v1/recipes/\(recipe)/draft?after=\(positions)")
        #expect(draft.object["title"] as? String == "Focaccia")
    }

    @Test func sendOneCommandFromFlags() async throws {
        let recipe = UUID().uuidString.lowercased()
        let result = try await runRecipes(["send", "IngredientAdded", "--recipe", recipe, "--name", "Flour", "--amount", "250",
                                           "--metric", "g", "--brokers", shared.kafka.bootstrapServers])
        #expect(result.status == 0, "\(result.err)")
        let position = try #require(result.out.split(separator: " ").first.map(String.init))
        let draft = try await shared.get("/v1/recipes/\(recipe)/draft?after=\(position)")
        let ingredient = (draft.object["ingredients"] as? [[String: Any]])?.first
        #expect(ingredient?["name"] as? String == "Flour")
        #expect(ingredient?["amount"] as? Double == 250)

        let bad = try await runRecipes(["send", "IngredientAdded", "--recipe", recipe, "--name", "Flour", "--amount", "-2",
                                        "--metric", "g", "--brokers", shared.kafka.bootstrapServers])
        #expect(bad.status != 0)
        #expect(bad.err.contains("data.amount"))
    }

    @Test func helpAndBadFlags() async throws {
        let commands = ["dev", "serve", "send", "topics", "project", "list", "show", "drafts", "history", "rejections",
                        "replay", "audit history", "audit as-of", "audit diff", "audit export", "audit verify", "bench project",
                        "bench replay"]
        for command in commands {
            let words = command.split(separator: " ").map(String.init)
            let help = try await runRecipes(words + ["--help"])
            #expect(help.status == 0)
            #expect(help.out.contains("Usage: recipes \(command)"), "\(command): \(help.out)")
            let bad = try await runRecipes(words + ["--no-such-flag"])
            #expect(bad.status == 2, "\(command): \(bad.err)")
            #expect(bad.err.split(separator: "\n").count == 1, "\(command): \(bad.err)")
        }
    }

    @Test func auditNamesItsSubcommands() async throws {
        let help = try await runRecipes(["audit", "--help"])
        #expect(help.status == 0)
        for subcommand in ["history", "as-of", "diff", "export", "verify"] { #expect(help.out.contains("  \(subcommand) ")) }
        let unknown = try await runRecipes(["audit", "rewind"])
        #expect(unknown.status == 2)
        #expect(unknown.err == "recipes audit: unknown subcommand \"rewind\" (see recipes audit --help)\n")
    }

    @Test func devSeedsServesAndStopsOnSIGINT() async throws {
        let info = FileManager.default.temporaryDirectory.appendingPathComponent("dev-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: info) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: recipesExecutable)
        process.arguments = ["dev", "--seed", "--port", "0", "--info-file", info]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let deadline = ContinuousClock.now + .seconds(60)
        var data: Data?
        while data == nil, ContinuousClock.now < deadline, process.isRunning {
            data = FileManager.default.contents(atPath: info)
            if data == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let object = try JSONSerialization.jsonObject(with: try #require(data)) as? [String: String]
        let http = try #require(object?["http"])
        #expect(object?["bootstrap"]?.isEmpty == false)
        let port = try #require(UInt16(http.split(separator: ":").last ?? ""))

        let list = try await HTTPClient.request(port: port, method: "GET", path: "/v1/recipes", body: nil)
        #expect(list.items.count == 5)
        #expect(list.items.allSatisfy { ($0["servings"] as? Int) != nil && !(($0["tags"] as? [Any]) ?? []).isEmpty })
        let drafts = try await HTTPClient.request(port: port, method: "GET", path: "/v1/drafts", body: nil)
        #expect(drafts.items.count == 1)

        process.interrupt()
        let exited = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < exited { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0)
        let out = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(out.contains("kafka: "))
        #expect(out.contains("http: \(http)"))
        #expect(out.contains("open: no --tokens, anyone may write"))
        #expect(out.contains("stopped"))
    }
}
