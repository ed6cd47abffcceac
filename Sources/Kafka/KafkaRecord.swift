import CRdKafka

/// A record header. Kafka allows repeated keys and null values.
public struct KafkaHeader: Sendable, Hashable {
    public var key: String
    public var value: [UInt8]?

    public init(key: String, value: [UInt8]?) {
        self.key = key
        self.value = value
    }

    public init(key: String, value: String) {
        self.init(key: key, value: Array(value.utf8))
    }
}

/// A record to append.
public struct KafkaProducerMessage: Sendable, Hashable {
    public var topic: String
    /// The key decides the partition (murmur2, as the Java client) and so the order.
    public var key: [UInt8]?
    public var value: [UInt8]
    /// Whether the value is null rather than `value` (then empty): in a compacted topic, a
    /// tombstone, which deletes its key.
    public var hasNullValue = false
    public var headers: [KafkaHeader]
    /// A partition chosen by the caller instead of the key's: for copying a log as it is.
    public var partition: Int32?
    /// The record's timestamp (ms since the epoch) instead of the time it is sent.
    public var timestamp: Int64?

    public init(topic: String, key: [UInt8]?, value: [UInt8], headers: [KafkaHeader] = [],
                partition: Int32? = nil, timestamp: Int64? = nil) {
        self.topic = topic
        self.key = key
        self.value = value
        self.headers = headers
        self.partition = partition
        self.timestamp = timestamp
    }

    public init(topic: String, key: String, value: [UInt8], headers: [KafkaHeader] = []) {
        self.init(topic: topic, key: Array(key.utf8), value: value, headers: headers)
    }

    /// A record whose value is null: in a compacted topic, the tombstone that deletes `key`.
    public static func tombstone(topic: String, key: [UInt8], headers: [KafkaHeader] = [], partition: Int32? = nil) -> Self {
        var message = Self(topic: topic, key: key, value: [], headers: headers, partition: partition)
        message.hasNullValue = true
        return message
    }
}

/// Records bound for one partition of one topic, with the same headers, their keys and
/// values end to end in one buffer: the unit of `KafkaProducer.enqueue(packed:)`, for a
/// caller that builds records by the thousand on threads of its own. Appending one copies
/// its bytes; a `KafkaProducerMessage` holds four buffers, each retained and released as
/// the message is handed on, and its key and value allocated and freed.
///
/// ```swift
/// var records = KafkaPackedRecords(topic: "recipes.decisions", partition: 3, headers: headers)
/// records.append(key: key, value: value, timestamp: time)
/// let pending = producer.enqueue(packed: [records])
/// ```
public struct KafkaPackedRecords: Sendable {
    public let topic: String
    public let partition: Int32
    public let headers: [KafkaHeader]
    /// Each record's key (when it has one) then its value.
    private var bytes: [UInt8] = []
    private var records: [Entry] = []

    private struct Entry {
        /// -1: no key.
        var keyCount: Int
        var valueCount: Int
        var timestamp: Int64?
    }

    public init(topic: String, partition: Int32, headers: [KafkaHeader] = []) {
        self.topic = topic
        self.partition = partition
        self.headers = headers
    }

    public var count: Int { records.count }
    public var isEmpty: Bool { records.isEmpty }

    /// Room for `records` more records of `bytes` more bytes (keys and values) in all, so that
    /// appending them allocates and copies the buffer once.
    public mutating func reserveCapacity(records: Int, bytes: Int) {
        self.records.reserveCapacity(self.records.count + records)
        self.bytes.reserveCapacity(self.bytes.count + bytes)
    }

    /// Appends a record; `timestamp` (ms since the epoch) instead of the time it is sent.
    public mutating func append(key: UnsafeRawBufferPointer?, value: UnsafeRawBufferPointer, timestamp: Int64? = nil) {
        if let key { bytes.append(contentsOf: key) }
        bytes.append(contentsOf: value)
        records.append(Entry(keyCount: key?.count ?? -1, valueCount: value.count, timestamp: timestamp))
    }

    /// Each record's key, value and timestamp, in order, lent for the call.
    func forEach(_ body: (_ key: UnsafeRawBufferPointer?, _ value: UnsafeRawBufferPointer, _ timestamp: Int64?) -> Void) {
        bytes.withUnsafeBytes { bytes in
            var start = 0
            for record in records {
                var key: UnsafeRawBufferPointer?
                if record.keyCount >= 0 {
                    key = UnsafeRawBufferPointer(rebasing: bytes[start ..< start + record.keyCount])
                    start += record.keyCount
                }
                body(key, UnsafeRawBufferPointer(rebasing: bytes[start ..< start + record.valueCount]), record.timestamp)
                start += record.valueCount
            }
        }
    }
}

