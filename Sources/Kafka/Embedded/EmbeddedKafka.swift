import CRdKafka

/// librdkafka's mock cluster: N brokers speaking the real Kafka protocol on
/// loopback TCP, for tests and `recipes dev`. Other processes and other
/// clients (`kcat`, `kafka-python`) connect with `bootstrapServers`.
///
/// It lives as long as this object and keeps at most 5 MiB (or 100,000
/// message sets) per partition, silently dropping older data: a place to
/// test and develop, never a store.
///
/// Threads: the mock cluster runs on its own thread inside librdkafka; the
/// methods here only post requests to it and may be called from any thread.
public final class EmbeddedKafka: Sendable {
    private let client: RDKafkaClient
    private nonisolated(unsafe) let cluster: OpaquePointer
    /// `host:port,…` of the mock brokers.
    public let bootstrapServers: String
    /// What the embedded broker keeps of a partition: past either, it drops the
    /// oldest records without a word (librdkafka's mock, not configurable in 2.0.2).
    public static let retainedBytesPerPartition = 5 << 20
    public static let retainedMessageSetsPerPartition = 100_000
    /// The `fetch.wait.max.ms` for its consumers. It answers a fetch only when the fetch's
    /// wait ends, even when records arrive sooner (a real broker answers at once), so the
    /// wait bounds how soon a consumer sees a record; each fetch of an idle consumer costs
    /// the process a little CPU, so it is not shorter.
    public static let fetchWaitMilliseconds = 10

    public let brokerCount: Int

    public init(brokers: Int = 3) throws {
        guard brokers >= 1 else { throw KafkaError(.embeddedBroker, "a cluster needs at least one broker, got \(brokers)") }
        // The mock cluster needs an rd_kafka_t for bookkeeping; it is never used otherwise.
        client = try RDKafkaClient(kind: RD_KAFKA_PRODUCER, properties: [("log_level", "0")],
                                   bootstrapServers: "embedded")
        guard let cluster = rd_kafka_mock_cluster_new(client.handle, Int32(brokers)) else {
            client.destroy()
            throw KafkaError(.embeddedBroker, "librdkafka could not start a mock cluster of \(brokers) brokers")
        }
        self.cluster = cluster
        bootstrapServers = String(cString: rd_kafka_mock_cluster_bootstraps(cluster))
        // Answers go out at once, as a real broker's do (`BrokerListeners.disableNagle`).
        BrokerListeners.disableNagle(ports: BrokerListeners.ports(of: bootstrapServers))
        brokerCount = brokers
        IdleCluster.register(IdleCluster(), for: bootstrapServers)
    }

    deinit {
        IdleCluster.unregister(bootstrapServers)
        rd_kafka_mock_cluster_destroy(cluster)
        client.destroy()
    }

    /// Creates a topic. The mock does not implement the CreateTopics request
    /// (`KafkaAdmin.createTopics` times out against it); this is its own way.
    public func createTopic(_ name: String, partitions: Int, replicationFactor: Int = 1) throws {
        let err = rd_kafka_mock_topic_create(cluster, name, Int32(partitions), Int32(min(replicationFactor, brokerCount)))
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError.rdKafka(.embeddedBroker, "cannot create topic \(name)", err)
        }
    }

    // MARK: - Fault injection

    /// Kafka protocol request kinds that errors can be pushed for. Not Metadata (3): the
    /// 2.0.2 mock answers it without looking at pushed errors.
    public enum Request: Int16, Sendable {
        case produce = 0, fetch = 1, listOffsets = 2
        case offsetCommit = 8, offsetFetch = 9, findCoordinator = 10
        case joinGroup = 11, heartbeat = 12, leaveGroup = 13, syncGroup = 14
        case initProducerId = 22
    }

    /// Kafka protocol error codes worth injecting.
    public enum BrokerError: Int32, Sendable {
        case notLeaderForPartition = 6
        case requestTimedOut = 7
        case notCoordinator = 16
        case notEnoughReplicas = 19
        case notEnoughReplicasAfterAppend = 20
        case leaderNotAvailable = 5
        /// Not an answer: the broker closes the connection on the request, as one that goes
        /// away does (librdkafka's `RD_KAFKA_RESP_ERR__TRANSPORT`). Nothing of it is appended.
        case connectionDropped = -195
    }

    /// The next `errors.count` requests of this kind, on any broker, fail
    /// with these errors in order.
    public func pushRequestErrors(_ request: Request, _ errors: [BrokerError]) {
        let codes = errors.map { rd_kafka_resp_err_t(rawValue: $0.rawValue) }
        rd_kafka_mock_push_request_errors_array(cluster, request.rawValue, codes.count, codes)
    }

    // There is no broker down and up: librdkafka 2.0.2's mock closes the broker's listener and
    // binds its port again at once, and aborts the process when another socket took the port in
    // that instant (rdkafka_mock.c, "Failed to create mock broker listener"). A broker away is
    // injected instead: errors and dropped connections (`pushRequestErrors`), or no answers at
    // all (`setRoundTripTime`).

    /// Delays every answer of a broker.
    public func setRoundTripTime(_ brokerID: Int32, milliseconds: Int) {
        rd_kafka_mock_broker_set_rtt(cluster, brokerID, Int32(milliseconds))
    }

    /// Moves a partition's leadership to another broker.
    public func setPartitionLeader(topic: String, partition: Int32, brokerID: Int32) throws {
        let err = rd_kafka_mock_partition_set_leader(cluster, topic, partition, brokerID)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError.rdKafka(.embeddedBroker, "cannot move leader of \(topic)[\(partition)] to broker \(brokerID)", err)
        }
    }

    /// Makes a broker the group coordinator.
    public func setGroupCoordinator(group: String, brokerID: Int32) {
        rd_kafka_mock_coordinator_set(cluster, "group", group, brokerID)
    }
}
