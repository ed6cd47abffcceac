import Foundation
import Kafka
import RecipeDomain
@testable import RecipeProjection
import RecipeTestSupport
import RecipeWire
import Testing
import Threads

/// A supervised projector running on a thread of its own, and every status it reported.
private final class SupervisedProjector: Sendable {
    let stop = StopSignal()
    private let statuses = StatusLog()
    private let thread = OwnedThread(name: "test-projector")

    init(_ makeProjector: @escaping @Sendable () throws -> Projector) {
        let supervisor = ProjectorSupervisor(firstDelay: .milliseconds(50), longestDelay: .milliseconds(400),
                                             makeProjector: makeProjector)
        let (stop, statuses) = (stop, statuses)
        thread.start {
            supervisor.run(until: stop, progressInterval: .milliseconds(20), status: { statuses.append($0) })
        }
    }

    var reported: [ProjectorSupervisor.Status] { statuses.all }

    /// The causes of the retries reported so far.
    var retryCauses: [String] {
        reported.compactMap { if case .retrying(let cause, _, _) = $0 { cause } else { nil } }
    }

    /// Stops the supervisor and waits for it (10 s at most: then the test fails naming it).
    func finish() {
        stop.set()
        if !thread.join(deadline: .now + .seconds(10)) { Issue.record("the supervised projector did not stop within 10 s of its stop") }
    }
}

private final class StatusLog: Sendable {
    private let statuses = Locked<[ProjectorSupervisor.Status]>([])
    func append(_ status: ProjectorSupervisor.Status) { statuses.withLock { $0.append(status) } }
    var all: [ProjectorSupervisor.Status] { statuses.withLock { $0 } }
}

/// A small tmpfs where the test may mount one: a disk that really fills up.
private final class SmallDisk: Sendable {
    let path: String
    let mounted: Bool

    init(megabytes: Int) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("small-disk-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        mounted = Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path])
    }

    deinit {
        if mounted { _ = Self.run("/bin/umount", ["-l", path]) }
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

private final class FullFlag: Sendable {
    private let flag = Locked(false)
    var isSet: Bool {
        get { flag.withLock { $0 } }
        set { flag.withLock { $0 = newValue } }
    }
}

@Suite("Store faults under a running projector: seen at once, retried, resumed")
struct StoreFaultTests {
    private func sendRecipes(_ fixture: ProjectionFixture, count: Int, steps: Int = 20) throws {
        for index in 0..<count {
            var commands: [RecipeCommand] = [.titleChanged(title: "Recipe \(index)")]
            for step in 0..<steps {
                commands.append(.instructionAdded(description: String(repeating: "Stir well and wait. ", count: 20) + "\(step)",
                                                  position: nil, instructionID: nil))
            }
            try fixture.send(newRecipeID(), commands)
        }
    }

    private func logEnd(_ fixture: ProjectionFixture) throws -> [Int32: Int64] {
        let consumer = try KafkaConsumer(config: fixture.config)
        defer { consumer.close() }
        var ends: [Int32: Int64] = [:]
        for partition in 0..<Int32(fixture.partitions) {
            ends[partition] = try consumer.watermarks(KafkaTopicPartition(topic: fixture.topic, partition: partition)).high
        }
        return ends
    }

    /// The store a replay of the same log into a new file gives, as a canonical dump.
    private func replayDump(_ fixture: ProjectionFixture) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).db").path
        defer { removeStore(path) }
        _ = try Projector(storePath: path, kafka: fixture.config, topic: fixture.decisions).catchUp(timeout: .seconds(30))
        return try StoreDump.string(storeAt: path)
    }

