/// What a subscribed consumer does when the group coordinator moves
/// partitions to or from it.
///
/// Both closures run on the thread that calls `KafkaConsumer.poll` (or
/// `close`), inside that call. `onAssign` returns where to start each newly
/// assigned partition, typically the next offsets that the caller stored in
/// its own database in the same transaction as its results; a partition left
/// out starts at the consumer's `auto.offset.reset` (earliest by default).
public struct KafkaRebalanceHandler: Sendable {
    public var onAssign: @Sendable ([KafkaTopicPartition]) -> [KafkaTopicPartition: KafkaOffset]
    public var onRevoke: @Sendable ([KafkaTopicPartition]) -> Void

    public init(onAssign: @escaping @Sendable ([KafkaTopicPartition]) -> [KafkaTopicPartition: KafkaOffset],
                onRevoke: @escaping @Sendable ([KafkaTopicPartition]) -> Void = { _ in }) {
        self.onAssign = onAssign
        self.onRevoke = onRevoke
    }
}
