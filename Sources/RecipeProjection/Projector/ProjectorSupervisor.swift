import Foundation
import Kafka

/// Keeps a projector running for a long-lived process (`recipes serve`, `dev`).
///
/// A failure that can pass by itself — the store's disk full, the store
/// read-only or its folder gone, the brokers unreachable — is reported at
/// once and retried with backoff (1 s doubling to 30 s) by a new projector,
/// which starts from the positions the store committed: nothing is skipped
/// or applied twice. A failure that cannot pass by itself — the store holds
/// another log, a newer schema, a corrupted row — stops it: retrying would
/// only repeat it.
///
/// ```swift
/// let supervisor = ProjectorSupervisor { try Projector(storePath: path, kafka: config, topic: topic) }
/// supervisor.run(until: stop, progress: { metrics.record($0) }, status: { log($0) })
/// ```
public final class ProjectorSupervisor: Sendable {
    public enum Status: Sendable, Equatable {
        /// Projecting; after a retry, once a projector started again.
        case running
        /// A projector failed with `cause`; the next one starts after `delay`.
        case retrying(cause: String, attempt: Int, delay: Duration)
        /// Stopped for good: `cause` is nil when asked to stop.
        case stopped(cause: String?)
    }

    private let makeProjector: @Sendable () throws -> Projector
    private let firstDelay: Duration
    private let longestDelay: Duration

    /// - Parameter makeProjector: a new projector over the store, for the start and for each retry.
    public init(firstDelay: Duration = .seconds(1), longestDelay: Duration = .seconds(30),
                makeProjector: @escaping @Sendable () throws -> Projector) {
        self.makeProjector = makeProjector
        self.firstDelay = firstDelay
        self.longestDelay = longestDelay
    }

    /// Projects until `stop` is set or a failure that cannot pass; returns the status it ended with.
    @discardableResult
    public func run(until stop: StopSignal, progressInterval: Duration = .seconds(5),
                    progress: (Projector.Progress) -> Void = { _ in },
                    status: (Status) -> Void = { _ in }) -> Status {
        var attempt = 0
        var delay = firstDelay
        while !stop.isSet {
            do {
                let projector = try makeProjector()
                var reportedRunning = false
                try projector.run(until: stop, progressInterval: progressInterval) { report in
                    // Running again once a batch went through; the failure is over.
                    if !reportedRunning && attempt > 0 {
                        reportedRunning = true
                        attempt = 0
                        delay = firstDelay
                        status(.running)
                    }
                    progress(report)
                }
                break
            } catch {
                guard Self.mayPass(error) else {
                    let final = Status.stopped(cause: "\(error)")
                    status(final)
                    return final
                }
                attempt += 1
                status(.retrying(cause: "\(error)", attempt: attempt, delay: delay))
                stop.wait(timeout: delay)
                delay = min(delay * 2, longestDelay)
            }
        }
        status(.stopped(cause: nil))
        return .stopped(cause: nil)
    }

    /// Whether a projector's failure may pass without anyone changing the store or the log.
    static func mayPass(_ error: any Error) -> Bool {
        switch error {
        case is LogMismatch, is ProjectorError: false
        case let error as StoreError:
            switch error {
            case .noSuchFolder, .cannotOpen, .inUse, .removed: true
            case .missing, .corrupted, .newerSchema: false
            }
        // Disk full, read-only, I/O errors, a busy store: what an operator fixes outside.
        case is SQLiteError: true
        case let error as KafkaError: error.code != .offsetOutOfRange && error.code != .invalidConfiguration
        default: false
        }
    }
}
