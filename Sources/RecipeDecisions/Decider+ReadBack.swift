import Foundation
import Kafka
import RecipeDomain
import RecipeWire

/// Reading back what landed on the partitions it holds, and letting partitions go.
extension Decider {
    /// Reads back every partition this decider holds from where it stopped, on both topics it
    /// writes; the decisions only where a gap is to be read (`readGaps`).
    func assignReadBack() throws {
        let held = partitions.values.map { ($0.partition, $0.nextReadBack, $0.nextCommittedReadBack) }
        let decisions = held.map { KafkaTopicPartition(topic: topics.decisions, partition: $0.0) }
        try readBack.assign(decisions, from: Dictionary(uniqueKeysWithValues: zip(decisions, held.map { KafkaOffset.offset($0.1) })))
        try readBack.pause(decisions)
        lifecycle.readBackAssigned()
        let committed = held.map { KafkaTopicPartition(topic: topics.committed, partition: $0.0) }
        try committedReadBack.assign(committed, from: Dictionary(uniqueKeysWithValues: zip(committed, held.map { KafkaOffset.offset($0.2) })))
    }

    /// Checks the decisions that landed on held partitions; a partition whose chain
    /// another decider's decisions took over is started again from its decisions.
    func readWhatLanded() throws {
        let lost = try readBackLanded().union(lifecycle.lost)
        guard !lost.isEmpty else { return }
        totals.rebuilds += lost.count
        let offsets = try take(lost.sorted())
        for (partition, offset) in offsets {
            try edits.seek(KafkaTopicPartition(topic: topics.edits, partition: partition), to: .offset(offset))
        }
    }

    /// Reads back what landed on both topics of the held partitions, writes the documents
    /// of its decisions found on the chain, and returns the partitions it found lost.
    func readBackLanded(waiting timeout: Duration = .zero) throws -> Set<Int32> {
        var lost: Set<Int32> = []
        let decoder = self.decoder
        try readGaps()
        try readBack.poll(maxRecords: 10_000, timeout: timeout) { record in
            guard !lost.contains(record.partition), let held = partitions.index(forKey: record.partition) else { return }
            // Changed where it lies, through `values` (through the subscript by key, the partition's
            // state was copied out and back: a third of what reading a decision back cost).
            let found = partitions.values[held].readBack(record.value, at: record.offset) {
                try? decoder.decode(key: record.key.map { Array($0) }, value: Array(record.value)).get()
            }
            if found == .lost { lost.insert(record.partition) }
        }
        for case .pause(let partition) in lifecycle.readBack(lost: lost, readBackTo: { partitions[$0]?.nextReadBack }) {
            try readBack.pause([KafkaTopicPartition(topic: topics.decisions, partition: partition)])
        }
        for record in try committedReadBack.poll(maxRecords: 10_000, timeout: .zero) where partitions[record.partition] != nil {
            let position = record.header(CommittedRecipe.positionHeaderName).flatMap { CommittedRecipe.position(fromHeader: $0) }
            partitions[record.partition]!.committedLanded(key: record.key, position: position, at: record.offset)
        }
        // Before a lost partition is taken again: these documents are of decisions that count.
        try writeDocuments()
        return lost
    }

    /// Before letting partitions go (a revoke, a stop): waits for its decisions to land, reads
    /// them back and writes the documents of those that count, held ones too, so that a
    /// handover or a stop leaves nothing it knew to the next owner (for at most 10 s of
    /// reading: what is left, the next owner's start writes). A partition found lost has
    /// nothing more to write: its own decisions there do not count.
    func letGo(_ leaving: Set<Int32>) throws {
        try settleAll()
        var waiting = leaving
        let deadline = ContinuousClock.now + .seconds(10)
        while waiting.contains(where: { partitions[$0]?.hasUnread == true }), ContinuousClock.now < deadline {
            waiting.subtract(try readBackLanded(waiting: .milliseconds(50)).union(lifecycle.lost))
        }
        try writeDocuments(holding: false)
        try settleAll()
        for partition in leaving { keepSnapshot(of: partition) }
    }

    /// Has the read-back consumer fetch each partition with a gap to read, from where reading
    /// back stopped. Most decisions need no fetch: their delivery reports say they landed
    /// right after the last one read back (`settle`).
    func readGaps() throws {
        for case .fetch(let partition, let from) in lifecycle.fetchGaps(readBackFrom: { partitions[$0]?.nextReadBack }) {
            let topicPartition = KafkaTopicPartition(topic: topics.decisions, partition: partition)
            // Resumed first: a resume goes on from where the consumer last stood, which the seek then moves.
            try readBack.resume([topicPartition])
            try readBack.seek(topicPartition, to: .offset(from))
        }
    }
}
