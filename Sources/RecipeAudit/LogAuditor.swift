import Foundation
import Kafka
import RecipeDomain
import RecipeProjection

/// Questions asked of the log itself: a recipe's trail, the recipe as it was
/// at a moment, the change between two versions, every record for export.
/// Each answer folds the records exactly as the projector does.
public final class LogAuditor {
    public let reader: LogReader

    /// - Parameter allowMissingHead: see `LogReader`: without it, a partition whose head is gone throws `MissingHead`.
    public init(kafka: KafkaConfig, topic: String, allowMissingHead: Bool = false) throws {
        reader = try LogReader(kafka: kafka, topic: topic, allowMissingHead: allowMissingHead)
    }

    /// A moment of the log.
    public enum Moment: Sendable, Equatable {
        /// Through the record at this position (inclusive).
        case position(partition: Int32, offset: Int64)
        /// Through the partition's last record logged at or before this time
        /// (ms since the epoch), the same cut as `replay --until`.
        case time(Int64)
    }

    public enum AuditError: Error, CustomStringConvertible, Sendable, Equatable {
        case wrongPartition(recipeID: String, partition: Int32, asked: Int32)
        case neverSeen(String)
        case noSuchVersion(String, Int, latest: Int)

        public var description: String {
            switch self {
            case .wrongPartition(let id, let partition, let asked):
                "recipe \(id) lives in partition \(partition): a position in partition \(asked) says nothing about it"
            case .neverSeen(let id): "the log has no record of recipe \(id)"
            case .noSuchVersion(let id, let version, let latest):
                latest == 0 ? "recipe \(id) has no committed version, so no version \(version)"
                    : "recipe \(id) has versions 1…\(latest), not \(version)"
            }
        }
    }

    /// The recipe's records through `moment` (the whole log when nil), read
    /// from its own partition only.
    public func trail(of recipeID: RecipeID, through moment: Moment? = nil) throws -> RecipeTrail {
        var trail = RecipeTrail(recipeID: recipeID, partition: reader.partition(of: recipeID))
        var end: Int64?
        var until: Int64?
        switch moment {
        case .position(let partition, let offset):
            guard partition == trail.partition else {
                throw AuditError.wrongPartition(recipeID: recipeID.text, partition: trail.partition, asked: partition)
            }
            end = offset + 1
        case .time(let time): until = time
        case nil: break
        }
        let judge = reader.judge
        try reader.read(partition: trail.partition, until: end) { records in
            for record in records {
                if let until, (record.timestamp ?? 0) > until { return false }
                trail.add(record, judge: judge)
            }
            return true
        }
        return trail
    }

    /// The recipe at a moment: its latest committed version then, and its open draft then.
    public func asOf(_ recipeID: RecipeID, _ moment: Moment) throws -> RecipeAsOf {
        let trail = try trail(of: recipeID, through: moment)
        return try RecipeAsOf(trail)
    }

    /// What changed from version `from` to version `to`.
    public func diff(_ recipeID: RecipeID, from: Int, to: Int) throws -> VersionDiff {
        let versions = try trail(of: recipeID).state.recipe.versions
        func version(_ number: Int) throws -> RecipeVersion {
            guard versions.indices.contains(number - 1) else {
                throw AuditError.noSuchVersion(recipeID.text, number, latest: versions.count)
            }
            return versions[number - 1]
        }
        return VersionDiff(id: recipeID.text, from: try version(from), to: try version(to))
    }

    /// Every record of the log, partition by partition in offset order, with
    /// its outcome; those logged before `since` (ms) are folded but not handed
    /// out. Returns the number handed out. Memory holds one partition's recipes.
    @discardableResult
    public func export(since: Int64? = nil, progress: (_ done: Int64, _ total: Int64) -> Void = { _, _ in },
                       _ body: (AuditRecord) throws -> Void) throws -> Int {
        var total: Int64 = 0
        for partition in reader.partitions { total += try reader.end(of: partition) }
        var done: Int64 = 0
        var exported = 0
        let judge = reader.judge
        for partition in reader.partitions {
            var recipes: [RecipeID: ProjectedRecipe] = [:]
            try reader.read(partition: partition) { records in
                for record in records {
                    let audited = AuditRecord.fold(record, judge: judge, into: &recipes)
                    if since.map({ (record.timestamp ?? 0) >= $0 }) ?? true {
                        try body(audited)
                        exported += 1
                    }
                }
                done += Int64(records.count)
                progress(done, total)
                return true
            }
        }
        return exported
    }
}

/// A recipe as it was at a moment of the log.
public struct RecipeAsOf: Codable, Sendable, Equatable {
    public var id: String
    /// The last record of the recipe's partition read, as `partition:offset`.
    public var position: String?
    public var revision: Int
    public var deleted: Bool
    /// The latest committed version then.
    public var committed: RecipeDetail?
    /// The open draft then.
    public var draft: DraftView?

    init(_ trail: RecipeTrail) throws {
        guard !trail.records.isEmpty else { throw LogAuditor.AuditError.neverSeen(trail.recipeID.text) }
        let recipe = trail.state.recipe
        id = trail.recipeID.text
        position = trail.lastOffsetRead.map { "\(trail.partition):\($0)" }
        revision = recipe.revision
        deleted = recipe.isDeleted
        committed = recipe.versions.last.map { RecipeDetail(id: recipe.id.text, version: $0, hasDraft: recipe.hasOpenDraft) }
        draft = try trail.state.draftView
    }
}
