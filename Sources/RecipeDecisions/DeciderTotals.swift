import RecipeWire

extension Decider {
    public struct Totals: Sendable, Equatable {
        public var decided = 0
        public var accepted = 0
        public var rejected = 0
        public var duplicates = 0
        public var undecodable = 0
        /// Partitions started again after finding that another decider's decisions counted.
        public var rebuilds = 0
        /// Records written to the committed topic: documents and tombstones.
        public var committed = 0
        /// Decisions read and folded to take partitions: from their start, or after a snapshot.
        public var readTaking = 0
        /// Partitions taken from a snapshot, their decisions read after its end only.
        public var fromSnapshots = 0

        public init() {}
    }
}

extension Decider.Totals {
    /// Counts one decision; partitions decided on two threads count apart (`add`).
    mutating func count(_ outcome: DecisionRecord.Outcome) {
        decided += 1
        switch outcome {
        case .accepted: accepted += 1
        case .rejected: rejected += 1
        case .duplicate: duplicates += 1
        case .undecodable: undecodable += 1
        }
    }

    mutating func add(_ other: Self) {
        decided += other.decided
        accepted += other.accepted
        rejected += other.rejected
        duplicates += other.duplicates
        undecodable += other.undecodable
        rebuilds += other.rebuilds
        committed += other.committed
    }
}