    @Test("a full disk under the store: reported at once and retried, the store kept intact, resumed when space returns")
    func diskFull() throws {
        let fixture = try ProjectionFixture(partitions: 2)
        let disk = SmallDisk(megabytes: 16)
        // Where no file system can be mounted, SQLite's own page limit answers SQLITE_FULL the same way:
        // projectors are made with room for the first recipes only, until space "returns".
        let store = disk.mounted ? disk.path + "/recipes.db" : fixture.storePath
        let full = FullFlag()
        full.isSet = !disk.mounted
        let (config, topic, mounted) = (fixture.config, fixture.decisions, disk.mounted)
        let supervised = SupervisedProjector {
            try Projector(storePath: store, kafka: config, topic: topic, batchSize: 200_000, cacheLimit: 20_000,
                          pageLimit: !mounted && full.isSet ? 40 : nil)
        }
        defer { supervised.finish() }
        try sendRecipes(fixture, count: 5)
        let firstEnd = try logEnd(fixture)
        try waitFor("the first recipes projected", deadline: .seconds(30)) {
            (try? ReadModel(path: store).hasReached(firstEnd.mapValues { $0 - 1 })) == true
        }
        let filler = disk.path + "/filler"
        if disk.mounted {
            // Fill the disk to its last bytes.
            try #require(FileManager.default.createFile(atPath: filler, contents: nil))
            let handle = try #require(FileHandle(forWritingAtPath: filler))
            while (try? handle.write(contentsOf: [UInt8](repeating: 0, count: 64 << 10))) != nil {}
            try? handle.close()
        }
        let positionsWhenFull = try ReadModel(path: store).positions()
        try sendRecipes(fixture, count: 40)
        try waitFor("the failure reported", deadline: .seconds(30)) {
            supervised.retryCauses.contains { $0.contains("full") }
        }
        // The store is intact: readable, and at a committed position.
        let model = try ReadModel(path: store)
        #expect(try model.positions().allSatisfy { $0.value >= (positionsWhenFull[$0.key] ?? 0) })
        _ = try model.list()

        if disk.mounted { try FileManager.default.removeItem(atPath: filler) } else { full.isSet = false }
        let end = try logEnd(fixture)
        do {
            try waitFor("the projector resumed and caught up", deadline: .seconds(30)) {
                (try? ReadModel(path: store).hasReached(end.mapValues { $0 - 1 })) == true
            }
        } catch {
            Issue.record("\(error); the supervisor reported \(supervised.reported.suffix(5))")
            throw error
        }
        #expect(supervised.reported.contains(.running))
        #expect(try StoreDump.string(storeAt: store) == replayDump(fixture))
    }

    @Test("a store whose folder is removed under the projector: a clear error, retries with growing pauses, rebuilt when it is back")
    func folderRemoved() throws {
        let fixture = try ProjectionFixture(partitions: 2)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-folder-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/recipes.db"
        let (config, topic) = (fixture.config, fixture.decisions)
        let supervised = SupervisedProjector { try Projector(storePath: store, kafka: config, topic: topic) }
        defer { supervised.finish() }
        try sendRecipes(fixture, count: 3, steps: 2)
        let end = try logEnd(fixture)
        try waitFor("the recipes projected", deadline: .seconds(30)) {
            (try? ReadModel(path: store).hasReached(end.mapValues { $0 - 1 })) == true
        }

        // Removed from under it (moved away whole, so that nothing can make it again meanwhile).
        try FileManager.default.moveItem(atPath: folder, toPath: folder + ".removed")
        try FileManager.default.removeItem(atPath: folder + ".removed")
        try waitFor("the removal reported, then the missing folder, several times", deadline: .seconds(30)) {
            let causes = supervised.retryCauses
            return causes.contains { $0.contains("removed") } && causes.filter { $0.contains("no such folder") }.count >= 2
        }
        // No crash loop: each pause twice the one before, from 50 ms up to 400 ms (the supervisor's bounds here).
        let delays = supervised.reported.compactMap { if case .retrying(_, _, let delay) = $0 { delay } else { nil } }
        let growing = delays.indices.map { min(.milliseconds(50) * (1 << min($0, 10)), Duration.milliseconds(400)) }
        #expect(delays.count >= 3 && delays == growing, "\(delays)")

        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try waitFor("a new store rebuilt from the log", deadline: .seconds(30)) {
            (try? ReadModel(path: store).hasReached(end.mapValues { $0 - 1 })) == true
        }
        #expect(try StoreDump.string(storeAt: store) == replayDump(fixture))
    }

    @Test("which failures are retried: the store's disk, permissions and folder, the brokers; not another log, schema or corruption")
    func whatIsRetried() {
        let log = LogIdentity(cluster: "c", topic: "t", partitions: 1)
        // A read-only store answers SQLITE_READONLY (8), a full disk SQLITE_FULL (13), a failing disk SQLITE_IOERR (10).
        for code: Int32 in [8, 10, 13] {
            #expect(ProjectorSupervisor.mayPass(SQLiteError(code: code, message: "")))
        }
        #expect(ProjectorSupervisor.mayPass(StoreError.noSuchFolder("/gone")))
        #expect(ProjectorSupervisor.mayPass(StoreError.removed("/gone/recipes.db")))
        #expect(ProjectorSupervisor.mayPass(KafkaError(.timedOut, "all brokers down")))
        #expect(!ProjectorSupervisor.mayPass(LogMismatch.otherCluster(store: "s", stored: log, found: log)))
        #expect(!ProjectorSupervisor.mayPass(StoreError.newerSchema(found: 9, supported: 2)))
        #expect(!ProjectorSupervisor.mayPass(StoreError.corrupted("bad row")))
        #expect(!ProjectorSupervisor.mayPass(KafkaError(.offsetOutOfRange, "offset 90 is not in the log")))
    }
}
