import CRdKafka

/// An error from the Kafka layer.
///
/// A struct around a private enum of codes, so codes can be added without
/// breaking callers that switch on them; every error carries a message that
/// names what failed (a property, a broker address, a topic) and, where the
/// failure came from librdkafka, librdkafka's own text and error code.
public struct KafkaError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Kind: String, Sendable {
            case invalidConfiguration, clientCreation, produceFailed, deliveryFailed,
                timedOut, unknownTopic, consumerFailed, offsetOutOfRange, adminFailed, embeddedBroker, closed
        }
        fileprivate let kind: Kind

        /// A property was unknown to librdkafka or had a value it refused.
        public static let invalidConfiguration = Code(kind: .invalidConfiguration)
        /// librdkafka refused to create a client with an accepted configuration.
        public static let clientCreation = Code(kind: .clientCreation)
        /// A record could not be enqueued (too large, unknown partition, fatal producer state).
        public static let produceFailed = Code(kind: .produceFailed)
        /// A record was enqueued but its delivery failed; see `persistence`.
        public static let deliveryFailed = Code(kind: .deliveryFailed)
        /// No answer within the deadline (unreachable broker, unimplemented request).
        public static let timedOut = Code(kind: .timedOut)
        /// The topic does not exist on the cluster.
        public static let unknownTopic = Code(kind: .unknownTopic)
        /// A consumer operation (assign, subscribe, seek, poll) failed.
        public static let consumerFailed = Code(kind: .consumerFailed)
        /// A consumer was to read from an offset the partition does not hold, and
        /// its `auto.offset.reset` is `error`: it does not move the position by itself.
        public static let offsetOutOfRange = Code(kind: .offsetOutOfRange)
        /// An admin request (create topics, metadata) failed.
        public static let adminFailed = Code(kind: .adminFailed)
        /// The embedded mock cluster refused a request.
        public static let embeddedBroker = Code(kind: .embeddedBroker)
        /// The client was already shut down.
        public static let closed = Code(kind: .closed)

        public var description: String { kind.rawValue }
    }

    /// Whether a record whose delivery failed may still be in the log.
    public enum Persistence: String, Sendable {
        /// Certainly not written: safe to retry without creating a duplicate.
        case notPersisted
        /// May have been written: a retry may duplicate it (the consumer must dedupe).
        case possiblyPersisted
        /// Written, although the delivery report carries an error.
        case persisted
    }

    public let code: Code
    public let message: String
    /// librdkafka's `rd_kafka_resp_err_t`, when the error came from librdkafka.
    public let rdKafkaCode: Int32?
    /// Set for `deliveryFailed`.
    public let persistence: Persistence?

    public init(_ code: Code, _ message: String, rdKafkaCode: Int32? = nil, persistence: Persistence? = nil) {
        self.code = code
        self.message = message
        self.rdKafkaCode = rdKafkaCode
        self.persistence = persistence
    }

    public var description: String { "\(code): \(message)" }
}

extension KafkaError {
    /// An error built from a librdkafka response code, with librdkafka's text appended.
    static func rdKafka(_ code: Code, _ context: String, _ err: rd_kafka_resp_err_t,
                        persistence: Persistence? = nil) -> KafkaError {
        let text = String(cString: rd_kafka_err2str(err))
        let name = String(cString: rd_kafka_err2name(err))
        return KafkaError(code, "\(context): \(text) (\(name))", rdKafkaCode: err.rawValue, persistence: persistence)
    }
}
