import Foundation
import Kafka
import RecipeDomain
import RecipeWire
import Threads

/// Taking partitions (an assignment, or one found lost): checking the topics, reading the
/// partitions' decisions (`rebuild`), stopping those it cannot go on with.
extension Decider {
    /// The partition count of the three topics, which must be equal. A missing topic is
    /// refused, not created: its settings (replicas, compaction) are `recipes topics create`'s.
    /// Looked up in the list of every topic, since asking for one by name creates it where
    /// brokers auto-create topics, with their defaults (not compacted, not kept).
    func checkTopics() throws -> Int {
        let editsCount = try readBack.partitions(of: topics.edits).count
        let existing = try readBack.topics()
        for (role, topic, record) in [("decisions", topics.decisions, "decision"), ("committed", topics.committed, "document")] {
            guard let count = existing[topic] else {
                throw DeciderError.noTopic(role: role, topic, editsPartitions: editsCount)
            }
            guard count == editsCount else {
                throw DeciderError.partitionMismatch(edits: topics.edits, editsPartitions: editsCount, other: topic, otherPartitions: count,
                                                     record: record)
            }
        }
        return editsCount
    }

    func start(partitionCount: Int) throws {
        let topic = topics.edits
        switch mode {
        case .all:
            let all = (0..<Int32(partitionCount)).map { KafkaTopicPartition(topic: topic, partition: $0) }
            let offsets = try take(all.map(\.partition))
            try edits.assign(all, from: offsets.reduce(into: [:]) { $0[KafkaTopicPartition(topic: topic, partition: $1.key)] = .offset($1.value) })
            whenStarted?()
            whenStarted = nil
        case .group:
            try edits.subscribe(topics: [topic], rebalance: KafkaRebalanceHandler(
                onAssign: { [self] assigned in
                    do {
                        let offsets = try take(assigned.map(\.partition))
                        whenStarted?()
                        whenStarted = nil
                        return offsets.reduce(into: [:]) { $0[KafkaTopicPartition(topic: topic, partition: $1.key)] = .offset($1.value) }
                    } catch {
                        pollFailure = error
                        return [:]
                    }
                },
                onRevoke: { [self] revoked in
                    do {
                        try letGo(Set(revoked.map(\.partition)))
                        for partition in revoked { partitions[partition.partition] = nil }
                        lifecycle.letGo(revoked.map(\.partition))
                        try assignReadBack()
                        publishStatus()
                    } catch {
                        pollFailure = error
                    }
                }))
        }
    }

    /// Starts deciding these partitions, each from its decisions: returns where each goes on in the edits topic.
    /// Watermarks are asked of the producer: asked of a read-back consumer while it fetches, each
    /// waited behind a fetch the broker held open (500 ms by default), 16 s for 32 partitions.
    func take(_ taken: [Int32]) throws -> [Int32: Int64] {
        // Its own decisions still on their way would land after the end read, on the chain it
        // leaves: what it decided under the new name would then not count. Its committed
        // documents too, so that the committed topic is read with them.
        try settleAll()
        // Its commands are sought anew from where the partition's decisions end.
        try lifecycle.take(taken)
        status.update { state in
            for partition in taken {
                state.partitions[partition] = DeciderState.Partition(state: .starting, nextCommand: partitions[partition]?.nextCommand ?? 0, editsEnd: nil)
            }
        }
        let rebuilt = try rebuild(taken)
        let committed = try readCommitted(taken.filter { rebuilt[$0] != nil })
        var offsets: [Int32: Int64] = [:]
        for partition in taken {
            let editsEnd = try producer.watermarks(KafkaTopicPartition(topic: topics.edits, partition: partition)).high
            // Stopped (`rebuild`), or stopped here: its commands wait where the edits partition ends.
            offsets[partition] = editsEnd
            guard let rebuilt = rebuilt[partition] else { continue }
            var decider = PartitionDecider(partition: partition, rebuilt: rebuilt)
            // Decisions of commands the edits topic does not hold are another log's: deciding on would skip commands.
            guard decider.nextCommand <= editsEnd else {
                try stop(partition, DeciderError.decisionsPastLog(KafkaTopicPartition(topic: topics.decisions, partition: partition),
                                                              next: decider.nextCommand, editsEnd: editsEnd),
                     decided: rebuilt.decidedOnLog, editsEnd: editsEnd)
                continue
            }
            if let skip = rebuilt.skip {
                try stop(partition, .decisionsSkipCommands(KafkaTopicPartition(topic: topics.decisions, partition: partition),
                                                       from: skip.from, to: skip.to, decider: skip.decider),
                     decided: rebuilt.decidedOnLog, editsEnd: editsEnd)
                continue
            }
            try lifecycle.decide(partition)
            decider.reconcile(withTopic: committed.onTopic[partition] ?? [:], end: committed.ends[partition]!)
            partitions[partition] = decider
            offsets[partition] = decider.nextCommand
            documentsWritten[partition] = .now
        }
        try writeDocuments()
        try assignReadBack()
        publishStatus()
        return offsets
    }

    /// Stops deciding a partition it cannot go on with, `decided` the first of its commands not
    /// known to be decided: it is named in `status`, and the others go on.
    func stop(_ partition: Int32, _ error: DeciderError, decided: Int64, editsEnd: Int64?) throws {
        partitions[partition] = nil
        try lifecycle.stop(partition, why: "\(error)", decided: decided, editsEnd: editsEnd)
    }

