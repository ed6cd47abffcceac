import Foundation
import Kafka
import RecipeDecisions
import RecipeDomain
import RecipeGenerators
import RecipeProjection
import RecipeTestSupport
import RecipeWire
import Synchronization
import Testing

/// An embedded cluster with the edits topic, its decisions and committed topics (as
/// many partitions), a producer of encoded commands: what every decider test starts from.
final class DecisionFixture: Sendable {
    let kafka: EmbeddedKafka
    let producer: KafkaProducer
    let topics = RecipeTopics()
    let partitions: Int
    private let encoder = RecordEncoder(source: "decider-tests")

    /// `decisionsPartitions` or `committedPartitions` 0: that topic is not made.
    init(partitions: Int = 4, decisionsPartitions: Int? = nil, committedPartitions: Int? = nil) throws {
        kafka = try EmbeddedKafka(brokers: 1)
        try kafka.createTopic(topics.edits, partitions: partitions)
        if decisionsPartitions != 0 { try kafka.createTopic(topics.decisions, partitions: decisionsPartitions ?? partitions) }
        if committedPartitions != 0 { try kafka.createTopic(topics.committed, partitions: committedPartitions ?? partitions) }
        producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
        self.partitions = partitions
    }

    var config: KafkaConfig { KafkaConfig(bootstrapServers: kafka.bootstrapServers) }

    @discardableResult
    func send(_ envelopes: [CommandEnvelope]) throws -> [KafkaDeliveryReport] {
        try producer.sendBatch(envelopes.map {
            KafkaProducerMessage(topic: topics.edits, key: RecordKey.key(forRecipe: $0.recipeID), value: encoder.encode($0))
        }).map { try $0.get() }
    }

    /// Appends bytes as they are, on the partition given (or the key's).
    @discardableResult
    func sendRaw(key: String, value: String, partition: Int32? = nil) throws -> KafkaDeliveryReport {
        try producer.send(KafkaProducerMessage(topic: topics.edits, key: Array(key.utf8), value: Array(value.utf8), partition: partition))
    }

    /// Every record of `topic`, up to the high watermarks as they are now, in each partition's order.
    func records(of topic: String) throws -> [KafkaConsumerRecord] {
        let consumer = try KafkaConsumer(config: config)
        defer { consumer.close() }
        var ends: [Int32: Int64] = [:]
        for partition in 0..<Int32(partitions) {
            ends[partition] = try consumer.watermarks(KafkaTopicPartition(topic: topic, partition: partition)).high
        }
        try consumer.assign(topic: topic)
        var next: [Int32: Int64] = [:]
        var records: [KafkaConsumerRecord] = []
        try waitFor("reading \(topic) to its end", deadline: .seconds(30)) {
            for record in try consumer.poll(maxRecords: 10_000, timeout: .milliseconds(50)) {
                records.append(record)
                next[record.partition] = record.offset + 1
            }
            return ends.allSatisfy { next[$0.key, default: 0] >= $0.value }
        }
        return records
    }

    /// What one decider alone, never interrupted, decides for the edits topic as it is now:
    /// each partition's commands judged in order against that partition's recipes.
    func referenceDecisions() throws -> [Int32: [DecisionRecord]] {
        let judge = CommandJudge(partitionCount: partitions)
        var recipes: [Int32: [RecipeID: Recipe]] = [:]
        var decisions: [Int32: [DecisionRecord]] = [:]
        for record in try records(of: topics.edits) {
            decisions[record.partition, default: []].append(judge.decide(record, recipes: &recipes[record.partition, default: [:]]))
        }
        return decisions
    }
}

