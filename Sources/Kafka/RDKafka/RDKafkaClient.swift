import CRdKafka
import Threads

/// Owns one `rd_kafka_t` and what librdkafka reports about it outside any
/// request (the `error_cb`), so that a timeout can say *why* (for example
/// "connection refused" from the broker address).
///
/// The `error_cb` runs on whichever thread serves the handle's main queue:
/// the producer's poll thread, or the consumer's polling thread.
final class RDKafkaClient: Sendable {
    /// The handle; valid until `destroy()`.
    nonisolated(unsafe) let handle: OpaquePointer
    let bootstrapServers: String
    private let contextReference: Unmanaged<ClientContext>

    init(kind: rd_kafka_type_t, properties: [(String, String)], bootstrapServers: String,
         configure: (OpaquePointer) throws -> Void = { _ in }) throws {
        let conf = try RDKafkaConfig.make(properties)
        let contextReference = Unmanaged.passRetained(ClientContext(bootstrapServers: bootstrapServers))
        rd_kafka_conf_set_opaque(conf, contextReference.toOpaque())
        rd_kafka_conf_set_error_cb(conf, rdKafkaErrorCallback)
        do { try configure(conf) } catch {
            rd_kafka_conf_destroy(conf)
            contextReference.release()
            throw error
        }
        var errstr = [CChar](repeating: 0, count: 512)
        // rd_kafka_new takes ownership of conf only on success.
        guard let handle = rd_kafka_new(kind, conf, &errstr, errstr.count) else {
            rd_kafka_conf_destroy(conf)
            contextReference.release()
            throw KafkaError(.clientCreation, RDKafkaConfig.string(from: errstr))
        }
        self.handle = handle
        self.bootstrapServers = bootstrapServers
        self.contextReference = contextReference
    }

    var context: ClientContext { contextReference.takeUnretainedValue() }

    /// Context for an error message: the bootstrap servers and the last client error.
    var diagnosis: String { context.diagnosis }

