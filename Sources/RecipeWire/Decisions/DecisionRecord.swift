import RecipeDomain

// MARK: - Decision record

/// What was decided about one record of `recipes.edits`: the value of a record on
/// the decisions topic (`RecipeTopics.decisions`), with the same key as the
/// command and on the partition of the same number, one decision per command, in
/// the command's order. Folding the accepted decisions' events, with no rule,
/// gives every recipe exactly as deciding gave it, whatever build folds them.
///
/// Written and read by `DecisionEncoder` and `DecisionDecoder` as CloudEvents
/// structured JSON of type `recipes.decision.v1` (Schemas/decisions/). Made by
/// `init(_:of:…)` and `init(undecodable:…)`.
///
/// The decider stage (`RecipeDecisions`) appends them; projectors and the audit
/// tools fold them, with no rule (docs/architecture.md, "Decisions"). Which
/// decision of a command counts is `EffectiveDecisions`'s to say, from `decider`
/// and `follows`.
public struct DecisionRecord: Sendable, Hashable {
    /// Where the command is on `recipes.edits`; the decision is the one for that offset.
    public var partition: Int32
    public var offset: Int64
    /// The recipe the decision is about: the command's key, when it is UTF-8, else
    /// the recipe the record names, if it names one. Written as `subject`.
    public var recipeID: String?
    /// The command id; for an undecodable record, as far as it could be read.
    public var commandID: String?
    /// The command; nil when the record did not decode.
    public var commandKind: RecipeCommand.Kind?
    /// Who sent the command and with what role (nil: none given); nil when undecodable.
    public var actor: String?
    public var actorRole: ActorRole?
    /// The command's own time (written as the decision's `time`); nil when undecodable.
    public var time: Timestamp?
    public var outcome: Outcome
    /// `RecipeDecider.rulesVersion` of the build that decided.
    public var rulesVersion: Int
    /// Who wrote it: the name a decider took for one unbroken run over the partition
    /// (`DecisionLink.decider`). Nil only in a decision written by hand or by a test;
    /// such a decision is never effective.
    public var decider: String?
    /// The decision this one was decided after, on the same partition: the state it
    /// was decided against is the one that decision left. Nil for the partition's first.
    public var follows: DecisionLink?

    /// What became of the command.
    public enum Outcome: Sendable, Hashable {
        /// Applied: these events, in order, and the recipe's revision after them.
        case accepted([RecipeEvent], revision: Int)
        /// A rule turned it down; the recipe stays at `revision`.
        case rejected(Rejection, revision: Int)
        /// Its id was applied to the recipe before; the recipe stays at `revision`.
        case duplicate(revision: Int)
        /// The record is not a command this build reads (`malformed`, `unknownType`,
        /// `unsupportedVersion`, `keyMismatch`, `invalid`, `tooLarge`, `wrongPartition`):
        /// no recipe was consulted, so there is no revision.
        case undecodable(Rejection)

        /// The outcome's name on the wire: `accepted`, `rejected`, `duplicate`, `undecodable`.
        public var name: String {
            switch self {
            case .accepted: "accepted"
            case .rejected: "rejected"
            case .duplicate: "duplicate"
            case .undecodable: "undecodable"
            }
        }

        public var isAccepted: Bool {
            if case .accepted = self { true } else { false }
        }

        /// Why a rejected or undecodable command was turned down.
        public var rejection: Rejection? {
            switch self {
            case .rejected(let rejection, _), .undecodable(let rejection): rejection
            case .accepted, .duplicate: nil
            }
        }

        /// The recipe's revision after the command; nil when undecodable.
        public var revision: Int? {
            switch self {
            case .accepted(_, let revision), .rejected(_, let revision), .duplicate(let revision): revision
            case .undecodable: nil
            }
        }
    }

    public init(
        partition: Int32, offset: Int64, recipeID: String?, commandID: String?, commandKind: RecipeCommand.Kind?,
        actor: String?, actorRole: ActorRole?, time: Timestamp?, outcome: Outcome,
        rulesVersion: Int = RecipeDecider.rulesVersion, decider: String? = nil, follows: DecisionLink? = nil
    ) {
        self.partition = partition
        self.offset = offset
        self.recipeID = recipeID
        self.commandID = commandID
        self.commandKind = commandKind
        self.actor = actor
        self.actorRole = actorRole
        self.time = time
        self.outcome = outcome
        self.rulesVersion = rulesVersion
        self.decider = decider
        self.follows = follows
    }

    /// How a later decision names this one in its `follows`; nil without a `decider`.
    public var link: DecisionLink? {
        decider.map { DecisionLink(decider: $0, offset: offset) }
    }

    /// The command's position as the API writes it, `partition:offset`; also the
    /// decision's CloudEvents `id` (one decision per position).
    public var position: String { "\(partition):\(offset)" }

    /// The events to fold: those of an accepted command, else none.
    public var events: [RecipeEvent] {
        if case .accepted(let events, _) = outcome { return events }
        return []
    }
}

// MARK: - Making

extension DecisionRecord {
    /// The record of `decision`, what `RecipeJudge` decided of `envelope`, the command at
    /// `partition`/`offset`; `revision` is its recipe's after it. Built from a decision,
    /// never deciding: `CommandJudge` (RecipeDecisions) decides.
    ///
    /// ```swift
    /// let decision = RecipeJudge.decide(envelope, recipe: &recipe)
    /// let record = DecisionRecord(decision, of: envelope, revision: recipe.revision, partition: 3, offset: 120)
    /// ```
    public init(_ decision: consuming RecipeDecision, of envelope: borrowing CommandEnvelope, revision: Int, partition: Int32, offset: Int64) {
        let outcome: Outcome
        switch consume decision {
        case .accepted(let events): outcome = .accepted(events, revision: revision)
        case .rejected(let rejection): outcome = .rejected(rejection, revision: revision)
        case .duplicate: outcome = .duplicate(revision: revision)
        }
        self.init(
            partition: partition, offset: offset, recipeID: envelope.recipeID.text, commandID: envelope.commandID,
            commandKind: envelope.command.kind, actor: envelope.actor, actorRole: envelope.actorRole,
            time: envelope.time, outcome: outcome)
    }

    /// The decision about a record that is not a command: `error` as `RecordDecoder`
    /// gave it, for the record with `key` at `partition`/`offset`.
    public init(undecodable error: WireError, key: [UInt8]?, partition: Int32, offset: Int64) {
        self.init(undecodable: error.rejection, recipeID: Self.recipeID(key: key, claimed: error.recipeID),
                  commandID: error.commandID, partition: partition, offset: offset)
    }

    /// The decision about a record turned away before decoding (`wrongPartition`,
    /// found from the partition count the decoder does not know).
    public init(undecodable rejection: Rejection, recipeID: String?, commandID: String?, partition: Int32, offset: Int64) {
        self.init(partition: partition, offset: offset, recipeID: recipeID, commandID: commandID, commandKind: nil,
                  actor: nil, actorRole: nil, time: nil, outcome: .undecodable(rejection))
    }

    /// The recipe a decision names: its key's, since the decision has the command's key;
    /// without a key, the recipe the record claims; a key that is not a recipe id
    /// (`RecipeID`) names none.
    public static func recipeID(key: [UInt8]?, claimed: RecipeID?) -> String? {
        guard let key else { return claimed?.text }
        return RecordKey.recipeID(fromKey: key)?.text
    }
}
