import Foundation
import Kafka
import RecipeDomain
@testable import RecipeProjection
import RecipeTestSupport
import RecipeWire
import Testing

@Suite("A store never folds the wrong log")
struct LogIntegrityTests {
    // MARK: - The decision, case by case

    private let log = LogIdentity(cluster: "c-1", topic: "recipes.edits", partitions: 2)
    private func marks(_ low: Int64, _ high: Int64) -> KafkaWatermarks { KafkaWatermarks(low: low, high: high) }

    private func check(stored: StoreLog?, positions: [Int32: Int64] = [:], log found: LogIdentity? = nil,
                       watermarks: [Int32: KafkaWatermarks], allowMissingHead: Bool = false) throws(LogMismatch) -> StoreLog {
        try StoreLog.check(store: "s.db", stored: stored, positions: positions, log: found ?? log, watermarks: watermarks,
                           allowMissingHead: allowMissingHead)
    }

    @Test("a new store takes the log as it is when every partition starts at 0")
    func newStore() throws {
        let checked = try check(stored: nil, watermarks: [0: marks(0, 5), 1: marks(0, 0)])
        #expect(checked == StoreLog(identity: log, missingHeads: [:]))
    }

    @Test("another cluster, another topic or fewer partitions is refused, naming both logs")
    func otherLogs() throws {
        let stored = StoreLog(identity: log, missingHeads: [:])
        let all = [Int32(0): marks(0, 5), 1: marks(0, 5)]
        let otherCluster = LogIdentity(cluster: "c-2", topic: log.topic, partitions: 2)
        #expect(throws: LogMismatch.otherCluster(store: "s.db", stored: log, found: otherCluster)) {
            try check(stored: stored, log: otherCluster, watermarks: all)
        }
        let otherTopic = LogIdentity(cluster: "c-1", topic: "test.recipes.edits", partitions: 2)
        #expect(throws: LogMismatch.otherTopic(store: "s.db", stored: log, found: otherTopic)) {
            try check(stored: stored, log: otherTopic, watermarks: all)
        }
        let fewer = LogIdentity(cluster: "c-1", topic: log.topic, partitions: 1)
        #expect(throws: LogMismatch.fewerPartitions(store: "s.db", stored: log, found: fewer)) {
            try check(stored: stored, log: fewer, watermarks: [0: marks(0, 5)])
        }
        let message = LogMismatch.otherCluster(store: "s.db", stored: log, found: otherCluster).description
        #expect(message.contains("s.db") && message.contains("cluster c-1") && message.contains("cluster c-2"))
    }

    @Test("partitions added to the topic are taken on, read from offset 0")
    func morePartitions() throws {
        let more = LogIdentity(cluster: "c-1", topic: log.topic, partitions: 3)
        let checked = try check(stored: StoreLog(identity: log, missingHeads: [:]), positions: [0: 5, 1: 5], log: more,
                                watermarks: [0: marks(0, 5), 1: marks(0, 5), 2: marks(0, 1)])
        #expect(checked.identity == more)
    }

    @Test("a stored position past a partition's end is refused: the log is not the store's")
    func pastTheEnd() throws {
        #expect(throws: LogMismatch.pastTheEnd(store: "s.db", log: log, partition: 1, stored: 9, end: 3)) {
            try check(stored: StoreLog(identity: log, missingHeads: [:]), positions: [0: 5, 1: 9],
                      watermarks: [0: marks(0, 5), 1: marks(0, 3)])
        }
        // A store made before stores recorded their log is still checked by its positions.
        #expect(throws: LogMismatch.pastTheEnd(store: "s.db", log: log, partition: 1, stored: 9, end: 3)) {
            try check(stored: nil, positions: [0: 5, 1: 9], watermarks: [0: marks(0, 5), 1: marks(0, 3)])
        }
    }

    @Test("a head that is gone is refused, or with allowMissingHead recorded as partial; a hole after read records never")
    func missingHeads() throws {
        let watermarks = [Int32(0): marks(0, 5), 1: marks(40, 90)]
        #expect(throws: LogMismatch.missingHead(store: "s.db", log: log, partition: 1, stored: 0, first: 40)) {
            try check(stored: nil, watermarks: watermarks)
        }
        let partial = try check(stored: nil, watermarks: watermarks, allowMissingHead: true)
        #expect(partial.missingHeads == [1: 40] && partial.isPartial)
        // Once partial, the store reads on without being told again.
        #expect(try check(stored: partial, positions: [1: 60], watermarks: watermarks) == partial)
        // Records gone after the store's position would leave a hole: never allowed.
        #expect(throws: LogMismatch.missingHead(store: "s.db", log: log, partition: 1, stored: 20, first: 40)) {
            try check(stored: StoreLog(identity: log, missingHeads: [:]), positions: [1: 20], watermarks: watermarks,
                      allowMissingHead: true)
        }
    }

    // MARK: - Against real brokers

    @Test("a store built from one cluster refuses another cluster's log and is left as it was")
    func refusesAnotherCluster() throws {
        let fixture = try ProjectionFixture(partitions: 2)
        let id = newRecipeID()
        try fixture.send(id, [.titleChanged(title: "Banana bread"), .ingredientAdded(name: "Banana", amount: 3, metric: "pcs", ingredientID: nil),
                                    .recipeSaved])
        try fixture.project()
        let before = try StoreDump.string(storeAt: fixture.storePath)
        let recorded = try #require(try fixture.readModel().storeLog())
        #expect(recorded.identity.topic == fixture.decisions && recorded.identity.partitions == 2 && !recorded.isPartial)

        // A new, empty cluster with the same topic: what a store kept beside another dev journal meets.
        let other = try EmbeddedKafka(brokers: 1)
        try other.createTopic(fixture.decisions, partitions: 2)
        let otherConfig = KafkaConfig(bootstrapServers: other.bootstrapServers)
        let error = Result { try Projector(storePath: fixture.storePath, kafka: otherConfig, topic: fixture.decisions).catchUp(timeout: .seconds(30)) }
        guard case .failure(let failure as LogMismatch) = error, case .otherCluster = failure else {
            Issue.record("expected otherCluster, got \(error)")
            return
        }
        #expect(failure.description.contains(fixture.storePath))
        #expect(try StoreDump.string(storeAt: fixture.storePath) == before)
    }

    @Test("a replay of decisions whose head is gone is refused, unless allowed, which marks the store partial")
    func refusesAMissingHead() throws {
        let fixture = try ProjectionFixture(partitions: 1)
        // The embedded broker keeps at most 5 MiB a partition and drops the oldest records beyond
        // (random bytes: the producer compresses). None of them is a decision, so none counts.
        var random = SystemRandomNumberGenerator()
        let filler = (0..<(60 << 10)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let topic = fixture.decisions
        for _ in 0..<3 {
            let batch = (0..<40).map { _ in KafkaProducerMessage(topic: topic, key: "filler", value: filler) }
            for result in fixture.producer.sendBatch(batch) { _ = try result.get() }
        }
        let first = try fixture.kafkaWatermarks().low
        try #require(first > 0, "the broker dropped the head of the partition")

        let (path, config) = (fixture.storePath, fixture.config)
        let refused = Result { try Projector(storePath: path, kafka: config, topic: topic).catchUp(timeout: .seconds(30)) }
        #expect(throws: LogMismatch.missingHead(store: path, log: try #require(try self.identity(of: fixture)), partition: 0,
                                                stored: 0, first: first)) { try refused.get() }
        let allowed = Result { try Projector(storePath: path, kafka: config, topic: topic, allowMissingHead: true).catchUp(timeout: .seconds(30)) }
        let summary = try allowed.get()
        #expect(summary.records == Int(120 - first) && summary.superseded == summary.records)
        #expect(try fixture.readModel().storeLog()?.missingHeads == [0: first])
        #expect(try fixture.readModel().decisionPositions() == [0: 120])
    }

    private func identity(of fixture: ProjectionFixture) throws -> LogIdentity? {
        let consumer = try KafkaConsumer(config: fixture.config)
        defer { consumer.close() }
        return LogIdentity(cluster: try consumer.clusterID(), topic: fixture.decisions, partitions: fixture.partitions)
    }
}

extension ProjectionFixture {
    /// Partition 0's watermarks, asked of the broker.
    func kafkaWatermarks() throws -> KafkaWatermarks {
        let consumer = try KafkaConsumer(config: config)
        defer { consumer.close() }
        return try consumer.watermarks(KafkaTopicPartition(topic: decisions, partition: 0))
    }
}