/// Where a delivered record sits in the log.
public struct KafkaDeliveryReport: Sendable, Hashable, CustomStringConvertible {
    public var topic: String
    public var partition: Int32
    public var offset: Int64

    public init(topic: String, partition: Int32, offset: Int64) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
    }

    /// `partition:offset`, the position format of the HTTP API and CLI.
    public var description: String { "\(partition):\(offset)" }
}

/// A record read from the log.
public struct KafkaConsumerRecord: Sendable, Hashable {
    public var topic: String
    public var partition: Int32
    public var offset: Int64
    public var key: [UInt8]?
    public var value: [UInt8]
    /// Whether the value is null (`value` is empty then): a tombstone, in a compacted topic.
    public var hasNullValue: Bool
    public var headers: [KafkaHeader]
    /// Milliseconds since the Unix epoch (create or log-append time), if the broker gave one.
    public var timestamp: Int64?

    public init(topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8],
                headers: [KafkaHeader], timestamp: Int64?, hasNullValue: Bool = false) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.hasNullValue = hasNullValue
        self.headers = headers
        self.timestamp = timestamp
    }

    /// A copy of a record lent by a poll, to keep past its closure.
    public init(copying record: KafkaBorrowedRecord) {
        self.init(topic: record.topic, partition: record.partition, offset: record.offset, key: record.key.map { [UInt8]($0) },
                  value: [UInt8](record.value), headers: [], timestamp: record.timestamp)
    }

    /// Calls `body` with the record lent as a poll lends one (headers and nullness left out),
    /// so that one path reads both.
    public func withBorrowed<Result>(_ body: (KafkaBorrowedRecord) -> Result) -> Result {
        value.withUnsafeBytes { value in
            withOptionalBytes(key) { key in
                body(KafkaBorrowedRecord(topic: topic, partition: partition, offset: offset, key: key, value: value, timestamp: timestamp))
            }
        }
    }

    public var keyString: String? { key.map { String(decoding: $0, as: UTF8.self) } }

    public func header(_ key: String) -> [UInt8]? {
        headers.first { $0.key == key }?.value ?? nil
    }
}

/// A record as it lies in librdkafka's message, lent to the closure of
/// `KafkaConsumer.poll(maxRecords:timeout:borrowing:)`: its `key` and `value`
/// point into the message and are valid only during that call.
public struct KafkaBorrowedRecord {
    public var topic: String
    public var partition: Int32
    public var offset: Int64
    /// Nil for a record without a key; an empty key is an empty buffer.
    public var key: UnsafeRawBufferPointer?
    public var value: UnsafeRawBufferPointer
    /// Milliseconds since the Unix epoch (create or log-append time), if the broker gave one.
    public var timestamp: Int64?
    /// How many messages the poll took, this one among them: room to reserve for what is made of them.
    public var pollCount: Int

    public init(topic: String, partition: Int32, offset: Int64, key: UnsafeRawBufferPointer?,
                value: UnsafeRawBufferPointer, timestamp: Int64?, pollCount: Int = 1) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.timestamp = timestamp
        self.pollCount = pollCount
    }
}

/// A topic and partition.
public struct KafkaTopicPartition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var topic: String
    public var partition: Int32

    public init(topic: String, partition: Int32) {
        self.topic = topic
        self.partition = partition
    }

    public static func < (a: Self, b: Self) -> Bool { (a.topic, a.partition) < (b.topic, b.partition) }
    public var description: String { "\(topic)[\(partition)]" }
}

/// The low (first kept) and high (next to be written) offsets of a partition.
public struct KafkaWatermarks: Sendable, Hashable {
    public var low: Int64
    public var high: Int64

    public init(low: Int64, high: Int64) {
        self.low = low
        self.high = high
    }
}

/// Where a consumer starts reading a partition.
///
/// `.beginning` and `.end` are looked up by the client after the assignment. When the
/// client does not know the partition's leader yet (a consumer just made, or a topic it has
/// not read), librdkafka 2.0.2 retries that lookup half a second later: a reader that
/// knows the offset it wants (a watermark it just asked for) gives it as `.offset`.
public enum KafkaOffset: Sendable, Hashable {
    case beginning
    case end
    case offset(Int64)

    var rdKafkaValue: Int64 {
        switch self {
        case .beginning: Int64(RD_KAFKA_OFFSET_BEGINNING)
        case .end: Int64(RD_KAFKA_OFFSET_END)
        case .offset(let value): value
        }
    }
}
