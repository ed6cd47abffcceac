import Kafka
@testable import RecipeDecisions
import Testing

/// The partition lifecycle without a broker: each transition, what it asks of the decider, and
/// the transitions a decider must never make.
@Suite("A decider's partition lifecycle, without a broker")
struct PartitionLifecycleTests {
    private func record(_ partition: Int32, _ offset: Int64) -> KafkaConsumerRecord {
        KafkaConsumerRecord(topic: "recipes.edits", partition: partition, offset: offset, key: Array("r\(offset)".utf8),
                            value: Array("command \(offset)".utf8), headers: [], timestamp: 1_796_000_000_000 + offset)
    }

    private func hold(_ record: KafkaConsumerRecord, in lifecycle: inout PartitionLifecycle) {
        _ = record.withBorrowed { lifecycle.hold($0) }
    }

    /// Partitions 0 and 1 taken and deciding.
    private func deciding() throws -> PartitionLifecycle {
        var lifecycle = PartitionLifecycle()
        try lifecycle.take([0, 1])
        try lifecycle.decide(0)
        try lifecycle.decide(1)
        return lifecycle
    }

    @Test("a partition taken is taking until it decides; taking it again drops what was known of it (found lost, a gap, records held still)")
    func takeThenDecide() throws {
        var lifecycle = PartitionLifecycle()
        try lifecycle.take([3])
        #expect(lifecycle.partitions[3]?.phase == .taking)
        try lifecycle.decide(3)
        #expect(lifecycle.partitions[3]?.phase == .deciding)

        lifecycle.settled(3, Settlement(lost: true, gapEnd: 40))
        try lifecycle.still(3)
        hold(record(3, 7), in: &lifecycle)
        #expect(lifecycle.lost == [3])
        try lifecycle.take([3])
        let taken = lifecycle.partitions[3]
        #expect(taken?.phase == .taking)
        #expect(taken?.lost == false && taken?.readBack == .current && taken?.still == nil && taken?.released == [])
        #expect(lifecycle.lost.isEmpty)
        #expect(lifecycle.fetchGaps { _ in 0 }.isEmpty)
    }

    @Test("a partition stopped while taken is named with why, what is decided and its edits end, its commands to be paused once; taken again, it is no longer stopped")
    func stopAndTakeAgain() throws {
        var lifecycle = PartitionLifecycle()
        try lifecycle.take([0, 1])
        try lifecycle.stop(0, why: "decisions past the log", decided: 3, editsEnd: 5)
        try lifecycle.decide(1)
        #expect(lifecycle.isStopped(0) && !lifecycle.isStopped(1))
        #expect(lifecycle.stopped == [0: DeciderState.Partition(state: .stopped(why: "decisions past the log"), nextCommand: 3, editsEnd: 5)])
        #expect(lifecycle.reasons == [0: "decisions past the log"])
        #expect(lifecycle.toPause == [0])
        lifecycle.paused([0])
        #expect(lifecycle.toPause.isEmpty)

        lifecycle.stopped(0, editsEnd: 9)
        #expect(lifecycle.stopped[0]?.editsEnd == 9 && lifecycle.stopped[0]?.lag == 6)
        lifecycle.stopped(1, editsEnd: 9)
        #expect(lifecycle.partitions[1]?.phase == .deciding, "the edits end of a partition not stopped is not kept")

        try lifecycle.take([0])
        #expect(!lifecycle.isStopped(0) && lifecycle.reasons.isEmpty)
        try lifecycle.decide(0)
        #expect(lifecycle.partitions[0]?.phase == .deciding)
    }

    @Test("a partition stopped and taken again before its commands were paused is not paused")
    func stoppedThenTakenIsNotPaused() throws {
        var lifecycle = PartitionLifecycle()
        try lifecycle.take([2])
        try lifecycle.stop(2, why: "missing head", decided: 0, editsEnd: nil)
        try lifecycle.take([2])
        #expect(lifecycle.toPause.isEmpty)
    }

