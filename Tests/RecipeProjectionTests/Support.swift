import Foundation
import Kafka
import RecipeDecisions
import RecipeDomain
import RecipeProjection
import RecipeWire
import Testing

/// An embedded cluster with the edits and decisions topics, a producer of encoded
/// commands, and a fresh store file: what every projection test starts from.
/// What `send` appends is decided at once by a decider of every partition, so the
/// decisions topic holds one decision per command, at the command's offset.
final class ProjectionFixture: Sendable {
    let kafka: EmbeddedKafka
    let producer: KafkaProducer
    /// Where commands are sent.
    let topic = RecipeTopics().edits
    /// What projectors fold.
    let decisions = RecipeTopics().decisions
    let storePath: String
    let partitions: Int
    private let encoder = RecordEncoder(source: "projection-tests")

    init(partitions: Int = 4) throws {
        kafka = try EmbeddedKafka(brokers: 1)
        try kafka.createTopic(topic, partitions: partitions)
        for decided in [decisions, RecipeTopics().committed] { try kafka.createTopic(decided, partitions: partitions) }
        producer = try KafkaProducer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
        storePath = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).db").path
        self.partitions = partitions
    }

    deinit {
        removeStore(storePath)
    }

    var config: KafkaConfig { KafkaConfig(bootstrapServers: kafka.bootstrapServers) }

    /// Appends commands for one recipe, in order, and returns their positions.
    @discardableResult
    func send(_ recipeID: RecipeID, _ commands: [RecipeCommand], actor: String = "alice",
              time: Int64 = 1_796_000_000_000) throws -> [KafkaDeliveryReport] {
        try send(commands.enumerated().map { index, command in
            CommandEnvelope(commandID: UUID().uuidString, recipeID: recipeID, actor: actor,
                            time: Timestamp(millisecondsSinceEpoch: time + Int64(index) * 1000), command: command)
        })
    }

    @discardableResult
    func send(_ envelopes: [CommandEnvelope]) throws -> [KafkaDeliveryReport] {
        let messages = envelopes.map {
            KafkaProducerMessage(topic: topic, key: RecordKey.key(forRecipe: $0.recipeID), value: encoder.encode($0),
                                 headers: [KafkaHeader(key: WireFormat.contentTypeHeaderName, value: WireFormat.contentType)])
        }
        let reports = try producer.sendBatch(messages).map { try $0.get() }
        try decide()
        return reports
    }

    /// Decides every command on the edits topic that has no decision yet (records appended
    /// other than through `send` too), with a decider of its own (30 s at most: then it throws).
    @discardableResult
    func decide() throws -> Decider.Totals {
        try Decider(kafka: config, topics: RecipeTopics()).catchUp(timeout: .seconds(30))
    }

    /// Decides what is undecided, then runs a projector until it has applied every decision
    /// (30 s at most: then it throws).
    @discardableResult
    func project() throws -> BatchSummary {
        try decide()
        return try Projector(storePath: storePath, kafka: config, topic: decisions).catchUp(timeout: .seconds(30))
    }

    func readModel() throws -> ReadModel { try ReadModel(path: storePath) }
}

func newRecipeID() -> RecipeID { RecipeID(made: UUID().uuidString.lowercased()) }

/// Removes a store and the files SQLite and the store lock keep beside it.
func removeStore(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
