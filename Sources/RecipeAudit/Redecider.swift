import Kafka
import RecipeDecisions
import RecipeDomain
import RecipeWire

/// Decides every command of the edits topic again with this build's rules and
/// names each one whose decision would differ from its recorded (effective)
/// decision, before the build that has the change ships (`recipes audit redecide`).
///
/// The effective decisions' events fold with no rule into each recipe's recorded
/// state. A command with an effective decision is judged by the decider's own
/// `CommandJudge` against the recorded state just before it; the state then moves on
/// by the *recorded* events, so one changed outcome does not change every later one.
///
/// ```swift
/// let report = try Redecider(kafka: config, topics: RecipeTopics()).run { done, total in print("\(done)/\(total)") }
/// for difference in report.differences { print(difference.position, difference.recorded.name, "→", difference.today.name) }
/// ```
///
/// Threads: `run` blocks its caller.
public struct Redecider: Sendable {
    public let kafka: KafkaConfig
    public let topics: RecipeTopics

    public init(kafka: KafkaConfig, topics: RecipeTopics) {
        self.kafka = kafka
        self.topics = topics
    }

    /// Reads every partition to the end it had when its reading began; `progress` gets
    /// the commands read and the commands there were when the run began.
    public func run(progress: (_ done: Int64, _ total: Int64) -> Void = { _, _ in }) throws -> Report {
        let edits = try LogReader(kafka: kafka, topic: topics.edits)
        try checkDecisionsTopic(kafka: kafka, topics: topics, editsPartitions: edits.partitions.count)
        let decisions = try KafkaConsumer(config: LogReader.consumerConfig(kafka), readsHeaders: false)
        defer { decisions.close() }
        let judge = CommandJudge(partitionCount: edits.partitions.count)
        let ends = try edits.partitions.map { try edits.end(of: $0) }
        let total = ends.reduce(0, +)
        var report = Report()
        var done: Int64 = 0
        for (partition, end) in zip(edits.partitions, ends) {
            var recorded = try EffectiveDecisionReader(consumer: decisions, topic: topics.decisions, partition: partition)
            var states: [RecipeID: Recipe] = [:]
            try edits.read(partition: partition, until: end) { records in
                // Effective decisions are of ever later commands, and the edits' offsets run on from 0 with
                // no gap (`LogReader` refuses a partition whose head is gone): the next one is this command's or a later one's.
                for record in records {
                    guard let decision = try recorded.peek()?.decision, decision.offset == record.offset else {
                        report.undecided += 1
                        continue
                    }
                    recorded.take()
                    report.compare(decision, with: Self.today(record, judge: judge, states: states))
                    Self.fold(decision, into: &states)
                }
                done += Int64(records.count)
                progress(done, total)
                return true
            }
        }
        return report
    }

    /// Today's decision about `record`, against the recorded state of its recipe, which stays as it was.
    private static func today(_ record: KafkaConsumerRecord, judge: CommandJudge, states: [RecipeID: Recipe]) -> DecisionRecord {
        // A command decodes only with a key equal to its recipe id: the one recipe the judge may consult.
        var recipe: [RecipeID: Recipe] = [:]
        if let key = record.key, let id = RecordKey.recipeID(fromKey: key) { recipe[id] = states[id] }
        return judge.decide(record, recipes: &recipe)
    }

    /// Moves the recorded state on by a recorded decision's events, with no rule, as every reader of decisions does.
    private static func fold(_ decision: DecisionRecord, into states: inout [RecipeID: Recipe]) {
        guard case .accepted(let events, _) = decision.outcome, let text = decision.recipeID, let commandID = decision.commandID,
              let id = try? RecipeID(text) else { return }
        states[id, default: Recipe(id: id)].record(events, ofCommand: commandID)
    }

    // MARK: - The report

    /// What differs, and how much was compared.
    public struct Report: Sendable, Equatable {
        /// Commands with an effective decision, decided again.
        public var compared = 0
        /// Commands with no effective decision (not decided yet, or passed over by the chain): not compared.
        public var undecided = 0
        /// Every command whose decision today differs from its recorded one, in log order per partition.
        public var differences: [Difference] = []
        /// The rules this build decides with.
        public var rulesVersion = RecipeDecider.rulesVersion

        public init() {}

        /// How many differences go from each recorded outcome to each of today's (`accepted`, `rejected`, …).
        public var outcomeChanges: [OutcomeChange: Int] {
            differences.reduce(into: [:]) { $0[OutcomeChange(recorded: $1.recorded.name, today: $1.today.name), default: 0] += 1 }
        }

        /// Per rejection code, how many differences have it in the recorded decision and how many in today's.
        public var codes: [RejectionCode: CodeCount] {
            var codes: [RejectionCode: CodeCount] = [:]
            for difference in differences {
                if let code = difference.recorded.rejection?.code { codes[code, default: CodeCount()].recorded += 1 }
                if let code = difference.today.rejection?.code { codes[code, default: CodeCount()].today += 1 }
            }
            return codes
        }

        mutating func compare(_ recorded: DecisionRecord, with today: DecisionRecord) {
            compared += 1
            let aspects = Aspect.differing(recorded.outcome, today.outcome)
            guard !aspects.isEmpty else { return }
            differences.append(Difference(
                partition: recorded.partition, offset: recorded.offset, recipeID: recorded.recipeID ?? today.recipeID,
                commandID: recorded.commandID ?? today.commandID, commandKind: today.commandKind ?? recorded.commandKind,
                recorded: recorded.outcome, recordedRulesVersion: recorded.rulesVersion, today: today.outcome, aspects: aspects))
        }
    }

    /// One command whose decision today differs from the recorded one.
    public struct Difference: Sendable, Equatable {
        public var partition: Int32
        public var offset: Int64
        public var recipeID: String?
        public var commandID: String?
        /// The command's type as this build reads it (else as recorded); nil when neither decoded it.
        public var commandKind: RecipeCommand.Kind?
        public var recorded: DecisionRecord.Outcome
        /// The rules version of the build that made the recorded decision.
        public var recordedRulesVersion: Int
        public var today: DecisionRecord.Outcome
        public var aspects: [Aspect]

        /// `partition:offset` of the command.
        public var position: String { "\(partition):\(offset)" }
    }

    /// What of a decision is compared. The rejection's message is not: rewording it changes no outcome.
    public enum Aspect: String, Sendable, Equatable, CaseIterable {
        case outcome, code, events, revision

        static func differing(_ recorded: DecisionRecord.Outcome, _ today: DecisionRecord.Outcome) -> [Aspect] {
            allCases.filter { aspect in
                switch aspect {
                case .outcome: recorded.name != today.name
                case .code: recorded.rejection?.code != today.rejection?.code
                case .events: events(recorded) != events(today)
                case .revision: recorded.revision != today.revision
                }
            }
        }

        private static func events(_ outcome: DecisionRecord.Outcome) -> [RecipeEvent] {
            if case .accepted(let events, _) = outcome { return events }
            return []
        }
    }

    /// From a recorded outcome's name to today's.
    public struct OutcomeChange: Sendable, Hashable {
        public var recorded: String
        public var today: String

        public init(recorded: String, today: String) {
            self.recorded = recorded
            self.today = today
        }
    }

    /// Differences with a rejection code in the recorded decision, and in today's.
    public struct CodeCount: Sendable, Equatable {
        public var recorded = 0
        public var today = 0

        public init(recorded: Int = 0, today: Int = 0) {
            self.recorded = recorded
            self.today = today
        }
    }
}