extension DecisionFixture {
    /// Writes to a new `topic` what one decider alone, never interrupted, writes for the edits
    /// topic as it is now: `referenceDecisions`, chained under one name, each stamped with its
    /// command's time in the log as the decider stamps it.
    func writeReferenceDecisions(to topic: String) throws {
        try kafka.createTopic(topic, partitions: partitions)
        let (judge, encoder) = (CommandJudge(partitionCount: partitions), DecisionEncoder(source: "reference"))
        var recipes: [Int32: [RecipeID: Recipe]] = [:]
        var last: [Int32: DecisionLink] = [:]
        var messages: [KafkaProducerMessage] = []
        for record in try records(of: topics.edits) {
            var decision = judge.decide(record, recipes: &recipes[record.partition, default: [:]])
            decision.decider = "reference"
            decision.follows = last[record.partition]
            last[record.partition] = decision.link
            messages.append(KafkaProducerMessage(topic: topic, key: record.key, value: encoder.encode(decision),
                                                 partition: record.partition, timestamp: record.timestamp))
        }
        for result in producer.sendBatch(messages) { _ = try result.get() }
    }

    /// The store a projector folds from the decisions on `topic`, as a canonical dump.
    func storeDump(folding topic: String) throws -> String {
        let path = temporaryPath("store") + ".db"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        _ = try Projector(storePath: path, kafka: config, topic: topic).catchUp(timeout: .seconds(120))
        return try StoreDump.string(storeAt: path)
    }

    /// Checks that the store folded from the decisions topic is the store folded from what one
    /// decider alone would have written.
    func expectStoreOfOneUninterruptedDecider(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = "reference." + topics.decisions
        try writeReferenceDecisions(to: reference)
        let (folded, expected) = (try storeDump(folding: topics.decisions), try storeDump(folding: reference))
        #expect(folded.split(separator: "\n").count > partitions, "the stores hold the recipes", sourceLocation: sourceLocation)
        #expect(folded == expected, "the store differs from one built by a single uninterrupted decider", sourceLocation: sourceLocation)
    }
}

/// The decisions of a topic's records as every reader counts them (`EffectiveDecisions`).
struct DecisionLog {
    /// The effective decisions of each partition, in log order.
    var effective: [Int32: [DecisionRecord]] = [:]
    /// Decisions on the topic that do not count.
    var ignored = 0

    init(records: [(partition: Int32, key: [UInt8]?, value: [UInt8])]) {
        var rule = EffectiveDecisions()
        let decoder = DecisionDecoder()
        for record in records {
            guard case .success(let decision) = decoder.decode(key: record.key, value: record.value),
                  rule.admit(decision, onPartition: record.partition) else {
                ignored += 1
                continue
            }
            effective[record.partition, default: []].append(decision)
        }
    }

    var count: Int { effective.values.reduce(0) { $0 + $1.count } }

    /// The effective decisions without who wrote them: what one decider alone would have written.
    var contents: [Int32: [DecisionRecord]] { effective.mapValues { $0.map(unchained) } }
}

/// A decision without its writer's name and chain, to compare with another decider's.
func unchained(_ decision: DecisionRecord) -> DecisionRecord {
    var decision = decision
    decision.decider = nil
    decision.follows = nil
    return decision
}

/// Reads the decisions topic as it grows, counting the effective decisions: for waits.
final class DecisionWatcher {
    private let consumer: KafkaConsumer
    private var rule = EffectiveDecisions()
    private let decoder = DecisionDecoder()
    private(set) var effective = 0

    init(_ fixture: DecisionFixture) throws {
        consumer = try KafkaConsumer(config: fixture.config)
        try consumer.assign(topic: fixture.topics.decisions)
    }

    deinit { consumer.close() }

    /// Reads what arrived (waiting up to 50 ms for it) and returns the effective count.
    func poll() throws -> Int {
        for record in try consumer.poll(maxRecords: 10_000, timeout: .milliseconds(50)) {
            if case .success(let decision) = decoder.decode(key: record.key, value: record.value),
               rule.admit(decision, onPartition: record.partition) { effective += 1 }
        }
        return effective
    }

    func waitFor(_ count: Int, deadline: Duration = .seconds(60)) throws {
        try RecipeTestSupport.waitFor("\(count) effective decisions (have \(effective))", deadline: deadline) { try poll() >= count }
    }
}

