import Foundation
import Kafka
import RecipeDecisions
import RecipeHTTP
import RecipeProjection
import RecipeWire
import RecipeWriteSide
import Threads

/// The whole pipeline in one process: the HTTP API that appends commands to the
/// edits topic, a decider that decides them (on a thread of its own; optional), and
/// a projector (on its own thread) that folds the decisions into the store the API
/// reads: what `recipes dev` and `recipes serve` run, and what the tests start.
///
/// ```swift
/// let service = try RecipeService(options: .init(kafka: config, topics: RecipeTopics(), storePath: "recipes.db"))
/// try service.start()
/// service.shutdown()
/// ```
///
/// Threads: `init` opens the store and makes the Kafka clients, and starts no thread of
/// its own; `start` asks the brokers, listens (libmicrohttpd's threads) and starts the
/// projector's thread; `shutdown` stops them, waiting at most its timeout for each.
public final class RecipeService: Sendable {
    public struct Options: Sendable {
        public var kafka: KafkaConfig
        /// Commands are appended to `edits`; the projector folds `decisions`.
        public var topics: RecipeTopics
        public var storePath: String
        /// Names the log instead of the cluster's id, for a log that outlives its cluster (`recipes dev`'s journal).
        public var logName: String?
        /// For a log that drops records when full (the embedded broker): appends are refused before it would.
        public var logCapacity: LogCapacity?
        /// How long an append may wait for the brokers before it is answered 503 (librdkafka's
        /// `message.timeout.ms`, unless the Kafka config sets it): a POST never hangs while they are away.
        public var appendTimeout: Duration = .seconds(5)
        /// The appending producer's `linger.ms` (unless the Kafka config sets it): how long librdkafka
        /// holds a record for others to share its request. A POST waits for its own record's
        /// acknowledgement, so the linger is added to every POST's latency; nil: the producer's default
        /// (5 ms). 1 ms: a lone POST answers in a quarter of the time, and many at once still share
        /// requests (docs/operations.md, "The appending producer's linger").
        public var appendLinger: Duration? = .milliseconds(1)
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
        /// The fetch wait `recipes dev` gives its consumers: they stop fetching while idle, so a
        /// short wait costs CPU only while records flow, and halves append → visible.
        public static let devFetchWaitMilliseconds = 2
        /// Whether the projector's and the decider's consumers stop fetching while nothing arrives, on a
        /// cluster embedded in this process (`KafkaConfig.stopsFetchingWhenIdle`); no effect on another.
        public var stopsFetchingWhenIdle = true
        /// The decider run beside the projector (`RecipeDecisions.Decider`): every partition, or a
        /// group's share. Nil: none here, so the store shows only what deciders elsewhere decide.
        public var decider: Decider.Mode? = .all
        /// Where the decider keeps its partitions' snapshots (`Decider.init`'s `snapshots`), or nil.
        public var deciderSnapshots: String? = nil

        public init(kafka: KafkaConfig, topics: RecipeTopics, storePath: String) {
            self.kafka = kafka
            self.topics = topics
            self.storePath = storePath
        }
    }

    public let api: RecipeAPI
    public let producer: KafkaProducer
    private let options: Options
    private let supervisor: ProjectorSupervisor
    /// The projector `init` made (and `start` checks), until the supervisor takes it.
    private let firstProjector: FirstProjector
    private let commits: CommitSignal
    private let metrics: Metrics
    private let logEnds: LogEndSource
    private let stop = StopSignal()
    private let projectorThread = OwnedThread(name: "projector")
    private let decider: Decider?
    private let deciderThread = OwnedThread(name: "recipes-decider")
    private let state: ProjectorStatus
    private let lifecycle = Locked(Lifecycle.created)

    private enum Lifecycle {
        case created
        case running(HTTPServer)
        case stopped
    }

    private final class FirstProjector: Sendable {
        let projector: Locked<Projector?>
        init(_ projector: Projector) { self.projector = Locked(projector) }
        func take() -> Projector? { projector.withLock { $0.take() } }
    }

    /// The projector thread's state, shared with the readiness check.
    final class ProjectorStatus: Sendable {
        let state: Locked<ProjectorState>
        init(_ state: ProjectorState) { self.state = Locked(state) }
        func withLock<T>(_ body: (inout ProjectorState) -> T) -> T { state.withLock { body(&$0) } }
        /// Blocks until `ready` holds of the state; false when `deadline` passes first.
        func wait(until ready: (ProjectorState) -> Bool, deadline: ContinuousClock.Instant) -> Bool {
            state.wait(until: { ready($0) }, deadline: deadline)
        }
    }

