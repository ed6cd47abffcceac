import CRdKafka
import Foundation
import Threads

/// Reads records from Kafka, either from partitions the caller assigns with
/// offsets it chose, or as a member of a consumer group.
///
/// Offsets are never committed to Kafka: the intended use is to store the
/// next offset with one's own results and to start from it
/// (`assign(topic:from:)`, or `KafkaRebalanceHandler.onAssign`).
///
/// Threads: librdkafka fetches on its own threads; rebalance and error
/// callbacks run on the thread that calls `poll` or `close`, inside the
/// call. `poll` and `close` are serialized; other methods may be called from
/// any thread.
public final class KafkaConsumer: Sendable {
    /// librdkafka properties every consumer gets unless the config overrides them.
    public static let defaultProperties: [(String, String)] = [
        ("enable.auto.commit", "false"),
        ("enable.auto.offset.store", "false"),
        ("auto.offset.reset", "earliest"),
        ("partition.assignment.strategy", "range"),
        ("enable.partition.eof", "false"),
    ]

    private let client: RDKafkaClient
    private nonisolated(unsafe) let queue: OpaquePointer
    /// Serializes `poll` with `close`: a queue must not be destroyed while polled.
    private let pollLock = Locked(PollState())
    private struct PollState {
        var open = true
        /// Room for a poll's message pointers, kept from one poll to the next: allocated
        /// for each poll (80 KB for 10,000), it was a tenth of a replay's reading thread.
        var messages = UnsafeMutableBufferPointer<UnsafeMutablePointer<rd_kafka_message_t>?>(start: nil, count: 0)
    }

    /// Whether records come with their headers.
    public let readsHeaders: Bool
    /// Where each partition's end was last found (with `enable.partition.eof=true`) since the last `assign`.
    private let endsReached = Locked<[KafkaTopicPartition: Int64]>([:])
    /// Pauses fetching while idle (`KafkaConfig.stopsFetchingWhenIdle`, an embedded cluster only).
    let idleFetching: IdleFetching?

    /// - Parameter groupID: the consumer group for `subscribe`. Without one, a
    ///   private group id is used, which only `assign` needs (librdkafka ties
    ///   assignment to a group handle) and which never joins a group.
    /// - Parameter readsHeaders: false leaves `headers` empty, for readers that
    ///   never look at them: it saves parsing them and two allocations a record.
    public init(config: KafkaConfig, groupID: String? = nil, readsHeaders: Bool = true) throws {
        self.readsHeaders = readsHeaders
        var properties = config.resolved(defaults: Self.defaultProperties)
        if config["group.id"] == nil {
            properties.append(("group.id", groupID ?? "recipe-ledger-assign-\(UUID().uuidString)"))
        }
        client = try RDKafkaClient(kind: RD_KAFKA_CONSUMER, properties: properties,
                                   bootstrapServers: config.bootstrapServers) { conf in
            rd_kafka_conf_set_rebalance_cb(conf, rebalanceCallback)
        }
        // Serve error and rebalance callbacks from the queue `poll` reads.
        rd_kafka_poll_set_consumer(client.handle)
        guard let queue = rd_kafka_queue_get_consumer(client.handle) else {
            client.destroy()
            throw KafkaError(.clientCreation, "librdkafka gave no consumer queue")
        }
        self.queue = queue
        if config.stopsFetchingWhenIdle, let cluster = IdleCluster.of(config.bootstrapServers) {
            let wait = config["fetch.wait.max.ms"].flatMap { Int($0) } ?? 500
            let idleFetching = IdleFetching(handle: client.handle, queue: queue, fetchWait: .milliseconds(wait),
                                            cluster: cluster, peekInterval: config.idlePeekInterval)
            client.context.idleFetching.withLock { $0 = idleFetching }
            self.idleFetching = idleFetching
        } else {
            idleFetching = nil
        }
    }

    /// Has a consumer that stopped fetching while idle fetch again at once (its owner is about to read to an end).
    func fetchAgainIfIdle() {
        idleFetching?.wakeAll()
    }

    /// Whether the consumer has stopped fetching until records arrive (`KafkaConfig.stopsFetchingWhenIdle`).
    public var isIdlePaused: Bool { idleFetching?.isPaused ?? false }

    deinit { close() }

    // MARK: - Assignment

