import Foundation
import RecipeDomain
import RecipeWire

/// What a decider knew of one partition when it let it go, so that the next one to take the
/// partition reads its decisions from where this one stopped instead of from the start: the
/// state of every recipe the effective decisions up to `end` made, and the bytes of the
/// decision at `end - 1`. A later decider starts from the snapshot only when the decisions
/// topic holds those bytes at that offset: a new log, a log cut short or another cluster's
/// holds other ones there (every decision names its decider, a random name), and its
/// decisions are read from the start as without a snapshot.
struct PartitionSnapshot: Equatable {
    /// Raised with any change of what a snapshot holds, of its encoding (SnapshotCoding.swift)
    /// or of how events fold into a recipe's state (`Recipe+Evolve.swift`): a snapshot of
    /// another format, or made under other rules, is not read, and the decisions are read from
    /// the start once. (Format 1 was JSON, in `<topic>-<partition>.snapshot.json`.)
    static let currentFormat = 3

    /// The first bytes of a snapshot file.
    static let magic = Array("RLSNAP".utf8)

    var topic: String
    var partition: Int32
    /// The decisions offset it covers up to, exclusive.
    var end: Int64
    /// The decision at `end - 1`, as the topic holds it.
    var lastDecision: [UInt8]
    /// The last effective decision, `<decider>:<offset>`.
    var tail: String?
    /// In order of recipe id (so equal states are equal bytes).
    var recipes: [Recipe]
    /// The command offset of the last effective decision that changed each recipe's committed document.
    var changedAt: [RecipeID: Int64]

    /// Where the snapshot of `topic`'s `partition` lives in `folder`.
    static func path(_ folder: String, topic: String, partition: Int32) -> String {
        "\(folder)/\(topic)-\(partition).snapshot"
    }

    /// The snapshot kept for the partition, or nil when there is none, or none this build can use.
    static func read(_ folder: String, topic: String, partition: Int32) -> PartitionSnapshot? {
        guard let data = FileManager.default.contents(atPath: path(folder, topic: topic, partition: partition)),
              let snapshot = PartitionSnapshot(bytes: [UInt8](data)),
              snapshot.topic == topic, snapshot.partition == partition, snapshot.end > 0 else { return nil }
        return snapshot
    }

    /// Writes it in place of the one before, whole or not at all, private to its owner
    /// (`SnapshotFolder`); then deletes the partition's file of format 1, if one is left, which no
    /// build reads any more.
    func write(to folder: String) throws {
        if !FileManager.default.fileExists(atPath: folder) { try SnapshotFolder.makePrivate(folder) }
        let path = Self.path(folder, topic: topic, partition: partition)
        try SnapshotFolder.write(bytes, to: path)
        try? FileManager.default.removeItem(atPath: path + ".json")
    }

    /// The file's bytes.
    var bytes: [UInt8] {
        var writer = SnapshotWriter(magic: Self.magic, capacity: 64 * 1024)
        writer.integer(Self.currentFormat)
        writer.integer(RecipeDecider.rulesVersion)
        writer.string(topic)
        writer.integer(Int64(partition))
        writer.integer(end)
        writer.raw(lastDecision)
        writer.optional(tail) { $0.string($1) }
        writer.list(recipes) { $0.recipe($1) }
        writer.list(changedAt.sorted { $0.key < $1.key }) { writer, change in
            writer.string(change.key.text)
            writer.integer(change.value)
        }
        return writer.sealed()
    }

    /// A snapshot from a file's bytes; nil for one of another format or rules version, or any
    /// bytes out of place.
    init?(bytes: [UInt8]) {
        guard var reader = SnapshotReader(sealed: bytes, magic: Self.magic) else { return nil }
        do throws(SnapshotReader.Malformed) {
            guard try reader.int() == Self.currentFormat, try reader.int() == RecipeDecider.rulesVersion else { return nil }
            topic = try reader.string()
            guard let partition = Int32(exactly: try reader.integer()) else { return nil }
            self.partition = partition
            end = try reader.integer()
            lastDecision = try reader.raw()
            tail = try reader.optional { reader throws(SnapshotReader.Malformed) in try reader.string() }
            recipes = try reader.list { reader throws(SnapshotReader.Malformed) in try reader.recipe() }
            let changes = try reader.list { reader throws(SnapshotReader.Malformed) in
                guard let recipeID = try? RecipeID(try reader.string()) else { throw SnapshotReader.Malformed() }
                return (recipeID, try reader.integer())
            }
            guard reader.isAtEnd else { return nil }
            changedAt = Dictionary(changes) { first, _ in first }
        } catch {
            return nil
        }
    }

    init(topic: String, partition: Int32, end: Int64, lastDecision: [UInt8], tail: String?, recipes: [Recipe],
         changedAt: [RecipeID: Int64]) {
        self.topic = topic
        self.partition = partition
        self.end = end
        self.lastDecision = lastDecision
        self.tail = tail
        self.recipes = recipes
        self.changedAt = changedAt
    }

    /// The partition as its decisions up to `end` rebuild it; `editsEndBefore` as `RebuiltPartition` has it.
    func rebuilt(editsEndBefore: Int64) -> RebuiltPartition {
        var rebuilt = RebuiltPartition(editsEndBefore: editsEndBefore)
        for recipe in recipes { rebuilt.recipes[recipe.id] = recipe }
        rebuilt.changedAt = changedAt
        rebuilt.effective = EffectiveDecisions(tails: tail.flatMap(DecisionLink.init).map { [partition: $0] } ?? [:])
        rebuilt.end = end
        rebuilt.lastValue = lastDecision
        let next = rebuilt.effective.nextCommandOffset(partition)
        rebuilt.decidedOnLog = next <= editsEndBefore ? next : 0
        return rebuilt
    }
}
