import Foundation
import Kafka
import RecipeProjection
import RecipeWire
import Synchronization

/// A projector (on its own thread) and the HTTP API over its store, in one
/// process: what `recipes dev` and `recipes serve` run, and what the tests start.
///
/// ```swift
/// let service = try RecipeService(options: .init(kafka: config, topic: RecipeTopics().edits, storePath: "recipes.db"))
/// print("http://127.0.0.1:\(service.port)")
/// await service.shutdown()
/// ```
public final class RecipeService: Sendable {
    public struct Options: Sendable {
        public var kafka: KafkaConfig
        public var topic: String
        public var storePath: String
        public var mode: Projector.Mode = .replica
        /// Names the log instead of the cluster's id, for a log that outlives its cluster (`recipes dev`'s journal).
        public var logName: String?
        /// For a log that drops records when full (the embedded broker): appends are refused before it would.
        public var logCapacity: LogCapacity?
        /// How long an append may wait for the brokers before it is answered 503 (librdkafka's
        /// `message.timeout.ms`, unless the Kafka config sets it): a POST never hangs while they are away.
        public var appendTimeout: Duration = .seconds(5)
        /// The appending producer's `linger.ms` (unless the Kafka config sets it): how long librdkafka
        /// holds a record for others to share its request. A POST waits for its own record's
        /// acknowledgement, so the linger is added to every POST's latency; nil: the producer's default.
        public var appendLinger: Duration? = nil
        /// 0 picks a free port.
        public var port: UInt16 = 8080
        /// Listen on 127.0.0.1 only (dev, tests), else on every address.
        public var loopbackOnly = true
        public var api = RecipeAPI.Options()
        /// Connection limits, timeouts and TLS of the HTTP server.
        public var server = HTTPServer.Limits()
        /// How often the projector reports progress (metrics: counts and lag).
        public var progressInterval: Duration = .seconds(1)
        /// The projector consumer's `fetch.wait.max.ms` when the config does not set it. The
        /// embedded broker answers a fetch only when this wait ends, so it bounds how soon a
        /// write is visible; a real broker answers as soon as data arrives. Nil: librdkafka's 500.
        public var fetchWaitMilliseconds: Int? = nil

        public init(kafka: KafkaConfig, topic: String, storePath: String) {
            self.kafka = kafka
            self.topic = topic
            self.storePath = storePath
        }
    }

    public let api: RecipeAPI
    public let server: HTTPServer
    public let producer: KafkaProducer
    private let logEnds: LogEndSource
    private let stop = StopSignal()
    private let projectorDone = DispatchSemaphore(value: 0)
    private let state: ProjectorStatus

    /// The projector thread's state, shared with the readiness check.
    final class ProjectorStatus: Sendable {
        let state: Mutex<ProjectorState>
        init(_ state: ProjectorState) { self.state = Mutex(state) }
        func withLock<T>(_ body: (inout ProjectorState) -> T) -> T { state.withLock { body(&$0) } }
    }

    struct ProjectorState {
        /// High watermarks seen at start: ready once the store has passed them.
        var targets: [Int32: Int64]
        var caughtUp = false
        var failure: String?
        /// The failure being retried, while it lasts.
        var retrying: String?
        var stopped = false
    }

    public var port: UInt16 { server.port }