    /// The fatal error of an idempotent producer, if it entered that state.
    var fatalError: String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let err = rd_kafka_fatal_error(handle, &buffer, buffer.count)
        return err == RD_KAFKA_RESP_ERR_NO_ERROR ? nil : RDKafkaConfig.string(from: buffer)
    }

    /// Blocks until librdkafka has released every resource of the handle.
    func destroy() {
        rd_kafka_destroy(handle)
        contextReference.release()
    }

    // MARK: - Metadata

    /// Partition ids of a topic, asked of the cluster.
    func partitions(of topic: String, timeoutMs: Int32) throws -> [Int32] {
        guard let rkt = rd_kafka_topic_new(handle, topic, nil) else {
            throw KafkaError(.adminFailed, "cannot open topic \(topic)")
        }
        defer { rd_kafka_topic_destroy(rkt) }
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let err = rd_kafka_metadata(handle, 0, rkt, &metadata, timeoutMs)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata else {
            throw KafkaError.rdKafka(Self.isUnreachable(err) ? .timedOut : .adminFailed,
                                     "metadata for topic \(topic) (\(diagnosis))", err)
        }
        defer { rd_kafka_metadata_destroy(metadata) }
        guard metadata.pointee.topic_cnt == 1 else {
            throw KafkaError(.unknownTopic, "topic \(topic) not in metadata")
        }
        let entry = metadata.pointee.topics[0]
        if entry.err != RD_KAFKA_RESP_ERR_NO_ERROR {
            throw KafkaError.rdKafka(.unknownTopic, "topic \(topic)", entry.err)
        }
        return (0..<Int(entry.partition_cnt)).map { entry.partitions[$0].id }.sorted()
    }

    /// The cluster's id, as its metadata gives it.
    func clusterID(timeoutMs: Int32) throws -> String {
        guard let id = rd_kafka_clusterid(handle, timeoutMs) else {
            throw KafkaError(.timedOut, "the cluster did not give its id within \(timeoutMs) ms (\(diagnosis))")
        }
        defer { rd_kafka_mem_free(handle, id) }
        return String(cString: id)
    }

    /// Every topic and its partition count.
    func topics(timeoutMs: Int32) throws -> [String: Int] {
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let err = rd_kafka_metadata(handle, 1, nil, &metadata, timeoutMs)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata else {
            throw KafkaError.rdKafka(Self.isUnreachable(err) ? .timedOut : .adminFailed,
                                     "cluster metadata (\(diagnosis))", err)
        }
        defer { rd_kafka_metadata_destroy(metadata) }
        var result: [String: Int] = [:]
        for index in 0..<Int(metadata.pointee.topic_cnt) {
            let entry = metadata.pointee.topics[index]
            result[String(cString: entry.topic)] = Int(entry.partition_cnt)
        }
        return result
    }

    /// Errors that mean no broker answered in time.
    static func isUnreachable(_ err: rd_kafka_resp_err_t) -> Bool {
        [RD_KAFKA_RESP_ERR__TIMED_OUT, RD_KAFKA_RESP_ERR__TRANSPORT, RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN,
         RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT].contains(err)
    }

    /// The watermarks as last seen in fetch responses, without asking; nil when none was seen yet.
    func cachedWatermarks(_ tp: KafkaTopicPartition) -> KafkaWatermarks? {
        var low: Int64 = 0, high: Int64 = 0
        let err = rd_kafka_get_watermark_offsets(handle, tp.topic, tp.partition, &low, &high)
        // librdkafka reports an offset it has not learnt yet as RD_KAFKA_OFFSET_INVALID (-1001).
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, high >= 0 else { return nil }
        return KafkaWatermarks(low: max(low, 0), high: high)
    }

    /// Asks the partition leader for the low and high watermarks.
    func queryWatermarks(_ tp: KafkaTopicPartition, timeoutMs: Int32) throws -> KafkaWatermarks {
        var low: Int64 = 0
        var high: Int64 = 0
        let err = rd_kafka_query_watermark_offsets(handle, tp.topic, tp.partition, &low, &high, timeoutMs)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError.rdKafka(Self.isUnreachable(err) ? .timedOut : .consumerFailed,
                                     "watermarks of \(tp) (\(diagnosis))", err)
        }
        return KafkaWatermarks(low: low, high: high)
    }
}

/// The conf opaque: what C callbacks of one handle share with Swift.
final class ClientContext: Sendable {
    let bootstrapServers: String
    let lastError = Locked<String?>(nil)
    /// Set by a consumer that subscribes; read by the rebalance callback.
    let rebalanceHandler = Locked<KafkaRebalanceHandler?>(nil)
    /// An assignment the rebalance callback could not apply, thrown by the next `poll`.
    let rebalanceFailure = Locked<KafkaError?>(nil)
    /// Whether the group's rebalance protocol was COOPERATIVE when the rebalance callback
    /// last learnt it: librdkafka stops naming it once the consumer closes.
    let cooperativeRebalance = Locked<Bool>(false)
    /// A consumer's pausing while idle, which a new assignment wakes.
    let idleFetching = Locked<IdleFetching?>(nil)

    init(bootstrapServers: String) { self.bootstrapServers = bootstrapServers }

    /// The bootstrap servers and the last error librdkafka reported on its
    /// own (transport, all brokers down, fatal): what explains a timeout.
    var diagnosis: String {
        var text = "bootstrap servers \(bootstrapServers)"
        if let last = lastError.withLock({ $0 }) { text += "; last client error: \(last)" }
        return text
    }
}

/// `error_cb`: librdkafka's errors that belong to no request. Most are
/// transient (it retries); they are kept to explain a later timeout.
private func rdKafkaErrorCallback(_ rk: OpaquePointer?, _ err: Int32, _ reason: UnsafePointer<CChar>?,
                                  _ opaque: UnsafeMutableRawPointer?) {
    guard let opaque else { return }
    let context = Unmanaged<ClientContext>.fromOpaque(opaque).takeUnretainedValue()
    let code = rd_kafka_resp_err_t(rawValue: err)
    let text = reason.map { String(cString: $0) } ?? String(cString: rd_kafka_err2str(code))
    context.lastError.withLock { $0 = text }
}
