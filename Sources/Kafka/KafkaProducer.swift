import CRdKafka
import Foundation
import Threads

/// Appends records to Kafka and reports where each one landed.
///
/// Idempotent by default (`enable.idempotence=true`, which implies
/// `acks=all`) and partitions keys with `murmur2_random`, so a key lands on
/// the partition the Java client or `kafka-python` would choose.
///
/// Threads: a dedicated thread owned by the producer calls `rd_kafka_poll`;
/// librdkafka runs the delivery-report and error callbacks on it, and they
/// wake the threads blocked in `send` or `KafkaPendingBatch.results()`. Nothing
/// else polls the producer. Every call blocks its caller at most until its records
/// are answered (`message.timeout.ms`); none may be made from a Swift task.
public final class KafkaProducer: Sendable {
    /// librdkafka properties every producer gets unless the config overrides them.
    public static let defaultProperties: [(String, String)] = [
        ("enable.idempotence", "true"),
        ("acks", "all"),
        ("partitioner", "murmur2_random"),
        ("compression.type", "lz4"),
        ("linger.ms", "5"),
    ]

    private let client: RDKafkaClient
    private let state = Locked(State())
    private let pollThread: RDKafkaPollThread
    /// Wakes this process's idle consumers of the cluster when records land (`IdleFetching`).
    private let appendSignal: IdleCluster?

    private struct State {
        var lifecycle = Lifecycle.running
        var topics: [String: TopicHandle] = [:]
        /// Callers in `enqueue`: shutdown waits for none before it releases the handle.
        var enqueuers = 0
    }

    private enum Lifecycle { case running, closing, closed }

    public init(config: KafkaConfig) throws {
        client = try RDKafkaClient(
            kind: RD_KAFKA_PRODUCER,
            properties: config.resolved(defaults: Self.defaultProperties),
            bootstrapServers: config.bootstrapServers
        ) { conf in
            rd_kafka_conf_set_dr_msg_cb(conf, deliveryReportCallback)
        }
        pollThread = RDKafkaPollThread(client: client, name: "producer-poll")
        appendSignal = IdleCluster.of(config.bootstrapServers)
    }

    /// A producer released without `shutdown` does not wait: records still
    /// outstanding fail at once (their pending batches are told), since a
    /// deinit that blocks for seconds stalls whatever thread dropped the last reference.
    deinit {
        close(timeout: .zero)
    }

    // MARK: - Sending

    /// Appends one record and returns its partition and offset once the
    /// cluster has acknowledged it (with `acks=all`: on every in-sync replica),
    /// blocking the calling thread until then.
    /// Throws `deliveryFailed` (with `persistence`) when it cannot be delivered.
    public func send(_ message: KafkaProducerMessage) throws(KafkaError) -> KafkaDeliveryReport {
        try enqueue([message]).results()[0].get()
    }

    public func send(topic: String, key: String, value: [UInt8],
                     headers: [KafkaHeader] = []) throws(KafkaError) -> KafkaDeliveryReport {
        try send(KafkaProducerMessage(topic: topic, key: key, value: value, headers: headers))
    }

    /// Appends many records, letting librdkafka batch them, and returns one
    /// result per message in the same order (a report, or the error of that
    /// record) once every one is answered. Records of one key keep their relative order.
    public func sendBatch(_ messages: [KafkaProducerMessage]) -> [Result<KafkaDeliveryReport, KafkaError>] {
        enqueue(messages).results()
    }

