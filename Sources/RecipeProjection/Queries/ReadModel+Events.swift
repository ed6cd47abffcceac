import Foundation
import RecipeDomain
import RecipeWire

/// One decision of the history as event streams send it: its entry and the recipe it names.
public struct StreamedDecision: Sendable, Equatable {
    public var recipeID: String?
    public var partition: Int32
    public var offset: Int64
    public var item: HistoryItem

    public init(recipeID: String?, partition: Int32, offset: Int64, item: HistoryItem) {
        (self.recipeID, self.partition, self.offset, self.item) = (recipeID, partition, offset, item)
    }
}

/// What a stream needs of a recipe as the store has it now: whether the caller may see it, whether
/// a filtered list shows it, and the summary an event carries.
public struct RecipeStreamState: Sendable, Equatable {
    public var id: String
    public var title: String?
    /// The latest committed version; 0 before the first save.
    public var version: Int
    public var revision: Int
    public var deleted: Bool
    /// Shown by the list (committed, not deleted).
    public var listed: Bool
    /// The open draft's revision and title, nil without a draft.
    public var draftRevision: Int?
    public var draftTitle: String?
    public var tags: [TagView]
    public var access: RecipeAccessView
    public var updatedAt: String?
    /// The tag keys (`ListOrder.tagKey`) and title key the list filters on.
    let tagKeys: Set<String>
    let titleKey: String

    /// Whether `GET /v1/recipes?tag=&q=` would show it (visibility aside).
    public func isListed(tag: String?, query: String?) -> Bool {
        guard listed else { return false }
        if let tag, !tagKeys.contains(ListOrder.tagKey(tag)) { return false }
        if let query, !query.isEmpty, !titleKey.contains(ListOrder.titleKey(query)) { return false }
        return true
    }
}

extension ReadModel {
    /// Where the history ends now: the last chunk committed. Decisions committed later are
    /// `decisions(afterChunk:)` of it.
    public func historyMark() throws -> Int64 {
        try read { db in
            let row = try db.statement("SELECT coalesce(max(chunk), 0) FROM history_chunks")
            guard try row.step() else { return 0 }
            return row.int64(0)
        }
    }

    /// The decisions committed after `mark` (a `historyMark`), in commit order, at most
    /// `maxChunks` transactions' chunks of them, and the mark they reach.
    public func decisions(afterChunk mark: Int64, maxChunks: Int = 1000) throws -> (decisions: [StreamedDecision], mark: Int64) {
        try read { db in
            let columns = Self.historyColumns.map { $0 == "partition" ? "c.partition" : HistoryChunk.member($0) }
            let rows = try db.statement("""
                SELECT \(columns.joined(separator: ", ")), c.chunk, c.recipe_id FROM history_chunks c, json_each(c.entries) e
                WHERE c.chunk IN (SELECT chunk FROM history_chunks WHERE chunk > ?1 ORDER BY chunk LIMIT ?2)
                ORDER BY c.chunk, e.key
                """).bind(.integer(mark), .int(maxChunks))
            var reached = mark
            var decisions: [StreamedDecision] = []
            while try rows.step() {
                reached = max(reached, rows.int64(12))
                decisions.append(StreamedDecision(recipeID: rows.optionalText(13), partition: Int32(rows.int(0)),
                                                  offset: rows.int64(1), item: try Self.historyItem(rows)))
            }
            return (decisions, reached)
        }
    }

    /// The decisions of `partition` after `offset`, in log order, at most `limit`.
    public func decisions(partition: Int32, after offset: Int64, limit: Int) throws -> [StreamedDecision] {
        try read { db in
            let columns = Self.historyColumns.map { $0 == "partition" ? "c.partition" : HistoryChunk.member($0) }
            let rows = try db.statement("""
                SELECT \(columns.joined(separator: ", ")), c.recipe_id FROM history_chunks c, json_each(c.entries) e
                WHERE c.partition = ?1 AND c.last_offset > ?2 AND \(HistoryChunk.member("offset")) > ?2
                ORDER BY \(HistoryChunk.member("offset")) LIMIT ?3
                """).bind(.int(Int(partition)), .integer(offset), .int(limit))
            var decisions: [StreamedDecision] = []
            while try rows.step() {
                decisions.append(StreamedDecision(recipeID: rows.optionalText(12), partition: Int32(rows.int(0)),
                                                  offset: rows.int64(1), item: try Self.historyItem(rows)))
            }
            return decisions
        }
    }

    /// The stream state of each recipe named that the store knows.
    public func streamStates(_ ids: [String]) throws -> [String: RecipeStreamState] {
        try read { db in
            let row = try db.statement("""
                SELECT r.recipe_id, r.title, r.latest_version, r.revision, r.deleted, r.listed, r.tags, r.owner, r.grants,
                    r.updated_at, r.title_key, (SELECT d.revision FROM drafts d WHERE d.recipe_id = r.recipe_id),
                    (SELECT json_group_array(t.tag) FROM recipe_tags t WHERE t.recipe_id = r.recipe_id),
                    (SELECT d.title FROM drafts d WHERE d.recipe_id = r.recipe_id)
                FROM recipes r WHERE r.recipe_id = ?
                """)
            var states: [String: RecipeStreamState] = [:]
            for id in Set(ids) {
                row.reset()
                row.bind(.text(id), at: 1)
                guard try row.step() else { continue }
                let grants = try ContentCoding.grants(fromJSON: row.optionalText(8))
                let tagKeys = try JSONDecoder().decode([String].self, from: Data((row.optionalText(12) ?? "[]").utf8))
                states[id] = RecipeStreamState(
                    id: id, title: row.optionalText(1), version: row.int(2), revision: row.int(3), deleted: row.int(4) != 0,
                    listed: row.int(5) != 0, draftRevision: row.optionalInt(11), draftTitle: row.optionalText(13),
                    tags: try row.optionalText(6).map { try Self.tags(fromJSON: $0) } ?? [],
                    access: RecipeAccessView(owner: row.optionalText(7),
                                             grants: Dictionary(uniqueKeysWithValues: grants.map { ($0.actor, $0.role.rawValue) })),
                    updatedAt: row.isNull(9) ? nil : Self.time(row.int64(9)), tagKeys: Set(tagKeys), titleKey: row.optionalText(10) ?? "")
            }
            return states
        }
    }

    /// Blocks until the store may have changed since `seen` (a count from `changeCount`) or
    /// `deadline` passes, and answers the count then. Woken by this process's projector when it
    /// has one (once it has stopped, only the deadline ends the wait), else it looks at the file
    /// every 50 ms.
    public func waitForChange(after seen: Int64, deadline: ContinuousClock.Instant) throws -> Int64 {
        if let commits {
            // False before the deadline: the projector stopped, and no commit will come.
            if !commits.waitForCommit(after: UInt64(seen), deadline: deadline), ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: (deadline - .now).seconds)
            }
            return Int64(commits.count)
        }
        while ContinuousClock.now < deadline {
            let now = try dataVersion()
            if now != seen { return now }
            Thread.sleep(forTimeInterval: min(Duration.milliseconds(50), deadline - .now).seconds)
        }
        return try dataVersion()
    }

    /// What `waitForChange` compares: the commits of this process's projector, or the file's version.
    public func changeCount() throws -> Int64 {
        if let commits { return Int64(commits.count) }
        return try dataVersion()
    }
}
