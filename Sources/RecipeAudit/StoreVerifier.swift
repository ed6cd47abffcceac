import Foundation
import Kafka
import RecipeProjection

/// `audit verify`: replays the decisions into a scratch store up to the live
/// store's positions and compares the two row by row. A live store that a projector
/// keeps writing is copied first (a consistent snapshot), so the comparison
/// is of one moment.
public enum StoreVerifier {
    public struct Report: Sendable {
        /// The command positions both stores were compared at.
        public var positions: [Int32: Int64]
        public var differences: [StoreComparison.Difference]
        /// `partition:first offset,…` of a partial live store (read from past its partitions' first records), else nil.
        public var missingHeads: String?
        public var agree: Bool { differences.isEmpty }
    }

    /// - Parameter scratch: a directory for the snapshot and the replay; removed afterwards.
    public static func verify(live: String, kafka: KafkaConfig, topic: String, scratch: String,
                              progress: (Projector.CatchUpProgress) -> Void = { _ in }) throws -> Report {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let snapshot = scratch + "/live.db"
        let replay = scratch + "/replay.db"
        try StoreComparison.snapshot(of: live, into: snapshot)
        let liveModel = try ReadModel(path: snapshot)
        let positions = try liveModel.positions()
        let read = try liveModel.decisionPositions()
        // A partial store is compared with a replay as partial: the log's head was gone for both.
        let liveLog = try liveModel.storeLog()
        let projector = try Projector(storePath: replay, kafka: kafka, topic: topic,
                                      allowMissingHead: liveLog?.isPartial ?? false)
        _ = try projector.catchUp(to: .positions(read), timeout: nil, progress: progress)
        return Report(positions: positions, differences: try StoreComparison.differences(live: snapshot, replay: replay),
                      missingHeads: liveLog.flatMap { $0.isPartial ? $0.missingHeadsText : nil })
    }
}
