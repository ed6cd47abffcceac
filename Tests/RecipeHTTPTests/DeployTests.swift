import Foundation
import RecipeTestSupport
import Kafka
import RecipeWire
import Testing

/// The repository's root, for the files of deploy/.
private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Debian's python3, which sees python3-yaml (a pyenv python3 on PATH would not).
private let debianPython = "/usr/bin/python3"

/// Runs scripts/check-deploy with these arguments. Its deadline guards against a hang, not a wait
/// for something to happen: the check runs `recipes … --help` and `dpkg -S` some sixty times, 7 CPU
/// seconds that took 40 on a machine busy with other builds.
private func checkDeploy(_ arguments: [String]) throws -> ProcessRun {
    try runProcess(debianPython, [repository.appendingPathComponent("scripts/check-deploy").path] + arguments, deadline: .seconds(150))
}

@Suite("Deploy")
struct DeployTests {
    // MARK: - Files of deploy/

    @Test func deployFilesParseAndNameOnlyWhatExists() throws {
        let result = try checkDeploy(["--recipes", recipesExecutable])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.split(separator: "\n") == ["ok: yaml", "ok: compose", "ok: kubernetes", "ok: packages"])
    }

    /// The checker is worth something only if it catches mistakes: break a copy of the files.
    @Test func checkerCatchesBrokenDeployFiles() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("deploy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        for item in ["deploy", "scripts", "Makefile", "Sources/RecipeHTTP/Routes"] {
            let target = copy.appendingPathComponent(item)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: repository.appendingPathComponent(item), to: target)
        }
        func edit(_ file: String, _ old: String, _ new: String) throws {
            let url = copy.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            try #require(text.contains(old), "\(file) no longer holds \(old)")
            try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
        }
        try edit("deploy/docker-compose.yml", #""8080:8080""#, #""8080:8081""#)
        try edit("deploy/docker-compose.yml", "KAFKA_BOOTSTRAP_SERVERS: kafka:9092", "KAFKA_BOOTSTRAP_SERVERS: kafka:9095")
        try edit("deploy/docker-compose.yml", "      CLUSTER_ID:", "      NOT_CLUSTER_ID:")
        try edit("deploy/kubernetes/statefulset.yaml", "key: sasl-password}", "key: password}")
        try edit("deploy/kubernetes/statefulset.yaml", "path: /readyz", "path: /ready")
        try edit("deploy/kubernetes/strimzi/kafka-user.yaml", "kind: KafkaUser", "kind: [KafkaUser")
        try edit("deploy/packages.txt", "libstdc++6\n", "")
        try edit("deploy/Dockerfile", "scripts/install-packages build", "apt-get install -y librdkafka-dev")
        try edit("Makefile", "install-packages build runtime\n", "install-packages\n")

        let result = try checkDeploy(["--root", copy.path, "--recipes", recipesExecutable])
        #expect(result.status == 1)
        for expected in ["publishes port 8081, which it does not listen on",
                         "broker kafka:9095 is no listener of a service here",
                         "KRaft mode needs CLUSTER_ID",
                         "Secret recipes-secrets has no key password",
                         "readinessProbe should get /readyz",
                         "kafka-user.yaml: does not parse",
                         "[runtime] lacks libstdc++6",
                         "names packages itself (apt-get install -y librdkafka-dev)",
                         "a stage should run `scripts/install-packages build`",
                         "`make run` installs the [test] section, which it does not need"] {
            #expect(result.err.contains(expected), "missing \"\(expected)\" in: \(result.err)")
        }
    }

    /// Every section of deploy/packages.txt is what `make test` installs; the image takes two of them.
    @Test func installPackagesListsSections() throws {
        let script = repository.appendingPathComponent("scripts/install-packages").path
        let runtime = try runProcess(script, ["--list", "runtime"])
        #expect(runtime.status == 0, "\(runtime.err)")
        #expect(runtime.out.split(separator: "\n").contains("librdkafka1"))
        #expect(!runtime.out.contains("-dev"), "the runtime image needs no headers: \(runtime.out)")
        let all = try runProcess(script, ["--list"])
        for package in ["librdkafka-dev", "python3-yaml", "librdkafka1"] {
            #expect(all.out.split(separator: "\n").contains(Substring(package)))
        }
        let unknown = try runProcess(script, ["--list", "nope"])
        #expect(unknown.status != 0)
        #expect(unknown.err.contains("no section [nope]"))
    }

    /// The SASL/SCRAM-over-TLS example reaches librdkafka through KafkaConfig as `serve` reads it.
    @Test func saslScramExampleIsAcceptedByLibrdkafka() throws {
        let text = try String(contentsOf: repository.appendingPathComponent("deploy/kafka/sasl-scram-tls.properties"), encoding: .utf8)
        var config = KafkaConfig(bootstrapServers: "127.0.0.1:1")
        try config.merge(propertiesText: text)
        config.merge(environment: ["KAFKA_SASL_USERNAME": "recipes", "KAFKA_SASL_PASSWORD": "secret", "PATH": "/usr/bin"])
        #expect(config.properties["security.protocol"] == "SASL_SSL")
        #expect(config.properties["sasl.mechanisms"] == "SCRAM-SHA-512")
        #expect(config.properties["sasl.username"] == "recipes")
        #expect(config.properties["sasl.password"] == "secret")
        #expect(config.properties["ssl.ca.location"] == "/etc/recipes/kafka-ca/ca.crt")
        // librdkafka reads the CA file when the client is made: use the system's here.
        config["ssl.ca.location"] = "/etc/ssl/certs/ca-certificates.crt"
        _ = try KafkaAdmin(config: config)  // throws on an unknown property or a feature librdkafka lacks
        config["sasl.mechanisms"] = "SCRAM-SHA-999"
        #expect(throws: KafkaError.self) { _ = try KafkaAdmin(config: config) }
    }

    // MARK: - recipes topics create

    @Test func topicsCreateDryRunPrintsExactlyTheSettings() throws {
        let result = try runRecipes(["topics", "create", "--dry-run", "--partitions", "12", "--topic-prefix", "staging."])
        #expect(result.status == 0, "\(result.err)")
        let settings = EditsTopicSettings(partitions: 12)
        let expected = ["dry run: would create topic staging.recipes.edits with", "  partitions=12", "  replication.factor=3"]
            + settings.configs.sorted { $0.key < $1.key }.map { "  \($0.key)=\($0.value)" }
            + ["dry run: would create topic staging.recipes.decisions with", "  partitions=12", "  replication.factor=3"]
            + settings.decisionsConfigs.sorted { $0.key < $1.key }.map { "  \($0.key)=\($0.value)" }
            + ["dry run: would create topic staging.recipes.committed with", "  partitions=12", "  replication.factor=3"]
            + settings.committedConfigs.sorted { $0.key < $1.key }.map { "  \($0.key)=\($0.value)" }
        #expect(result.out.split(separator: "\n").map(String.init) == expected)
        #expect(settings.decisionsConfigs["max.message.bytes"] == "4259840")
        #expect(settings.committedConfigs == ["cleanup.policy": "compact", "delete.retention.ms": "604800000", "min.insync.replicas": "2",
                                              "max.message.bytes": String(CommittedRecipe.maxValueSize + 65536)])
        #expect(settings.configs == ["cleanup.policy": "delete", "retention.ms": "-1", "retention.bytes": "-1",
                                     "min.insync.replicas": "2", "max.message.bytes": "2162688"])

        let bad = try runRecipes(["topics", "create", "--dry-run", "--replication-factor", "1"])
        #expect(bad.status == 2)
        #expect(bad.err.split(separator: "\n").count == 1)
        #expect(bad.err.contains("min.insync.replicas (2) cannot exceed the replication factor (1)"))
    }

    @Test func topicsCreateHelpDocumentsEverySetting() throws {
        let help = try runRecipes(["topics", "create", "--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("Usage: recipes topics create"))
        for option in ["--partitions", "--replication-factor", "--min-insync-replicas", "--timeout", "--dry-run",
                       "--brokers", "--kafka-config", "--topic-prefix"] {
            #expect(help.out.contains("  \(option)"), "\(option) undocumented")
        }
        for (key, value) in EditsTopicSettings().configs where key != "min.insync.replicas" {
            #expect(help.out.contains("\(key)=\(value)"), "\(key) undocumented")
        }
        for (key, value) in EditsTopicSettings().committedConfigs where key != "min.insync.replicas" {
            #expect(help.out.contains("\(key)=\(value)"), "the committed topic's \(key) undocumented")
        }
        for setting in ["key ", "partitions ", "replication.factor ", "min.insync.replicas ", "acks=all", "enable.idempotence=true"] {
            #expect(help.out.contains(setting), "\(setting) undocumented")
        }
        let bad = try runRecipes(["topics", "create", "--no-such-flag"])
        #expect(bad.status == 2)
        #expect(bad.err.split(separator: "\n").count == 1, "\(bad.err)")
        let unknown = try runRecipes(["topics", "delete"])
        #expect(unknown.status == 2)
        #expect(unknown.err == "recipes: error: unknown command \"topics delete\" (see recipes topics --help)\n")
    }

    @Test func topicsCreateAgainstTheEmbeddedBrokerFailsWithinItsTimeout() throws {
        // The message names the timeout it waited (not a wall-clock assertion: those are flaky on a shared machine).
        let result = try runRecipes(["topics", "create", "--brokers", shared.kafka.bootstrapServers, "--timeout", "2",
                                           "--replication-factor", "1", "--min-insync-replicas", "1"])
        #expect(result.status == 1)
        #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
        #expect(result.err.contains("CreateTopics got no answer within 2"), "\(result.err)")
        #expect(result.err.contains("embedded mock broker does not"), "\(result.err)")
    }

    // MARK: - serve against a broker of its own, as compose wires them

    @Test func serveAgainstASeparateBrokerRunsTheQuickstart() throws {
        let broker = try RecipesProcess(["broker", "--broker-count", "1", "--partitions", "3"])
        let bootstrap = try broker.line(startingWith: "kafka: ")
        // `recipes broker --partitions` made the topic through the mock's own API.
        let admin = try KafkaAdmin(config: KafkaConfig(bootstrapServers: bootstrap))
        #expect(try admin.listTopics()[RecipeTopics().edits] == 3)

        let store = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        let serve = try RecipesProcess(["serve", "--brokers", bootstrap, "--db", store, "--port", "0", "--loopback"])
        let http = try serve.line(startingWith: "http: ")
        let port = try #require(UInt16(http.split(separator: ":").last ?? ""), "\(http)")
        try Quickstart(port: port).waitUntilReady()
        try Quickstart(port: port).run(bootstrap: bootstrap)

        #expect(serve.stop() == 0, "\(serve.err)")
        #expect(serve.out.contains("stopped"))
        #expect(broker.stop() == 0, "\(broker.err)")
    }
}

/// README's quickstart, request by request, against a running `recipes serve`.
private struct Quickstart {
    let port: UInt16

    func call(_ method: String, _ path: String, _ json: String? = nil) throws -> HTTPResult {
        try HTTPClient.request(port: port, method: method, path: path, body: json.map { Array($0.utf8) })
    }

    func waitUntilReady(deadline: Duration = .seconds(30)) throws {
        var last = try call("GET", "/readyz")
        do {
            try waitFor("/readyz to answer 200", deadline: deadline) {
                last = try call("GET", "/readyz")
                return last.status == 200
            }
        } catch let timedOut as WaitTimedOut {
            throw WaitTimedOut(description: "\(timedOut); it answered \(last.status) \(last.text)")
        }
        #expect(try call("GET", "/healthz").status == 200)
    }

    func run(bootstrap: String) throws {
        let draft = try call("POST", "/v1/drafts?wait=true")
        let recipe = try #require(draft.object["recipeId"] as? String, "\(draft.text)")
        @discardableResult
        func command(_ json: String, _ query: String = "") throws -> [String: Any] {
            let response = try call("POST", "/v1/recipes/\(recipe)/commands\(query)", json)
            try #require(response.status == (query.isEmpty ? 202 : 200), "\(response.status) \(response.text)")
            return response.object
        }
        try command(#"{"type":"TitleChanged","data":{"title":"Shakshuka"}}"#)
        try command(#"{"type":"ServingsChanged","data":{"servings":2}}"#)
        let early = try command(#"{"type":"RecipeSaved"}"#, "?wait=true")
        #expect(early["outcome"] as? String == "rejected")
        #expect((early["reason"] as? [String: Any])?["code"] as? String == "notSavable")

        try command(#"{"type":"IngredientAdded","data":{"name":"Eggs","amount":4,"unit":"pcs"}}"#)
        // The CLI appends through the same broker, as the README's `recipes send` line does.
        let sent = try runRecipes(["send", "IngredientAdded", "--recipe", recipe, "--name", "Tomatoes", "--amount", "400",
                                         "--unit", "g", "--brokers", bootstrap])
        #expect(sent.status == 0, "\(sent.err)")
        try command(#"{"type":"TagAdded","data":{"text":"@breakfast"}}"#)
        var saved = try command(#"{"type":"RecipeSaved"}"#)
        var position = try #require(saved["position"] as? String)

        let list = try call("GET", "/v1/recipes?after=\(position)&tag=breakfast")
        #expect(try list.items.compactMap { $0["title"] as? String } == ["Shakshuka"])
        let detail = try call("GET", "/v1/recipes/\(recipe)?guests=4")
        #expect((detail.object["ingredients"] as? [[String: Any]])?.compactMap { $0["display"] as? String } == ["8 pieces", "800 g"])

        try command(#"{"type":"ServingsChanged","data":{"servings":4}}"#)
        saved = try command(#"{"type":"RecipeSaved"}"#)
        position = try #require(saved["position"] as? String)
        let latest = try call("GET", "/v1/recipes/\(recipe)?after=\(position)")
        #expect(latest.object["version"] as? Int == 2)
        #expect(latest.object["servings"] as? Int == 4)
        let first = try call("GET", "/v1/recipes/\(recipe)?version=1")
        #expect(first.object["servings"] as? Int == 2)
        let history = try call("GET", "/v1/recipes/\(recipe)/history")
        #expect(try history.items.count == 10, "\(history.text)")
        #expect(try history.items.contains { $0["outcome"] as? String == "rejected" })

        let bad = try call("POST", "/v1/recipes/\(recipe)/commands",
                                 #"{"type":"IngredientAdded","data":{"name":"Salt","amount":-1,"unit":"g"}}"#)
        #expect(bad.status == 422)
        #expect(bad.errorField == "data.amount")
        let metrics = try call("GET", "/metrics")
        #expect(metrics.text.contains(#"recipes_projector_commands_total{outcome="rejected"}"#))
    }
}
