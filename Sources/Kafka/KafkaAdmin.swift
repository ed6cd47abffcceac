import CRdKafka

/// A topic to create: its partition count is fixed up front (growing it
/// later would move keys to other partitions and break per-key order).
public struct KafkaNewTopic: Sendable, Hashable {
    public var name: String
    public var partitions: Int
    public var replicationFactor: Int
    /// Topic configs such as `retention.ms`, `cleanup.policy`, `min.insync.replicas`.
    public var configs: [String: String]

    public init(name: String, partitions: Int, replicationFactor: Int, configs: [String: String] = [:]) {
        self.name = name
        self.partitions = partitions
        self.replicationFactor = replicationFactor
        self.configs = configs
    }
}

/// Cluster administration through librdkafka's admin API: for real clusters.
///
/// The embedded mock broker implements neither CreateTopics nor the config
/// requests; against it `createTopics` fails with `timedOut` after `timeout`
/// (use `EmbeddedKafka.createTopic` there).
///
/// Threads: each call waits on a private result queue; callable from any thread.
public final class KafkaAdmin: Sendable {
    private let client: RDKafkaClient

    public init(config: KafkaConfig) throws {
        client = try RDKafkaClient(kind: RD_KAFKA_PRODUCER, properties: config.resolved(defaults: []),
                                   bootstrapServers: config.bootstrapServers)
    }

    deinit { client.destroy() }

    public enum Creation: Sendable, Equatable {
        case created
        case alreadyExisted
    }

    /// Creates the topics and says of each whether it was made now or existed
    /// before (the settings of an existing topic are left as they are).
    public func createTopics(_ topics: [KafkaNewTopic], timeout: Duration = .seconds(30)) throws -> [String: Creation] {
        var errstr = [CChar](repeating: 0, count: 512)
        var newTopics: [OpaquePointer?] = []
        defer { newTopics.forEach { rd_kafka_NewTopic_destroy($0) } }
        for topic in topics {
            guard let newTopic = rd_kafka_NewTopic_new(topic.name, Int32(topic.partitions),
                                                       Int32(topic.replicationFactor), &errstr, errstr.count) else {
                throw KafkaError(.adminFailed, "topic \(topic.name): \(RDKafkaConfig.string(from: errstr))")
            }
            newTopics.append(newTopic)
            for (key, value) in topic.configs.sorted(by: { $0.key < $1.key }) {
                let err = rd_kafka_NewTopic_set_config(newTopic, key, value)
                guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
                    throw KafkaError.rdKafka(.adminFailed, "topic \(topic.name) config \(key)=\(value)", err)
                }
            }
        }
        let options = rd_kafka_AdminOptions_new(client.handle, RD_KAFKA_ADMIN_OP_CREATETOPICS)
        defer { rd_kafka_AdminOptions_destroy(options) }
        _ = rd_kafka_AdminOptions_set_request_timeout(options, timeout.milliseconds, &errstr, errstr.count)
        _ = rd_kafka_AdminOptions_set_operation_timeout(options, timeout.milliseconds, &errstr, errstr.count)

        let queue = rd_kafka_queue_new(client.handle)
        defer { rd_kafka_queue_destroy(queue) }
        rd_kafka_CreateTopics(client.handle, &newTopics, newTopics.count, options, queue)
        // librdkafka answers by the request timeout; the margin only guards against a lost event.
        guard let event = rd_kafka_queue_poll(queue, timeout.milliseconds + 5_000) else {
            throw timeoutError(timeout)
        }
        defer { rd_kafka_event_destroy(event) }
        let err = rd_kafka_event_error(event)
        if err == RD_KAFKA_RESP_ERR__TIMED_OUT || err == RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT {
            throw timeoutError(timeout)
        }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, let result = rd_kafka_event_CreateTopics_result(event) else {
            throw KafkaError.rdKafka(.adminFailed, "CreateTopics (\(client.diagnosis))", err)
        }
        var count = 0
        let results = rd_kafka_CreateTopics_result_topics(result, &count)
        var creations: [String: Creation] = [:]
        for index in 0..<count {
            let topicResult = results![index]
            let name = String(cString: rd_kafka_topic_result_name(topicResult))
            let topicErr = rd_kafka_topic_result_error(topicResult)
            switch topicErr {
            case RD_KAFKA_RESP_ERR_NO_ERROR: creations[name] = .created
            case RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS: creations[name] = .alreadyExisted
            default:
                let text = rd_kafka_topic_result_error_string(topicResult).map { String(cString: $0) } ?? ""
                throw KafkaError.rdKafka(.adminFailed, "create topic \(name): \(text)", topicErr)
            }
        }
        return creations
    }

    private func timeoutError(_ timeout: Duration) -> KafkaError {
        KafkaError(.timedOut, "CreateTopics got no answer within \(timeout) (\(client.diagnosis)); "
            + "the broker may be unreachable, or may not implement CreateTopics, as librdkafka's embedded mock broker does not")
    }

    /// Every topic of the cluster with its partition count.
    public func listTopics(timeout: Duration = .seconds(10)) throws -> [String: Int] {
        try client.topics(timeoutMs: timeout.milliseconds)
    }

    /// Partition ids of one topic.
    public func partitions(of topic: String, timeout: Duration = .seconds(10)) throws -> [Int32] {
        try client.partitions(of: topic, timeoutMs: timeout.milliseconds)
    }
}
