import Foundation
import RecipeTestSupport
import Testing

@Suite("CLI")
struct CLITests {
    @Test func sendStdinReportsTheBadLineAndSendsTheRest() throws {
        let recipe = UUID().uuidString.lowercased()
        let input = """
            {"type":"DraftStarted","recipe":"\(recipe)","data":{}}
            {"type":"TitleChanged","recipe":"\(recipe)","data":{"title":42}}
            {"type":"TitleChanged","recipe":"\(recipe)","data":{"title":"Focaccia"}}

            """
        let result = try runRecipes(["send", "--stdin", "--brokers", shared.kafka.bootstrapServers, "--actor", "dora"],
                                          input: input)
        #expect(result.status == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.out)")
        #expect(lines.first?.hasPrefix("line 1: ") == true)
        #expect(lines.last?.hasPrefix("line 3: ") == true)
        #expect(result.err.contains("line 2: malformed (data.title)"), "\(result.err)")
        #expect(result.err.contains("1 of 3 lines failed"))

        let positions = lines.compactMap { $0.split(separator: " ").last }.joined(separator: ",")
        let draft = try shared.get("/v1/recipes/\(recipe)/draft?after=\(positions)")
        #expect(draft.object["title"] as? String == "Focaccia")
    }

    @Test func sendOneCommandFromFlags() throws {
        let recipe = UUID().uuidString.lowercased()
        let result = try runRecipes(["send", "IngredientAdded", "--recipe", recipe, "--name", "Flour", "--amount", "250",
                                           "--unit", "g", "--brokers", shared.kafka.bootstrapServers])
        #expect(result.status == 0, "\(result.err)")
        let position = try #require(result.out.split(separator: " ").first.map(String.init))
        let draft = try shared.get("/v1/recipes/\(recipe)/draft?after=\(position)")
        let ingredient = (draft.object["ingredients"] as? [[String: Any]])?.first
        #expect(ingredient?["name"] as? String == "Flour")
        #expect(ingredient?["amount"] as? Double == 250)

        let bad = try runRecipes(["send", "IngredientAdded", "--recipe", recipe, "--name", "Flour", "--amount", "-2",
                                        "--unit", "g", "--brokers", shared.kafka.bootstrapServers])
        #expect(bad.status != 0)
        #expect(bad.err.contains("data.amount"))
    }

