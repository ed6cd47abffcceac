import Foundation
import Kafka
import RecipeDomain
import RecipeWire

/// What a decider holds for one partition it decides: the state of every recipe
/// the partition's effective decisions made, the chain it writes, how far the
/// decisions it wrote are known to have landed ("read back": by their delivery reports, or
/// fetched where another writer's records lie between), and the committed documents of its recipes.
///
/// Made only from a `RebuiltPartition`, after reading the partition's decisions (so
/// its states and its chain start at the effective tail), under a name of its own: a
/// name writes each command once, and a partition rebuilt is decided under a new one.
///
/// The committed topic: a document goes out only for a decision known to count (its own,
/// once read back on the chain; those read when rebuilt), never for one that may not.
/// What the topic's partition shows is compared with those documents when the partition
/// is taken (`reconcile`) and whenever a record lands (`committedLanded`), and what
/// differs is written again, so that the last record of each recipe is the document its
/// effective decisions make, whoever was killed or paused on the way.
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
    /// The decision at `nextReadBack - 1`, as read back.
    private var lastReadBack: [UInt8]
    /// Whether a decision read back said its chain no longer counts.
    private var lost = false
    /// The end of the snapshot kept of it, when that snapshot is of this state: a snapshot is
    /// written again only once reading back has gone past it.
    var keptSnapshotEnd: Int64?
    /// What it wrote and has not read back yet, oldest first from `firstUnread`: its own
    /// decisions are known by their bytes when they come back, not decoded again
    /// (decoding them was two fifths of the decider's time).
    private var unread: [Written] = []
    private var firstUnread = 0

    /// Each recipe's committed document as of the last decision known to count that changed it.
    private var committed: [RecipeID: CommittedRecipe]
    /// Each recipe's greatest position read on the committed topic's partition.
    private var newestOnTopic: [RecipeID: Int64] = [:]
    /// Recipes whose document in `committed` is to be written to the committed topic (`takeDocuments`):
    /// their ids, not copies of the documents, each of which would retain all its texts.
    private var toWrite: Set<RecipeID> = []
    /// Where reading the committed topic's partition goes on (set by `reconcile`).
    private(set) var nextCommittedReadBack: Int64 = 0

    private struct Written {
        var value: [UInt8]
        var link: DecisionLink
        var follows: DecisionLink?
        /// The document its decision makes, when it changes the recipe's; written once the decision is read back on the chain.
        var document: CommittedRecipe?
    }

    init(partition: Int32, rebuilt: RebuiltPartition) {
        self.partition = partition
        name = Self.newName()
        recipes = rebuilt.recipes
        last = rebuilt.effective.tails[partition]
        nextCommand = rebuilt.effective.nextCommandOffset(partition)
        readBack = rebuilt.effective
        nextReadBack = rebuilt.end
        lastReadBack = rebuilt.lastValue
        keptSnapshotEnd = rebuilt.snapshotEnd
        committed = rebuilt.changedAt.reduce(into: [:]) { documents, change in
            documents[change.key] = rebuilt.recipes[change.key].flatMap { CommittedRecipe($0, partition: partition, offset: change.value) }
        }
    }

    /// A fresh random name: 15 lowercase hex digits (60 random bits), so that it is a small
    /// string, held inline: every decision and every `follows` carries it, and one byte more put
    /// two allocations into reading each decision back.
    static func newName() -> String {
        let text = String(UInt64.random(in: 0 ..< 1 << 60), radix: 16)
        return String(repeating: "0", count: 15 - text.count) + text
    }

    // MARK: - Deciding

    /// Decides the partition's next command and encodes the decision: the value to append
    /// and the decision's outcome, or nil for a record that is not next (one before
    /// `nextCommand`, left from before a seek). Needs nothing of any other partition, so
    /// that the decider decides partitions on two threads.
    mutating func decide(_ record: KafkaBorrowedRecord, judge: CommandJudge,
                         encoder: DecisionEncoder) -> (value: [UInt8], outcome: DecisionRecord.Outcome)? {
        guard record.offset >= nextCommand else { return nil }
        // What was read back is dropped here, on a deciding thread (which frees its bytes where
        // they were allocated), not on the thread that reads back, which both deciding threads wait for.
        if firstUnread >= 1_024 {
            unread.removeFirst(firstUnread)
            firstUnread = 0
        }
        var decision = judge.decide(record, recipes: &recipes)
        decision.decider = name
        decision.follows = last
        let value = encoder.encode(decision)
        // Read back, its bytes say it is this one.
        unread.append(Written(value: value, link: DecisionLink(decider: name, offset: record.offset), follows: last,
                              document: committedDocument(after: decision)))
        last = DecisionLink(decider: name, offset: record.offset)
        nextCommand = record.offset + 1
        return (value, decision.outcome)
    }

    /// The recipe's document after `decision`, when the decision can change it.
    private func committedDocument(after decision: DecisionRecord) -> CommittedRecipe? {
        guard case .accepted(let events, _) = decision.outcome, CommittedRecipe.mayChange(by: events),
              let text = decision.recipeID, let recipeID = try? RecipeID(text), let recipe = recipes[recipeID] else { return nil }
        return CommittedRecipe(recipe, partition: partition, offset: decision.offset)
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

    /// Whether decisions it wrote have not been read back yet.
    var hasUnread: Bool { firstUnread < unread.count }

    /// Applies the effective-decision rule to the next record read back at `offset`:
    /// its own decisions by their bytes, any other record as `decode` reads it.
    mutating func readBack(_ value: UnsafeRawBufferPointer, at offset: Int64, decode: () -> DecisionRecord?) -> ReadBack {
        guard offset >= nextReadBack else { return .onChain }
        if firstUnread < unread.count, Self.same(unread[firstUnread].value, value) { return admitFirstUnread(at: offset) }
        nextReadBack = offset + 1
        lastReadBack = [UInt8](value)
        guard let decision = decode() else { return .onChain }
        let effective = readBack.admit(decision, onPartition: partition)
        let mine = decision.decider == name
        if effective != mine { lost = true }
        return effective == mine ? .onChain : .lost
    }

    /// What a delivery report of one of its decisions leaves to do.
    enum Landing: Equatable {
        /// Nothing: the decision is as read back, on the chain; or it was read back before.
        case settled
        /// What it decides next would not count (`ReadBack.lost`).
        case lost
        /// Records lie between what was read back and the decision: read back up to `end`.
        case gap(end: Int64)
    }

    /// The producer's report that its oldest decision on the way landed at `offset`. When that is
    /// the next offset to read back, nothing lies between it and what was read back: the
    /// decision is as read back, without fetching it. Else what lies between is to be read.
    mutating func landed(at offset: Int64) -> Landing {
        guard offset == nextReadBack, firstUnread < unread.count, !lost else {
            return offset >= nextReadBack ? .gap(end: offset + 1) : .settled
        }
        return admitFirstUnread(at: offset) == .lost ? .lost : .settled
    }

    /// Applies the effective-decision rule to its oldest decision on the way, found at `offset`.
    private mutating func admitFirstUnread(at offset: Int64) -> ReadBack {
        nextReadBack = offset + 1
        // Read where it lies, and what it keeps moved out: a copy of the whole `Written` (its
        // document's recipe content with it) would retain and release every text of the recipe.
        let index = firstUnread
        firstUnread += 1
        swap(&lastReadBack, &unread[index].value)
        guard readBack.admit(unread[index].link, following: unread[index].follows, onPartition: partition) else {
            lost = true
            return .lost
        }
        if let document = unread[index].document.take() { commit(document) }
        return .onChain
    }

    /// Whether it knows more than the snapshot kept of it: decisions read back since, or on their way.
    var isPastSnapshot: Bool { hasUnread || (nextReadBack > 0 && nextReadBack != keptSnapshotEnd) }

    /// What it knows of the partition up to `nextReadBack`, when that is what its effective
    /// decisions made: every decision it wrote read back on its chain, none found lost.
    /// Before then, its recipes hold the effects of decisions that may not count. Nil too
    /// when the snapshot kept is this one (`keptSnapshotEnd`).
    func snapshot(topic: String) -> PartitionSnapshot? {
        guard !lost, !hasUnread, nextReadBack > 0, nextReadBack != keptSnapshotEnd, last == readBack.tails[partition] else { return nil }
        return PartitionSnapshot(topic: topic, partition: partition, end: nextReadBack, lastDecision: lastReadBack,
                                 tail: last?.description, recipes: recipes.values.sorted { $0.id < $1.id },
                                 changedAt: committed.mapValues(\.offset))
    }

    // MARK: - The committed topic

    /// A decision that changed a recipe's document is known to count: its document is written.
    private mutating func commit(_ document: consuming CommittedRecipe) {
        toWrite.insert(document.recipeID)
        committed[document.recipeID] = document
    }

    /// Compares what the committed topic's partition shows (read from its start to `end` when
    /// the partition was taken) with the documents the effective decisions make, and writes
    /// again each one the topic lacks or shows older. A recipe whose last record is newer than
    /// this decider's document was written by a decider that is ahead (this one will find
    /// itself lost): left alone.
    mutating func reconcile(withTopic onTopic: [RecipeID: CommittedOnTopic], end: Int64) {
        nextCommittedReadBack = end
        newestOnTopic = onTopic.mapValues(\.newest)
        for (recipeID, document) in committed {
            let there = onTopic[recipeID]
            if document.offset >= there?.newest ?? -1, document.offset > there?.last ?? -1 { toWrite.insert(recipeID) }
        }
    }

    /// Notes the record read back at `offset` of the committed topic's partition. One that lands
    /// after a newer one of its recipe (a paused decider's, written late) would be what
    /// compaction keeps: the document as it stands is written again after it.
    mutating func committedLanded(key: [UInt8]?, position: (partition: Int32, offset: Int64)?, at offset: Int64) {
        guard offset >= nextCommittedReadBack else { return }
        nextCommittedReadBack = offset + 1
        guard let key, let recipeID = RecordKey.recipeID(fromKey: key), let position, position.partition == partition else { return }
        let newest = newestOnTopic[recipeID] ?? -1
        guard position.offset < newest else {
            newestOnTopic[recipeID] = position.offset
            return
        }
        if let current = committed[recipeID]?.offset, current >= newest { toWrite.insert(recipeID) }
    }

    /// The documents to write now, each recipe's newest (an earlier one not written yet is
    /// skipped: compaction would drop it anyway); emptied.
    mutating func takeDocuments() -> [CommittedRecipe] {
        defer { toWrite = [] }
        return toWrite.compactMap { committed[$0] }.sorted { $0.offset < $1.offset }
    }
}

