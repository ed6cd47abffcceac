import CRdKafka
import Glibc
import Synchronization

/// librdkafka's mock cluster: N brokers speaking the real Kafka protocol on
/// loopback TCP, for tests and `recipes dev`. Other processes and other
/// clients (`kcat`, `kafka-python`) connect with `bootstrapServers`.
///
/// It lives as long as this object and keeps at most 5 MiB (or 100,000
/// message sets) per partition, silently dropping older data: a place to
/// test and develop, never a store.
///
/// ```swift
/// let kafka = try EmbeddedKafka(brokers: 3)
/// try kafka.createTopic("recipes.edits", partitions: 6)
/// kafka.setBrokerDown(2)   // fault injection
/// ```
///
/// Threads: the mock cluster runs on its own thread inside librdkafka; the
/// methods here only post requests to it and may be called from any thread.
public final class EmbeddedKafka: Sendable {
    private let client: RDKafkaClient
    private nonisolated(unsafe) let cluster: OpaquePointer
    /// `host:port,…` of the mock brokers.
    public let bootstrapServers: String
    /// Sockets holding the ports of brokers that are down (see `setBrokerDown`).
    private let reservedPorts = Mutex<[Int32: Int32]>([:])
    /// What the embedded broker keeps of a partition: past either, it drops the
    /// oldest records without a word (librdkafka's mock, not configurable in 2.0.2).
    public static let retainedBytesPerPartition = 5 << 20
    public static let retainedMessageSetsPerPartition = 100_000

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
        brokerCount = brokers
    }

    deinit {
        for socket in reservedPorts.withLock({ $0.values }) { close(socket) }
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

    /// Kafka protocol request kinds that errors can be pushed for.
    public enum Request: Int16, Sendable {
        case produce = 0, fetch = 1, listOffsets = 2, metadata = 3
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
    }

    /// The next `errors.count` requests of this kind, on any broker, fail
    /// with these errors in order.
    public func pushRequestErrors(_ request: Request, _ errors: [BrokerError]) {
        let codes = errors.map { rd_kafka_resp_err_t(rawValue: $0.rawValue) }
        rd_kafka_mock_push_request_errors_array(cluster, request.rawValue, codes.count, codes)
    }

    /// Takes a broker off the network: its connections close and it
    /// accepts none until `setBrokerUp`. Its port stays reserved meanwhile:
    /// the broker listens on it again when it comes up, and librdkafka aborts
    /// the process if another socket took it in between (once nothing listens
    /// there, any new connection may get it as its local port).
    public func setBrokerDown(_ brokerID: Int32) {
        rd_kafka_mock_broker_set_down(cluster, brokerID)
        guard let port = port(of: brokerID), let socket = Self.reserve(port: port, within: .seconds(10)) else { return }
        reservedPorts.withLock { $0[brokerID] = socket }
    }

    public func setBrokerUp(_ brokerID: Int32) {
        if let socket = reservedPorts.withLock({ $0.removeValue(forKey: brokerID) }) {
            close(socket)
        } else if let port = port(of: brokerID), let socket = Self.reserve(port: port, within: .seconds(10)) {
            // Not reserved when it went down (its closing connections still held the port):
            // wait until the port is free again, as librdkafka cannot listen on a port in use.
            close(socket)
        }
        rd_kafka_mock_broker_set_up(cluster, brokerID)
    }

    /// `reserve(port:)`, tried again while the port is in use (connections that are
    /// closing hold it a moment): binding is a retry, the kernel tells no one when a port frees.
    private static func reserve(port: UInt16, within timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let socket = reserve(port: port) { return socket }
            if ContinuousClock.now >= deadline { return nil }
            usleep(1_000)
        }
    }

    /// The port of a broker: `bootstrapServers` lists the brokers in id order.
    private func port(of brokerID: Int32) -> UInt16? {
        let addresses = bootstrapServers.split(separator: ",")
        guard brokerID >= 1, Int(brokerID) <= addresses.count else { return nil }
        return addresses[Int(brokerID) - 1].split(separator: ":").last.flatMap { UInt16($0) }
    }

    /// A socket bound to the loopback port (not listening), or nil if it is taken.
    private static func reserve(port: UInt16) -> Int32? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        // The closed broker connections linger in TIME_WAIT on this port.
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(socket)
            return nil
        }
        return socket
    }

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
