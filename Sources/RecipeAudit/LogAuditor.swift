import Foundation
import Kafka
import RecipeDomain
import RecipeProjection
import RecipeWire

/// Questions asked of the logs themselves: a recipe's trail, the recipe as it was
/// at a moment, the change between two versions, every decision for export. Each
/// answer reads the effective decisions (`EffectiveDecisions`) and folds them exactly
/// as the projector does, with no rule; the edits log gives each command's data,
/// and the commands no decision counts for yet.
///
/// Threads: use from one thread.
public final class LogAuditor {
    /// Reads the edits log; its partitions are the decisions topic's too.
    public let reader: LogReader
    private let decisions: KafkaConsumer
    private let topics: RecipeTopics
    private let allowMissingHead: Bool

    /// - Parameter allowMissingHead: reads a partition of either log whose first records are
    ///   gone from what is left; without it, that throws `MissingHead`.
    public init(kafka: KafkaConfig, topics: RecipeTopics, allowMissingHead: Bool = false) throws {
        reader = try LogReader(kafka: kafka, topic: topics.edits, allowMissingHead: allowMissingHead)
        try checkDecisionsTopic(kafka: kafka, topics: topics, editsPartitions: reader.partitions.count)
        decisions = try KafkaConsumer(config: LogReader.consumerConfig(kafka), readsHeaders: false)
        self.topics = topics
        self.allowMissingHead = allowMissingHead
    }

    deinit { decisions.close() }

    /// A moment of the logs.
    public enum Moment: Sendable, Equatable {
        /// Through the command at this position of the edits log (inclusive): its
        /// partition's decisions up to the first about a later command.
        case position(partition: Int32, offset: Int64)
        /// Through each partition's last decision stamped at or before this time (ms
        /// since the epoch), which is its command's time in the edits log: the same
        /// cut as `replay --until-time`.
        case time(Int64)
    }

    public enum AuditError: Error, CustomStringConvertible, Sendable, Equatable {
        case wrongPartition(recipeID: String, partition: Int32, asked: Int32)
        case neverSeen(String)
        case noSuchVersion(String, Int, latest: Int, undecided: Int)

        public var description: String {
            switch self {
            case .wrongPartition(let id, let partition, let asked):
                "recipe \(id) lives in partition \(partition): a position in partition \(asked) says nothing about it"
            case .neverSeen(let id): "the log has no record of recipe \(id)"
            case .noSuchVersion(let id, let version, let latest, let undecided):
                (latest == 0 ? "recipe \(id) has no committed version, so no version \(version)"
                    : "recipe \(id) has versions 1…\(latest), not \(version)")
                    + (undecided > 0 ? " (\(LogAuditor.notDecided(undecided)))" : "")
            }
        }
    }

    /// "1 command not decided yet", "3 commands not decided yet".
    public static func notDecided(_ count: Int) -> String {
        "\(count) command\(count == 1 ? "" : "s") not decided yet"
    }

    /// The recipe's commands through `moment` (both logs to their ends when nil), each
    /// with its decision, read from its own partition only.
    public func trail(of recipeID: RecipeID, through moment: Moment? = nil) throws -> RecipeTrail {
        var trail = RecipeTrail(recipeID: recipeID, partition: reader.partition(of: recipeID))
        if case .position(let partition, _) = moment, partition != trail.partition {
            throw AuditError.wrongPartition(recipeID: recipeID.text, partition: trail.partition, asked: partition)
        }
        try commands(of: trail.partition, through: moment) { command in
            switch command {
            case .decided(let decided, let command): trail.add(decided, command: command)
            case .undecided(let record): trail.addUndecided(record)
            }
            return true
        }
        return trail
    }

    /// The recipe at a moment: its latest committed version then, and its open draft then.
    public func asOf(_ recipeID: RecipeID, _ moment: Moment) throws -> RecipeAsOf {
        try RecipeAsOf(try trail(of: recipeID, through: moment))
    }

    /// What changed from version `from` to version `to`.
    public func diff(_ recipeID: RecipeID, from: Int, to: Int) throws -> VersionDiff {
        let trail = try trail(of: recipeID)
        let versions = trail.state.recipe.versions
        func version(_ number: Int) throws -> RecipeVersion {
            guard versions.indices.contains(number - 1) else {
                throw AuditError.noSuchVersion(recipeID.text, number, latest: versions.count, undecided: trail.undecided.count)
            }
            return versions[number - 1]
        }
        return VersionDiff(id: recipeID.text, from: try version(from), to: try version(to))
    }

    /// What `export` handed out.
    public struct ExportCount: Sendable, Equatable {
        /// Commands handed out, each with its effective decision.
        public var exported = 0
        /// Commands (logged at or after `since`) that no decision counts for yet: not handed out.
        public var undecided = 0
    }