    public init(options: Options) throws {
        var projectorConfig = options.kafka
        if projectorConfig["fetch.wait.max.ms"] == nil, let wait = options.fetchWaitMilliseconds {
            projectorConfig["fetch.wait.max.ms"] = String(wait)
        }
        // One signal for the projectors the supervisor makes one after another: waits outlive each.
        let commits = CommitSignal()
        let consumerConfig = projectorConfig
        @Sendable func makeProjector() throws -> Projector {
            try Projector(storePath: options.storePath, kafka: consumerConfig, topic: options.topic, mode: options.mode,
                          logName: options.logName, commits: commits)
        }
        // The first is made and checked here, so that a store that cannot be used (another log, a newer
        // schema) stops the start: `serve` and `dev` exit 3 on another log, as `project` and `replay` do.
        let firstProjector = try makeProjector()
        try firstProjector.checkLog()
        let first = Mutex<Projector?>(firstProjector)
        // The log's end at start: `/readyz` turns 200 when the store has applied it all. The same
        // consumer answers later where the log ends, for `after=` positions beyond it.
        let probe = try KafkaConsumer(config: options.kafka)
        let logEnds = LogEndSource(consumer: probe, topic: options.topic)
        let targets: [Int32: Int64]
        do {
            targets = try logEnds.ends(notBefore: .now)
        } catch {
            probe.close()
            throw error
        }
        self.logEnds = logEnds
        let readModel = try ReadModel(path: options.storePath, commits: commits, logEnds: logEnds)
        state = ProjectorStatus(ProjectorState(targets: targets))
        var producerConfig = options.kafka
        if producerConfig["message.timeout.ms"] == nil, producerConfig["delivery.timeout.ms"] == nil {
            producerConfig["message.timeout.ms"] = String(options.appendTimeout.milliseconds)
        }
        producerConfig.setDefaults(EditsTopicSettings.producerProperties)
        if producerConfig["linger.ms"] == nil, let linger = options.appendLinger {
            producerConfig["linger.ms"] = String(linger.milliseconds)
        }
        producer = try KafkaProducer(config: producerConfig)
        let metrics = Metrics()
        let state = self.state
        var apiOptions = options.api
        if options.loopbackOnly { apiOptions.hostNames.formUnion(RecipeAPIOptions.loopbackNames) }
        api = RecipeAPI(readModel: readModel, appender: CommandAppender(producer: producer, topic: options.topic, capacity: options.logCapacity),
                        metrics: metrics, options: apiOptions) { [state, readModel] in
            Self.readiness(state, readModel)
        }
        server = try HTTPServer(handler: api, port: options.port, loopbackOnly: options.loopbackOnly, limits: options.server)

        let stop = self.stop
        let done = projectorDone
        let supervisor = ProjectorSupervisor { try first.withLock { $0.take() } ?? makeProjector() }
        let thread = Thread { [state] in
            supervisor.run(until: stop, progressInterval: options.progressInterval, progress: { metrics.recordProgress($0) }) { status in
                switch status {
                case .running:
                    state.withLock { $0.retrying = nil }
                    metrics.recordProjectorFailure(failing: false)
                    log("projector: running again")
                case .retrying(let cause, let attempt, let delay):
                    state.withLock { $0.retrying = cause }
                    metrics.recordProjectorFailure(failing: true)
                    log("projector: \(cause); retrying in \(delay) (attempt \(attempt))")
                case .stopped(let cause?):
                    state.withLock { $0.failure = "the projector stopped: \(cause)" }
                    metrics.recordProjectorStopped()
                    log("projector: stopped: \(cause)")
                case .stopped(nil):
                    break
                }
            }
            commits.stop()
            state.withLock { $0.stopped = true }
            done.signal()
        }
        thread.name = "recipes-projector"
        thread.start()
    }

    private static func readiness(_ state: ProjectorStatus, _ readModel: ReadModel) -> RecipeAPI.Readiness {
        let snapshot = state.withLock { $0 }
        if let failure = snapshot.failure { return .failed(failure) }
        if snapshot.stopped { return .failed("the projector has stopped") }
        if let cause = snapshot.retrying { return .retrying("the projector failed and is retrying: \(cause)") }
        if snapshot.caughtUp { return .ready }
        guard let stored = try? readModel.positions() else { return .catchingUp("the store cannot be read") }
        let behind = snapshot.targets.filter { partition, high in (stored[partition] ?? 0) < high }
        if behind.isEmpty {
            state.withLock { $0.caughtUp = true }
            return .ready
        }
        let detail = behind.sorted { $0.key < $1.key }.map { "\($0.key):\(stored[$0.key] ?? 0)/\($0.value)" }.joined(separator: " ")
        return .catchingUp("catching up with the log (partition:stored/target) \(detail)")
    }

    /// Waits until `/readyz` would answer 200, or `timeout` passes; false then.
    public func waitUntilReady(timeout: Duration = .seconds(60)) async -> Bool {
        // The targets are next offsets; the wait takes the offsets of the last records before them.
        let lastRecords = state.withLock { $0.targets }.filter { $0.value > 0 }.mapValues { $0 - 1 }
        guard (try? await api.readModel.waitUntilReached(lastRecords, timeout: timeout)) == true else { return false }
        return Self.readiness(state, api.readModel) == .ready
    }

    /// Stops serving, lets the projector finish its transaction, flushes the producer.
    /// Returns false when the projector did not stop within `timeout` (its last
    /// transaction is committed either way; what remains is its final progress
    /// report, which asks the brokers and waits long when they are gone).
    @discardableResult
    public func shutdown(timeout: Duration = .seconds(15)) async -> Bool {
        server.stop()
        stop.set()
        let stopped = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let done = projectorDone
            let milliseconds = Int(timeout.milliseconds)
            Thread.detachNewThread {
                continuation.resume(returning: done.wait(timeout: .now() + .milliseconds(milliseconds)) == .success)
            }
        }
        try? await producer.shutdown(timeout: .seconds(10))
        logEnds.close()
        return stopped
    }
}

/// A line on the process's standard error: what an operator reads in its log.
private func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