    /// Hands records to librdkafka without waiting for their delivery: the
    /// throughput path. Keep several batches pending and take each one's
    /// `results()` later; every record still gets its report or its error.
    ///
    /// ```swift
    /// let pending = producer.enqueue(batch)
    /// // … enqueue more …
    /// for case .failure(let error) in pending.results() { log(error) }
    /// ```
    public func enqueue(_ messages: [KafkaProducerMessage]) -> KafkaPendingBatch {
        let batch = BatchDelivery(messages: messages, appendSignal: appendSignal)
        guard enter(batch) else { return KafkaPendingBatch(batch: batch) }
        defer { leave() }
        var topic: (name: String, handle: Result<TopicHandle, KafkaError>)?
        // Read through the buffer; each message's four buffers are still retained and released
        // around librdkafka's calls (the packed path, `enqueue(packed:)`, has none to retain).
        messages.withUnsafeBufferPointer { messages in
            for index in messages.indices {
                if topic?.name != messages[index].topic { topic = (messages[index].topic, topicHandle(messages[index].topic)) }
                let error: KafkaError?
                switch topic!.handle {
                case .success(let handle): error = enqueue(messages[index], topic: handle, opaque: batch.slot(index))
                case .failure(let failure): error = failure
                }
                if let error { batch.failed(index, error) }
                // Serving delivery reports here too, as a plain C loop does, frees
                // records on the thread that allocated them: far less malloc contention.
                rd_kafka_poll(client.handle, 0)
            }
        }
        return KafkaPendingBatch(batch: batch)
    }

    /// Hands packed records to librdkafka as one batch, in the order of the parts and of the
    /// records in each: as `enqueue` of the same records as messages, without a buffer of
    /// their own for each.
    public func enqueue(packed parts: [KafkaPackedRecords]) -> KafkaPendingBatch {
        let batch = BatchDelivery(packed: parts, appendSignal: appendSignal)
        guard enter(batch) else { return KafkaPendingBatch(batch: batch) }
        defer { leave() }
        var topic: (name: String, handle: Result<TopicHandle, KafkaError>)?
        var index = 0
        for part in parts {
            if topic?.name != part.topic { topic = (part.topic, topicHandle(part.topic)) }
            part.forEach { key, value, timestamp in
                let error: KafkaError?
                switch topic!.handle {
                case .success(let handle):
                    error = enqueue(topic: handle, named: part.topic, key: key, value: value, headers: part.headers,
                                    partition: part.partition, timestamp: timestamp, opaque: batch.slot(index))
                case .failure(let failure): error = failure
                }
                if let error { batch.failed(index, error) }
                rd_kafka_poll(client.handle, 0)
                index += 1
            }
        }
        return KafkaPendingBatch(batch: batch)
    }

    /// Counts the caller among the enqueuers (shutdown waits for them to leave before it releases
    /// the handle); false, with every record of `batch` failed, once the producer is shut down.
    private func enter(_ batch: BatchDelivery) -> Bool {
        let admitted = state.withLock { state in
            if state.lifecycle == .running { state.enqueuers += 1 }
            return state.lifecycle == .running
        }
        if !admitted {
            for index in 0 ..< batch.count { batch.failed(index, KafkaError(.closed, "the producer is shut down")) }
        }
        return admitted
    }

    private func leave() {
        state.withLock { $0.enqueuers -= 1 }
    }

    /// Records enqueued and not yet delivered or failed (plus librdkafka's own requests).
    public var outstandingCount: Int {
        state.withLock { $0.lifecycle == .closed ? 0 : Int(rd_kafka_outq_len(client.handle)) }
    }

    /// The low and high watermarks of a partition, asked of its leader. A producer's connections
    /// hold no fetch open, so unlike a consuming consumer's the answer does not wait behind one
    /// (`fetch.wait.max.ms` each, which a broker spends at the end of a log).
    public func watermarks(_ partition: KafkaTopicPartition, timeout: Duration = .seconds(10)) throws -> KafkaWatermarks {
        try client.queryWatermarks(partition, timeoutMs: timeout.milliseconds)
    }

