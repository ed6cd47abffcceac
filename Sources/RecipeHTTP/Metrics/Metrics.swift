import Foundation
import RecipeDecisions
import RecipeProjection
import Threads

/// What `/metrics` shows, in Prometheus text format: HTTP requests by route
/// and status, a request-latency histogram, the projector's counts and
/// lag per partition (from its progress reports), and the state and lag of the
/// decider this process runs, per partition it holds.
public final class Metrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct RequestKey: Hashable {
        var route: String
        var method: String
        var status: Int
    }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var bucketCounts = [Int](repeating: 0, count: Metrics.buckets.count)
        var latencyCount = 0
        var latencySum = 0.0
        var accepted = 0
        var rejected = 0
        var duplicates = 0
        var lag: [Int32: Int64] = [:]
        var projectorFailures = 0
        var projectorFailing = false
        var projectorStopped = false
        var openStreams = 0
    }

    private let state = Locked(State())

    public init() {}

    /// The methods that are a label of their own; any other is `other`, so that a client cannot
    /// add series (or break the exposition format) with methods of its own making.
    static let methodLabels: Set = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]

    /// `route` is the matched pattern (or a fixed name such as `unmatched`), never the path.
    public func recordRequest(route: String, method: String, status: Int, seconds: Double) {
        let method = Self.methodLabels.contains(method) ? method : "other"
        state.withLock { state in
            state.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            if let bucket = Self.buckets.firstIndex(where: { seconds <= $0 }) { state.bucketCounts[bucket] += 1 }
            state.latencyCount += 1
            state.latencySum += seconds
        }
    }

    public func recordProgress(_ progress: Projector.Progress) {
        state.withLock { state in
            state.accepted = progress.totals.accepted
            state.rejected = progress.totals.rejected
            state.duplicates = progress.totals.duplicates
            state.lag = progress.lag
        }
    }

    /// A projector failure that is being retried (`failing`), or the end of one.
    public func recordProjectorFailure(failing: Bool) {
        state.withLock { state in
            if failing { state.projectorFailures += 1 }
            state.projectorFailing = failing
        }
    }

    /// The projector stopped for good (a failure that cannot pass, such as a store built from another log).
    public func recordProjectorStopped() {
        state.withLock { $0.projectorStopped = true }
    }

    /// Event streams open now (`GET /v1/events`, `/v1/recipes/{id}/events`).
    public func recordOpenStreams(_ count: Int) {
        state.withLock { $0.openStreams = count }
    }

    /// The exposition text; `positions` are the store's next offsets.
    /// `partial`: the store was built from a log whose head was gone. `decider`: what the decider
    /// this process runs does (nil: none runs here).
    public func render(positions: [Int32: Int64], partial: Bool = false, decider: DeciderState? = nil) -> String {
        let state = state.withLock { $0 }
        var text = ""
        text += "# HELP recipes_http_requests_total HTTP requests by route pattern, method and status.\n"
        text += "# TYPE recipes_http_requests_total counter\n"
        for (key, count) in state.requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            text += "recipes_http_requests_total{route=\"\(key.route)\",method=\"\(key.method)\",status=\"\(key.status)\"} \(count)\n"
        }
        text += "# HELP recipes_http_request_duration_seconds Time to answer a request.\n"
        text += "# TYPE recipes_http_request_duration_seconds histogram\n"
        var cumulative = 0
        for (bound, count) in zip(Self.buckets, state.bucketCounts) {
            cumulative += count
            text += "recipes_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        text += "recipes_http_request_duration_seconds_bucket{le=\"+Inf\"} \(state.latencyCount)\n"
        text += "recipes_http_request_duration_seconds_sum \(state.latencySum)\n"
        text += "recipes_http_request_duration_seconds_count \(state.latencyCount)\n"
        text += "# HELP recipes_store_partial Whether the store was built from a log whose first records were gone (1) or not (0).\n"
        text += "# TYPE recipes_store_partial gauge\n"
        text += "recipes_store_partial \(partial ? 1 : 0)\n"
        text += "# HELP recipes_projector_failures_total Projector failures since start (each is retried unless it cannot pass).\n"
        text += "# TYPE recipes_projector_failures_total counter\n"
        text += "recipes_projector_failures_total \(state.projectorFailures)\n"
        text += "# HELP recipes_projector_failing Whether the projector is failing and retrying now (1) or not (0).\n"
        text += "# TYPE recipes_projector_failing gauge\n"
        text += "recipes_projector_failing \(state.projectorFailing ? 1 : 0)\n"
        text += "# HELP recipes_projector_stopped Whether the projector stopped for good (1): /readyz says why.\n"
        text += "# TYPE recipes_projector_stopped gauge\n"
        text += "recipes_projector_stopped \(state.projectorStopped ? 1 : 0)\n"
        text += "# HELP recipes_http_open_streams Event streams open now.\n"
        text += "# TYPE recipes_http_open_streams gauge\n"
        text += "recipes_http_open_streams \(state.openStreams)\n"
        text += "# HELP recipes_projector_commands_total Commands the projector applied since start, by outcome.\n"
        text += "# TYPE recipes_projector_commands_total counter\n"
        text += "recipes_projector_commands_total{outcome=\"accepted\"} \(state.accepted)\n"
        text += "recipes_projector_commands_total{outcome=\"rejected\"} \(state.rejected)\n"
        text += "recipes_projector_commands_total{outcome=\"duplicate\"} \(state.duplicates)\n"
        text += "# HELP recipes_projector_lag_records Records between the high watermark and the store, per partition.\n"
        text += "# TYPE recipes_projector_lag_records gauge\n"
        for (partition, lag) in state.lag.sorted(by: { $0.key < $1.key }) {
            text += "recipes_projector_lag_records{partition=\"\(partition)\"} \(lag)\n"
        }
        text += "# HELP recipes_projector_position Next offset the store will apply, per partition.\n"
        text += "# TYPE recipes_projector_position gauge\n"
        for (partition, offset) in positions.sorted(by: { $0.key < $1.key }) {
            text += "recipes_projector_position{partition=\"\(partition)\"} \(offset)\n"
        }
        if let decider { text += Self.render(decider) }
        return text
    }

    /// The decider's series: one per state and partition held (1 for the state it is in), and its lag.
    private static func render(_ decider: DeciderState) -> String {
        let held = decider.partitions.sorted { $0.key < $1.key }
        var text = "# HELP recipes_decider_partition_state The decider's state per partition it holds: 1 for the one it is in "
            + "(starting, deciding, stopped), 0 for the others. /readyz says why a partition is stopped.\n"
        text += "# TYPE recipes_decider_partition_state gauge\n"
        for (partition, status) in held {
            for name in DeciderState.PartitionState.names {
                text += "recipes_decider_partition_state{partition=\"\(partition)\",state=\"\(name)\"} \(status.state.name == name ? 1 : 0)\n"
            }
        }
        text += "# HELP recipes_decider_lag_records Commands on the edits partition not decided yet: its end minus the next command to decide.\n"
        text += "# TYPE recipes_decider_lag_records gauge\n"
        for (partition, status) in held {
            if let lag = status.lag { text += "recipes_decider_lag_records{partition=\"\(partition)\"} \(lag)\n" }
        }
        text += "# HELP recipes_decider_stopped Whether the decider has stopped as a whole (1): it decides nothing more.\n"
        text += "# TYPE recipes_decider_stopped gauge\n"
        text += "recipes_decider_stopped \(decider.stoppedWhole == nil ? 0 : 1)\n"
        return text
    }
}
