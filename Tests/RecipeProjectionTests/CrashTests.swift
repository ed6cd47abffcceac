import Foundation
import Kafka
import RecipeDomain
import RecipeGenerators
import RecipeProjection
import RecipeTestSupport
import RecipeWire
import Testing

/// Starts `recipes project` against the fixture's broker and store.
/// - Parameter output: a file for its standard output (progress lines), else none is kept.
func startProjectorProcess(_ fixture: ProjectionFixture, storePath: String, extra: [String] = [],
                           output: String? = nil) throws -> Process {
    let process = try recipesProcess(["project", "--brokers", fixture.kafka.bootstrapServers, "--db", storePath,
                                      "--progress", "1"] + extra)
    if let output {
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    } else {
        process.standardOutput = FileHandle.nullDevice
    }
    try process.run()
    return process
}

/// Waits until a projector process has said it is projecting: from then on it
/// stops cleanly on SIGTERM (before, the signal's default action would kill it).
func waitUntilProjecting(output: String) throws {
    try waitFor("the projector to start", deadline: .seconds(30)) {
        ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").hasPrefix("projecting ")
    }
}

/// The records a store at `path` has applied (its positions added up), read by one
/// connection kept open; 0 until a projector has made the store.
final class AppliedRecords {
    private let path: String
    private var readModel: ReadModel?

    init(storeAt path: String) { self.path = path }

    var count: Int64 {
        if readModel == nil, FileManager.default.fileExists(atPath: path) { readModel = try? ReadModel(path: path) }
        return (try? readModel?.positions().values.reduce(0, +)) ?? 0
    }
}

/// Waits until the store at `path` has consumed every partition up to its high watermark.
func waitUntilCaughtUp(_ fixture: ProjectionFixture, storePath: String, deadline: Duration = .seconds(30)) throws {
    let consumer = try KafkaConsumer(config: fixture.config)
    defer { consumer.close() }
    let highs = try (0..<Int32(fixture.partitions)).map {
        ($0, try consumer.watermarks(KafkaTopicPartition(topic: fixture.topic, partition: $0)).high)
    }
    let total = highs.reduce(0) { $0 + $1.1 }
    let applied = AppliedRecords(storeAt: storePath)
    try waitFor("the store to apply the log's \(total) records", deadline: deadline) { applied.count >= total }
}

@Suite("Crash safety, with real projector processes")
struct CrashTests {
    @Test("a projector killed with SIGKILL at random moments ends with the same store as one that never stopped")
    func killedProjectorMatchesUninterrupted() throws {
        let fixture = try ProjectionFixture(partitions: 16)
        let stream = commandStream(count: 24_000, recipes: 1_000, seed: 7)
        let crashedStore = fixture.storePath + ".crashed.db"
        defer { removeStore(crashedStore) }

        // Twelve runs, each killed in the middle of its work: the log grows by a twelfth before
        // each, and the run is killed once it has committed a random part (up to half) of what
        // it has to fold, in transactions of 100 records, so more are under way when it dies.
        let applied = AppliedRecords(storeAt: crashedStore)
        var random = SplitMix64(seed: 99)
        for (round, start) in stride(from: 0, to: stream.count, by: 2_000).enumerated() {
            try fixture.send(Array(stream[start..<min(start + 2_000, stream.count)]))
            let logEnd = Int64(min(start + 2_000, stream.count))
            let before = applied.count
            let target = before + 1 + Int64(random.next() % UInt64((logEnd - before) / 2))
            let process = try startProjectorProcess(fixture, storePath: crashedStore, extra: ["--batch", "100"])
            try waitFor("run \(round) to commit \(target) of the \(logEnd) records", deadline: .seconds(30)) {
                applied.count >= target || !process.isRunning
            }
            let ranUntilKilled = process.isRunning
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(ranUntilKilled, "run \(round) stopped on its own: \(stderrOf(process))")
            let left = applied.count
            #expect(left > before && left < logEnd, "run \(round) was not killed mid-projection: \(before) → \(left) of \(logEnd) records")
        }
        let lastOutput = crashedStore + ".out"
        defer { try? FileManager.default.removeItem(atPath: lastOutput) }
        let last = try startProjectorProcess(fixture, storePath: crashedStore, output: lastOutput)
        try waitUntilCaughtUp(fixture, storePath: crashedStore)
        // The killed runs may have caught up already: the last one must be running before it is stopped.
        try waitUntilProjecting(output: lastOutput)
        #expect(try stopWithSIGTERM(last), "SIGTERM stops the projector cleanly: \(stderrOf(last))")

        let summary = try fixture.project()
        #expect(summary.accepted > 19_000)
        let reference = try StoreDump.string(storeAt: fixture.storePath)
        let crashed = try StoreDump.string(storeAt: crashedStore)
        #expect(crashed.count == reference.count)
        #expect(crashed == reference, "first difference: \(firstDifference(crashed, reference))")

        // The log rebuilds the same store, and says the crashed one is right.
        let replayed = fixture.storePath + ".replayed.db"
        defer { removeStore(replayed) }
        let replay = try runRecipes(["replay", "--brokers", fixture.kafka.bootstrapServers, "--into", replayed])
        #expect(replay.status == 0, "\(replay.err)")
        #expect(try StoreDump.string(storeAt: replayed) == crashed)
        let verify = try runRecipes(["audit", "verify", "--brokers", fixture.kafka.bootstrapServers, "--db", crashedStore])
        #expect(verify.status == 0, "\(verify.out) \(verify.err)")
    }