/// A recipe's records on the committed topic's partition, as read when the partition is taken.
struct CommittedOnTopic {
    /// The position of its last record, which compaction keeps.
    var last: Int64 = -1
    /// The greatest position among its records.
    var newest: Int64 = -1

    mutating func add(_ position: Int64) {
        last = position
        newest = max(newest, position)
    }
}

/// A partition's decisions read to the end: the effective chain and what it made.
struct RebuiltPartition {
    var recipes: [RecipeID: Recipe] = [:]
    /// The command offset of the last effective decision that changed each recipe's committed document.
    var changedAt: [RecipeID: Int64] = [:]
    var effective = EffectiveDecisions()
    /// The offset after the last decision read.
    var end: Int64 = 0
    /// The decision at `end - 1`, as the topic holds it (for a snapshot).
    var lastValue: [UInt8] = []
    /// The end of the snapshot it was taken from, when no decision after it was read.
    var snapshotEnd: Int64?
    /// Decisions read, effective or not.
    var read = 0
    /// The end of the edits partition asked before its decisions were read: a command before it is on the log.
    let editsEndBefore: Int64
    /// The command after the last effective decision of a command before `editsEndBefore`, up to the
    /// first `skip`: where what is known decided ends, should later decisions claim commands past
    /// the log or skip some (`DeciderState`).
    var decidedOnLog: Int64 = 0
    /// The first effective decision that skips commands where the chain passes from one writer to
    /// another: the commands skipped (`from..<to`) and its writer. A decider decides every command in
    /// order, and takes a chain over at its next command, so that is a decision not a decider's
    /// (appended by hand), which no one would ever decide the skipped commands after. (One writer's
    /// own decisions skip only offsets the edits partition holds no command at.)
    var skip: (from: Int64, to: Int64, decider: String)?

    init(editsEndBefore: Int64 = .max) {
        self.editsEndBefore = editsEndBefore
    }

    /// Folds in the next decision read on `partition`, whose bytes are `value`, when it is effective.
    mutating func add(_ decision: DecisionRecord?, value: [UInt8], partition: Int32, offset: Int64) {
        end = offset + 1
        snapshotEnd = nil
        lastValue = value
        read += 1
        let (next, writer) = (effective.nextCommandOffset(partition), effective.tails[partition]?.decider)
        guard let decision, effective.admit(decision, onPartition: partition) else { return }
        if skip == nil, decision.offset > next, decision.decider != writer {
            skip = (next, decision.offset, decision.decider ?? "")
        }
        if skip == nil, decision.offset < editsEndBefore { decidedOnLog = decision.offset + 1 }
        guard case .accepted(let events, _) = decision.outcome, let text = decision.recipeID, let commandID = decision.commandID,
              let recipeID = try? RecipeID(text) else { return }
        recipes[recipeID, default: Recipe(id: recipeID)].record(events, ofCommand: commandID)
        if CommittedRecipe.mayChange(by: events) { changedAt[recipeID] = decision.offset }
    }
}
