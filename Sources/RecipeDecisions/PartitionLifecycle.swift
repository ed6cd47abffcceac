import Kafka

/// Where each partition a decider holds stands, from taking it to letting it go: a value the
/// decider's thread alone changes. Its transitions return what the decider is to do (fetch or
/// pause a partition's read-back, keep a snapshot), or say it (`lost`: take these again, `toPause`);
/// the decider does it with its clients, so the lifecycle is tested without a broker. docs/architecture.md, "Partition lifecycle".
///
/// A transition that cannot happen in a partition's phase (deciding a partition not taken,
/// stopping one already deciding) is a fault in the decider: it throws, and the decider stops.
struct PartitionLifecycle {
    enum Phase: Equatable {
        /// Its decisions being read before it decides: an assignment, or taken again.
        case taking
        case deciding
        /// It cannot go on (`why`) until taken again; `decided` is the first of its commands
        /// not known to be decided, `editsEnd` its edits partition's end as last seen.
        case stopped(why: String, decided: Int64, editsEnd: Int64?)
    }

    /// Reading back a deciding partition's decisions beyond what its delivery reports settled.
    enum ReadBack: Equatable {
        /// Nothing to read: each of its decisions landed right after the one before.
        case current
        /// Another writer's records lie before one of its decisions: read back up to `end` (exclusive).
        case gap(end: Int64)
        /// The read-back consumer fetches the gap (resumed and sought), paused again once read.
        case fetching(end: Int64)
    }

    /// A deciding partition held still for a snapshot until its decisions on the way are read
    /// back: the records polled for it meanwhile wait here, undecided.
    struct Still {
        let since: ContinuousClock.Instant
        var records: [KafkaConsumerRecord] = []
    }

    struct Partition {
        var phase: Phase
        /// A delivery report showed one of its decisions not on its chain: it is to be taken again.
        var lost = false
        var readBack = ReadBack.current
        var still: Still?
        /// Records it held still, to be decided before the next poll's.
        var released: [KafkaConsumerRecord] = []
    }

    /// What a transition asks of the decider.
    enum Action: Hashable {
        /// Resume reading back the partition's decisions, from `from` (where reading back stopped).
        case fetch(Int32, from: Int64)
        /// Pause reading back its decisions: the gap is read (or the partition found lost).
        case pause(Int32)
        /// Keep the partition's snapshot now.
        case keepSnapshot(Int32)
    }

    /// A transition the partition's phase does not allow (nil: not held).
    struct IllegalTransition: Error, Equatable, CustomStringConvertible {
        let partition: Int32
        let transition: String
        let phase: Phase?

        var description: String {
            "the decider cannot \(transition) partition \(partition) while it is \(phase.map { "\($0)" } ?? "not held")"
        }
    }

    /// The longest a partition is held still (what it waits for is its decisions' round trip),
    /// and the most records it holds meanwhile (about 40 MB): past either, it goes on without.
    static let longestStill: Duration = .seconds(5)
    static let mostStilled = 100_000

    private(set) var partitions: [Int32: Partition] = [:]
    /// Stopped partitions whose commands the edits consumer is still to pause.
    private(set) var toPause: Set<Int32> = []
    private var endsAsked = ContinuousClock.now

    // MARK: - Taking, deciding, stopping, letting go

    /// Starts taking these partitions: what was known of each (lost, a gap, records held
    /// still) is dropped, since each is read from its decisions again and its commands sought anew.
    mutating func take(_ taken: [Int32]) throws(IllegalTransition) {
        for partition in taken where partitions[partition]?.phase == .taking {
            throw IllegalTransition(partition: partition, transition: "take", phase: .taking)
        }
        for partition in taken {
            partitions[partition] = Partition(phase: .taking)
            toPause.remove(partition)
        }
    }

    /// A partition taken has read its decisions and decides.
    mutating func decide(_ partition: Int32) throws(IllegalTransition) {
        try expect(.taking, partition, "decide")
        partitions[partition]!.phase = .deciding
    }