    /// Every command of the edits log with its effective decision, partition by
    /// partition in offset order; those stamped before `since` (ms) are not handed
    /// out. `progress` counts the commands read. Memory holds one batch of records.
    @discardableResult
    public func export(since: Int64? = nil, progress: (_ done: Int64, _ total: Int64) -> Void = { _, _ in },
                       _ body: (AuditRecord) throws -> Void) throws -> ExportCount {
        let ends = try reader.partitions.map { try reader.end(of: $0) }
        let total = ends.reduce(0, +)
        var (done, count): (Int64, ExportCount) = (0, ExportCount())
        func handsOut(_ logTime: Int64?) -> Bool { since.map { (logTime ?? 0) >= $0 } ?? true }
        for partition in reader.partitions {
            try commands(of: partition, through: nil) { command in
                switch command {
                case .decided(let decided, let command):
                    guard handsOut(decided.record.timestamp) else { break }
                    try body(AuditRecord(decided, command: command))
                    count.exported += 1
                case .undecided(let record):
                    if handsOut(record.timestamp) { count.undecided += 1 }
                }
                return true
            } progress: { read in
                done += read
                progress(done, total)
            }
        }
        return count
    }

    /// A command of the edits log as the audit tools read it.
    private enum Command {
        /// With its effective decision (the command's record is nil when it is gone: a missing head).
        /// Not yet an `AuditRecord`: a recipe's trail makes one only of its own commands (made of every
        /// command of the partition, parsing their data was four fifths of `audit history`).
        case decided(EffectiveDecisionReader.Read, command: KafkaConsumerRecord?)
        /// No decision counts for it yet.
        case undecided(KafkaConsumerRecord)
    }

    /// Hands `body` the commands of `partition` through `moment`, in order, each with its
    /// effective decision or none, until it returns false. Both logs are read side by side,
    /// each to the end it had when its reading began; `progress` gets the number of edits
    /// records read after each batch.
    private func commands(of partition: Int32, through moment: Moment?, _ body: (Command) throws -> Bool,
                          progress: (Int64) -> Void = { _ in }) throws {
        var end = try reader.end(of: partition)
        let cut: EffectiveDecisionReader.Cut
        switch moment {
        case .position(_, let offset):
            cut = .commandsThrough(offset)
            end = min(end, offset + 1)
        case .time(let time): cut = .loggedThrough(time)
        case nil: cut = .end
        }
        var recorded = try EffectiveDecisionReader(consumer: decisions, topic: topics.decisions, partition: partition, cut: cut,
                                                   allowMissingHead: allowMissingHead)
        // The decisions of commands before `offset` whose records are gone (a head allowed missing).
        func handOutDecisions(before offset: Int64) throws -> Bool {
            while let next = try recorded.peek(), next.decision.offset < offset {
                recorded.take()
                guard try body(.decided(next, command: nil)) else { return false }
            }
            return true
        }
        var stopped = false
        try reader.read(partition: partition, until: end) { records in
            defer { progress(Int64(records.count)) }
            for record in records {
                guard try handOutDecisions(before: record.offset) else {
                    stopped = true
                    return false
                }
                let command: Command
                if let next = try recorded.peek(), next.decision.offset == record.offset {
                    recorded.take()
                    command = .decided(next, command: record)
                } else {
                    // Effective decisions are of ever later commands: none will count for this one.
                    // Past a time cut, it is past the moment asked about.
                    if case .time(let time) = moment, (record.timestamp ?? 0) > time {
                        stopped = true
                        return false
                    }
                    command = .undecided(record)
                }
                guard try body(command) else {
                    stopped = true
                    return false
                }
            }
            return true
        }
        if !stopped { _ = try handOutDecisions(before: end) }
    }
}

/// A recipe as it was at a moment of the logs.
public struct RecipeAsOf: Codable, Sendable, Equatable {
    public var id: String
    /// The command whose decision was the last read in the recipe's partition (any
    /// recipe's), as `partition:offset`: the state is the one after it.
    public var position: String?
    public var revision: Int
    public var deleted: Bool
    /// The latest committed version then.
    public var committed: RecipeDetail?
    /// The open draft then.
    public var draft: DraftView?
    /// The recipe's commands up to the moment that no decision counts for yet, as
    /// `partition:offset`: not in the state.
    public var undecided: [String]

    init(_ trail: RecipeTrail) throws {
        guard !trail.records.isEmpty || !trail.undecided.isEmpty else { throw LogAuditor.AuditError.neverSeen(trail.recipeID.text) }
        let recipe = trail.state.recipe
        id = trail.recipeID.text
        position = trail.lastDecided.map { "\(trail.partition):\($0)" }
        revision = recipe.revision
        deleted = recipe.isDeleted
        committed = recipe.versions.last.map { RecipeDetail(id: recipe.id.text, version: $0, hasDraft: recipe.hasOpenDraft) }
        draft = try trail.state.draftView
        undecided = trail.undecidedPositions
    }
}
