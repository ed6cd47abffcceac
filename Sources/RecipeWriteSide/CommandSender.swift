import Foundation
import Kafka
import Threads
import RecipeDomain
import RecipeWire
#if canImport(Glibc)
import Glibc
#endif

/// What `recipes send --stdin` does with its lines: each line is validated
/// (`CommandBuilder`, i.e. the record decoder) and the valid ones appended in
/// order; a bad line is reported with its number and the rest still go.
public struct CommandSender: Sendable {
    public enum Outcome: Sendable, Equatable {
        case appended(line: Int, position: String, commandID: String, recipeID: String)
        case failed(line: Int, message: String)

        public var line: Int {
            switch self {
            case .appended(let line, _, _, _), .failed(let line, _): line
            }
        }
    }

    public let appender: CommandAppender
    public let builder: CommandBuilder

    public init(appender: CommandAppender, source: String = "recipes-cli") {
        self.appender = appender
        self.builder = CommandBuilder(source: source)
    }

    /// Sends numbered lines (1-based numbers as given); blank lines are skipped.
    /// Lines without their own actor (not whole CloudEvents) are written by `actor`.
    /// Blocks until every appended line is answered.
    public func send(_ lines: [(number: Int, text: String)], actor: String) -> [Outcome] {
        var outcomes: [Outcome] = []
        var pending: [(line: Int, record: DecodedRecord)] = []
        for (number, text) in lines where !text.allSatisfy(\.isWhitespace) {
            do {
                pending.append((number, try builder.envelope(line: text, actor: actor)))
            } catch {
                outcomes.append(.failed(line: number, message: error.description))
            }
        }
        let results = appender.producer.sendBatch(pending.map { appender.message($0.record.envelope, source: $0.record.source) })
        for (item, result) in zip(pending, results) {
            switch result {
            case .success(let report):
                outcomes.append(.appended(line: item.line, position: report.description,
                                          commandID: item.record.envelope.commandID, recipeID: item.record.envelope.recipeID.text))
            case .failure(let error):
                outcomes.append(.failed(line: item.line, message: "not appended: \(error)"))
            }
        }
        return outcomes.sorted { $0.line < $1.line }
    }
}

/// `recipes send --stdin` as a pipeline: lines are read on a thread of their own,
/// validated in chunks on several of a dispatch queue's threads at once (the same `CommandBuilder`),
/// enqueued in input order (so each recipe's commands keep their order) with
/// several chunks' deliveries pending, and their outcomes reported in input
/// order as the deliveries come in.
public struct CommandStream: Sendable {
    public struct Summary: Sendable, Equatable {
        public var appended = 0
        public var failed = 0
        public var total: Int { appended + failed }
    }

    /// The outcomes of one chunk of lines, in line order.
    public typealias Report = ([CommandSender.Outcome]) -> Void

    public let appender: CommandAppender
    public let builder: CommandBuilder
    /// Lines per chunk: the unit of validation, enqueueing and reporting.
    public var chunkLines = 5_000
    /// Chunks being validated at once (about one per core is enough).
    public var validating = 4
    /// Chunks enqueued whose deliveries are awaited: records in flight cover the
    /// brokers' acknowledgement latency.
    public var pendingDeliveries = 32
    /// Whether `report` is given the appended lines too, or their failures only (`--quiet`:
    /// a position per line would cost more to write out than to append).
    public var reportsAppended = true

    public init(appender: CommandAppender, source: String = "recipes-cli") {
        self.appender = appender
        self.builder = CommandBuilder(source: source)
    }

    /// Reads `input` to its end (a file descriptor: stdin, a pipe, a file) and
    /// sends each non-blank line; `report` gets each chunk's outcomes in order, on the
    /// calling thread, which this blocks until the last line is answered.
    public func send(readingFrom input: Int32, actor: String, report: Report) throws -> Summary {
        let chunks = LineChunks(descriptor: input, linesPerChunk: chunkLines, buffered: validating + 2)
        // Each chunk validated on a thread of its own, a few ahead of the one being enqueued.
        var validations: [Background<Validated>] = []
        var deliveries: [(Validated, KafkaPendingBatch)] = []
        var summary = Summary()
        let builder = self.builder, appender = self.appender, reportsAppended = self.reportsAppended

        func finish(_ validated: Validated, _ results: [Result<KafkaDeliveryReport, KafkaError>]) {
            let (outcomes, appended) = validated.outcomes(delivered: results, reportingAppended: reportsAppended)
            summary.appended += appended
            summary.failed += validated.failures.count + results.count - appended
            report(outcomes)
        }
        func enqueueOldest() throws {
            let validated = try validations.removeFirst().value()
            deliveries.append((validated, appender.producer.enqueue(validated.messages)))
            if deliveries.count > pendingDeliveries {
                let (done, pending) = deliveries.removeFirst()
                finish(done, pending.results())
            }
        }
        while let chunk = chunks.next() {
            validations.append(Background("validating lines from \(chunk.firstLine)") {
                Validated(chunk, builder: builder, appender: appender, actor: actor)
            })
            if validations.count > validating { try enqueueOldest() }
        }
        while !validations.isEmpty { try enqueueOldest() }
        for (validated, pending) in deliveries { finish(validated, pending.results()) }
        if let error = chunks.error { throw error }
        return summary
    }

    /// One chunk's lines turned into records (or their errors).
    struct Validated: Sendable {
        var failures: [CommandSender.Outcome] = []
        var messages: [KafkaProducerMessage] = []
        /// Per message: its line, command id and recipe id.
        var sources: [(line: Int, commandID: String, recipeID: String)] = []

