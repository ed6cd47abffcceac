import Foundation

/// Which held partition's snapshot the decider's loop brings up to date next: every `interval`,
/// each partition in turn, one per poll, so that deciding stalls for one partition's snapshot at
/// a time, never for all of them at once. A round that left one not current (found lost) comes
/// again within a second.
struct SnapshotRounds {
    let interval: Duration
    private var due: ContinuousClock.Instant
    private var toSnapshot: [Int32] = []
    private var allCurrent = true

    init(interval: Duration, now: ContinuousClock.Instant = .now) {
        self.interval = interval
        due = now + interval
    }

    /// The next partition of the round, starting a round of `held` when one is due.
    mutating func next(held: some Collection<Int32>, now: ContinuousClock.Instant = .now) -> Int32? {
        if toSnapshot.isEmpty, now >= due {
            toSnapshot = held.sorted(by: >)
            allCurrent = true
        }
        return toSnapshot.popLast()
    }

    /// The partition `next` gave has its snapshot current, or held still to have it, or not (`current`).
    mutating func done(current: Bool, now: ContinuousClock.Instant = .now) {
        if !current { allCurrent = false }
        if toSnapshot.isEmpty { due = now + (allCurrent ? interval : min(interval, .seconds(1))) }
    }
}

extension Decider {
    /// Brings the next partition's snapshot up to date (`SnapshotRounds`). A partition with decisions
    /// on their way is held still until they are read back (`keepStilledSnapshots`): one that is
    /// never quiet (every poll's decisions still on their way when the next poll's are written)
    /// would otherwise never have one, and a decider killed would fall back to its start.
    func keepNextSnapshot(_ rounds: inout SnapshotRounds) throws {
        guard let partition = rounds.next(held: partitions.keys) else { return }
        var current = keepSnapshot(of: partition)
        if !current, partitions[partition]?.hasUnread == true {
            // Unless it is still already (its records kept meanwhile stay).
            try lifecycle.still(partition)
            current = true
        }
        rounds.done(current: current)
    }

    /// Keeps the snapshot of each partition held still whose decisions are all read back (or
    /// that waited too long), and releases its records, decided with the next poll's. A
    /// partition let go, or found lost and taken again (which seeks its commands anew), drops them.
    func keepStilledSnapshots() {
        for case .keepSnapshot(let partition) in lifecycle.releaseStills(hasUnread: { partitions[$0]?.hasUnread ?? false }) {
            keepSnapshot(of: partition)
        }
    }

    /// Keeps a snapshot of the partition when its state is what its effective decisions made
    /// and has moved past the one kept; says whether the one kept is now current (or the
    /// partition no longer held). A snapshot that cannot be written only costs the next
    /// decider a longer read.
    @discardableResult
    func keepSnapshot(of partition: Int32) -> Bool {
        guard let snapshots else { return true }
        if let snapshot = partitions[partition]?.snapshot(topic: topics.decisions), (try? snapshot.write(to: snapshots)) != nil {
            partitions[partition]!.keptSnapshotEnd = snapshot.end
        }
        return partitions[partition]?.isPastSnapshot != true
    }
}
