import Threads

/// What the idle consumers (`IdleFetching`) of one cluster embedded in this process share: the
/// producers' word that a topic had records acknowledged, and one peek for records from other
/// processes. One per `EmbeddedKafka`, found by its bootstrap servers.
///
/// One peek for the cluster rather than one a consumer: each peek is a request to every broker
/// leading a paused partition, which wakes the asking client's broker threads and the embedded
/// brokers; an idle `recipes dev` has four paused consumers. Every `peekInterval` (the shortest
/// of the paused consumers'), the first of them to poll asks where every paused partition ends,
/// and each consumer with a partition ending past where it paused is told (`IdleFetching.found`).
/// Every paused consumer still looks when a peek is due, as each did for its own: one that
/// missed a wake-up finds its records within the interval, whichever consumer asked.
///
/// Locks: a consumer calls in here holding its own lock; nothing here calls a consumer while
/// holding this lock.
final class IdleCluster: Sendable {
    private let registry = Locked(Registry())

    /// What a peek found of a consumer's paused partitions.
    enum Peek: Sendable, Equatable {
        /// A partition ends past where the consumer reads it.
        case more
        /// Where the consumer reads a partition that holds records is not known (it has
        /// returned none of it yet), or the peek failed.
        case unknown
    }

    private struct Registry {
        var consumers: [ObjectIdentifier: Consumer] = [:]
        /// When the next peek is due.
        var nextPeek = ContinuousClock.now
        var peeking = false
    }

    private struct Consumer {
        weak var fetching: IdleFetching?
        /// Its paused partitions, each with where it reads it (nil: not known).
        var paused: [KafkaTopicPartition: Int64?] = [:]
    }

    func add(_ fetching: IdleFetching) {
        registry.withLock(wake: .nobody) { registry in
            registry.consumers = registry.consumers.filter { $0.value.fetching != nil }
            registry.consumers[ObjectIdentifier(fetching)] = Consumer(fetching: fetching)
        }
    }

    func remove(_ fetching: IdleFetching) {
        registry.withLock(wake: .nobody) { registry in
            registry.consumers[ObjectIdentifier(fetching)] = nil
        }
    }

    /// The consumer paused these partitions, reading each where it says (empty: it fetches again).
    /// The first paused partition of the cluster starts the peeks' clock.
    func setPaused(_ fetching: IdleFetching, at positions: [KafkaTopicPartition: Int64?]) {
        registry.withLock(wake: .nobody) { registry in
            let id = ObjectIdentifier(fetching)
            guard registry.consumers[id] != nil else { return }
            if !positions.isEmpty, registry.consumers.values.allSatisfy({ $0.paused.isEmpty }) {
                registry.nextPeek = .now + fetching.peekInterval
            }
            registry.consumers[id]!.paused = positions
        }
    }

    /// The paused partitions to ask the ends of, when a peek is due and no other consumer is at
    /// it; the caller then hands the answer to `peeked`.
    func claimPeek() -> [KafkaTopicPartition]? {
        registry.withLock(wake: .nobody) { registry in
            let now = ContinuousClock.now
            guard !registry.peeking, now >= registry.nextPeek else { return nil }
            let paused = registry.consumers.values.filter { $0.fetching != nil && !$0.paused.isEmpty }
            guard !paused.isEmpty else { return nil }
            registry.nextPeek = now + (paused.compactMap { $0.fetching?.peekInterval }.min() ?? IdleFetching.peekInterval)
            registry.peeking = true
            return Set(paused.flatMap(\.paused.keys)).sorted()
        }
    }

    /// Each consumer with a paused partition that ends past where it reads it (every paused
    /// consumer when `ends` is nil: the peek failed).
    func peeked(_ ends: [KafkaTopicPartition: Int64]?) -> [(IdleFetching, Peek)] {
        registry.withLock(wake: .nobody) { registry in
            registry.peeking = false
            return registry.consumers.values.compactMap { consumer in
                guard let fetching = consumer.fetching, !consumer.paused.isEmpty else { return nil }
                guard let ends else { return (fetching, .unknown) }
                var found: Peek?
                for (partition, position) in consumer.paused {
                    guard let end = ends[partition], end > 0 else { continue }
                    guard let position else {
                        found = .unknown
                        continue
                    }
                    if end > position { return (fetching, .more) }
                }
                return found.map { (fetching, $0) }
            }
        }
    }

    /// When the next peek is due: a paused consumer looks again then.
    var nextPeek: ContinuousClock.Instant {
        registry.withLock(wake: .nobody) { $0.nextPeek }
    }

    /// Records of `topic` were acknowledged by a producer of this process.
    func appended(topic: String) {
        let listening = registry.withLock(wake: .nobody) { $0.consumers.values.compactMap(\.fetching) }
        for fetching in listening { fetching.wake(topic: topic) }
    }

    /// The cluster embedded in this process at `bootstrapServers`, if there is one.
    static func of(_ bootstrapServers: String) -> IdleCluster? {
        embedded.withLock { $0[bootstrapServers] }
    }

    static func register(_ cluster: IdleCluster, for bootstrapServers: String) {
        embedded.withLock { $0[bootstrapServers] = cluster }
    }

    static func unregister(_ bootstrapServers: String) {
        embedded.withLock { $0[bootstrapServers] = nil }
    }

    private static let embedded = Locked<[String: IdleCluster]>([:])
}