    /// Reads every partition of `topic`, each from the given offset or
    /// `defaultOffset`. Returns the partition ids, asked of the cluster.
    @discardableResult
    public func assign(topic: String, from offsets: [Int32: KafkaOffset] = [:],
                       defaultOffset: KafkaOffset = .beginning,
                       timeout: Duration = .seconds(10)) throws -> [Int32] {
        let partitions = try client.partitions(of: topic, timeoutMs: timeout.milliseconds)
        try assign(partitions.map { KafkaTopicPartition(topic: topic, partition: $0) },
                   from: offsets.reduce(into: [:]) { $0[KafkaTopicPartition(topic: topic, partition: $1.key)] = $1.value },
                   defaultOffset: defaultOffset)
        return partitions
    }

    /// Reads exactly these partitions, replacing any earlier assignment.
    public func assign(_ partitions: [KafkaTopicPartition], from offsets: [KafkaTopicPartition: KafkaOffset] = [:],
                       defaultOffset: KafkaOffset = .beginning) throws {
        let list = RDKafkaTopicPartitionList.make(partitions.map { ($0, (offsets[$0] ?? defaultOffset).rdKafkaValue) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let err = rd_kafka_assign(client.handle, list)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError.rdKafka(.consumerFailed, "assign \(partitions)", err)
        }
        // An end found before says nothing of where this assignment reads from.
        endsReached.withLock { $0 = [:] }
        idleFetching?.assigned(from: partitions.reduce(into: [:]) { starts, partition in
            if case .offset(let offset) = offsets[partition] ?? defaultOffset { starts[partition] = offset }
        })
        idleFetching?.wakeAll()
    }

    /// Joins `groupID`'s group for these topics; the handler says where each
    /// assigned partition starts.
    public func subscribe(topics: [String], rebalance: KafkaRebalanceHandler) throws {
        client.context.rebalanceHandler.withLock { $0 = rebalance }
        let list = RDKafkaTopicPartitionList.make(topics.map { (KafkaTopicPartition(topic: $0, partition: -1), 0) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let err = rd_kafka_subscribe(client.handle, list)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError.rdKafka(.consumerFailed, "subscribe to \(topics)", err)
        }
    }

    /// The partitions currently assigned to this consumer.
    public func assignment() throws -> [KafkaTopicPartition] {
        var list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?
        let err = rd_kafka_assignment(client.handle, &list)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, let list else {
            throw KafkaError.rdKafka(.consumerFailed, "read assignment", err)
        }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        return RDKafkaTopicPartitionList.entries(list).map(\.0).sorted()
    }

    // MARK: - Reading

    /// Returns up to `maxRecords` records, waiting at most `timeout` for the
    /// first; an empty array when none arrived. Transient broker errors are
    /// retried by librdkafka and do not surface here; a fatal or
    /// authorization error, or a topic that does not exist, throws.
    public func poll(maxRecords: Int = 500, timeout: Duration = .milliseconds(100)) throws -> [KafkaConsumerRecord] {
        var records: [KafkaConsumerRecord] = []
        try pollMessages(maxRecords: maxRecords, timeout: timeout) { message, topic, count in
            if records.isEmpty { records.reserveCapacity(count) }
            records.append(Self.record(message, topic: topic, headers: readsHeaders))
        }
        return records
    }

    /// Polls as `poll(maxRecords:timeout:)` but hands each record to `body`
    /// as it lies in librdkafka's message, without copying it (a replay spent
    /// more time allocating and freeing those copies than decoding them).
    /// Returns how many records `body` was given; headers are not read.
    ///
    /// The record's key and value are valid only during its call to `body`:
    /// copy what must outlive it.
    @discardableResult
    public func poll(maxRecords: Int = 500, timeout: Duration = .milliseconds(100),
                     borrowing body: (KafkaBorrowedRecord) -> Void) throws -> Int {
        var count = 0
        try pollMessages(maxRecords: maxRecords, timeout: timeout) { message, topic, polled in
            body(Self.borrowed(message, topic: topic, pollCount: polled))
            count += 1
        }
        return count
    }

    /// Polls as `poll(maxRecords:timeout:borrowing:)` but hands `body` every record of the
    /// poll at once, so that they can be read on several threads. They are valid only
    /// during the call to `body`. Returns how many records it was given.
    @discardableResult
    public func poll(maxRecords: Int = 500, timeout: Duration = .milliseconds(100),
                     borrowingAll body: ([KafkaBorrowedRecord]) -> Void) throws -> Int {
        var records: [KafkaBorrowedRecord] = []
        try pollMessages(maxRecords: maxRecords, timeout: timeout, { message, topic, polled in
            if records.isEmpty { records.reserveCapacity(polled) }
            records.append(Self.borrowed(message, topic: topic, pollCount: polled))
        }, whileAlive: { if !records.isEmpty { body(records) } })
        return records.count
    }

    /// A record where it lies in `message`. Safe while `message` lives: `pollMessages` destroys
    /// it only after its callbacks return, and they may not keep the buffers.
    private static func borrowed(_ message: UnsafeMutablePointer<rd_kafka_message_t>, topic: String,
                                 pollCount: Int) -> KafkaBorrowedRecord {
        let m = message.pointee
        var timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(message, &timestampType)
        return KafkaBorrowedRecord(topic: topic, partition: m.partition, offset: m.offset,
                                   key: m.key.map { UnsafeRawBufferPointer(start: $0, count: m.key_len) },
                                   value: UnsafeRawBufferPointer(start: m.payload, count: m.payload == nil ? 0 : m.len),
                                   timestamp: timestampType == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? nil : timestamp,
                                   pollCount: pollCount)
    }

    /// One poll: gives `body` each message without an error, with its topic's name
    /// and how many messages the poll took, calls `whileAlive`, then destroys the messages.
    private func pollMessages(maxRecords: Int, timeout: Duration,
                              _ body: (UnsafeMutablePointer<rd_kafka_message_t>, String, Int) -> Void,
                              whileAlive: () -> Void = {}) throws {
        try pollLock.withLock { state in
            guard state.open else { throw KafkaError(.closed, "the consumer is closed") }
            // At least one: the first message is stored before `maxRecords` is looked at.
            if state.messages.count < max(maxRecords, 1) {
                state.messages.deallocate()
                state.messages = .allocate(capacity: max(maxRecords, 1))
            }
            // Safe: only this poll uses the buffer (it holds the lock), and it ends with every message destroyed.
            let buffer = state.messages.baseAddress!
            // rd_kafka_consume_batch_queue waits its whole timeout unless the batch fills:
            // wait for the first record alone, then take what else is queued without waiting.
            let first = try firstMessage(timeout: timeout)
            guard let first else { return }
            buffer[0] = first
            var count = 1
            if maxRecords > 1 {
                let more = rd_kafka_consume_batch_queue(queue, 0, buffer + 1, maxRecords - 1)
                if more > 0 { count += more }
            }
            var given = 0
            var failure: KafkaError?
            var topicNames = TopicNameCache()
            for index in 0..<count {
                let message = buffer[index]!
                if message.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR {
                    body(message, topicNames.name(message.pointee.rkt), count)
                    given += 1
                } else if message.pointee.err == RD_KAFKA_RESP_ERR__PARTITION_EOF {
                    let partition = KafkaTopicPartition(topic: topicNames.name(message.pointee.rkt), partition: message.pointee.partition)
                    endsReached.withLock { $0[partition] = message.pointee.offset }
                } else if failure == nil, let error = consumerError(message) {
                    failure = error
                }
            }
            whileAlive()
            for index in 0..<count { rd_kafka_message_destroy(buffer[index]!) }
            // Records already taken from librdkafka are returned; the error comes on the next call.
            if let failure {
                if given == 0 { throw failure }
                client.context.lastError.withLock { $0 = failure.message }
            }
        }
    }

    /// Waits at most `timeout` for a message; while it waits, an idle consumer pauses and peeks (`IdleFetching`).
    private func firstMessage(timeout: Duration) throws -> UnsafeMutablePointer<rd_kafka_message_t>? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let wait = idleFetching.map { min(deadline, $0.act()) - .now } ?? timeout
            // Rounded up: a wait cut to 0 ms would return at once, again and again, until the instant passed.
            let first = rd_kafka_consumer_poll(client.handle, max(wait + .nanoseconds(999_999), .zero).milliseconds)
            // A rebalance callback ran inside that poll and could not apply its assignment.
            if let failure = client.context.rebalanceFailure.withLock({ $0.take() }) {
                if let first { rd_kafka_message_destroy(first) }
                throw failure
            }
            if let first {
                if first.pointee.err == RD_KAFKA_RESP_ERR_NO_ERROR { idleFetching?.noteRecords() }
                return first
            }
            if idleFetching == nil || ContinuousClock.now >= deadline { return nil }
        }
    }