    @Test("the ends of stopped partitions' edits partitions are asked at most every second, and only when a partition is stopped")
    func editsEndsAskedEverySecond() throws {
        var lifecycle = PartitionLifecycle()
        let start = ContinuousClock.now + .seconds(1)
        #expect(lifecycle.editsEndsToAsk(now: start).isEmpty, "none stopped")
        try lifecycle.take([0, 1])
        try lifecycle.stop(1, why: "why", decided: 0, editsEnd: nil)
        try lifecycle.decide(0)
        #expect(lifecycle.editsEndsToAsk(now: start) == [1])
        #expect(lifecycle.editsEndsToAsk(now: start + .milliseconds(999)).isEmpty)
        #expect(lifecycle.editsEndsToAsk(now: start + .seconds(1)) == [1])
    }

    @Test("letting partitions go forgets them, whatever their phase, with their commands still to pause")
    func letGo() throws {
        var lifecycle = PartitionLifecycle()
        try lifecycle.take([0, 1, 2])
        try lifecycle.decide(0)
        try lifecycle.stop(1, why: "why", decided: 0, editsEnd: nil)
        lifecycle.letGo([0, 1, 2, 7])
        #expect(lifecycle.partitions.isEmpty && lifecycle.toPause.isEmpty)
        try lifecycle.take([1])
        #expect(lifecycle.partitions[1]?.phase == .taking, "taken again after a revoke")
    }