    /// Waits until every enqueued record is delivered or failed.
    public func flush(timeout: Duration = .seconds(30)) throws {
        let err = rd_kafka_flush(client.handle, timeout.milliseconds)
        if err != RD_KAFKA_RESP_ERR_NO_ERROR {
            let outstanding = rd_kafka_outq_len(client.handle)
            throw KafkaError.rdKafka(.timedOut, "flush left \(outstanding) records undelivered (\(client.diagnosis))", err)
        }
    }

    /// Stops accepting records, waits up to `timeout` for outstanding
    /// deliveries, fails what is left (every waiting `send` returns), and
    /// releases librdkafka. Throws `timedOut` if records had to be failed.
    public func shutdown(timeout: Duration = .seconds(30)) throws(KafkaError) {
        try close(timeout: timeout).get()
    }

    @discardableResult
    private func close(timeout: Duration) -> Result<Void, KafkaError> {
        let proceed = state.withLock { state -> Bool in
            guard state.lifecycle == .running else { return false }
            state.lifecycle = .closing
            return true
        }
        guard proceed else { return .success(()) }
        state.wait(until: { $0.enqueuers == 0 })
        var result = Result<Void, KafkaError>.success(())
        if rd_kafka_flush(client.handle, timeout.milliseconds) != RD_KAFKA_RESP_ERR_NO_ERROR {
            let left = rd_kafka_outq_len(client.handle)
            result = .failure(KafkaError(.timedOut, "shutdown: \(left) records still undelivered after \(timeout); failed them (\(client.diagnosis))"))
            // Purged records get a delivery report with an error, so no `send` is left waiting.
            rd_kafka_purge(client.handle, Int32(RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT))
            rd_kafka_flush(client.handle, 5_000)
        }
        let topics = state.withLock { state in
            state.lifecycle = .closed
            defer { state.topics = [:] }
            return Array(state.topics.values)
        }
        pollThread.stop()
        for topic in topics { rd_kafka_topic_destroy(topic.pointer) }
        client.destroy()
        return result
    }

    // MARK: - Enqueueing

    /// Hands one record to librdkafka; returns the error if it refused it.
    private func enqueue(_ message: KafkaProducerMessage, topic: TopicHandle,
                         opaque: UnsafeMutableRawPointer) -> KafkaError? {
        message.value.withUnsafeBytes { value in
            withOptionalBytes(message.key) { key in
                enqueue(topic: topic, named: message.topic, key: key, value: message.hasNullValue ? nil : value,
                        headers: message.headers, partition: message.partition, timestamp: message.timestamp, opaque: opaque)
            }
        }
    }

