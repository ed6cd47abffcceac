import Foundation
import Kafka
import RecipeDomain
import RecipeWire

/// What a decider holds for one partition it decides: the state of every recipe
/// the partition's effective decisions made, the chain it writes, and how far the
/// decisions it wrote have been read back.
///
/// Made only by `rebuild(from:)` after reading the partition's decisions (so its
/// states and its chain start at the effective tail), under a name of its own: a
/// name writes each command once, and a partition rebuilt is decided under a new one.
struct PartitionDecider {
    let partition: Int32
    /// The name written in `decider`, new for every rebuild.
    let name: String
    private var recipes: [RecipeID: Recipe]
    /// The decision the next one follows: the last one written, or the effective tail adopted.
    private(set) var last: DecisionLink?
    /// The next command offset to decide.
    private(set) var nextCommand: Int64
    /// The chain as read back from the decisions topic, and where reading goes on.
    private var readBack: EffectiveDecisions
    private(set) var nextReadBack: Int64
    /// What it wrote and has not read back yet, oldest first from `firstUnread`: its own
    /// decisions are known by their bytes when they come back, not decoded again
    /// (decoding them was two fifths of the decider's time).
    private var unread: [Written] = []
    private var firstUnread = 0

    private struct Written {
        var value: [UInt8]
        var link: DecisionLink
        var follows: DecisionLink?
    }

    init(partition: Int32, rebuilt: RebuiltPartition) {
        self.partition = partition
        name = Self.newName()
        recipes = rebuilt.recipes
        last = rebuilt.effective.tails[partition]
        nextCommand = rebuilt.effective.nextCommandOffset(partition)
        readBack = rebuilt.effective
        nextReadBack = rebuilt.end
    }

    /// A fresh random name: 16 lowercase hex digits.
    static func newName() -> String {
        let text = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    // MARK: - Deciding

    /// Decides the next command of the partition, or nil for a record that is not
    /// next (one before `nextCommand`, left from before a seek).
    mutating func decide(_ record: KafkaConsumerRecord, judge: CommandJudge,
                         encoder: DecisionEncoder) -> (decision: DecisionRecord, value: [UInt8])? {
        guard record.offset >= nextCommand else { return nil }
        var decision = judge.decide(record, recipes: &recipes)
        decision.decider = name
        decision.follows = last
        let link = DecisionLink(decider: name, offset: record.offset)
        let value = encoder.encode(decision)
        unread.append(Written(value: value, link: link, follows: last))
        last = link
        nextCommand = record.offset + 1
        return (decision, value)
    }

    // MARK: - Reading back

    private static func same(_ bytes: [UInt8], _ other: UnsafeRawBufferPointer) -> Bool {
        bytes.count == other.count && bytes.withUnsafeBytes { memcmp($0.baseAddress!, other.baseAddress!, other.count) == 0 }
    }

    /// What a decision read back from the partition says about this decider's chain.
    enum ReadBack: Equatable {
        /// It confirms the chain, or does not touch it (another writer's decision that does not count).
        case onChain
        /// Another decider's decision counts where this one's would have, or one of this
        /// decider's decisions does not count: what it decides next would not count either.
        case lost
    }

    /// Applies the effective-decision rule to the next record read back at `offset`:
    /// its own decisions by their bytes, any other record as `decode` reads it.
    mutating func readBack(_ value: UnsafeRawBufferPointer, at offset: Int64, decode: () -> DecisionRecord?) -> ReadBack {
        guard offset >= nextReadBack else { return .onChain }
        nextReadBack = offset + 1
        if firstUnread < unread.count, Self.same(unread[firstUnread].value, value) {
            let written = unread[firstUnread]
            firstUnread += 1
            if firstUnread >= 4_096 {
                unread.removeFirst(firstUnread)
                firstUnread = 0
            }
            return readBack.admit(written.link, following: written.follows, onPartition: partition) ? .onChain : .lost
        }
        guard let decision = decode() else { return .onChain }
        let effective = readBack.admit(decision, onPartition: partition)
        let mine = decision.decider == name
        return effective == mine ? .onChain : .lost
    }
}

/// A partition's decisions read to the end: the effective chain and what it made.
struct RebuiltPartition {
    var recipes: [RecipeID: Recipe] = [:]
    var effective = EffectiveDecisions()
    /// The offset after the last decision read.
    var end: Int64 = 0
    /// Decisions read, effective or not.
    var read = 0

    /// Folds in the next decision read on `partition` when it is effective.
    mutating func add(_ decision: DecisionRecord?, partition: Int32, offset: Int64) {
        end = offset + 1
        read += 1
        guard let decision, effective.admit(decision, onPartition: partition) else { return }
        guard case .accepted(let events, _) = decision.outcome, let text = decision.recipeID, let commandID = decision.commandID,
              let recipeID = try? RecipeID(text) else { return }
        recipes[recipeID, default: Recipe(id: recipeID)].record(events, ofCommand: commandID)
    }
}
