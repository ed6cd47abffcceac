import Kafka
import RecipeDomain
import RecipeWire

/// Appends commands to the edits topic, each as the canonical CloudEvent
/// (`RecordEncoder`), keyed by recipe id, with the content-type header.
public struct CommandAppender: Sendable {
    public let producer: KafkaProducer
    public let topic: String
    /// For a log that drops records when full: appends past it are refused with `LogFull`.
    public let capacity: LogCapacity?

    public init(producer: KafkaProducer, topic: String, capacity: LogCapacity? = nil) {
        self.producer = producer
        self.topic = topic
        self.capacity = capacity
    }

    public func message(_ envelope: CommandEnvelope, source: String) -> KafkaProducerMessage {
        KafkaProducerMessage(topic: topic, key: RecordKey.key(forRecipe: envelope.recipeID),
                             value: RecordEncoder(source: source).encode(envelope),
                             headers: [KafkaHeader(key: WireFormat.contentTypeHeaderName, value: WireFormat.contentType)])
    }

    public func append(_ envelope: CommandEnvelope, source: String) async throws -> KafkaDeliveryReport {
        let message = message(envelope, source: source)
        try capacity?.admit(message)
        return try await producer.send(message)
    }

    public func append(_ records: [(CommandEnvelope, String)]) async -> [Result<KafkaDeliveryReport, KafkaError>] {
        await producer.sendBatch(records.map { message($0.0, source: $0.1) })
    }
}