    /// Hands one record to librdkafka, which copies its bytes; a nil value is a null one.
    private func enqueue(topic: TopicHandle, named name: String, key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer?,
                         headers: [KafkaHeader], partition: Int32?, timestamp: Int64?,
                         opaque: UnsafeMutableRawPointer) -> KafkaError? {
        let record = RecordPointers(topic: topic.pointer, key: key, value: value, partition: partition, timestamp: timestamp)
        let cHeaders = rd_kafka_headers_new(headers.count)
        for header in headers { Self.add(header, to: cHeaders) }
        var err = produce(record, headers: cHeaders, opaque: opaque)
        while err == RD_KAFKA_RESP_ERR__QUEUE_FULL {
            // Back-pressure: the local queue is full until deliveries drain it.
            rd_kafka_poll(client.handle, 10)
            err = produce(record, headers: cHeaders, opaque: opaque)
        }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            rd_kafka_headers_destroy(cHeaders)
            var context = "cannot enqueue record for \(name)"
            if let fatal = client.fatalError { context += " (producer fatal error: \(fatal))" }
            return KafkaError.rdKafka(.produceFailed, context, err)
        }
        return nil
    }

    /// Adds a header with its name's length: a name passed as a C string was copied into
    /// an array of its own first, a fifth of enqueueing a record with one header.
    private static func add(_ header: KafkaHeader, to headers: OpaquePointer?) {
        var name = header.key
        name.withUTF8 { (utf8: UnsafeBufferPointer<UInt8>) -> Void in
            let (name, length) = ((UnsafeRawPointer(utf8.baseAddress) ?? emptyValue).assumingMemoryBound(to: CChar.self), utf8.count)
            if let value = header.value {
                value.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Void in
                    _ = rd_kafka_header_add(headers, name, length, bytes.baseAddress, bytes.count)
                }
            } else {
                _ = rd_kafka_header_add(headers, name, length, nil, 0)
            }
        }
    }

    /// What an empty value points at: librdkafka takes a null pointer for a null value, and an empty
    /// array may have none. Never written to (zero bytes are copied from it).
    private nonisolated(unsafe) static let emptyValue = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

    /// A record's parts as librdkafka takes them, valid while the caller lends them.
    private struct RecordPointers {
        let topic: OpaquePointer
        let key: UnsafeRawBufferPointer?
        /// Nil: a null value (a tombstone).
        let value: UnsafeRawBufferPointer?
        let partition: Int32?
        let timestamp: Int64?
    }

    private func produce(_ record: RecordPointers, headers: OpaquePointer?, opaque: UnsafeMutableRawPointer) -> rd_kafka_resp_err_t {
        withUnsafeTemporaryAllocation(of: rd_kafka_vu_t.self, capacity: 8) { values in
            values.initialize(repeating: rd_kafka_vu_t())
            values[0].vtype = RD_KAFKA_VTYPE_RKT
            values[0].u.rkt = record.topic
            values[1].vtype = RD_KAFKA_VTYPE_VALUE
            // A null pointer is a null value (a tombstone); an empty value has a pointer.
            values[1].u.mem = record.value.map { .init(ptr: UnsafeMutableRawPointer(mutating: $0.baseAddress ?? Self.emptyValue), size: $0.count) }
                ?? .init(ptr: nil, size: 0)
            values[2].vtype = RD_KAFKA_VTYPE_KEY
            values[2].u.mem = .init(ptr: UnsafeMutableRawPointer(mutating: record.key?.baseAddress), size: record.key?.count ?? 0)
            values[3].vtype = RD_KAFKA_VTYPE_HEADERS
            values[3].u.headers = headers
            values[4].vtype = RD_KAFKA_VTYPE_OPAQUE
            values[4].u.ptr = opaque
            values[5].vtype = RD_KAFKA_VTYPE_MSGFLAGS
            values[5].u.i = RD_KAFKA_MSG_F_COPY
            var count = 6
            if let partition = record.partition {
                values[count].vtype = RD_KAFKA_VTYPE_PARTITION
                values[count].u.i32 = partition
                count += 1
            }
            if let timestamp = record.timestamp {
                values[count].vtype = RD_KAFKA_VTYPE_TIMESTAMP
                values[count].u.i64 = timestamp
                count += 1
            }
            guard let error = rd_kafka_produceva(client.handle, values.baseAddress, count) else {
                return RD_KAFKA_RESP_ERR_NO_ERROR
            }
            defer { rd_kafka_error_destroy(error) }
            return rd_kafka_error_code(error)
        }
    }

    private func topicHandle(_ name: String) -> Result<TopicHandle, KafkaError> {
        state.withLock { state in
            guard state.lifecycle == .running else {
                return .failure(KafkaError(.closed, "the producer is shut down"))
            }
            if let handle = state.topics[name] { return .success(handle) }
            guard let pointer = rd_kafka_topic_new(client.handle, name, nil) else {
                return .failure(KafkaError.rdKafka(.produceFailed, "cannot open topic \(name)", rd_kafka_last_error()))
            }
            let handle = TopicHandle(pointer: pointer)
            state.topics[name] = handle
            return .success(handle)
        }
    }
}

/// An `rd_kafka_topic_t`, which librdkafka lets any thread use.
struct TopicHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
    guard let bytes else { return body(nil) }
    return bytes.withUnsafeBytes { body($0) }
}

