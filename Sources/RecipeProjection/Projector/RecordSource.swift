import Foundation
import Kafka
import RecipeWire

/// Where the projector's thread gets its records, decoded as decisions
/// (`DecisionReading`). A thread of its own polls and reads a few polls ahead,
/// so that decoding runs beside folding and committing.
final class RecordSource: @unchecked Sendable {
    /// The records of one poll.
    struct Chunk: Sendable {
        var readings: [DecisionReading]
        /// Whether the consumer had more at hand (its poll came back full).
        var backlog: Bool
    }

    private let consumer: KafkaConsumer
    private let decoder = DecisionDecoder()
    private let topic: String
    private let pollSize: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var chunks: [Chunk] = []
    /// Readings judged already, freed by the reading thread.
    private var spent: [[DecisionReading]] = []
    private var failure: (any Error)?
    private var stopping = false
    /// Until the reading thread ends.
    private var running = true

    /// Polls ahead. Two rather than four: the folding thread then reads records
    /// decoded moments before, still in the processor's caches (a replay took
    /// about 5 % less CPU); one left the folding thread waiting.
    private static let depth = 2

    init(consumer: KafkaConsumer, topic: String, pollSize: Int) {
        (self.consumer, self.topic, self.pollSize) = (consumer, topic, pollSize)
        let thread = Thread { [self] in readAhead() }
        thread.name = "projector-read"
        thread.start()
    }

    /// The next chunk, or nil if none came within `timeout`; throws what the consumer threw.
    func next(timeout: Duration) throws -> Chunk? {
        try condition.withLock {
            let deadline = Date(timeIntervalSinceNow: timeout.seconds)
            while chunks.isEmpty, failure == nil, condition.wait(until: deadline) {}
            if let failure { throw failure }
            guard !chunks.isEmpty else { return nil }
            var chunk = chunks.removeFirst()
            chunk.backlog = chunk.backlog || !chunks.isEmpty
            condition.broadcast()
            return chunk
        }
    }

    /// Takes back readings that were judged, so that the reading thread frees
    /// them (a few hundred thousand strings a second) rather than the folding one.
    func recycle(_ readings: consuming [DecisionReading]) {
        let owned = consume readings
        condition.withLock { spent.append(owned) }
    }

    /// Stops reading ahead and waits for the thread to finish its poll: the consumer may then be closed.
    func stop() {
        condition.withLock {
            stopping = true
            condition.broadcast()
            while running { condition.wait() }
        }
    }

    /// One poll, read where the records lie in the consumer's messages: copied into
    /// arrays first, a replay's reading thread spent more time in malloc and free than decoding.
    private func poll(timeout: Duration) throws -> Chunk? {
        var readings: [DecisionReading] = []
        let (topic, decoder) = (topic, decoder)
        let count = try consumer.poll(maxRecords: pollSize, timeout: timeout) { (records: [KafkaBorrowedRecord]) in
            readings = Self.read(records.allSatisfy { $0.topic == topic } ? records : records.filter { $0.topic == topic }, decoder)
        }
        return count == 0 ? nil : Chunk(readings: readings, backlog: count == pollSize)
    }

    /// Decodes a poll's decisions, on two threads when there are many: decoding is most of
    /// the reading thread's work, and in a replay the folding thread waited for it (one
    /// core of two busy).
    private static func read(_ records: [KafkaBorrowedRecord], _ decoder: DecisionDecoder) -> [DecisionReading] {
        TwoThreads.map(records) { DecisionReading($0, decoder: decoder) }
    }

    private func readAhead() {
        defer {
            condition.withLock {
                running = false
                condition.broadcast()
            }
        }
        while true {
            var freed: [[DecisionReading]] = []
            let go = condition.withLock {
                while chunks.count >= Self.depth, !stopping { condition.wait() }
                swap(&freed, &spent)
                return !stopping
            }
            freed = []
            guard go else { return }
            do {
                guard let chunk = try poll(timeout: .milliseconds(100)) else { continue }
                condition.withLock {
                    chunks.append(chunk)
                    condition.broadcast()
                }
            } catch {
                condition.withLock {
                    failure = error
                    condition.broadcast()
                }
                return
            }
        }
    }
}