    @Test("every command, found by walking --help as a user would, lists every option in its usage line and fails a bad flag in one line",
          arguments: [recipesExecutable, recipesBenchExecutable])
    func everyCommandSpeaksTheSameLanguage(executable: String) throws {
        let program = URL(fileURLWithPath: executable).lastPathComponent
        let alone = try runProcess(executable, [])
        #expect(alone.status == 2 && alone.err.contains("Usage: \(program) "), "\(program) alone: \(alone.err)")

        let commands = try commandsListed(executable, under: [])
        #expect(commands.count >= (program == "recipes" ? 17 : 6), "\(commands.map { $0.joined(separator: " ") })")
        for words in commands {
            let name = ([program] + words).joined(separator: " ")
            let help = try runProcess(executable, words + ["--help"])
            #expect(help.status == 0, "\(name) --help")
            let usage = try #require(help.out.split(separator: "\n").first { $0.hasPrefix("Usage: ") }, "\(name): \(help.out)")
            #expect(usage.hasPrefix("Usage: \(name)"), "\(usage)")
            let inUsage = Set(usage.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]()|")) }
                .filter { $0.hasPrefix("--") && $0 != "--FIELD" })
            let documented = Set(optionsSection(help.out).filter { $0 != "--help" })
            #expect(inUsage == documented, "\(name): the usage line and the options differ: \(usage)")
            #expect(!help.out.contains("(default: )"), "\(name) prints an empty default")

            let bad = try runProcess(executable, words + ["--no-such-flag"])
            #expect(bad.status == 2, "\(name): \(bad.err)")
            #expect(bad.err.split(separator: "\n").count == 1 && bad.err.hasPrefix("\(program): error: "), "\(name): \(bad.err)")
        }
    }

    /// The commands a program's `--help` lists, groups opened: each as the words that run it.
    /// A group alone is checked on the way: its help on stderr, exit status 2, as for the program itself.
    private func commandsListed(_ executable: String, under words: [String]) throws -> [[String]] {
        let help = try runProcess(executable, words + ["--help"])
        guard let listStart = help.out.range(of: "\nCommands:\n") else { return [words] }
        if !words.isEmpty {
            let alone = try runProcess(executable, words)
            #expect(alone.status == 2 && alone.err == help.out, "\(words) alone: \(alone.err)")
        }
        let listed = help.out[listStart.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        var commands: [[String]] = []
        for word in listed { commands += try commandsListed(executable, under: words + [word]) }
        return commands
    }

    /// The `--name` of each line of a help's Options section.
    private func optionsSection(_ help: String) -> [String] {
        guard let start = help.range(of: "\nOptions:\n") else { return [] }
        return help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test func mistakesAreOneLineWithOnePrefix() throws {
        let typo = try runRecipes(["lsit"])
        #expect(typo.status == 2)
        #expect(typo.err == "recipes: error: unknown command \"lsit\"; did you mean \"list\"? (see recipes --help)\n")
        let unknown = try runRecipes(["audit", "rewind"])
        #expect(unknown.status == 2)
        #expect(unknown.err == "recipes: error: unknown command \"audit rewind\" (see recipes audit --help)\n")
        let both = try runRecipes(["audit", "as-of", "id", "--time", "2026-01-01T00:00:00Z", "--position", "0:1"])
        #expect(both.status == 2)
        #expect(both.err == "recipes: error: give one of --time or --position, not both\n", "\(both.err)")
    }

    @Test("a bad argument is reported before a missing file or an unreachable broker is found")
    func argumentsAreCheckedFirst() throws {
        let missing = "/nonexistent-\(UUID().uuidString)"
        let list = try runRecipes(["list", "--db", missing, "--limit", "501"])
        #expect(list.status == 2)
        #expect(list.err == "recipes: error: --limit must be an integer in 1…500, got \"501\"\n", "the API's bound: \(list.err)")
        let show = try runRecipes(["show", "id", "--db", missing, "--guests", "0"])
        #expect(show.status == 2 && show.err.contains("--guests"), "\(show.err)")
        let serve = try runRecipes(["serve", "--kafka-config", missing, "--db", missing, "--port", "70000"])
        #expect(serve.status == 2 && serve.err.contains("--port"), "\(serve.err)")
        let replay = try runRecipes(["replay", "--kafka-config", missing, "--into", missing, "--batch", "0"])
        #expect(replay.status == 2 && replay.err.contains("--batch"), "\(replay.err)")
    }

    @Test func auditNamesItsSubcommands() throws {
        let help = try runRecipes(["audit", "--help"])
        #expect(help.status == 0)
        for subcommand in ["history", "as-of", "diff", "export", "verify"] { #expect(help.out.contains("  \(subcommand) ")) }
    }

    /// A running `recipes dev` and where it serves.
    private struct Dev {
        let process: Process
        let stdout: Pipe
        let port: UInt16
        let http: String
        let bootstrap: String

        /// Stops it as Ctrl-C does and returns what it printed.
        func interrupt() throws -> String {
            process.interrupt()
            try waitFor("dev to stop after Ctrl-C", deadline: .seconds(30)) { !process.isRunning }
            #expect(process.terminationStatus == 0)
            return String(decoding: readToEnd(stdout.fileHandleForReading), as: UTF8.self)
        }
    }

    private func startDev(_ arguments: [String]) throws -> Dev {
        let info = FileManager.default.temporaryDirectory.appendingPathComponent("dev-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: info) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: recipesExecutable)
        process.arguments = ["dev", "--port", "0", "--info-file", info] + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The info file appears once dev serves.
        var data: Data?
        do {
            try waitFor("dev to write its info file", deadline: .seconds(30)) {
                data = FileManager.default.contents(atPath: info)
                return data != nil || !process.isRunning
            }
        } catch {
            process.terminate()
            throw error
        }
        let object = try JSONSerialization.jsonObject(with: try #require(data, "dev exited before it served")) as? [String: String]
        let http = try #require(object?["http"])
        let port = try #require(UInt16(http.split(separator: ":").last ?? ""))
        return Dev(process: process, stdout: stdout, port: port, http: http, bootstrap: try #require(object?["bootstrap"]))
    }

    private func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("dev-data-\(UUID().uuidString)").path
    }

    @Test func devSeedsServesAndStopsOnSIGINT() throws {
        let data = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let dev = try startDev(["--seed", "--data", data])
        defer { if dev.process.isRunning { dev.process.terminate() } }
        #expect(!dev.bootstrap.isEmpty)

        let list = try HTTPClient.request(port: dev.port, method: "GET", path: "/v1/recipes", body: nil)
        #expect(try list.items.count == 5)
        #expect(try list.items.allSatisfy { ($0["servings"] as? Int) != nil && !(($0["tags"] as? [Any]) ?? []).isEmpty })
        let drafts = try HTTPClient.request(port: dev.port, method: "GET", path: "/v1/drafts", body: nil)
        #expect(try drafts.items.count == 1)

        let out = try dev.interrupt()
        #expect(out.contains("kafka: "))
        #expect(out.contains("http: \(dev.http)"))
        #expect(out.contains("data: \(data)"))
        #expect(out.contains("open: no --tokens, anyone who reaches 127.0.0.1:\(dev.port) may write"))
        #expect(out.contains("trust: the embedded broker has no authentication"))
        #expect(out.contains("stopped"))
    }

    /// Every recipe is in dev's journal and store: no other user of the machine may read them,
    /// also where an earlier run left the folder readable to all.
    @Test func devKeepsItsDataPrivateToItsUser() throws {
        let data = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        chmod(data, 0o755)
        let left = data + "/left-by-an-older-build"
        try "x".write(toFile: left, atomically: false, encoding: .utf8)
        chmod(left, 0o644)
        let dev = try startDev(["--seed", "--data", data])
        defer { if dev.process.isRunning { dev.process.terminate() } }
        _ = try dev.interrupt()
        var open: [String] = []
        let entries = [data] + (FileManager.default.enumerator(atPath: data)?.compactMap { $0 as? String }.map { data + "/" + $0 } ?? [])
        for path in entries {
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & 0o077 != 0 { open.append("\(path) \(String(info.st_mode & 0o777, radix: 8))") }
        }
        #expect(entries.count > 5, "the journal, the store and the snapshots are there: \(entries)")
        #expect(open.isEmpty, "readable by others: \(open)")
        #expect(try runRecipes(["dev", "--help"]).out.contains("dev trusts every process of this machine"))
    }

    /// `dev` serves one user on this machine, whose scripts it does not throttle; `serve` limits
    /// each actor. Each `--help` says its own default.
    @Test func appendRateDefaultsAreThoseOfTheMode() throws {
        func appendDefaults(_ mode: String) throws -> [String] {
            let help = try runRecipes([mode, "--help"])
            return help.out.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--append-") }.map { line in
                String(line.split(separator: "(default: ").last?.dropLast() ?? "")
            }
        }
        #expect(try appendDefaults("dev") == ["0", "1000"])
        #expect(try appendDefaults("serve") == ["100", "1000"])

        let data = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let dev = try startDev(["--data", data])
        defer { if dev.process.isRunning { dev.process.terminate() } }
        // 3,000 commands at once, each counted: more than any limit with a burst of 1,000 lets through.
        for _ in 0..<3 {
            let batch = (0..<1000).map { _ in #"{"type":"DraftStarted","recipe":"\#(UUID().uuidString.lowercased())"}"# }
            let answer = try HTTPClient.request(port: dev.port, method: "POST", path: "/v1/commands",
                                                      headers: ["Content-Type": "application/x-ndjson"],
                                                      body: Array(batch.joined(separator: "\n").utf8))
            #expect(answer.status == 202 && answer.object["appended"] as? Int == 1000, "\(answer.status) \(answer.text.prefix(200))")
        }
        _ = try dev.interrupt()
    }

    @Test("recipes dev keeps what was written across a restart: the same recipes, ids and positions; --fresh starts empty")
    func devIsDurable() throws {
        let data = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = try startDev(["--seed", "--data", data])
        defer { if first.process.isRunning { first.process.terminate() } }
        let draft = try HTTPClient.request(port: first.port, method: "POST", path: "/v1/drafts?wait=true", body: nil)
        let id = try #require(draft.object["recipeId"] as? String)
        for body in [#"{"type":"TitleChanged","data":{"title":"Shakshuka"}}"#,
                     #"{"type":"IngredientAdded","data":{"name":"Eggs","amount":4,"unit":"pcs"}}"#,
                     #"{"type":"RecipeSaved"}"#] {
            let sent = try HTTPClient.request(port: first.port, method: "POST", path: "/v1/recipes/\(id)/commands?wait=true",
                                                    body: Array(body.utf8))
            #expect(sent.object["outcome"] as? String == "accepted", "\(sent.object)")
        }
        let before = try HTTPClient.request(port: first.port, method: "GET", path: "/v1/recipes", body: nil)
        #expect(try before.items.count == 6)
        _ = try first.interrupt()

        let second = try startDev(["--seed", "--data", data])
        defer { if second.process.isRunning { second.process.terminate() } }
        let history = try HTTPClient.request(port: second.port, method: "GET", path: "/v1/recipes/\(id)/history", body: nil)
        #expect(try history.items.map { $0["outcome"] as? String } == ["accepted", "accepted", "accepted", "accepted"])
        let after = try HTTPClient.request(port: second.port, method: "GET", path: "/v1/recipes", body: nil)
        #expect(try after.items.map { $0["id"] as? String } == before.items.map { $0["id"] as? String })
        // Appending goes on after the kept records, and the store (kept beside the journal) agrees with them.
        let edit = try HTTPClient.request(port: second.port, method: "POST", path: "/v1/recipes/\(id)/commands?wait=true",
                                                body: Array(#"{"type":"ServingsChanged","data":{"servings":2}}"#.utf8))
        #expect(edit.object["outcome"] as? String == "accepted", "\(edit.object)")
        let out = try second.interrupt()
        #expect(out.contains("not seeding"), "\(out)")

        let third = try startDev(["--data", data, "--fresh"])
        defer { if third.process.isRunning { third.process.terminate() } }
        let empty = try HTTPClient.request(port: third.port, method: "GET", path: "/v1/recipes", body: nil)
        #expect(try empty.items.isEmpty)
        _ = try third.interrupt()
    }

    @Test("recipes dev refuses a store built from another log before it serves: one line naming both, exit 3, the store unchanged")
    func devRefusesAnotherLogsStore() throws {
        let (first, second) = (temporaryFolder(), temporaryFolder())
        defer { for folder in [first, second] { try? FileManager.default.removeItem(atPath: folder) } }
        let store = first + "/recipes.db"
        let seeded = try startDev(["--seed", "--data", first])
        defer { if seeded.process.isRunning { seeded.process.terminate() } }
        _ = try seeded.interrupt()
        let before = try Data(contentsOf: URL(fileURLWithPath: store))

        // Another folder is another journal: another log.
        let refused = try recipesProcess(["dev", "--port", "0", "--data", second, "--db", store])
        let stdout = Pipe()
        refused.standardOutput = stdout
        try refused.run()
        defer { if refused.isRunning { refused.terminate() } }
        try waitFor("dev to stop on another log's store", deadline: .seconds(30)) { !refused.isRunning }
        let errors = stderrOf(refused, lines: 50).components(separatedBy: " | ").filter { $0.hasPrefix("recipes: error:") }
        #expect(refused.terminationStatus == 3, "\(stderrOf(refused))")
        #expect(errors.count == 1 && errors[0].contains("another cluster's log"), "\(stderrOf(refused))")
        #expect(!String(decoding: readToEnd(stdout.fileHandleForReading), as: UTF8.self).contains("ready"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test("a SIGTERM that comes as soon as recipes broker prints its first line stops it cleanly, not by the signal's default")
    func aSignalAtOnceStopsCleanly() throws {
        let output = temporaryFolder() + ".out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let broker = try recipesProcess(["broker", "--broker-count", "1", "--partitions", "1"])
        broker.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        try broker.run()
        defer { if broker.isRunning { kill(broker.processIdentifier, SIGKILL) } }
        @Sendable func printed() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
        try waitFor("the broker's first line", deadline: .seconds(30)) { printed().contains("kafka: ") }
        kill(broker.processIdentifier, SIGTERM)
        try waitFor("the broker to stop", deadline: .seconds(30)) { !broker.isRunning }
        #expect(broker.terminationReason == .exit && broker.terminationStatus == 0, "\(broker.terminationReason) \(stderrOf(broker))")
        #expect(printed().contains("stopping"))
    }

    @Test("recipes parse reads ingredient lines from stdin as the import does")
    func parseLines() throws {
        let parsed = try runRecipes(["parse", "--json"], input: "2–3 cloves garlic, crushed\nSalt, to taste\n")
        #expect(parsed.status == 0, "\(parsed.err)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(parsed.out.utf8)) as? [[String: Any]])
        #expect(items.count == 2)
        #expect(items[0]["amount"] as? Double == 2 && items[0]["amountMax"] as? Double == 3 && items[0]["unit"] as? String == "clove")
        #expect(items[0]["name"] as? String == "garlic" && items[0]["note"] as? String == "crushed")
        #expect(items[1]["amount"] == nil && items[1]["note"] as? String == "to taste")
        let missing = try runRecipes(["import"])
        #expect(missing.status == 2 && missing.err.hasPrefix("recipes: error: "), "\(missing.err)")
    }
}
