import Foundation
import Kafka
import RecipeDomain
import RecipeWire

/// Delivery reports: where each decision landed, settled on this thread or in the lanes.
extension Decider {
    func settleAll() throws {
        while !pending.isEmpty { try settle(pending.removeFirst()) }
    }

    /// Records handed to the producer in one `enqueue`.
    struct PendingAppend: Sendable {
        let batch: KafkaPendingBatch
        /// The indexes in the batch of each partition's decisions; none for committed documents.
        var parts: [Int32: Range<Int>] = [:]
    }

    /// Waits for a batch's reports, on this thread (a poll's lanes settle those that are in when
    /// it comes). A decision that landed right after what was read back of its partition is as
    /// read back (`PartitionDecider.landed`); any other is left to the read-back consumer.
    func settle(_ append: PendingAppend) throws {
        do {
            // A batch's reports come a partition at a time: its place in `partitions` is looked up once.
            var last: (partition: Int32, held: Dictionary<Int32, PartitionDecider>.Index?, settlement: Settlement)?
            try append.batch.landed { partition, offset in
                guard !append.parts.isEmpty else { return }
                if last?.partition != partition {
                    if let last { lifecycle.settled(last.partition, last.settlement) }
                    last = (partition, partitions.index(forKey: partition), Settlement())
                }
                guard let held = last?.held else { return }
                last?.settlement.add(partitions.values[held].landed(at: offset))
            }
            if let last { lifecycle.settled(last.partition, last.settlement) }
        } catch let error as KafkaError {
            // What was written after it follows a decision that is not there: stop, and the next
            // start reads what counts. (Going on would only write decisions that do not count.)
            throw DeciderError.deliveryFailed(error)
        }
    }

    /// The batches at the front of `pending` whose reports are all in, taken out, those of
    /// decisions returned; nil when one failed (`pollFailure`, as `settle` throws it).
    func takeLanded() -> [PendingAppend]? {
        var landed: [PendingAppend] = []
        while let oldest = pending.first, oldest.batch.isComplete {
            if let failure = oldest.batch.failure {
                pollFailure = DeciderError.deliveryFailed(failure)
                return nil
            }
            let append = pending.removeFirst()
            if !append.parts.isEmpty { landed.append(append) }
        }
        return landed
    }
}
