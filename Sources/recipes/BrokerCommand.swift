import Foundation
import Kafka
import RecipeCLI

/// `recipes broker`: the embedded Kafka cluster, for development and tests.
enum BrokerCommand {
    static let spec = CommandSpec(
        name: "recipes broker",
        summary: "Run librdkafka's embedded Kafka cluster on loopback with the recipes topic, until Ctrl-C.",
        abstract: "Run the embedded Kafka broker with the recipes topic.",
        options: [
            .value("broker-count", "N", "Number of brokers.", default: "3"),
            .value("partitions", "P", "Partitions of the topic (fixed for its life).", default: "6"),
            .value("topic", "NAME", "Topic to create.", default: "recipes.edits"),
        ],
        discussion: """
            Prints `kafka: <bootstrap servers>`; any Kafka client (kcat, kafka-python) can connect.
            The embedded broker keeps at most 5 MiB per partition and forgets everything on exit.
            """)

    static func run(_ arguments: [String]) async throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let brokers = try args.int("broker-count", in: 1...32)!
        let partitions = try args.int("partitions", in: 1...1000)!
        let topic = args.string("topic")!
        let kafka = try EmbeddedKafka(brokers: brokers)
        try kafka.createTopic(topic, partitions: partitions, replicationFactor: min(3, brokers))
        say("kafka: \(kafka.bootstrapServers)")
        say("topic: \(topic) (\(partitions) partitions, \(brokers) brokers); Ctrl-C stops")
        await waitForTerminationSignal()
        say("stopping")
        withExtendedLifetime(kafka) {}
    }
}

/// Returns when the process gets SIGINT or SIGTERM.
func waitForTerminationSignal() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let signals = TerminationSignals { continuation.resume() }
        // Kept alive by the handler's own reference until the process ends.
        signals.keepAlive()
    }
}

/// Calls `handler` once, on the first SIGINT or SIGTERM.
final class TerminationSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (@Sendable () -> Void)?
    private var sources: [DispatchSourceSignal] = []
    private var selfReference: TerminationSignals?

    init(_ handler: @escaping @Sendable () -> Void) {
        self.handler = handler
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [weak self] in self?.fire() }
            source.resume()
            sources.append(source)
        }
    }

    func keepAlive() { lock.withLock { selfReference = self } }

    private func fire() {
        let pending = lock.withLock { () -> (@Sendable () -> Void)? in
            defer { handler = nil }
            return handler
        }
        pending?()
    }
}