    /// A partition taken cannot go on: its commands are to be paused (`toPause`).
    mutating func stop(_ partition: Int32, why: String, decided: Int64, editsEnd: Int64?) throws(IllegalTransition) {
        try expect(.taking, partition, "stop")
        partitions[partition] = Partition(phase: .stopped(why: why, decided: decided, editsEnd: editsEnd))
        toPause.insert(partition)
    }

    /// No longer held (a revoke): forgotten, whatever its phase.
    mutating func letGo(_ partitions: some Sequence<Int32>) {
        for partition in partitions {
            self.partitions[partition] = nil
            toPause.remove(partition)
        }
    }

    /// The edits consumer paused these (`toPause`).
    mutating func paused(_ paused: Set<Int32>) {
        toPause.subtract(paused)
    }

    /// The edits partition of a stopped partition ends here, as last asked.
    mutating func stopped(_ partition: Int32, editsEnd: Int64) {
        guard case .stopped(let why, let decided, _) = partitions[partition]?.phase else { return }
        partitions[partition]!.phase = .stopped(why: why, decided: decided, editsEnd: editsEnd)
    }

    /// The stopped partitions whose edits partition's end is to be asked of the brokers now: at
    /// most every second (`now` on), since no fetch tells it any more.
    mutating func editsEndsToAsk(now: ContinuousClock.Instant = .now) -> [Int32] {
        guard now - endsAsked >= .seconds(1) else { return [] }
        let stopped = partitions.compactMap { if case .stopped = $0.value.phase { $0.key } else { nil } }
        if !stopped.isEmpty { endsAsked = now }
        return stopped
    }

    /// The partitions stopped, each as the decider's status shows it.
    var stopped: [Int32: DeciderState.Partition] {
        var stopped: [Int32: DeciderState.Partition] = [:]
        for (partition, held) in partitions {
            guard case .stopped(let why, let decided, let editsEnd) = held.phase else { continue }
            stopped[partition] = DeciderState.Partition(state: .stopped(why: why), nextCommand: decided, editsEnd: editsEnd)
        }
        return stopped
    }

    /// Why each stopped partition stopped.
    var reasons: [Int32: String] {
        partitions.compactMapValues { if case .stopped(let why, _, _) = $0.phase { why } else { nil } }
    }

    func isStopped(_ partition: Int32) -> Bool {
        if case .stopped = partitions[partition]?.phase { true } else { false }
    }

    private func expect(_ phase: Phase, _ partition: Int32, _ transition: String) throws(IllegalTransition) {
        guard let held = partitions[partition]?.phase, held == phase else {
            throw IllegalTransition(partition: partition, transition: transition, phase: partitions[partition]?.phase)
        }
    }

    // MARK: - Delivery reports and reading back

    /// What delivery reports of a deciding partition's decisions showed; a partition no longer
    /// deciding (let go, or being taken again) has nothing more to settle.
    mutating func settled(_ partition: Int32, _ settlement: Settlement) {
        guard settlement.lost || settlement.gapEnd != nil, partitions[partition]?.phase == .deciding else { return }
        if settlement.lost { partitions[partition]!.lost = true }
        if let end = settlement.gapEnd {
            switch partitions[partition]!.readBack {
            case .current: partitions[partition]!.readBack = .gap(end: end)
            case .gap(let known): partitions[partition]!.readBack = .gap(end: max(known, end))
            case .fetching(let known): partitions[partition]!.readBack = .fetching(end: max(known, end))
            }
        }
    }

    /// The partitions found lost by a delivery report, to be taken again.
    var lost: Set<Int32> {
        Set(partitions.compactMap { $0.value.lost ? $0.key : nil })
    }