    struct ProjectorState {
        /// High watermarks seen at start: ready once the store has passed them (nil before `start`).
        var targets: [Int32: Int64]?
        var caughtUp = false
        var failure: String?
        /// The failure being retried, while it lasts.
        var retrying: String?
        var stopped = false
        /// Its decider is reading the decisions of its partitions: commands wait for it, and so
        /// does `waitUntilReady`. False once it has started (`Decider.run`'s `started`) or stopped.
        var deciderStarting = false
    }

    /// The port the API listens on once started (0 before).
    public var port: UInt16 {
        lifecycle.withLock { if case .running(let server) = $0 { server.port } else { 0 } }
    }

    /// Opens the store (made if new) and makes the projector's consumer and the producer; talks to
    /// no broker and starts no thread of its own: `start` does.
    public init(options: Options) throws {
        self.options = options
        var projectorConfig = options.kafka
        if projectorConfig["fetch.wait.max.ms"] == nil, let wait = options.fetchWaitMilliseconds {
            projectorConfig["fetch.wait.max.ms"] = String(wait)
        }
        // On a cluster embedded in this process, the projector and the decider stop fetching while idle
        // and fetch again when this process appends (`KafkaConfig.stopsFetchingWhenIdle`).
        projectorConfig.stopsFetchingWhenIdle = options.stopsFetchingWhenIdle
        // One signal for the projectors the supervisor makes one after another: waits outlive each.
        let commits = CommitSignal()
        self.commits = commits
        let consumerConfig = projectorConfig
        @Sendable func makeProjector() throws -> Projector {
            try Projector(storePath: options.storePath, kafka: consumerConfig, topic: options.topics.decisions,
                          logName: options.logName, commits: commits)
        }
        // The first is made here, so that the store exists for the read model, and checked by `start`.
        let first = FirstProjector(try makeProjector())
        firstProjector = first
        supervisor = ProjectorSupervisor { try first.take() ?? makeProjector() }
        // The same consumer answers where the log ends: at start (for `/readyz`), and later for
        // `after=` positions beyond it.
        logEnds = LogEndSource(consumer: try KafkaConsumer(config: options.kafka), topic: options.topics.edits)
        let readModel = try ReadModel(path: options.storePath, commits: commits, logEnds: logEnds)
        state = ProjectorStatus(ProjectorState(deciderStarting: options.decider != nil))
        var producerConfig = options.kafka
        if producerConfig["message.timeout.ms"] == nil, producerConfig["delivery.timeout.ms"] == nil {
            producerConfig["message.timeout.ms"] = String(options.appendTimeout.milliseconds)
        }
        producerConfig.setDefaults(EditsTopicSettings.producerProperties)
        if producerConfig["linger.ms"] == nil, let linger = options.appendLinger {
            producerConfig["linger.ms"] = String(linger.milliseconds)
        }
        producer = try KafkaProducer(config: producerConfig)
        // The projector's fetch wait: on the embedded broker it bounds how soon a command is decided too.
        decider = try options.decider.map {
            try Decider(kafka: consumerConfig, topics: options.topics, mode: $0, snapshots: options.deciderSnapshots)
        }
        metrics = Metrics()
        let (state, deciderStatus) = (self.state, decider?.status)
        var apiOptions = options.api
        if options.loopbackOnly { apiOptions.hostNames.formUnion(RecipeAPIOptions.loopbackNames) }
        api = RecipeAPI(readModel: readModel, appender: CommandAppender(producer: producer, topic: options.topics.edits, capacity: options.logCapacity),
                        metrics: metrics, options: apiOptions, readiness: { [state, readModel] in
            Self.readiness(state, readModel, decider: deciderStatus?.current)
        }, decider: { deciderStatus?.current })
    }

    /// Checks that the store was built from this log (`serve` and `dev` exit 3 on another log,
    /// as `project` and `replay` do), notes where the log ends (`/readyz` turns 200 once the
    /// store has applied it), listens, and starts projecting. Throws before it serves anything.
    public func start() throws {
        guard lifecycle.withLock({ if case .created = $0 { true } else { false } }),
              let projector = firstProjector.projector.withLock({ $0 }) else {
            throw RecipeServiceError(message: "a service starts once")
        }
        try projector.checkLog()
        let targets = try logEnds.ends(notBefore: .now)
        state.withLock { $0.targets = targets }
        let server = try HTTPServer(handler: api, port: options.port, loopbackOnly: options.loopbackOnly, limits: options.server)
        lifecycle.withLock { $0 = .running(server) }
        startProjecting()
        startDeciding()
    }