    /// Publishes `status`: before any decision it makes is handed to the producer, so that a reader
    /// never finds a decision of its own past the next command it published.
    func publishStatus() {
        var held = lifecycle.stopped
        for (partition, decider) in partitions {
            held[partition] = DeciderState.Partition(state: .deciding, nextCommand: decider.nextCommand,
                                                     editsEnd: edits.lastSeenWatermarks(KafkaTopicPartition(topic: topics.edits, partition: partition))?.high)
        }
        status.update { $0.partitions = held }
    }

    /// Pauses the commands of the partitions stopped since the last call (not while taking
    /// partitions: the edits consumer is assigned them after), and asks the brokers, at most
    /// every second, for the end of their edits partitions, which no fetch tells any more.
    func pauseStoppedAndAskEnds() {
        let toPause = lifecycle.toPause
        if !toPause.isEmpty, (try? edits.pause(toPause.map { KafkaTopicPartition(topic: topics.edits, partition: $0) })) != nil {
            lifecycle.paused(toPause)
        }
        for partition in lifecycle.editsEndsToAsk() {
            let marks = try? producer.watermarks(KafkaTopicPartition(topic: topics.edits, partition: partition), timeout: .milliseconds(500))
            if let end = marks?.high { lifecycle.stopped(partition, editsEnd: end) }
        }
    }

    /// Reads the decisions of these partitions to their end, each from its start or, when a
    /// snapshot of it is kept, from the decision before the snapshot's end: the snapshot is used
    /// when that decision is the very one it names (`PartitionSnapshot`), else the partition is
    /// read from its start. One assignment of one consumer for all of them (see `decisionsReader`).
    func rebuild(_ taken: [Int32]) throws -> [Int32: RebuiltPartition] {
        let reader = decisionsReader
        var rebuilt: [Int32: RebuiltPartition] = [:]
        var ends: [Int32: Int64] = [:]
        var editsEnds: [Int32: Int64] = [:]
        for partition in taken {
            let topicPartition = KafkaTopicPartition(topic: topics.decisions, partition: partition)
            let marks = try producer.watermarks(topicPartition)
            // Nothing is known decided: its first decisions, which the others follow, are gone.
            guard marks.low == 0 else {
                try stop(partition, .missingHead(topicPartition, low: marks.low), decided: 0, editsEnd: nil)
                continue
            }
            // Asked before its decisions are read: a command before it is on the log.
            editsEnds[partition] = try producer.watermarks(KafkaTopicPartition(topic: topics.edits, partition: partition)).high
            rebuilt[partition] = RebuiltPartition(editsEndBefore: editsEnds[partition]!)
            if marks.high > 0 { ends[partition] = marks.high }
        }
        // Taken from a snapshot until the decision before its end says otherwise.
        var unconfirmed: [Int32: PartitionSnapshot] = [:]
        if let snapshots {
            for (partition, end) in ends {
                guard let snapshot = PartitionSnapshot.read(snapshots, topic: topics.decisions, partition: partition),
                      snapshot.end <= end else { continue }
                unconfirmed[partition] = snapshot
                rebuilt[partition] = snapshot.rebuilt(editsEndBefore: editsEnds[partition]!)
                rebuilt[partition]!.end = snapshot.end - 1
            }
        }
        guard !ends.isEmpty else { return rebuilt }
        let from = ends.keys.map { KafkaTopicPartition(topic: topics.decisions, partition: $0) }
        try reader.assign(from, from: Dictionary(uniqueKeysWithValues: from.map { ($0, KafkaOffset.offset(rebuilt[$0.partition]!.end)) }))
        defer { try? reader.assign([]) }
        var lastRead = ContinuousClock.now
        let decoder = self.decoder
        while let (partition, end) = ends.first(where: { rebuilt[$0.key]!.end < $0.value }) {
            guard ContinuousClock.now - lastRead < .seconds(60) else {
                throw DeciderError.readTimedOut(KafkaTopicPartition(topic: topics.decisions, partition: partition),
                                                at: rebuilt[partition]!.end, end: end)
            }
            let records = try reader.poll(maxRecords: 10_000, timeout: .milliseconds(200))
            // Decoded on two threads, folded in order on this one.
            let decisions = TwoThreads.map(records) { try? decoder.decode(key: $0.key, value: $0.value).get() }
            // Partitions sought back to their start: the rest of this poll's records of them come after.
            var readAgain: Set<Int32> = []
            for (record, decision) in zip(records, decisions) where record.offset >= rebuilt[record.partition]?.end ?? .max {
                guard !readAgain.contains(record.partition) else { continue }
                lastRead = .now
                if let snapshot = unconfirmed.removeValue(forKey: record.partition) {
                    if record.offset == snapshot.end - 1, record.value.elementsEqual(snapshot.lastDecision) {
                        rebuilt[record.partition]!.end = snapshot.end
                        rebuilt[record.partition]!.snapshotEnd = snapshot.end
                        totals.fromSnapshots += 1
                    } else {
                        rebuilt[record.partition] = RebuiltPartition(editsEndBefore: editsEnds[record.partition]!)
                        readAgain.insert(record.partition)
                        try reader.seek(KafkaTopicPartition(topic: topics.decisions, partition: record.partition), to: .offset(0))
                    }
                    continue
                }
                rebuilt[record.partition]!.add(decision, value: record.value, partition: record.partition, offset: record.offset)
                totals.readTaking += 1
            }
        }
        return rebuilt
    }
}