    /// Each gap not fetched yet: the read-back consumer is to fetch it from where reading back
    /// stopped (`readBackFrom`; nil for a partition not held, whose gap is dropped).
    mutating func fetchGaps(readBackFrom: (Int32) -> Int64?) -> [Action] {
        var actions: [Action] = []
        for (partition, held) in partitions {
            guard case .gap(let end) = held.readBack else { continue }
            guard let from = readBackFrom(partition) else {
                partitions[partition]!.readBack = .current
                continue
            }
            partitions[partition]!.readBack = .fetching(end: end)
            actions.append(.fetch(partition, from: from))
        }
        return actions
    }

    /// After a read-back poll: each gap fetched that is read up to its end (`readBackTo`, nil for
    /// a partition not held), or whose partition the poll found lost, is done.
    mutating func readBack(lost: Set<Int32>, readBackTo: (Int32) -> Int64?) -> [Action] {
        var actions: [Action] = []
        for (partition, held) in partitions {
            guard case .fetching(let end) = held.readBack else { continue }
            guard lost.contains(partition) || readBackTo(partition).map({ $0 >= end }) ?? true else { continue }
            partitions[partition]!.readBack = .current
            actions.append(.pause(partition))
        }
        return actions
    }

    /// The read-back consumer was assigned again, every partition paused: gaps fetched are to be fetched again.
    mutating func readBackAssigned() {
        for (partition, held) in partitions {
            if case .fetching(let end) = held.readBack { partitions[partition]!.readBack = .gap(end: end) }
        }
    }

    // MARK: - Held still for a snapshot

    /// Holds a deciding partition still (one already still stays so, since when it was).
    mutating func still(_ partition: Int32, now: ContinuousClock.Instant = .now) throws(IllegalTransition) {
        try expect(.deciding, partition, "hold still")
        if partitions[partition]!.still == nil { partitions[partition]!.still = Still(since: now) }
    }

    func isStill(_ partition: Int32) -> Bool {
        partitions[partition]?.still != nil
    }

    /// Keeps a record polled for a partition held still, undecided; says whether it did (a
    /// partition not still keeps none).
    @discardableResult
    mutating func hold(_ record: KafkaBorrowedRecord) -> Bool {
        guard isStill(record.partition) else { return false }
        partitions[record.partition]!.still!.records.append(KafkaConsumerRecord(copying: record))
        return true
    }

    /// Lets go on each partition held still whose decisions are all read back (`hasUnread` false),
    /// or that waited too long: its snapshot is to be kept, then its records decided (`takeReleased`).
    mutating func releaseStills(now: ContinuousClock.Instant = .now, hasUnread: (Int32) -> Bool) -> [Action] {
        var actions: [Action] = []
        for (partition, held) in partitions {
            guard let still = held.still else { continue }
            if hasUnread(partition), still.records.count < Self.mostStilled, now - still.since < Self.longestStill { continue }
            partitions[partition]!.still = nil
            if held.released.isEmpty { partitions[partition]!.released = still.records } else { partitions[partition]!.released += still.records }
            actions.append(.keepSnapshot(partition))
        }
        return actions
    }

    var hasReleased: Bool {
        partitions.values.contains { !$0.released.isEmpty }
    }

    /// The records released, to be decided before the next poll's, taken out.
    mutating func takeReleased() -> [Int32: [KafkaConsumerRecord]] {
        var released: [Int32: [KafkaConsumerRecord]] = [:]
        for (partition, held) in partitions where !held.released.isEmpty {
            released[partition] = held.released
            partitions[partition]!.released = []
        }
        return released
    }
}

/// What delivery reports of a partition's decisions left to do.
struct Settlement: Equatable {
    var lost = false
    /// Where reading back a gap ends, when there is one to read.
    var gapEnd: Int64?

    mutating func add(_ landing: PartitionDecider.Landing) {
        switch landing {
        case .settled: break
        case .lost: lost = true
        case .gap(let end): gapEnd = max(gapEnd ?? 0, end)
        }
    }
}