    @Test("a projector whose broker stops answering keeps reporting progress, stops promptly on SIGTERM, and leaves a right store")
    func stopsWithoutBrokers() throws {
        // Many partitions: a lag report that asked the broker for each one's watermarks would take minutes.
        let fixture = try ProjectionFixture(partitions: 32)
        try fixture.send(commandStream(count: 100, recipes: 5, seed: 12))
        let store = fixture.storePath + ".orphan.db"
        let output = store + ".out"
        defer {
            removeStore(store)
            try? FileManager.default.removeItem(atPath: output)
        }
        let projector = try startProjectorProcess(fixture, storePath: store, output: output)
        defer { if projector.isRunning { kill(projector.processIdentifier, SIGKILL) } }
        try waitUntilCaughtUp(fixture, storePath: store)
        @Sendable func progressLines() -> Int {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").filter { $0.hasPrefix("records ") }.count
        }
        let before = progressLines()
        // The broker is gone as far as clients can tell: it answers nothing (every answer is held for an
        // hour), while its port stays open. (Taking the embedded broker down may abort the process: see
        // EmbeddedKafka.)
        fixture.kafka.setRoundTripTime(1, milliseconds: 3_600_000)
        try waitFor("two more progress lines with the broker gone", deadline: .seconds(30)) { progressLines() >= before + 2 }
        projector.terminate()
        // A guard against a hang, not a timing: stopping takes a transaction and a close.
        let stopped = (try? waitFor("the projector to stop", deadline: .seconds(30)) { !projector.isRunning }) != nil
        #expect(stopped, "still running 30 s after SIGTERM with its broker gone")
        if !stopped { kill(projector.processIdentifier, SIGKILL) }
        projector.waitUntilExit()
        #expect(projector.terminationStatus == 0, "\(stderrOf(projector))")

        // What it committed is the log folded: a projector of its own, once the broker answers again, agrees.
        fixture.kafka.setRoundTripTime(1, milliseconds: 0)
        try fixture.project()
        let left = try StoreDump.string(storeAt: store)
        let reference = try StoreDump.string(storeAt: fixture.storePath)
        #expect(left == reference, "first difference: \(firstDifference(left, reference))")
    }
}

/// Sends SIGTERM and waits for a clean exit (status 0). A guard against a hang, not a timing:
/// a projector still running a minute later is killed, and that is a failure.
func stopWithSIGTERM(_ process: Process) throws -> Bool {
    process.terminate()
    let stopped = (try? waitFor("the projector to stop", deadline: .seconds(30)) { !process.isRunning }) != nil
    guard stopped else {
        kill(process.processIdentifier, SIGKILL)
        return false
    }
    return process.terminationReason == .exit && process.terminationStatus == 0
}

func firstDifference(_ a: String, _ b: String) -> String {
    let (linesA, linesB) = (a.split(separator: "\n"), b.split(separator: "\n"))
    for (x, y) in zip(linesA, linesB) where x != y { return "\(x.prefix(300)) ≠ \(y.prefix(300))" }
    return linesA.count == linesB.count ? "none" : "line counts \(linesA.count) vs \(linesB.count)"
}
