import Kafka
import RecipeDomain
import RecipeWire

/// A record of the decisions topic as the projector reads it: where it lies in
/// that topic, and the decision it holds. Decoded on the reading thread; whether
/// the decision counts is the writer's to say (`EffectiveDecisions`), in order.
struct DecisionReading: Sendable {
    /// The record's place in the decisions topic (not its command's).
    var partition: Int32
    var offset: Int64
    /// The record's Kafka timestamp: its command's time in the edits log, as the decider stamps it.
    var logTime: Int64?
    /// Nil for a record that is not a decision this build reads: no decision counts there.
    var decision: DecisionRecord?
    /// The recipe the decision names, checked here rather than by the writer's thread,
    /// the one thread a replay cannot spread.
    var recipeID: RecipeID?

    /// The command offset the decision is about, if the record is a decision.
    var commandOffset: Int64? { decision?.offset }

    init(_ record: KafkaBorrowedRecord, decoder: DecisionDecoder) {
        (partition, offset, logTime) = (record.partition, record.offset, record.timestamp)
        decision = try? decoder.decoded(record.value, key: record.key)
        recipeID = decision?.recipeID.flatMap { try? RecipeID($0) }
    }
}

extension HistoryEntry {
    /// The history entry of an effective decision: its command's position, what the
    /// command was, and what was decided, as recorded. The projector's history and
    /// the audit tools both make their entries here.
    public init(_ decision: DecisionRecord, logTime: Int64?) {
        self.init(decision, logTime: logTime, recipeID: decision.recipeID.flatMap { try? RecipeID($0) })
    }

    /// The same, with the decision's `recipeID` already checked.
    /// Borrowed: an initializer takes what it is given owned, and the projector's
    /// fold paid a copy of the whole decision for each entry.
    init(_ decision: borrowing DecisionRecord, logTime: Int64?, recipeID: RecipeID?) {
        self.init(partition: decision.partition, offset: decision.offset, recipeID: recipeID, commandID: decision.commandID,
                  time: decision.time?.millisecondsSinceEpoch, actor: decision.actor, type: decision.commandKind?.rawValue ?? "unknown",
                  outcome: .accepted, revision: decision.outcome.revision, actorRole: decision.actorRole?.rawValue,
                  rulesVersion: decision.rulesVersion, logTime: logTime)
        switch decision.outcome {
        case .accepted: break
        case .duplicate: outcome = .duplicate
        case .rejected(let rejection, _), .undecodable(let rejection): reject(rejection)
        }
    }
}
