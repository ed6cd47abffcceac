import Foundation
import Kafka
import RecipeProjection

/// `audit verify`: replays the log into a scratch store up to the live store's
/// positions and compares the two row by row. A live store that a projector
/// keeps writing is copied first (a consistent snapshot), so the comparison
/// is of one moment.
public enum StoreVerifier {
    public struct Report: Sendable {
        /// The positions both stores were compared at.
        public var positions: [Int32: Int64]
        public var differences: [StoreComparison.Difference]
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
        let positions = try ReadModel(path: snapshot).positions()
        let projector = try Projector(storePath: replay, kafka: kafka, topic: topic, exclusive: true)
        _ = try projector.catchUp(to: .positions(positions), timeout: nil, progress: progress)
        return Report(positions: positions, differences: try StoreComparison.differences(live: snapshot, replay: replay))
    }
}