    /// A decider that stops (topics that do not fit, a failed append) says why on stderr and is
    /// not restarted: the projector and the API go on without it. A partition it cannot go on with
    /// is named on stderr once, while it goes on with the others. `/readyz` says either.
    private func startDeciding() {
        guard let decider else { return }
        let (stop, state) = (stop, state)
        @Sendable func started() {
            state.withLock { $0.deciderStarting = false }
        }
        deciderThread.start {
            do {
                var named: [Int32: String] = [:]
                try decider.run(until: { stop.isSet }, progressInterval: .seconds(1), progress: { progress in
                    for (partition, why) in progress.stopped.sorted(by: { $0.key < $1.key }) where named[partition] != why {
                        log("decider: stopped deciding partition \(partition), going on with the others: \(why)")
                    }
                    named = progress.stopped
                }, started: started)
            } catch {
                log("decider: stopped: \(error)")
            }
            started()
        }
    }

    private func startProjecting() {
        let (supervisor, stop, state, metrics, commits) = (supervisor, stop, state, metrics, commits)
        let interval = options.progressInterval
        projectorThread.start {
            supervisor.run(until: stop, progressInterval: interval, progress: { metrics.recordProgress($0) }) { status in
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
        }
    }

    private static func readiness(_ state: ProjectorStatus, _ readModel: ReadModel, decider: DeciderState?) -> RecipeAPI.Readiness {
        let snapshot = state.withLock { $0 }
        if let failure = snapshot.failure { return .failed(failure) }
        if snapshot.stopped { return .failed("the projector has stopped") }
        if let stopped = decider?.stoppedSummary { return .deciderStopped(stopped) }
        if let cause = snapshot.retrying { return .retrying("the projector failed and is retrying: \(cause)") }
        if snapshot.deciderStarting { return .catchingUp("the decider is reading the decisions of its partitions") }
        if snapshot.caughtUp { return .ready }
        guard let targets = snapshot.targets else { return .catchingUp("the service has not started") }
        guard let stored = try? readModel.positions() else { return .catchingUp("the store cannot be read") }
        let behind = targets.filter { partition, high in (stored[partition] ?? 0) < high }
        if behind.isEmpty {
            state.withLock { $0.caughtUp = true }
            return .ready
        }
        let detail = behind.sorted { $0.key < $1.key }.map { "\($0.key):\(stored[$0.key] ?? 0)/\($0.value)" }.joined(separator: " ")
        return .catchingUp("catching up with the log (partition:stored/target) \(detail)")
    }

    /// Blocks until `/readyz` would answer 200, or `timeout` passes; false then.
    public func waitUntilReady(timeout: Duration = .seconds(60)) -> Bool {
        // The targets are next offsets; the wait takes the offsets of the last records before them.
        guard let targets = state.withLock({ $0.targets }) else { return false }
        let lastRecords = targets.filter { $0.value > 0 }.mapValues { $0 - 1 }
        let deadline = ContinuousClock.now + timeout
        guard (try? api.readModel.waitUntilReached(lastRecords, deadline: deadline)) == true,
              state.wait(until: { !$0.deciderStarting }, deadline: deadline) else { return false }
        return Self.readiness(state, api.readModel, decider: decider?.status.current) == .ready
    }

    /// Stops serving, lets the projector finish its transaction and the decider have its
    /// decisions acknowledged, flushes the producer (at most 10 s). Returns false when the projector did not stop within `timeout` (its last
    /// transaction is committed either way; what remains is its final progress report,
    /// which asks the brokers and waits long when they are gone).
    @discardableResult
    public func shutdown(timeout: Duration = .seconds(15)) -> Bool {
        let server = lifecycle.withLock { lifecycle -> HTTPServer? in
            defer { lifecycle = .stopped }
            if case .running(let server) = lifecycle { return server }
            return nil
        }
        server?.stop()
        stop.set()
        let deadline = ContinuousClock.now + timeout
        var stopped = server == nil || projectorThread.join(deadline: deadline)
        if server != nil, decider != nil { stopped = deciderThread.join(deadline: deadline) && stopped }
        try? producer.shutdown(timeout: .seconds(10))
        logEnds.close()
        return stopped
    }
}

public struct RecipeServiceError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

/// A line on the process's standard error: what an operator reads in its log.
private func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
