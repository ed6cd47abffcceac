import Foundation
import Kafka
import RecipeDomain
import RecipeProjection
import RecipeTestSupport
import RecipeWire
import Testing
import Threads

/// Command id → recipe id of every command that got 202.
private final class Acknowledged: Sendable {
    private let commands = Locked<[String: String]>([:])
    func add(_ command: String, _ recipe: String) { commands.withLock { $0[command] = recipe } }
    var all: [String: String] { commands.withLock { $0 } }
}

private struct ServeDidNotStart: Error, CustomStringConvertible {
    let description: String
}

/// A `recipes serve` process and the port it serves on.
private struct ServeProcess {
    let process: Process
    let port: UInt16

    static func start(brokers: String, store: String) throws -> ServeProcess {
        // The killed process's decider holds its partitions until its group session runs out: keep it short.
        let process = try recipesProcess(["serve", "--brokers", brokers, "--db", store, "--port", "0", "--loopback"],
                                         environment: ["KAFKA_SESSION_TIMEOUT_MS": "6000", "KAFKA_HEARTBEAT_INTERVAL_MS": "500"])
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        // serve prints `http: http://…:PORT` once it listens.
        let port = try Background("serve to print the port it listens on") { () throws -> UInt16 in
            var text = ""
            while process.isRunning || !text.isEmpty {
                let data = stdout.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("http: ") }),
                   let port = line.split(separator: ":").last.flatMap({ UInt16($0) }) {
                    return port
                }
            }
            throw ServeDidNotStart(description: "serve ended before it served: \(stderrOf(process))")
        }.value(deadline: .seconds(30))
        return ServeProcess(process: process, port: port)
    }

    func waitUntilReady() throws {
        try waitFor("serve to be ready", deadline: .seconds(30)) {
            (try? HTTPClient.send(port: port, method: "GET", path: "/readyz", headers: [:], body: nil))?.status == 200
        }
    }
}

@Suite("A serve process killed under load")
struct KillTests {
    @Test("serve SIGKILLed during a stream of POSTs: every command that got 202 is on the log once and projected once after the restart")
    func killedDuringPosts() throws {
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = RecipeTopics().edits
        try kafka.createTopic(topic, partitions: 4)
        for decided in [RecipeTopics().decisions, RecipeTopics().committed] { try kafka.createTopic(decided, partitions: 4) }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("killed-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }

        let first = try ServeProcess.start(brokers: kafka.bootstrapServers, store: store)
        defer { if first.process.isRunning { kill(first.process.processIdentifier, SIGKILL) } }
        try first.waitUntilReady()
        let acknowledged = Acknowledged()
        let port = first.port
        // Four clients send until the process is gone; it is killed once 200 commands were acknowledged.
        let clients = (0..<4).map { client in
            Background("client \(client) to see the server gone") {
                var index = 0
                while true {
                    let (recipe, command) = (UUID().uuidString.lowercased(), "kill-\(client)-\(index)")
                    index += 1
                    let body = Array(#"{"type":"TitleChanged","id":"\#(command)","data":{"title":"Soup \#(index)"}}"#.utf8)
                    guard let sent = try? HTTPClient.send(port: port, method: "POST", path: "/v1/recipes/\(recipe)/commands",
                                                          headers: [:], body: body) else { return }
                    if sent.status == 202 { acknowledged.add(command, recipe) }
                }
            }
        }
        try waitFor("200 commands acknowledged", deadline: .seconds(30)) { acknowledged.all.count >= 200 }
        kill(first.process.processIdentifier, SIGKILL)
        for client in clients { try client.value() }
        first.process.waitUntilExit()
        let acked = acknowledged.all

        let second = try ServeProcess.start(brokers: kafka.bootstrapServers, store: store)
        defer { if second.process.isRunning { kill(second.process.processIdentifier, SIGKILL) } }
        try second.waitUntilReady()

        // On the log: each acknowledged command exactly once.
        let consumer = try KafkaConsumer(config: KafkaConfig(bootstrapServers: kafka.bootstrapServers))
        defer { consumer.close() }
        try consumer.assign(topic: topic)
        var ends: [Int32: Int64] = [:]
        for partition in 0..<Int32(4) { ends[partition] = try consumer.watermarks(KafkaTopicPartition(topic: topic, partition: partition)).high }
        let total = Int(ends.values.reduce(0, +))
        var records: [KafkaConsumerRecord] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while records.count < total, ContinuousClock.now < deadline {
            records += try consumer.poll(maxRecords: 1000, timeout: .milliseconds(100))
        }
        #expect(records.count == total)
        var onLog: [String: Int] = [:]
        for record in records {
            if case .success(let decoded) = RecordDecoder().decode(key: record.key, value: record.value) {
                onLog[decoded.envelope.commandID, default: 0] += 1
            }
        }
        #expect(acked.keys.allSatisfy { onLog[$0] == 1 }, "every acknowledged command once on the log")

        // In the store: each acknowledged command projected once, accepted.
        let readModel = try ReadModel(path: store)
        for (command, recipe) in acked {
            let entries = try readModel.history(RecipeID(recipe)).items.filter { $0.commandId == command }
            #expect(entries.map(\.outcome) == [.accepted], "\(command): \(entries)")
        }
        kill(second.process.processIdentifier, SIGTERM)
        second.process.waitUntilExit()
    }
}
