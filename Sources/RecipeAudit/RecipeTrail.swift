import Kafka
import RecipeDomain
import RecipeProjection
import RecipeWire

/// One recipe's commands in log order, each with its effective decision as
/// recorded, the commands no decision counts for yet, and the recipe's state
/// after any of them, folded as the projector folds it.
public struct RecipeTrail: Sendable {
    public let recipeID: RecipeID
    /// The partition the recipe's key hashes to: where all its commands and decisions are.
    public let partition: Int32
    /// The recipe's decided commands.
    public private(set) var records: [AuditRecord] = []
    /// The offsets of the recipe's commands that no decision counts for yet.
    public private(set) var undecided: [Int64] = []
    /// The state after the last decision added.
    public private(set) var state: ProjectedRecipe
    /// The command offset of the last decision read in the partition (this recipe's or another's).
    public private(set) var lastDecided: Int64?

    public init(recipeID: RecipeID, partition: Int32) {
        self.recipeID = recipeID
        self.partition = partition
        state = ProjectedRecipe(id: recipeID)
    }

    /// `undecided` as `partition:offset`.
    public var undecidedPositions: [String] { undecided.map { "\(partition):\($0)" } }

    /// Folds the partition's next decision; another recipe's only moves `lastDecided`.
    mutating func add(_ decided: EffectiveDecisionReader.Read, command: KafkaConsumerRecord?) {
        lastDecided = decided.decision.offset
        // The recipe as `HistoryEntry` reads it from the decision.
        guard decided.decision.recipeID.flatMap({ try? RecipeID($0) }) == recipeID else { return }
        let record = AuditRecord(decided, command: command)
        // Every decision about the recipe on its own partition is folded, as the projector folds it:
        // one about no command (undecodable) is the last word on an open draft. (The projector's
        // exception, a `wrongPartition` decision filed on another partition, never lies in this one.)
        state.fold(record.decision, entry: record.entry)
        records.append(record)
    }

    /// Notes a command of the partition that no decision counts for yet, if it is the recipe's.
    mutating func addUndecided(_ command: KafkaConsumerRecord) {
        if AuditRecord.recipeID(of: command) == recipeID.text { undecided.append(command.offset) }
    }

    /// The state after the decisions of the commands at or before `offset` of the partition.
    public func state(throughOffset offset: Int64) -> ProjectedRecipe {
        var state = ProjectedRecipe(id: recipeID)
        for record in records where record.entry.offset <= offset {
            state.fold(record.decision, entry: record.entry)
        }
        return state
    }
}
