import Foundation
import Kafka
import RecipeWire
import Threads

/// Where the projector's thread gets its records, decoded as decisions
/// (`DecisionReading`). A thread of its own polls and reads a few polls ahead,
/// so that decoding runs beside folding and committing.
final class RecordSource: Sendable {
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
    private let state = Locked(State())
    private let reader = OwnedThread(name: "projector-read")

    private struct State {
        var chunks: [Chunk] = []
        /// Readings judged already, freed by the reading thread.
        var spent: [[DecisionReading]] = []
        var failure: (any Error)?
        var stopping = false
    }

    /// Polls ahead. Two: the folding thread then reads records decoded moments
    /// before, still in the processor's caches; one would leave it waiting.
    private static let depth = 2

    init(consumer: KafkaConsumer, topic: String, pollSize: Int) {
        (self.consumer, self.topic, self.pollSize) = (consumer, topic, pollSize)
        reader.start { [self] in readAhead() }
    }

    /// The next chunk, or nil if none came within `timeout`; throws what the consumer threw.
    func next(timeout: Duration) throws -> Chunk? {
        try state.withLock(when: { !$0.chunks.isEmpty || $0.failure != nil }, deadline: .now + timeout) { state, _ in
            if let failure = state.failure { throw failure }
            guard !state.chunks.isEmpty else { return nil }
            var chunk = state.chunks.removeFirst()
            chunk.backlog = chunk.backlog || !state.chunks.isEmpty
            return chunk
        }
    }

    /// Takes back readings that were judged, so that the reading thread frees
    /// them (a few hundred thousand strings a second) rather than the folding one.
    func recycle(_ readings: consuming [DecisionReading]) {
        let owned = consume readings
        state.withLock { $0.spent.append(owned) }
    }

    /// Stops reading ahead and waits for the thread to finish its poll: the consumer may then be closed.
    func stop() {
        state.withLock { $0.stopping = true }
        reader.join()
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
        while true {
            var freed: [[DecisionReading]] = []
            // Takes only the spent readings, which no one waits on: the folding thread is not woken.
            let go = state.withLock(when: { $0.chunks.count < Self.depth || $0.stopping }, wake: .nobody) { state, _ in
                swap(&freed, &state.spent)
                return !state.stopping
            }
            freed = []
            guard go else { return }
            do {
                // Records end the wait at once; it paces the look at `stopping` and an idle consumer's
                // wake-ups, as often as a consumer that stopped fetching while idle looks anyway (250 ms).
                guard let chunk = try poll(timeout: .milliseconds(250)) else { continue }
                state.withLock { $0.chunks.append(chunk) }
            } catch {
                state.withLock { $0.failure = error }
                return
            }
        }
    }
}
