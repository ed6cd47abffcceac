import Foundation
import Kafka
import RecipeDomain
import RecipeWire
import Threads

/// Deciding a poll's records: grouped by partition, each partition decided on one of two
/// threads, its decisions handed to the producer as one batch.
extension Decider {
    /// A poll's records, lent for the length of the poll's closure; the two deciding threads
    /// only read them, and are done before the closure returns.
    struct LentRecords: @unchecked Sendable {
        let records: [KafkaBorrowedRecord]
    }

    /// Settles the decisions whose delivery reports are all in, decides a poll's records (after
    /// those released from being still) and enqueues their decisions.
    func decide(_ lent: LentRecords) {
        // Settled in the lanes, each partition's reports on the thread that decides it: on this
        // thread, which both lanes wait for, admitting every decision was a tenth of its work.
        guard let landings = takeLanded() else { return }
        var work = takeWork(lent.records, landings: landings)
        // A partition needs nothing of another: partitions are decided on two threads, each
        // partition's records in order on one, and its decisions made into messages there.
        let (judge, encoder) = (judge, encoder)
        TwoThreads.forEach(&work, weight: { $0.earlier.count + $0.records.count }) { work in
            for landing in landings {
                guard let indexes = landing.parts[work.decider.partition] else { continue }
                landing.batch.landed(indexes) { _, offset in work.settlement.add(work.decider.landed(at: offset)) }
            }
            func decide(_ record: KafkaBorrowedRecord) {
                guard let (value, outcome) = work.decider.decide(record, judge: judge, encoder: encoder) else { return }
                work.totals.count(outcome)
                // Stamped with the command's time in the log, so that a cut of the decisions by time
                // (`recipes replay --until-time`) is the same cut of the commands.
                value.withUnsafeBytes { work.decisions.append(key: record.key, value: $0, timestamp: record.timestamp) }
            }
            // A decision is about its command's size and a few hundred bytes more (its events, outcome and chain).
            var commandBytes = 0
            for record in work.earlier { commandBytes += record.value.count }
            for index in work.records { commandBytes += lent.records[index].value.count }
            let count = work.earlier.count + work.records.count
            work.decisions.reserveCapacity(records: count, bytes: commandBytes + 640 * count)
            for record in work.earlier { record.withBorrowed { decide($0) } }
            for index in work.records { decide(lent.records[index]) }
        }
        // Each partition's decisions handed over packed as the lane made them: as messages, each would
        // have its key and value allocated, and its four buffers retained and released on this thread.
        var parts: [KafkaPackedRecords] = []
        parts.reserveCapacity(work.count)
        var indexes: [Int32: Range<Int>] = [:]
        var count = 0
        for index in work.indices {
            let partition = work[index].decider.partition
            partitions[partition] = work[index].decider
            totals.add(work[index].totals)
            lifecycle.settled(partition, work[index].settlement)
            if !work[index].decisions.isEmpty {
                parts.append(work[index].decisions)
                indexes[partition] = count ..< count + work[index].decisions.count
                count += work[index].decisions.count
            }
        }
        publishStatus()
        if !parts.isEmpty { pending.append(PendingAppend(batch: producer.enqueue(packed: parts), parts: indexes)) }
    }

    /// One array for every decision (an array literal per message was an allocation each).
    static let decisionHeaders = [KafkaHeader(key: WireFormat.contentTypeHeaderName, value: WireFormat.contentType)]

    /// One poll's records of a partition the decider holds, with the partition taken out of
    /// `partitions` while they are decided (`takeWork`), and what deciding them gave.
    struct PartitionWork: Sendable {
        var decider: PartitionDecider
        /// Records of earlier polls, held while the partition was still (`PartitionLifecycle.takeReleased`): decided first.
        var earlier: [KafkaConsumerRecord] = []
        /// Indexes of the poll's records, in order.
        var records: [Int] = []
        var totals = Totals()
        /// The decisions to append, in order.
        var decisions: KafkaPackedRecords
        /// What the delivery reports settled in the lane left to do.
        var settlement = Settlement()

        init(decider: PartitionDecider, topic: String, earlier: [KafkaConsumerRecord] = [], records: [Int] = []) {
            self.decider = decider
            self.earlier = earlier
            self.records = records
            decisions = KafkaPackedRecords(topic: topic, partition: decider.partition, headers: Decider.decisionHeaders)
        }
    }

    /// The poll's records grouped by partition, after those released from being still, each with its partition
    /// taken out of `partitions` (the caller puts them back); and the partitions of `landings`, to
    /// settle, with or without records. Records of partitions not held are left out; those of
    /// partitions held still are kept, undecided (`PartitionLifecycle.hold`).
    func takeWork(_ records: [KafkaBorrowedRecord], landings: [PendingAppend]) -> [PartitionWork] {
        var slots: [Int32: Int] = [:]
        var work: [PartitionWork] = []
        for (partition, earlier) in lifecycle.takeReleased() {
            guard let decider = partitions.removeValue(forKey: partition) else { continue }
            slots[partition] = work.count
            work.append(PartitionWork(decider: decider, topic: topics.decisions, earlier: earlier))
        }
        for landing in landings {
            for partition in landing.parts.keys where slots[partition] == nil {
                guard let decider = partitions.removeValue(forKey: partition) else { continue }
                slots[partition] = work.count
                work.append(PartitionWork(decider: decider, topic: topics.decisions))
            }
        }
        /// Where a partition's records go: its work's slot, or nil when they are not decided now.
        func slot(_ partition: Int32) -> Int? {
            if lifecycle.isStill(partition) { return nil }
            if let slot = slots[partition] { return slot }
            guard let decider = partitions.removeValue(forKey: partition) else { return nil }
            slots[partition] = work.count
            work.append(PartitionWork(decider: decider, topic: topics.decisions))
            return work.count - 1
        }
        // A poll's records come a partition at a time: its slot is looked up once per run.
        var run: (partition: Int32, slot: Int?) = (-1, nil)
        for (index, record) in records.enumerated() {
            if record.partition != run.partition { run = (record.partition, slot(record.partition)) }
            if let slot = run.slot {
                work[slot].records.append(index)
            } else {
                lifecycle.hold(record)
            }
        }
        return work
    }
}