/// The decisions topic read by kafka-python, from its start to its end: an independent client.
func decisionsReadByKafkaPython(_ fixture: DecisionFixture) throws -> [(partition: Int32, key: [UInt8]?, value: [UInt8])] {
    try topicReadByKafkaPython(bootstrap: fixture.kafka.bootstrapServers, topic: fixture.topics.decisions, partitions: fixture.partitions)
        .map { ($0.partition, $0.key, $0.value ?? []) }
}

/// Checks what every reader relies on: exactly one effective decision per command of
/// the edits topic, in the commands' order with no gap, each what one decider alone decides.
func expectOneEffectiveDecisionPerCommand(_ log: DecisionLog, _ fixture: DecisionFixture,
                                          sourceLocation: SourceLocation = #_sourceLocation) throws {
    let reference = try fixture.referenceDecisions()
    for partition in 0..<Int32(fixture.partitions) {
        let offsets = (log.effective[partition] ?? []).map(\.offset)
        let commands = reference[partition]?.count ?? 0
        #expect(offsets == (0..<Int64(commands)).map { $0 },
                "partition \(partition): effective decisions for commands \(offsets.prefix(5))… (\(offsets.count)), not 0..<\(commands)",
                sourceLocation: sourceLocation)
        let contents = log.contents[partition] ?? []
        if let index = zip(contents, reference[partition] ?? []).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record("partition \(partition): decision \(index) differs from one decider's: \(contents[index]) ≠ \(reference[partition]![index])",
                         sourceLocation: sourceLocation)
        }
    }
}

/// Appends a decision written by hand (as an older build, or a stale decider, would have written it) on its command's partition.
func appendDecision(_ decision: DecisionRecord, _ fixture: DecisionFixture) throws {
    _ = try fixture.producer.send(KafkaProducerMessage(topic: fixture.topics.decisions, key: decision.recipeID.map { Array($0.utf8) },
                                                       value: DecisionEncoder(source: "by-hand").encode(decision), partition: decision.partition))
}

/// Runs a decider in this process until `count` decisions count, then stops it.
func decide(_ fixture: DecisionFixture, until count: Int) throws {
    let stop = StopFlag()
    let decider = try Decider(kafka: fixture.config, topics: fixture.topics)
    let run = Background("the decider") { try decider.run(until: { stop.isSet }, progressInterval: .seconds(60)) }
    let watcher = try DecisionWatcher(fixture)
    defer { stop.set() }
    try watcher.waitFor(count, deadline: .seconds(30))
    stop.set()
    try run.value(deadline: .seconds(30))
}

/// A flag a test sets to stop an in-process decider.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}

// MARK: - Decider processes

/// A killed group member is noticed after the session timeout: keep it short.
let deciderEnvironment = ["KAFKA_SESSION_TIMEOUT_MS": "6000", "KAFKA_HEARTBEAT_INTERVAL_MS": "500"]

/// Starts `recipes decide` against the fixture's broker; its progress lines go to `output`.
func startDeciderProcess(_ fixture: DecisionFixture, output: String, extra: [String] = []) throws -> Process {
    let process = try recipesProcess(["decide", "--brokers", fixture.kafka.bootstrapServers, "--progress", "1"] + extra,
                                     environment: deciderEnvironment)
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    try process.run()
    return process
}

/// Waits until a decider process has said it is deciding: from then on SIGTERM stops it cleanly.
func waitUntilDeciding(output: String) throws {
    try waitFor("the decider to start", deadline: .seconds(30)) {
        ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").hasPrefix("deciding ")
    }
}

/// Stops a process with SIGTERM; true when it exited 0 within 30 s.
func stopWithSIGTERM(_ process: Process) throws -> Bool {
    process.terminate()
    let stopped = (try? waitFor("the decider to stop", deadline: .seconds(30)) { !process.isRunning }) != nil
    guard stopped else {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }
    return process.terminationReason == .exit && process.terminationStatus == 0
}

func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
}
