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
struct PartitionSnapshot: Codable, Equatable {
    /// Raised with any change of what a snapshot holds or of how events fold into a recipe's
    /// state (`Recipe+Evolve.swift`): a snapshot of another format, or made under other rules,
    /// is not read, and the decisions are read from the start once.
    static let currentFormat = 1

    var format = Self.currentFormat
    var rulesVersion = RecipeDecider.rulesVersion
    var topic: String
    var partition: Int32
    /// The decisions offset it covers up to, exclusive.
    var end: Int64
    /// The decision at `end - 1`, as the topic holds it.
    var lastDecision: Data
    /// The last effective decision, `<decider>:<offset>`.
    var tail: String?
    var recipes: [RecipeState]
    /// The command offset of the last effective decision that changed each recipe's committed
    /// document, by recipe id.
    var changedAt: [String: Int64]

    /// A recipe's state, as `Recipe`'s restoring initializer takes it.
    struct RecipeState: Codable, Equatable {
        var id: RecipeID
        var versions: [RecipeVersion]
        var draft: RecipeDraft?
        var revision: Int
        var isDeleted: Bool
        var appliedCommandIDs: [String]
        var owner: String?
        var grants: [AccessGrant]

        init(_ recipe: Recipe) {
            id = recipe.id
            versions = recipe.versions
            draft = recipe.draft
            revision = recipe.revision
            isDeleted = recipe.isDeleted
            appliedCommandIDs = recipe.appliedCommandIDs
            owner = recipe.owner
            grants = recipe.grants
        }

        var recipe: Recipe {
            Recipe(id: id, versions: versions, draft: draft, revision: revision, isDeleted: isDeleted,
                   appliedCommandIDs: appliedCommandIDs, owner: owner, grants: grants)
        }
    }

    /// Where the snapshot of `topic`'s `partition` lives in `folder`.
    static func path(_ folder: String, topic: String, partition: Int32) -> String {
        "\(folder)/\(topic)-\(partition).snapshot.json"
    }

    /// The snapshot kept for the partition, or nil when there is none, or none this build can use.
    static func read(_ folder: String, topic: String, partition: Int32) -> PartitionSnapshot? {
        guard let data = FileManager.default.contents(atPath: path(folder, topic: topic, partition: partition)),
              let snapshot = try? JSONDecoder().decode(PartitionSnapshot.self, from: data),
              snapshot.format == currentFormat, snapshot.rulesVersion == RecipeDecider.rulesVersion,
              snapshot.topic == topic, snapshot.partition == partition, snapshot.end > 0 else { return nil }
        return snapshot
    }

    /// Writes it in place of the one before, whole or not at all.
    func write(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try JSONEncoder().encode(self).write(to: URL(fileURLWithPath: Self.path(folder, topic: topic, partition: partition)),
                                             options: .atomic)
    }

    /// The partition as its decisions up to `end` rebuild it.
    var rebuilt: RebuiltPartition {
        var rebuilt = RebuiltPartition()
        for state in recipes { rebuilt.recipes[state.id] = state.recipe }
        for (text, offset) in changedAt {
            if let recipeID = try? RecipeID(text) { rebuilt.changedAt[recipeID] = offset }
        }
        rebuilt.effective = EffectiveDecisions(tails: tail.flatMap(DecisionLink.init).map { [partition: $0] } ?? [:])
        rebuilt.end = end
        rebuilt.lastValue = [UInt8](lastDecision)
        return rebuilt
    }
}
