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
                             value: RecordEncoder(source: source).encode(envelope), headers: Self.headers)
    }

    /// A built command's record: the builder's bytes when they are canonical, else encoded.
    public func message(_ command: CommandBuilder.Command) -> KafkaProducerMessage {
        KafkaProducerMessage(topic: topic, key: command.key, value: command.value, headers: Self.headers)
    }

    /// Every record's: one array shared by all messages rather than one built for each.
    static let headers = [KafkaHeader(key: WireFormat.contentTypeHeaderName, value: WireFormat.contentType)]

    /// Appends one command and returns where it landed, blocking the calling thread (a
    /// connection thread, the CLI's) until the log has answered.
    public func append(_ envelope: CommandEnvelope, source: String) throws -> KafkaDeliveryReport {
        let message = message(envelope, source: source)
        try capacity?.admit(message)
        return try producer.send(message)
    }

    /// Built commands (a batch), in the order given (so each recipe's keep their order): their
    /// records as the builder holds them, or encoded; one result per command, in that order,
    /// once every one is answered.
    public func append(_ commands: [CommandBuilder.Command], source: String) -> [Result<KafkaDeliveryReport, any Error>] {
        let (admitted, refusals, count) = admit(commands.map(message))
        return results(count: count, refusals: refusals, reports: producer.enqueue(admitted).results())
    }

    /// The records the log's capacity admits, each counted with those before it (the journal
    /// has not seen any of them yet), the refusals by index, and how many there were.
    private func admit(_ messages: [KafkaProducerMessage]) -> ([KafkaProducerMessage], [Int: LogFull], Int) {
        guard let capacity else { return (messages, [:], messages.count) }
        var pending = LogCapacity.Pending()
        var refusals: [Int: LogFull] = [:]
        var admitted: [KafkaProducerMessage] = []
        for (index, message) in messages.enumerated() {
            do { try capacity.admit(message, after: &pending); admitted.append(message) } catch { refusals[index] = error }
        }
        return (admitted, refusals, messages.count)
    }

    private func results(count: Int, refusals: [Int: LogFull],
                         reports: [Result<KafkaDeliveryReport, KafkaError>]) -> [Result<KafkaDeliveryReport, any Error>] {
        var next = reports.makeIterator()
        return (0..<count).map { index in
            if let refusal = refusals[index] { return .failure(refusal) }
            return next.next()!.mapError { $0 }
        }
    }
}
