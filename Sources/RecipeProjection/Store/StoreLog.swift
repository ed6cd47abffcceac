import Kafka

// MARK: - Which log a store folds

/// The log a store is built from: a cluster, a topic and its partitions. A
/// store records it when it is first projected into and refuses any other
/// log afterwards, so that two logs are never folded into one read model.
public struct LogIdentity: Sendable, Equatable, CustomStringConvertible {
    /// The Kafka cluster id, or the name of a log that outlives its cluster
    /// (`recipes dev` journals its embedded broker, which gets a new id each start).
    public var cluster: String
    public var topic: String
    public var partitions: Int

    public init(cluster: String, topic: String, partitions: Int) {
        (self.cluster, self.topic, self.partitions) = (cluster, topic, partitions)
    }

    public var description: String { "topic \(topic) (\(partitions) partitions) of cluster \(cluster)" }
}

/// What the store records beside its rows: the log, and where it started
/// reading partitions whose head was already gone (a partial read model).
public struct StoreLog: Sendable, Equatable {
    public var identity: LogIdentity
    /// Partitions read from a first offset past 0, with that offset: the
    /// records before it were never folded. Empty for a complete read model.
    public var missingHeads: [Int32: Int64]

    public var isPartial: Bool { !missingHeads.isEmpty }
}

/// Why a store refuses the log it was pointed at. Nothing is written when
/// it is thrown: a store is never mixed with another log, and no position
/// moves by itself.
public enum LogMismatch: Error, Sendable, Equatable, CustomStringConvertible {
    case otherCluster(store: String, stored: LogIdentity, found: LogIdentity)
    case otherTopic(store: String, stored: LogIdentity, found: LogIdentity)
    case fewerPartitions(store: String, stored: LogIdentity, found: LogIdentity)
    /// The store has read a partition further than the log now reaches.
    case pastTheEnd(store: String, log: LogIdentity, partition: Int32, stored: Int64, end: Int64)
    /// The partition's first records are gone: before what the store has
    /// read (`stored`), or, for a store that has not read it, before offset 0.
    case missingHead(store: String, log: LogIdentity, partition: Int32, stored: Int64, first: Int64)

    public var description: String {
        switch self {
        case .otherCluster(let store, let stored, let found):
            "store \(store) was built from \(stored), not from \(found): another cluster's log; use a new store or the cluster it came from"
        case .otherTopic(let store, let stored, let found):
            "store \(store) was built from \(stored), not from \(found): another topic; use a new store or --topic-prefix of its own"
        case .fewerPartitions(let store, let stored, let found):
            "store \(store) was built from \(stored), but the topic now has \(found.partitions): not the log it was built from"
        case .pastTheEnd(let store, let log, let partition, let stored, let end):
            "store \(store) has read partition \(partition) of \(log) up to offset \(stored), but the partition ends at \(end): "
                + "not the log it was built from (a new cluster or a recreated topic); use a new store"
        case .missingHead(let store, let log, let partition, let stored, let first):
            "partition \(partition) of \(log) starts at offset \(first), but store \(store) has read it only up to \(stored): "
                + "records \(stored)..<\(first) are gone (retention or the embedded broker's size cap); "
                + (stored == 0 ? "replay with --allow-missing-head to build a read model marked partial" : "rebuild the store from a complete log")
        }
    }

    /// The partition the mismatch is about, if it is about one.
    public var partition: Int32? {
        switch self {
        case .otherCluster, .otherTopic, .fewerPartitions: nil
        case .pastTheEnd(_, _, let partition, _, _), .missingHead(_, _, let partition, _, _): partition
        }
    }
}

