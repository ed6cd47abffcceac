import Foundation
import Kafka
import RecipeDomain
import RecipeGenerators
import RecipeTestSupport
import RecipeWire
import Testing

/// `recipes.committed` as downstream services read it, against what the detail read model
/// serves (`GET /v1/recipes/{id}`), through clients nobody here wrote.
@Suite("recipes.committed against the detail read model")
struct CommittedTopicServiceTests {
    @Test("after a stream of saves and deletes, kafka-python and kcat read each recipe's detail as GET serves it, or a tombstone")
    func committedTopicShowsWhatTheReadModelServes() throws {
        let fixture = try ServiceFixture()
        let stream = withDeletes(commandStream(count: 1_200, recipes: 60, seed: 51), every: 4)
        let ends = try append(stream, to: fixture.kafka)
        let expected = try served(fixture, recipes: stream, after: ends)
        #expect(expected.values.contains { if case .document = $0 { true } else { false } }, "some recipes are saved")
        #expect(expected.values.contains { $0 == .tombstone }, "some saved recipes are deleted")

        try waitUntilCommittedShows(expected, bootstrap: fixture.kafka.bootstrapServers)
        let byPython = try committedReadByKafkaPython(bootstrap: fixture.kafka.bootstrapServers)
        #expect(mismatch(expected, byPython) == nil, "kafka-python: \(mismatch(expected, byPython) ?? "")")
        let byKcat = try committedReadByKcat(bootstrap: fixture.kafka.bootstrapServers)
        #expect(mismatch(expected, byKcat) == nil, "kcat: \(mismatch(expected, byKcat) ?? "")")
        #expect(byKcat.map(\.offset) == byPython.map(\.offset), "both read every record")
    }