        init(_ chunk: LineChunk, builder: CommandBuilder, appender: CommandAppender, actor: String) {
            // One time for the chunk: its lines are read within moments of each other.
            var shared = CommandBuilder.Chunk(time: .now, commands: chunk.lines.count)
            messages.reserveCapacity(chunk.lines.count)
            sources.reserveCapacity(chunk.lines.count)
            chunk.bytes.withUnsafeBytes { bytes in
                for (offset, range) in chunk.lines.enumerated() where !bytes[range].allSatisfy(Self.isWhitespace) {
                    let number = chunk.firstLine + offset
                    do throws(CommandInputError) {
                        let command = try builder.command(line: UnsafeRawBufferPointer(rebasing: bytes[range]), actor: actor, chunk: &shared)
                        messages.append(appender.message(command))
                        sources.append((number, command.decoded.envelope.commandID, command.decoded.envelope.recipeID.text))
                    } catch {
                        failures.append(.failed(line: number, message: error.description))
                    }
                }
            }
        }

        static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0B || byte == 0x0C }

        /// The chunk's outcomes in line order (without the appended lines unless `reportingAppended`),
        /// and how many lines were appended.
        func outcomes(delivered results: [Result<KafkaDeliveryReport, KafkaError>],
                      reportingAppended: Bool) -> (outcomes: [CommandSender.Outcome], appended: Int) {
            var outcomes: [CommandSender.Outcome] = []
            outcomes.reserveCapacity(reportingAppended ? results.count + failures.count : failures.count)
            var appended = 0
            var failure = failures.makeIterator(), nextFailure = failure.next()
            // Indices, not `zip`: the sources' strings are only read, not copied, for lines not reported.
            for index in results.indices {
                let line = sources[index].line
                while let failed = nextFailure, failed.line < line {
                    outcomes.append(failed)
                    nextFailure = failure.next()
                }
                switch results[index] {
                case .success(let report):
                    appended += 1
                    guard reportingAppended else { continue }
                    outcomes.append(.appended(line: line, position: report.description,
                                              commandID: sources[index].commandID, recipeID: sources[index].recipeID))
                case .failure(let error):
                    outcomes.append(.failed(line: line, message: "not appended: \(error)"))
                }
            }
            while let failed = nextFailure {
                outcomes.append(failed)
                nextFailure = failure.next()
            }
            return (outcomes, appended)
        }
    }
}

/// Numbered lines read from a file descriptor.
struct LineChunk: Sendable {
    /// The 1-based number of `lines[0]`.
    var firstLine: Int
    /// The lines one after another, without their `\n` (and a `\r` before it): one allocation per chunk.
    var bytes: [UInt8] = []
    /// Each line's range in `bytes`.
    var lines: [Range<Int>] = []
}

/// Reads a file descriptor in large blocks on a thread of its own and hands out
/// chunks of lines; at most `buffered` chunks wait, so a fast reader stops
/// (rather than filling memory) while the producer is behind.
final class LineChunks: Sendable {
    private let state = Locked(State())
    /// Ends at the input's end (or a failed read), after handing out the last chunk.
    private let reader: OwnedThread

    private struct State {
        var ready: [LineChunk] = []
        var ended = false
        /// A read that failed (the chunks before it were handed out).
        var failure: (any Error)?
    }

    init(descriptor: Int32, linesPerChunk: Int, buffered: Int) {
        let state = state
        reader = OwnedThread(name: "send-reader") {
            Self.read(descriptor, linesPerChunk: linesPerChunk, into: state, buffered: buffered)
        }
    }

    /// The next chunk, blocking until it is read; nil at the input's end.
    func next() -> LineChunk? {
        state.withLock(when: { !$0.ready.isEmpty || $0.ended }) { state, _ in
            state.ready.isEmpty ? nil : state.ready.removeFirst()
        }
    }

    /// What ended the input early, once `next()` answered nil.
    var error: (any Error)? { state.withLock { $0.failure } }

    /// Hands a chunk over once there is room for it; nil: the input ended.
    private static func hand(_ chunk: LineChunk?, to state: Locked<State>, buffered: Int) {
        guard let chunk else { return state.withLock { $0.ended = true } }
        state.withLock(when: { $0.ready.count < buffered }) { state, _ in state.ready.append(chunk) }
    }

    private static func read(_ descriptor: Int32, linesPerChunk: Int, into state: Locked<State>, buffered: Int) {
        func hand(_ chunk: LineChunk?) { Self.hand(chunk, to: state, buffered: buffered) }
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var partial: [UInt8] = []
        var chunk = LineChunk(firstLine: 1)
        var number = 0
        func add(_ line: ArraySlice<UInt8>) {
            var line = line
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            let start = chunk.bytes.count
            chunk.bytes += line
            chunk.lines.append(start..<chunk.bytes.count)
            number += 1
            if chunk.lines.count == linesPerChunk {
                // The next chunk's bytes are about as many as this one's.
                let size = chunk.bytes.count
                hand(chunk)
                chunk = LineChunk(firstLine: number + 1)
                chunk.bytes.reserveCapacity(size + size / 8)
                chunk.lines.reserveCapacity(linesPerChunk)
            }
        }
        while true {
            let count = block.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let failure = CommandStreamError(message: "cannot read the input: \(String(cString: strerror(errno)))")
                state.withLock { $0.failure = failure }
                break
            }
            if count == 0 { break }
            var start = 0
            let filled = block[0..<count]
            while let newline = filled[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if partial.isEmpty {
                    add(filled[start..<newline])
                } else {
                    partial += filled[start..<newline]
                    add(partial[...])
                    partial = []
                }
                start = newline + 1
            }
            partial += filled[start...]
        }
        if !partial.isEmpty { add(partial[...]) }
        if !chunk.lines.isEmpty { hand(chunk) }
        hand(nil)
    }
}

struct CommandStreamError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