extension StoreLog {
    /// Checks a log against what the store holds and says what the store must
    /// record: the log as it is now (a topic may have gained partitions, read
    /// from offset 0) and the heads it accepted as missing.
    ///
    /// - Parameters:
    ///   - stored: what the store recorded, nil for a new store (or one made
    ///     before stores recorded their log: its positions are still checked).
    ///   - positions: the store's next offset of each partition.
    ///   - watermarks: the log's first and next offset of each partition.
    ///   - allowMissingHead: reads partitions the store has not read from their
    ///     first offset even when it is past 0, recording them as missing heads.
    static func check(store: String, stored: StoreLog?, positions: [Int32: Int64], log: LogIdentity,
                      watermarks: [Int32: KafkaWatermarks], allowMissingHead: Bool) throws(LogMismatch) -> StoreLog {
        var missingHeads = stored?.missingHeads ?? [:]
        if let known = stored?.identity {
            if known.cluster != log.cluster { throw .otherCluster(store: store, stored: known, found: log) }
            if known.topic != log.topic { throw .otherTopic(store: store, stored: known, found: log) }
            if known.partitions > log.partitions { throw .fewerPartitions(store: store, stored: known, found: log) }
        }
        for (partition, marks) in watermarks.sorted(by: { $0.key < $1.key }) {
            let next = positions[partition] ?? 0
            if next > marks.high {
                throw .pastTheEnd(store: store, log: log, partition: partition, stored: next, end: marks.high)
            }
            guard marks.low > next else { continue }
            // A partition never read may start past 0 when that is allowed, or was allowed before;
            // one read part way may not: the records between would be a hole in every recipe there.
            if next == 0, allowMissingHead || missingHeads[partition] != nil {
                missingHeads[partition] = marks.low
                continue
            }
            throw .missingHead(store: store, log: log, partition: partition, stored: next, first: marks.low)
        }
        return StoreLog(identity: log, missingHeads: missingHeads)
    }
}

// MARK: - In the store

extension StoreLog {
    /// `store_meta` keys. A store made before stores recorded their log has none of them.
    private static let keys = (cluster: "log_cluster", topic: "log_topic", partitions: "log_partitions",
                               missingHeads: "log_missing_heads")

    /// What the store recorded, nil if it recorded nothing yet. Call inside a transaction.
    static func read(from db: SQLiteConnection) throws -> StoreLog? {
        let rows = try db.statement("SELECT key, value FROM store_meta WHERE key LIKE 'log\\_%' ESCAPE '\\'")
            .rows { ($0.text(0), $0.text(1)) }
        let meta = Dictionary(rows, uniquingKeysWith: { first, _ in first })
        guard let cluster = meta[keys.cluster] else { return nil }
        guard let topic = meta[keys.topic], let partitions = meta[keys.partitions].flatMap({ Int($0) }),
              let heads = meta[keys.missingHeads].map(Self.missingHeads(from:)), let missingHeads = heads else {
            throw StoreError.corrupted("the store's log is recorded in part: \(meta.sorted { $0.key < $1.key })")
        }
        return StoreLog(identity: LogIdentity(cluster: cluster, topic: topic, partitions: partitions), missingHeads: missingHeads)
    }

    /// Records the log. Call inside a write transaction.
    func write(to db: SQLiteConnection) throws {
        let insert = try db.statement("INSERT OR REPLACE INTO store_meta(key, value) VALUES(?, ?)")
        for (key, value) in [(Self.keys.cluster, identity.cluster), (Self.keys.topic, identity.topic),
                             (Self.keys.partitions, String(identity.partitions)), (Self.keys.missingHeads, missingHeadsText)] {
            try insert.bind(.text(key), .text(value)).run()
            insert.reset()
        }
    }

    /// `partition:offset,…` in partition order; empty when the read model is complete.
    public var missingHeadsText: String {
        missingHeads.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
    }

    private static func missingHeads(from text: String) -> [Int32: Int64]? {
        var heads: [Int32: Int64] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: ":")
            guard parts.count == 2, let partition = Int32(parts[0]), let offset = Int64(parts[1]) else { return nil }
            heads[partition] = offset
        }
        return heads
    }
}