    @Test("the same after the decider is SIGKILLed mid-stream four times and started again")
    func committedTopicSurvivesKilledDeciders() throws {
        let fixture = try ServiceFixture(decides: false)
        let bootstrap = fixture.kafka.bootstrapServers
        let stream = withDeletes(commandStream(count: 3_000, recipes: 150, seed: 53), every: 5)
        let batch = stream.count / 50
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("decider-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var random = SplitMix64(seed: 9)
        var sent = 0
        for round in 0..<4 {
            let decider = try startDecider(bootstrap: bootstrap, output: output)
            defer { if decider.isRunning { kill(decider.processIdentifier, SIGKILL); decider.waitUntilExit() } }
            // The stream goes on while it decides; it is killed once it has written more documents.
            for _ in 0..<(2 + Int(random.next() % 6)) {
                _ = try append(Array(stream[sent..<sent + batch]), to: fixture.kafka)
                sent += batch
            }
            let before = try recordCount(of: RecipeTopics().committed, bootstrap: bootstrap)
            try waitFor("round \(round)'s decider to write more documents", deadline: .seconds(30)) {
                try recordCount(of: RecipeTopics().committed, bootstrap: bootstrap) > before || !decider.isRunning
            }
            let ranUntilKilled = decider.isRunning
            kill(decider.processIdentifier, SIGKILL)
            decider.waitUntilExit()
            #expect(ranUntilKilled, "round \(round): the decider stopped on its own: \(stderrOf(decider))")
        }
        let last = try startDecider(bootstrap: bootstrap, output: output)
        defer { if last.isRunning { kill(last.processIdentifier, SIGKILL); last.waitUntilExit() } }
        let ends = try append(Array(stream[sent...]), to: fixture.kafka)
        let expected = try served(fixture, recipes: stream, after: ends)
        try waitUntilCommittedShows(expected, bootstrap: bootstrap, deadline: .seconds(90))
        last.terminate()
        try waitFor("the decider to stop on SIGTERM", deadline: .seconds(30)) { !last.isRunning }
        #expect(last.terminationReason == .exit && last.terminationStatus == 0, "\(stderrOf(last))")

        let byPython = try committedReadByKafkaPython(bootstrap: bootstrap)
        #expect(mismatch(expected, byPython) == nil, "kafka-python: \(mismatch(expected, byPython) ?? "")")
    }

    @Test("recipes dev keeps recipes.committed across a restart, and goes on from it without deciding the log again")
    func devKeepsTheCommittedTopic() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("dev-committed-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = try RecipesProcess(["dev", "--port", "0", "--seed", "--data", data])
        let firstBootstrap = try first.line(startingWith: "kafka: ")
        _ = try first.line(startingWith: "ready")
        // The five sample recipes are saved; the sample draft never is.
        try waitFor("the seeded recipes' documents", deadline: .seconds(30)) {
            try recordCount(of: RecipeTopics().committed, bootstrap: firstBootstrap) >= 5
        }
        let before = try committedReadByKafkaPython(bootstrap: firstBootstrap, partitions: 6)
        let decided = try recordCount(of: RecipeTopics().decisions, bootstrap: firstBootstrap)
        #expect(Set(before.map(\.key)).count == 5 && before.allSatisfy { $0.value != nil })
        #expect(first.stop() == 0, "\(first.err)")

        let second = try RecipesProcess(["dev", "--port", "0", "--data", data])
        let bootstrap = try second.line(startingWith: "kafka: ")
        let port = try #require(UInt16(try second.line(startingWith: "http: ").split(separator: ":").last ?? ""))
        _ = try second.line(startingWith: "ready")
        let after = try committedReadByKafkaPython(bootstrap: bootstrap, partitions: 6)
        #expect(after == before, "the same records, at the same offsets")
        #expect(try recordCount(of: RecipeTopics().decisions, bootstrap: bootstrap) == decided, "the decisions are kept: none is made again")

        // A recipe saved now gets its document after the kept ones.
        let draft = try HTTPClient.request(port: port, method: "POST", path: "/v1/drafts?wait=true", body: nil)
        let id = try #require(draft.object["recipeId"] as? String)
        var last = ""
        for body in [#"{"type":"TitleChanged","data":{"title":"Shakshuka"}}"#,
                     #"{"type":"IngredientAdded","data":{"name":"Eggs","amount":4,"unit":"pcs"}}"#, #"{"type":"RecipeSaved"}"#] {
            let sent = try HTTPClient.request(port: port, method: "POST", path: "/v1/recipes/\(id)/commands?wait=true", body: Array(body.utf8))
            #expect(sent.object["outcome"] as? String == "accepted", "\(sent.object)")
            last = try #require(sent.object["position"] as? String)
        }
        let detail = try HTTPClient.request(port: port, method: "GET", path: "/v1/recipes/\(id)?after=\(last)", body: nil)
        #expect(detail.status == 200)
        let expected = [id: Served.document(try #require(try JSONSerialization.jsonObject(with: Data(detail.body)) as? NSDictionary))]
        try waitFor("the new recipe's document", deadline: .seconds(30)) {
            let records = try committedReadByKafkaPython(bootstrap: bootstrap, partitions: 6)
            return mismatch(expected, records.filter { $0.key == id }, partitions: 6) == nil
        }
        let now = try committedReadByKafkaPython(bootstrap: bootstrap, partitions: 6)
        #expect(Array(now.filter { $0.key != id }) == before, "the kept records stay as they were")
        #expect(second.stop() == 0, "\(second.err)")
    }
}

// MARK: - What the read model serves

/// What `GET /v1/recipes/{id}` answers, as the committed topic must show it.
enum Served: Equatable {
    /// 200: the detail document.
    case document(NSDictionary)
    /// 410: deleted after it was saved.
    case tombstone
    /// 404: never saved; the topic does not name it.
    case absent
}

/// Appends commands to the edits topic as a producer would; returns the last position of each partition.
private func append(_ commands: [CommandEnvelope], to kafka: EmbeddedKafka) throws -> [Int32: Int64] {
    let producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
    defer { try? producer.shutdown() }
    let encoder = RecordEncoder(source: "committed-tests")
    let reports = try producer.sendBatch(commands.map {
        KafkaProducerMessage(topic: RecipeTopics().edits, key: RecordKey.key(forRecipe: $0.recipeID), value: encoder.encode($0))
    }).map { try $0.get() }
    return reports.reduce(into: [:]) { $0[$1.partition] = max($0[$1.partition] ?? 0, $1.offset) }
}

/// What the read model serves for every recipe of `commands`, once it has applied `ends`.
private func served(_ fixture: ServiceFixture, recipes commands: [CommandEnvelope], after ends: [Int32: Int64]) throws -> [String: Served] {
    let after = ends.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
    // The read model folds decisions: it reaches the ends once a decider has decided them.
    try waitFor("the read model to reach \(after)", deadline: .seconds(90)) {
        try fixture.get("/v1/recipes?after=\(after)").status == 200
    }
    var served: [String: Served] = [:]
    for id in Set(commands.map(\.recipeID.text)) {
        let response = try fixture.get("/v1/recipes/\(id)?after=\(after)")
        switch response.status {
        case 200: served[id] = .document(try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? NSDictionary))
        case 410: served[id] = .tombstone
        case 404: served[id] = .absent
        default: Issue.record("GET /v1/recipes/\(id): \(response.status) \(response.text)")
        }
    }
    return served
}

// MARK: - Reading the committed topic

/// One record of the committed topic as a client reads it.
struct CommittedLine: Equatable, Decodable {
    var partition: Int32
    var offset: Int64
    var key: String
    /// The value's text; nil for a tombstone.
    var value: String?
    var headers: [String: String]
}

/// Whether the last record of each recipe shows what the read model serves: the detail document
/// (its members and `position`, equal to the `position` header, on the recipe's partition), a
/// tombstone, or nothing. A description of the first difference, or nil.
func mismatch(_ expected: [String: Served], _ records: [CommittedLine], partitions: Int = 4) -> String? {
    let last = records.reduce(into: [String: CommittedLine]()) { $0[$1.key] = $1 }
    for (id, served) in expected.sorted(by: { $0.key < $1.key }) {
        let record = last[id]
        if let record {
            let partition = KafkaPartitioner.partition(forKey: Array(id.utf8), partitionCount: partitions)
            guard record.partition == partition, record.headers[CommittedRecipe.positionHeaderName]?.hasPrefix("\(partition):") == true else {
                return "\(id): headers \(record.headers) on partition \(record.partition), not the key's \(partition)"
            }
        }
        switch (served, record?.value) {
        case (.absent, nil) where record == nil, (.tombstone, nil) where record != nil:
            continue
        case (.document(let detail), let text?):
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary,
                  let position = object["position"] as? String else { return "\(id): the value is no document with a position: \(text)" }
            guard position == record?.headers[CommittedRecipe.positionHeaderName] else { return "\(id): position \(position) in the value, another in the header" }
            let members = object.mutableCopy() as! NSMutableDictionary
            members.removeObject(forKey: "position")
            guard members == detail else { return "\(id): the topic shows \(text), GET serves \(detail)" }
            guard record?.headers[WireFormat.contentTypeHeaderName] == "application/json" else { return "\(id): content-type \(record!.headers)" }
        default:
            return "\(id): GET serves \(served), the topic's last record is \(record.map { "\($0.value ?? "a tombstone")" } ?? "absent")"
        }
    }
    let unexpected = Set(last.keys).subtracting(expected.keys)
    return unexpected.isEmpty ? nil : "records of recipes nobody wrote: \(unexpected.sorted())"
}

/// The committed topic read by kafka-python from its start to its end, in each partition's order.
func committedReadByKafkaPython(bootstrap: String, partitions: Int = 4) throws -> [CommittedLine] {
    try topicReadByKafkaPython(bootstrap: bootstrap, topic: RecipeTopics().committed, partitions: partitions).map {
        CommittedLine(partition: $0.partition, offset: $0.offset, key: String(decoding: $0.key ?? [], as: UTF8.self),
                      value: $0.value.map { String(decoding: $0, as: UTF8.self) }, headers: $0.headers)
    }
}

/// The committed topic read by kcat to its end (`%S`, the value's length, is -1 for a null value).
func committedReadByKcat(bootstrap: String) throws -> [CommittedLine] {
    let run = try runProcess("/usr/bin/kcat", ["-b", bootstrap, "-t", RecipeTopics().committed, "-C", "-e", "-q",
                                               "-f", "%p\\t%o\\t%k\\t%h\\t%S\\t%s\\n"])
    guard run.status == 0 else { throw WaitTimedOut(description: "kcat exited \(run.status): \(run.err)") }
    return try run.out.split(separator: "\n").map { line in
        let fields = line.split(separator: "\t", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6, let partition = Int32(fields[0]), let offset = Int64(fields[1]) else {
            throw WaitTimedOut(description: "kcat printed \(line)")
        }
        let headers = fields[3].split(separator: ",").reduce(into: [String: String]()) { headers, pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            headers[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return CommittedLine(partition: partition, offset: offset, key: fields[2], value: fields[4] == "-1" ? nil : fields[5], headers: headers)
    }.sorted { ($0.partition, $0.offset) < ($1.partition, $1.offset) }
}

/// Waits until the committed topic, read with this project's consumer, shows `expected`.
private func waitUntilCommittedShows(_ expected: [String: Served], bootstrap: String, deadline: Duration = .seconds(60)) throws {
    var difference: String?
    do {
        try waitFor("recipes.committed to show what the read model serves", deadline: deadline) {
            difference = mismatch(expected, try committedRecords(bootstrap: bootstrap))
            return difference == nil
        }
    } catch {
        throw WaitTimedOut(description: "\(error); the first difference: \(difference ?? "none")")
    }
}

/// The committed topic read to its end with this project's consumer.
private func committedRecords(bootstrap: String) throws -> [CommittedLine] {
    let consumer = try KafkaConsumer(config: KafkaConfig(bootstrapServers: bootstrap))
    defer { consumer.close() }
    let topic = RecipeTopics().committed
    let partitions = try consumer.partitions(of: topic)
    var ends: [Int32: Int64] = [:]
    for partition in partitions { ends[partition] = try consumer.watermarks(KafkaTopicPartition(topic: topic, partition: partition)).high }
    try consumer.assign(topic: topic)
    var lines: [CommittedLine] = []
    var next: [Int32: Int64] = [:]
    try waitFor("reading \(topic) to its end", deadline: .seconds(30)) {
        for record in try consumer.poll(maxRecords: 10_000, timeout: .milliseconds(50)) {
            next[record.partition] = record.offset + 1
            lines.append(CommittedLine(partition: record.partition, offset: record.offset, key: record.keyString ?? "",
                                       value: record.hasNullValue ? nil : String(decoding: record.value, as: UTF8.self),
                                       headers: record.headers.reduce(into: [:]) { $0[$1.key] = $1.value.map { String(decoding: $0, as: UTF8.self) } }))
        }
        return ends.allSatisfy { next[$0.key, default: 0] >= $0.value }
    }
    return lines.sorted { ($0.partition, $0.offset) < ($1.partition, $1.offset) }
}

/// Records on every partition of a topic: the sum of the high watermarks.
private func recordCount(of topic: String, bootstrap: String) throws -> Int64 {
    let consumer = try KafkaConsumer(config: KafkaConfig(bootstrapServers: bootstrap))
    defer { consumer.close() }
    return try consumer.partitions(of: topic).reduce(0) { $0 + (try consumer.watermarks(KafkaTopicPartition(topic: topic, partition: $1)).high) }
}

/// Starts `recipes decide` (every partition) and waits until it decides.
private func startDecider(bootstrap: String, output: String) throws -> Process {
    let process = try recipesProcess(["decide", "--brokers", bootstrap, "--progress", "1"])
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    try process.run()
    try waitFor("the decider to start", deadline: .seconds(30)) {
        ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").hasPrefix("deciding ") || !process.isRunning
    }
    return process
}