    @Test("a delivery report that shows a decision off its chain marks the partition lost; one past what was read back leaves a gap to its furthest end")
    func settlements() throws {
        var lifecycle = try deciding()
        lifecycle.settled(0, Settlement())
        #expect(lifecycle.partitions[0]?.lost == false && lifecycle.partitions[0]?.readBack == .current)
        lifecycle.settled(0, Settlement(lost: false, gapEnd: 12))
        lifecycle.settled(0, Settlement(lost: false, gapEnd: 9))
        #expect(lifecycle.partitions[0]?.readBack == .gap(end: 12))
        lifecycle.settled(1, Settlement(lost: true, gapEnd: nil))
        #expect(lifecycle.lost == [1])

        try lifecycle.take([2])
        lifecycle.settled(2, Settlement(lost: true, gapEnd: 4))
        lifecycle.settled(5, Settlement(lost: true, gapEnd: 4))
        #expect(lifecycle.partitions[2]?.lost == false && lifecycle.partitions[2]?.readBack == .current,
                "a partition being taken has nothing to settle")
        #expect(lifecycle.partitions[5] == nil, "nor one not held")
    }

    @Test("a gap is fetched once from where reading back stopped, paused once read to its end or found lost, and fetched again after the read-back consumer is assigned anew")
    func gapsReadBack() throws {
        var lifecycle = try deciding()
        lifecycle.settled(0, Settlement(lost: false, gapEnd: 12))
        lifecycle.settled(1, Settlement(lost: false, gapEnd: 30))
        let fetched = lifecycle.fetchGaps { [0: 8, 1: 20][$0] }
        #expect(Set(fetched) == [.fetch(0, from: 8), .fetch(1, from: 20)])
        #expect(lifecycle.partitions[0]?.readBack == .fetching(end: 12))
        #expect(lifecycle.fetchGaps { _ in 0 }.isEmpty, "a gap fetched is not fetched again")

        // A later report moves the end of the gap being fetched.
        lifecycle.settled(0, Settlement(lost: false, gapEnd: 15))
        #expect(lifecycle.readBack(lost: [], readBackTo: { _ in 12 }).isEmpty, "partition 0 read to 12 of 15, partition 1 to 12 of 30")
        #expect(Set(lifecycle.readBack(lost: [1], readBackTo: { [0: 15, 1: 21][$0] })) == [.pause(0), .pause(1)],
                "partition 0 read to its gap's end, partition 1 found lost")
        #expect(lifecycle.partitions.values.allSatisfy { $0.readBack == .current })

        lifecycle.settled(1, Settlement(lost: false, gapEnd: 40))
        _ = lifecycle.fetchGaps { _ in 30 }
        lifecycle.readBackAssigned()
        #expect(lifecycle.partitions[1]?.readBack == .gap(end: 40), "assigned anew, every partition is paused: the gap is to be fetched again")
        #expect(lifecycle.fetchGaps { _ in 33 } == [.fetch(1, from: 33)])
        #expect(lifecycle.readBack(lost: [], readBackTo: { _ in nil }) == [.pause(1)], "a partition no longer held has nothing to read")
    }

    @Test("a gap of a partition no longer held is dropped, not fetched")
    func gapOfPartitionNotHeld() throws {
        var lifecycle = try deciding()
        lifecycle.settled(0, Settlement(lost: false, gapEnd: 12))
        #expect(lifecycle.fetchGaps { _ in nil }.isEmpty)
        #expect(lifecycle.partitions[0]?.readBack == .current)
    }

    @Test("a partition held still keeps its records undecided until its decisions are read back; then its snapshot is to be kept and its records decided first, once")
    func stillUntilReadBack() throws {
        var lifecycle = try deciding()
        let since = ContinuousClock.now
        try lifecycle.still(0, now: since)
        try lifecycle.still(0, now: since + .seconds(3))
        #expect(lifecycle.partitions[0]?.still?.since == since, "held still already, it stays so since when it was")
        #expect(lifecycle.isStill(0) && !lifecycle.isStill(1))
        hold(record(0, 4), in: &lifecycle)
        hold(record(0, 5), in: &lifecycle)

        #expect(lifecycle.releaseStills(now: since + .seconds(1), hasUnread: { _ in true }).isEmpty)
        #expect(!lifecycle.hasReleased && lifecycle.takeReleased().isEmpty)
        #expect(lifecycle.releaseStills(now: since + .seconds(1), hasUnread: { _ in false }) == [.keepSnapshot(0)])
        #expect(!lifecycle.isStill(0) && lifecycle.hasReleased)
        #expect(lifecycle.takeReleased() == [0: [record(0, 4), record(0, 5)]])
        #expect(!lifecycle.hasReleased && lifecycle.takeReleased().isEmpty)
    }

    @Test("a partition held still goes on without its decisions read back after the longest wait, or past the most records it holds")
    func stillAtMost() throws {
        var lifecycle = try deciding()
        let since = ContinuousClock.now
        try lifecycle.still(0, now: since)
        #expect(lifecycle.releaseStills(now: since + PartitionLifecycle.longestStill, hasUnread: { _ in true }) == [.keepSnapshot(0)])
        #expect(!lifecycle.hasReleased, "it held no records")

        try lifecycle.still(1, now: since)
        for offset in 0 ..< Int64(PartitionLifecycle.mostStilled - 1) { hold(record(1, offset), in: &lifecycle) }
        #expect(lifecycle.releaseStills(now: since, hasUnread: { _ in true }).isEmpty)
        hold(record(1, Int64(PartitionLifecycle.mostStilled)), in: &lifecycle)
        #expect(lifecycle.releaseStills(now: since, hasUnread: { _ in true }) == [.keepSnapshot(1)])
        #expect(lifecycle.takeReleased()[1]?.count == PartitionLifecycle.mostStilled)
    }

    @Test("records released and not decided yet stay ahead of those released after them")
    func releasedTwice() throws {
        var lifecycle = try deciding()
        let since = ContinuousClock.now
        try lifecycle.still(0, now: since)
        hold(record(0, 1), in: &lifecycle)
        _ = lifecycle.releaseStills(now: since, hasUnread: { _ in false })
        try lifecycle.still(0, now: since)
        hold(record(0, 2), in: &lifecycle)
        _ = lifecycle.releaseStills(now: since, hasUnread: { _ in false })
        #expect(lifecycle.takeReleased() == [0: [record(0, 1), record(0, 2)]])
    }

    @Test("a snapshot round takes each held partition once, one per call, every interval, and comes again within a second when one was left not current")
    func snapshotRounds() throws {
        let start = ContinuousClock.now
        var rounds = SnapshotRounds(interval: .seconds(60), now: start)
        #expect(rounds.next(held: [2, 0, 1], now: start + .seconds(59)) == nil)
        func round(at now: ContinuousClock.Instant, notCurrent: Int32? = nil) -> [Int32] {
            var taken: [Int32] = []
            while let partition = rounds.next(held: [2, 0, 1], now: now) {
                taken.append(partition)
                rounds.done(current: partition != notCurrent, now: now)
            }
            return taken
        }
        #expect(round(at: start + .seconds(60), notCurrent: 1) == [0, 1, 2])
        #expect(round(at: start + .seconds(60.9)).isEmpty)
        #expect(round(at: start + .seconds(61)) == [0, 1, 2], "again within a second")
        #expect(round(at: start + .seconds(120)).isEmpty)
        #expect(round(at: start + .seconds(121)) == [0, 1, 2], "every interval once all were current")
    }

    // MARK: - Transitions a decider never makes

    @Test("deciding, stopping or holding still a partition in a phase that does not allow it is refused, naming the partition, and changes nothing")
    func illegalTransitions() throws {
        var lifecycle = PartitionLifecycle()
        #expect(throws: PartitionLifecycle.IllegalTransition(partition: 0, transition: "decide", phase: nil)) { try lifecycle.decide(0) }
        #expect(throws: PartitionLifecycle.IllegalTransition(partition: 0, transition: "stop", phase: nil)) {
            try lifecycle.stop(0, why: "why", decided: 0, editsEnd: nil)
        }
        #expect(throws: PartitionLifecycle.IllegalTransition(partition: 0, transition: "hold still", phase: nil)) { try lifecycle.still(0) }
        #expect(lifecycle.partitions.isEmpty)

        try lifecycle.take([0, 1])
        #expect(throws: PartitionLifecycle.IllegalTransition(partition: 1, transition: "take", phase: .taking)) { try lifecycle.take([2, 1]) }
        #expect(lifecycle.partitions[2] == nil, "a take refused takes none of its partitions")
        #expect(throws: PartitionLifecycle.IllegalTransition(partition: 0, transition: "hold still", phase: .taking)) { try lifecycle.still(0) }

        try lifecycle.decide(0)
        #expect(throws: PartitionLifecycle.IllegalTransition(partition: 0, transition: "decide", phase: .deciding)) { try lifecycle.decide(0) }
        #expect(throws: PartitionLifecycle.IllegalTransition(partition: 0, transition: "stop", phase: .deciding)) {
            try lifecycle.stop(0, why: "why", decided: 0, editsEnd: nil)
        }
        #expect(lifecycle.partitions[0]?.phase == .deciding)

        try lifecycle.stop(1, why: "why", decided: 2, editsEnd: 3)
        let stopped = PartitionLifecycle.Phase.stopped(why: "why", decided: 2, editsEnd: 3)
        #expect(throws: PartitionLifecycle.IllegalTransition(partition: 1, transition: "decide", phase: stopped)) { try lifecycle.decide(1) }
        #expect(throws: PartitionLifecycle.IllegalTransition(partition: 1, transition: "hold still", phase: stopped)) { try lifecycle.still(1) }
        #expect(lifecycle.partitions[1]?.phase == stopped)
        #expect("\(PartitionLifecycle.IllegalTransition(partition: 1, transition: "decide", phase: stopped))".contains("cannot decide partition 1"))
    }

    @Test("a record polled for a partition not held still is not held")
    func holdOnlyWhenStill() throws {
        var lifecycle = try deciding()
        #expect(record(0, 1).withBorrowed { lifecycle.hold($0) } == false)
        #expect(record(9, 1).withBorrowed { lifecycle.hold($0) } == false)
        #expect(lifecycle.partitions[0]?.still == nil && lifecycle.takeReleased().isEmpty)
    }
}
