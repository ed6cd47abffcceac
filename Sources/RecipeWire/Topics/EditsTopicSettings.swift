// MARK: - Topic settings

/// How the edits topic is created, and why: what `recipes topics create` applies.
///
/// The log is the only copy of the data and the audit record: every read model is
/// rebuilt from it. So nothing is ever deleted or compacted away, a write counts
/// only once it is on `minInsyncReplicas` brokers, and the partition count is
/// fixed for the topic's life (a key's partition is its hash modulo the count:
/// adding partitions later would move recipes and break their per-recipe order).
///
/// ```swift
/// let settings = EditsTopicSettings(partitions: 12)
/// settings.configs["retention.ms"]   // "-1"
/// ```
public struct EditsTopicSettings: Sendable, Hashable {
    public var partitions: Int
    public var replicationFactor: Int
    public var minInsyncReplicas: Int

    /// Production defaults: 6 partitions, 3 replicas, 2 in sync.
    public init(partitions: Int = 6, replicationFactor: Int = 3, minInsyncReplicas: Int = 2) {
        self.partitions = partitions
        self.replicationFactor = replicationFactor
        self.minInsyncReplicas = minInsyncReplicas
    }

    /// Topic configs set at creation.
    public var configs: [String: String] {
        [
            // Never compacted: every command stays, not only the latest per recipe.
            "cleanup.policy": "delete",
            // Kept forever, by age and by size, whatever the broker's defaults say.
            "retention.ms": "-1",
            "retention.bytes": "-1",
            // With acks=all, a write is acknowledged once this many replicas hold it.
            "min.insync.replicas": String(minInsyncReplicas),
            // Every record a reader decodes, in a batch of its own (the broker's default is 1 MiB).
            "max.message.bytes": String(Self.maxBatchSize),
        ]
    }

    /// What producers of the edits topic set so that a record of `WireFormat.maxRecordSize`
    /// can be sent (librdkafka's default `message.max.bytes` is 1,000,000). Applied by the
    /// recipes producers unless their config sets the property itself.
    public static let producerProperties: [String: String] = [
        "message.max.bytes": String(maxBatchSize),
    ]

    /// The largest record plus room for the batch and record headers, the key and the header.
    static let maxBatchSize = WireFormat.maxRecordSize + 64 * 1024

    /// Topic configs of the decisions topic (`RecipeTopics.decisions`), created with as
    /// many partitions as the edits topic: kept forever like the commands (they are the
    /// record of what was decided), with room for the largest decision.
    public var decisionsConfigs: [String: String] {
        configs.merging(["max.message.bytes": String(Self.maxDecisionBatchSize)]) { $1 }
    }

    static let maxDecisionBatchSize = DecisionFormat.maxRecordSize + 64 * 1024

    /// Topic configs of the committed topic (`RecipeTopics.committed`), created with as many
    /// partitions as the edits topic. Compacted: it keeps the last record of each recipe (its
    /// latest document, or its tombstone), which is all a downstream service needs. A
    /// tombstone is kept a week after compaction reaches it (the broker's default is a day),
    /// so a consumer away for less than that still sees the deletion. Room for the largest
    /// document (`CommittedRecipe.maxValueSize`).
    public var committedConfigs: [String: String] {
        [
            "cleanup.policy": "compact",
            "delete.retention.ms": String(7 * 24 * 60 * 60 * 1000),
            "min.insync.replicas": String(minInsyncReplicas),
            "max.message.bytes": String(Self.maxCommittedBatchSize),
        ]
    }

    static let maxCommittedBatchSize = CommittedRecipe.maxValueSize + 64 * 1024

    /// What the decider's producer sets so that a decision of `DecisionFormat.maxRecordSize`
    /// and a committed document of `CommittedRecipe.maxValueSize` can be sent.
    public static let deciderProducerProperties: [String: String] = [
        "message.max.bytes": String(max(maxDecisionBatchSize, maxCommittedBatchSize)),
    ]

    /// Why the settings are invalid together, or nil.
    public var problem: String? {
        if minInsyncReplicas > replicationFactor {
            return "min.insync.replicas (\(minInsyncReplicas)) cannot exceed the replication factor (\(replicationFactor)): every write would fail"
        }
        return nil
    }
}
