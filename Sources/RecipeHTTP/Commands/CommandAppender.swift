import Kafka
import RecipeDomain
import RecipeWire

/// Appends commands to the edits topic, each as the canonical CloudEvent
/// (`RecordEncoder`), keyed by recipe id, with the content-type header.
public struct CommandAppender: Sendable {
    public let producer: KafkaProducer
    public let topic: String

    public init(producer: KafkaProducer, topic: String) {
        self.producer = producer
        self.topic = topic
    }

    public func message(_ envelope: CommandEnvelope, source: String) -> KafkaProducerMessage {
        KafkaProducerMessage(topic: topic, key: RecordKey.key(forRecipe: envelope.recipeID),
                             value: RecordEncoder(source: source).encode(envelope),
                             headers: [KafkaHeader(key: WireFormat.contentTypeHeaderName, value: WireFormat.contentType)])
    }

    public func append(_ envelope: CommandEnvelope, source: String) async throws -> KafkaDeliveryReport {
        try await producer.send(message(envelope, source: source))
    }

    public func append(_ records: [(CommandEnvelope, String)]) async -> [Result<KafkaDeliveryReport, KafkaError>] {
        await producer.sendBatch(records.map { message($0.0, source: $0.1) })
    }

    /// Appends commands of one source in the order given (so each recipe's keep
    /// their order): one result per command, in that order.
    public func append(_ envelopes: [CommandEnvelope], source: String) async -> [Result<KafkaDeliveryReport, KafkaError>] {
        let encoder = RecordEncoder(source: source)
        let header = [KafkaHeader(key: WireFormat.contentTypeHeaderName, value: WireFormat.contentType)]
        return await producer.sendBatch(envelopes.map {
            KafkaProducerMessage(topic: topic, key: RecordKey.key(forRecipe: $0.recipeID), value: encoder.encode($0), headers: header)
        })
    }
}