    private func consumerError(_ message: UnsafeMutablePointer<rd_kafka_message_t>) -> KafkaError? {
        let err = message.pointee.err
        let text = rd_kafka_message_errstr(message).map { String(cString: $0) } ?? ""
        switch err {
        case RD_KAFKA_RESP_ERR__FATAL, RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED,
             RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED, RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC,
             RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
            return KafkaError.rdKafka(.consumerFailed, "consume: \(text)", err)
        case RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET:
            // With auto.offset.reset=error: the offset asked for is not in the log (deleted, or another log).
            return KafkaError.rdKafka(.offsetOutOfRange, "consume: \(text)", err)
        default:
            client.context.lastError.withLock { $0 = text }
            return nil
        }
    }

    private static func record(_ message: UnsafeMutablePointer<rd_kafka_message_t>, topic: String,
                               headers readsHeaders: Bool) -> KafkaConsumerRecord {
        let m = message.pointee
        let value = m.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: m.len)) } ?? []
        let key = m.key.map { Array(UnsafeRawBufferPointer(start: $0, count: m.key_len)) }
        var headers: [KafkaHeader] = []
        var list: OpaquePointer?
        if readsHeaders, rd_kafka_message_headers(message, &list) == RD_KAFKA_RESP_ERR_NO_ERROR, let list {
            var index = 0
            var name: UnsafePointer<CChar>?
            var bytes: UnsafeRawPointer?
            var size = 0
            while rd_kafka_header_get_all(list, index, &name, &bytes, &size) == RD_KAFKA_RESP_ERR_NO_ERROR {
                headers.append(KafkaHeader(key: String(cString: name!),
                                           value: bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: size)) }))
                index += 1
            }
        }
        var timestampType = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE
        let timestamp = rd_kafka_message_timestamp(message, &timestampType)
        return KafkaConsumerRecord(topic: topic, partition: m.partition, offset: m.offset, key: key, value: value,
                                   headers: headers, timestamp: timestampType == RD_KAFKA_TIMESTAMP_NOT_AVAILABLE ? nil : timestamp,
                                   hasNullValue: m.payload == nil)
    }

    // MARK: - Positions

    /// Moves a partition's next fetch to `offset`.
    public func seek(_ partition: KafkaTopicPartition, to offset: KafkaOffset) throws {
        let list = RDKafkaTopicPartitionList.make([(partition, offset.rdKafkaValue)])
        defer { rd_kafka_topic_partition_list_destroy(list) }
        // A finite timeout is 1000x too short in librdkafka 2.0.2: -1 waits for the seek to be applied.
        if let error = rd_kafka_seek_partitions(client.handle, list, -1) {
            defer { rd_kafka_error_destroy(error) }
            throw KafkaError.rdKafka(.consumerFailed, "seek \(partition)", rd_kafka_error_code(error))
        }
        if case .offset(let start) = offset { idleFetching?.sought(partition, to: start) } else { idleFetching?.sought(partition, to: nil) }
    }

    /// Stops fetching these partitions until `resume`.
    public func pause(_ partitions: [KafkaTopicPartition]) throws {
        try pauseOrResume(partitions, pause: true)
    }

    public func resume(_ partitions: [KafkaTopicPartition]) throws {
        try pauseOrResume(partitions, pause: false)
    }

    private func pauseOrResume(_ partitions: [KafkaTopicPartition], pause: Bool) throws {
        if pause { idleFetching?.ownerPaused(partitions) }
        defer { if !pause { idleFetching?.ownerResumed(partitions) } }
        let list = RDKafkaTopicPartitionList.make(partitions.map { ($0, 0) })
        defer { rd_kafka_topic_partition_list_destroy(list) }
        let err = pause ? rd_kafka_pause_partitions(client.handle, list) : rd_kafka_resume_partitions(client.handle, list)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError.rdKafka(.consumerFailed, "\(pause ? "pause" : "resume") \(partitions)", err)
        }
    }

    /// The watermarks of a partition this consumer fetches, as its last fetch
    /// response said: no request and no wait, so a lag report cannot hang on
    /// an unreachable broker. Nil until a fetch of the partition came back.
    public func lastSeenWatermarks(_ partition: KafkaTopicPartition) -> KafkaWatermarks? {
        client.cachedWatermarks(partition)
    }

    /// The offset at which a poll last found `partition` read to its end since the last `assign`, or nil; only for a consumer
    /// made with `enable.partition.eof=true`. What tells a reader it has read a partition to its high
    /// watermark when the last offsets hold no record (a compacted topic's removed tombstones).
    public func endReached(_ partition: KafkaTopicPartition) -> Int64? {
        endsReached.withLock { $0[partition] }
    }

    /// The low and high watermarks of a partition, asked of its leader.
    public func watermarks(_ partition: KafkaTopicPartition, timeout: Duration = .seconds(10)) throws -> KafkaWatermarks {
        try client.queryWatermarks(partition, timeoutMs: timeout.milliseconds)
    }

    /// The id of the cluster this consumer reads: what tells one cluster's log from another's.
    public func clusterID(timeout: Duration = .seconds(10)) throws -> String {
        try client.clusterID(timeoutMs: timeout.milliseconds)
    }

    /// Partition ids of a topic, asked of the cluster.
    public func partitions(of topic: String, timeout: Duration = .seconds(10)) throws -> [Int32] {
        try client.partitions(of: topic, timeoutMs: timeout.milliseconds)
    }

    /// Every topic of the cluster with its partition count. Unlike asking for one topic by
    /// name, this never creates one on brokers that create topics when asked for them (the
    /// embedded broker does): what tells a missing topic from an existing one.
    public func topics(timeout: Duration = .seconds(10)) throws -> [String: Int] {
        try client.topics(timeoutMs: timeout.milliseconds)
    }

    // MARK: - Closing

    /// Leaves the group (the revoke callback runs here) and releases librdkafka.
    public func close() {
        pollLock.withLock { state in
            guard state.open else { return }
            state.open = false
            idleFetching?.close()
            state.messages.deallocate()
            state.messages = .init(start: nil, count: 0)
            rd_kafka_consumer_close(client.handle)
            rd_kafka_queue_destroy(queue)
            client.destroy()
        }
    }
}

