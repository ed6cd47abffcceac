import Kafka
import Threads

/// What a decider is doing with each partition it holds, as of a moment: what `/readyz` and
/// `/metrics` show, and what the read side's waits (`after=`, `?wait=true`) check so that they
/// never take a command for decided on a partition the decider has stopped deciding.
public struct DeciderState: Sendable, Equatable {
    public enum PartitionState: Sendable, Equatable {
        /// Reading the partition's decisions before deciding (an assignment, or taking it again).
        case starting
        case deciding
        /// It cannot go on with this partition (`why`) and decides none of its commands until it is
        /// started again; its other partitions go on.
        case stopped(why: String)

        /// The state's name, as `/metrics` labels it.
        public var name: String {
            switch self {
            case .starting: "starting"
            case .deciding: "deciding"
            case .stopped: "stopped"
            }
        }

        public static let names = ["starting", "deciding", "stopped"]
    }

    public struct Partition: Sendable, Equatable {
        public var state: PartitionState
        /// The next command to decide. For a stopped partition, the first command not known to be
        /// decided: decisions on the topic that claim it or later ones are not to be trusted (one
        /// that claims a command past the edits partition's end is not of this log).
        public var nextCommand: Int64
        /// The end of the edits partition (its next offset) as last seen, when known.
        public var editsEnd: Int64?

        public init(state: PartitionState, nextCommand: Int64, editsEnd: Int64?) {
            self.state = state
            self.nextCommand = nextCommand
            self.editsEnd = editsEnd
        }

        /// Commands on the edits partition not decided yet.
        public var lag: Int64? { editsEnd.map { max(0, $0 - nextCommand) } }
    }

    /// The partitions it holds.
    public var partitions: [Int32: Partition] = [:]
    /// Why the decider stopped as a whole, once it did: it decides nothing more.
    public var stoppedWhole: String?

    public init() {}

    /// The partitions it does not decide, each with why, in partition order.
    public var stopped: [(partition: Int32, why: String)] {
        partitions.sorted { $0.key < $1.key }.compactMap { partition, status in
            if case .stopped(let why) = status.state { (partition, why) } else { nil }
        }
    }

    /// One line naming what it does not decide, or nil when it decides every partition it holds.
    public var stoppedSummary: String? {
        if let whole = stoppedWhole { return "the decider has stopped: \(whole)" }
        let stopped = self.stopped
        guard !stopped.isEmpty else { return nil }
        let named = stopped.map { "partition \($0.partition) (\($0.why))" }.joined(separator: "; ")
        return "the decider has stopped deciding \(named); it goes on with its other partitions"
    }

    /// Of `positions` (`partition: offset` of commands), those on a partition it decides or stopped
    /// at or past its next command: not decided by it (yet, or ever, on a partition it stopped:
    /// `why`). The next command it publishes before it hands the decisions before it to the
    /// producer, so a decision of a position it names that a reader finds on the topic is not its
    /// own. A partition it is starting names none: what it will decide next is not known yet.
    public func undecided(_ positions: [Int32: Int64]) -> [(partition: Int32, offset: Int64, decidedUpTo: Int64, why: String?)] {
        positions.sorted { $0.key < $1.key }.compactMap { partition, offset in
            guard let status = partitions[partition], status.state != .starting, offset >= status.nextCommand else { return nil }
            if case .stopped(let why) = status.state { return (partition, offset, status.nextCommand, why) }
            return (partition, offset, status.nextCommand, nil)
        }
    }
}

/// A decider's `DeciderState`, written by its thread and read by any other.
public final class DeciderStatus: Sendable {
    private let state = Locked(DeciderState())

    public init() {}

    public var current: DeciderState { state.withLock(wake: .nobody) { $0 } }

    func update(_ body: (inout DeciderState) -> Void) {
        state.withLock(wake: .nobody) { body(&$0) }
    }
}