/// Topic names by handle, so a batch converts each topic name once.
private struct TopicNameCache {
    private var last: (OpaquePointer, String)?

    mutating func name(_ rkt: OpaquePointer?) -> String {
        guard let rkt else { return "" }
        if let last, last.0 == rkt { return last.1 }
        let name = String(cString: rd_kafka_topic_name(rkt))
        last = (rkt, name)
        return name
    }
}

/// `rebalance_cb`: runs on the thread inside `KafkaConsumer.poll` or `close`.
private func rebalanceCallback(_ rk: OpaquePointer?, _ err: rd_kafka_resp_err_t,
                               _ partitions: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?,
                               _ opaque: UnsafeMutableRawPointer?) {
    guard let rk, let partitions, let opaque else { return }
    let context = Unmanaged<ClientContext>.fromOpaque(opaque).takeUnretainedValue()
    let handler = context.rebalanceHandler.withLock { $0 }
    // NULL once the consumer is closing, as when `close` runs the revoke (a decider stopped
    // by SIGTERM crashed on it once): the protocol seen last still applies then.
    let cooperative: Bool
    if let name = rd_kafka_rebalance_protocol(rk) {
        cooperative = String(cString: name) == "COOPERATIVE"
        context.cooperativeRebalance.withLock { $0 = cooperative }
    } else {
        cooperative = context.cooperativeRebalance.withLock { $0 }
    }
    let topicPartitions = RDKafkaTopicPartitionList.entries(partitions).map(\.0)
    if err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS {
        let offsets = handler?.onAssign(topicPartitions) ?? [:]
        for index in 0..<Int(partitions.pointee.cnt) {
            let element = partitions.pointee.elems[index]
            let tp = KafkaTopicPartition(topic: String(cString: element.topic), partition: element.partition)
            partitions.pointee.elems[index].offset = offsets[tp]?.rdKafkaValue ?? Int64(RD_KAFKA_OFFSET_INVALID)
        }
        if cooperative {
            context.noteRebalance(rd_kafka_incremental_assign(rk, partitions), "assign \(topicPartitions)")
        } else {
            context.noteRebalance(rd_kafka_assign(rk, partitions), "assign \(topicPartitions)")
        }
        // A partition paused while idle before may come back paused: fetch it now.
        context.idleFetching.withLock { $0 }?.wakeAll()
    } else {
        handler?.onRevoke(topicPartitions)
        if cooperative {
            context.noteRebalance(rd_kafka_incremental_unassign(rk, partitions), "unassign \(topicPartitions)")
        } else {
            context.noteRebalance(rd_kafka_assign(rk, nil), "unassign \(topicPartitions)")
        }
    }
}

extension ClientContext {
    /// Keeps a failed (un)assignment for the `poll` that ran the callback to throw:
    /// a consumer that silently reads nothing, or the wrong partitions, is worse than one that stops.
    fileprivate func noteRebalance(_ error: OpaquePointer?, _ what: String) {
        guard let error else { return }
        defer { rd_kafka_error_destroy(error) }
        noteRebalance(rd_kafka_error_code(error), what)
    }

    fileprivate func noteRebalance(_ err: rd_kafka_resp_err_t, _ what: String) {
        guard err != RD_KAFKA_RESP_ERR_NO_ERROR else { return }
        rebalanceFailure.withLock { $0 = $0 ?? KafkaError.rdKafka(.consumerFailed, "rebalance: \(what)", err) }
    }
}
