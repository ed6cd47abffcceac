import CSQLite
import Foundation
import RecipeDomain
import RecipeWire
import Threads

/// Answers queries from a store that a projector keeps current: the recipes
/// list, details (any version, scaled), drafts, history, rejections and the
/// stored positions. Any number of readers may run beside the one writer.
///
/// Threads: safe from any thread. Each read takes a connection of its own for its one
/// snapshot (`ReadConnections`, up to `readers` of them), so reads run side by side.
public final class ReadModel: @unchecked Sendable {
    /// The connection `dataVersion` asks, always the same one (the version is per connection);
    /// used only while holding `lock` (hence `@unchecked`).
    private let versionProbe: SQLiteConnection
    private let lock = Locked(())
    private let readers: ReadConnections
    let commits: CommitSignal?
    /// Where the log ends, when this process can ask the brokers (the service sets it):
    /// what tells a position not on the log yet from one the store lags behind.
    public let logEndSource: LogEndSource?

    /// Connections reads may hold at once unless told otherwise: past the cores of a small
    /// server, so that a read descheduled mid-query holds up no other.
    public static let defaultReaders = 4

    /// Opens a store; it must exist (a projector creates it).
    /// - Parameter commits: the signal of the projector that writes the store in this
    ///   process (`Projector.commits`): waits for positions are woken by its commits.
    ///   Without it another process writes the store, and waits poll for changes.
    /// - Parameter readers: how many reads may run at once, each on a connection of its own.
    public init(path: String, commits: CommitSignal? = nil, logEnds: LogEndSource? = nil, readers: Int = ReadModel.defaultReaders) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.missing(path: path)
        }
        self.commits = commits
        logEndSource = logEnds
        let first = try SQLiteConnection(path: path)
        let version = try StoreSchema.installedVersion(first)
        if version > StoreSchema.version { throw StoreError.newerSchema(found: version, supported: StoreSchema.version) }
        if version == 0 { throw StoreError.corrupted("\(path) is not a recipes store") }
        versionProbe = first
        self.readers = ReadConnections(path: path, limit: max(1, readers))
    }

    /// Runs `body` in one read transaction (one snapshot) on a connection it holds alone: the
    /// one its thread holds in `withoutWaiting`, or one taken for it.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if let held = readers.heldByThisThread() {
            do {
                return try held.transaction(writing: false) { try body(held) }
            } catch let error as SQLiteError where error.isBusy {
                throw ReadWouldWait()
            }
        }
        let loan = try readers.take()
        defer { readers.giveBack(loan) }
        let db = loan.connection
        return try db.transaction(writing: false) { try body(db) }
    }

    /// Runs `body` so that every read it makes on this thread answers without waiting: on a
    /// connection idle now, held for all of them, which gives up (`ReadWouldWait`) rather than
    /// wait for a lock another connection holds. Nil, without running `body`, when no connection
    /// is idle. For a thread that must not block (the HTTP server's polling threads): what is
    /// left is the work of the reads themselves, and reading the store's pages.
    public func withoutWaiting<T>(_ body: () throws -> T) throws -> T? {
        try readers.holdingIdle(body)
    }

    // MARK: - Positions

    /// The next command offset of every partition whose decisions the store has read:
    /// positions of the edits log, which a POST answers and `after=` takes.
    public func positions() throws -> [Int32: Int64] {
        try read { db in
            try db.statement("SELECT partition, coalesce(next_command, 0) FROM positions").rows { (Int32($0.int(0)), $0.int64(1)) }
                .reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    /// The next offset of every partition of the decisions topic the store has read.
    public func decisionPositions() throws -> [Int32: Int64] {
        try read { db in
            try db.statement("SELECT partition, next_offset FROM positions").rows { (Int32($0.int(0)), $0.int64(1)) }
                .reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    /// Whether the store has applied the record at each `partition: offset`.
    public func hasReached(_ positions: [Int32: Int64]) throws -> Bool {
        let stored = try self.positions()
        return positions.allSatisfy { partition, offset in (stored[partition] ?? 0) > offset }
    }

    /// Waits until the store has applied every given position; false if `deadline` passed
    /// first. Blocks the calling thread.
    public func waitUntilReached(_ positions: [Int32: Int64], deadline: ContinuousClock.Instant) throws -> Bool {
        if let commits {
            return try commits.wait(until: { try hasReached(positions) }, deadline: deadline)
        }
        // Another process commits, and SQLite notifies no one: ask whether the file
        // changed (cheap, no read of the store) with a growing pause, and read the
        // positions again only when it did.
        var version = try dataVersion()
        if try hasReached(positions) { return true }
        var pause = Duration.milliseconds(1)
        while ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: min(pause, deadline - .now).seconds)
            let now = try dataVersion()
            if now == version {
                pause = min(pause * 2, .milliseconds(50))
                continue
            }
            version = now
            pause = .milliseconds(1)
            if try hasReached(positions) { return true }
        }
        return false
    }

    /// Changes whenever another connection commits to the store (`PRAGMA data_version`).
    func dataVersion() throws -> Int64 {
        try lock.withLock { _ in
            let statement = try versionProbe.statement("PRAGMA data_version")
            defer { statement.reset() }
            guard try statement.step() else { throw StoreError.corrupted("PRAGMA data_version answered nothing") }
            return statement.int64(0)
        }
    }

    // MARK: - Recipes

    /// Committed, not deleted recipes in title order; `tag` matches a tag name
    /// (case and `@` ignored), `query` a part of the title (case ignored).
    /// With `visibleTo`, only the recipes that actor owns or holds a grant on.
    public func list(tag: String? = nil, query: String? = nil, limit: Int = 50, cursor: String? = nil,
                     visibleTo actor: String? = nil) throws -> RecipeList {
        var after = ("", "")
        if let cursor {
            guard let decoded = ListCursor.decode(cursor) else { throw QueryError.badCursor }
            after = decoded
        }
        var sql = "SELECT r.recipe_id, r.title, r.latest_version, r.servings, r.tags, r.ingredient_count, r.image, r.updated_at, r.title_key FROM recipes r"
        var values: [SQLiteValue?] = []
        if let tag {
            sql += " JOIN recipe_tags t ON t.recipe_id = r.recipe_id AND t.tag = ?"
            values.append(.text(ListOrder.tagKey(tag)))
        }
        sql += " WHERE r.listed = 1 AND (r.title_key, r.recipe_id) > (?, ?)"
        values += [.text(after.0), .text(after.1)]
        if let query, !query.isEmpty {
            sql += " AND instr(r.title_key, ?) > 0"
            values.append(.text(ListOrder.titleKey(query)))
        }
        if let actor {
            sql += " AND " + Self.recipe("r", isVisibleTo: "?")
            values += [.text(actor), .text(actor)]
        }
        sql += " ORDER BY r.title_key, r.recipe_id LIMIT ?"
        values.append(.int(limit + 1))
        return try read { db in
            let statement = try db.statement(sql)
            for (index, value) in values.enumerated() { statement.bind(value, at: Int32(index + 1)) }
            var rows = try statement.rows { row in
                (RecipeSummary(id: row.text(0), title: row.text(1), version: row.int(2), servings: row.optionalInt(3),
                               tags: try Self.tags(fromJSON: row.text(4)), ingredientCount: row.int(5),
                               image: row.optionalText(6), updatedAt: Self.time(row.int64(7))), row.text(8))
            }
            var next: String?
            if rows.count > limit {
                rows.removeLast()
                next = rows.last.map { ListCursor.encode(titleKey: $0.1, id: $0.0.id) }
            }
            return RecipeList(items: rows.map(\.0), nextCursor: next)
        }
    }

    /// A committed version (the latest by default), scaled for `guests` when given,
    /// its quantities written in `units` when given (for display: the stored
    /// amounts never change). Scaling comes first, so both give what a cook
    /// would get by scaling the recipe as written and then converting.
    public func detail(_ id: RecipeID, version: Int? = nil, guests: Int? = nil, units: UnitSystem? = nil) throws -> RecipeDetail {
        try read { db in
            let header = try db.statement("SELECT deleted, latest_version, draft_base FROM recipes WHERE recipe_id = ?").bind(.id(id))
            guard try header.step(), header.int(1) > 0 else { throw QueryError.notFound(id.text) }
            if header.int(0) != 0 { throw QueryError.deleted(id.text) }
            let number = version ?? header.int(1)
            let hasDraft = !header.isNull(2)
            let row = try db.statement("SELECT content, saved_at, saved_by FROM versions WHERE recipe_id = ? AND version = ?")
                .bind(.id(id), .int(number))
            guard try row.step() else { throw QueryError.noSuchVersion(id.text, number) }
            var content = try ContentCoding.content(fromJSON: row.text(0))
            if let guests {
                do {
                    content.ingredients = try content.scaledIngredients(forGuests: guests)
                } catch let error as ScalingError {
                    throw QueryError.cannotScale(Self.scalingMessage(error, id: id.text))
                }
            }
            if let units { content.ingredients = content.ingredients(convertedTo: units) }
            return RecipeDetail(id: id.text, version: number, content: content, guests: guests, units: units,
                                updatedAt: Self.time(row.int64(1)), savedBy: row.text(2), hasDraft: hasDraft)
        }
    }

    // MARK: - Drafts

    public func draft(_ id: RecipeID) throws -> DraftView {
        try read { db in
            let row = try db.statement("""
                SELECT recipe_id, content, base_version, revision, updated_at, last_rejection FROM drafts WHERE recipe_id = ?
                """).bind(.id(id))
            guard try row.step() else {
                let known = try db.statement("SELECT deleted FROM recipes WHERE recipe_id = ?").bind(.id(id))
                guard try known.step() else { throw QueryError.notFound(id.text) }
                throw known.int(0) != 0 ? QueryError.deleted(id.text) : QueryError.noDraft(id.text)
            }
            return try Self.draft(row)
        }
    }

    /// Every open draft, most recently edited first, as summaries; with `visibleTo`, those of
    /// recipes that actor owns or holds a grant on.
    public func drafts(limit: Int = 100, visibleTo actor: String? = nil) throws -> [DraftSummary] {
        // The summary columns, ahead of the content in each row: no content is read.
        let columns = """
            d.recipe_id, d.title, d.ingredient_count, d.instruction_count, d.base_version, d.revision, d.updated_at, d.last_rejection
            """
        let order = "ORDER BY d.updated_at DESC, d.recipe_id LIMIT ?1"
        return try read { db in
            let statement = if let actor {
                try db.statement("""
                    SELECT \(columns) FROM drafts d JOIN recipes r ON r.recipe_id = d.recipe_id
                    WHERE \(Self.recipe("r", isVisibleTo: "?2")) \(order)
                    """).bind(.int(limit), .text(actor))
            } else {
                try db.statement("SELECT \(columns) FROM drafts d \(order)").bind(.int(limit))
            }
            return try statement.rows { row in
                let (title, ingredients) = (row.text(1), row.int(2))
                return DraftSummary(id: row.text(0), title: title, ingredientCount: ingredients, instructionCount: row.int(3),
                                    revision: row.int(5), baseVersion: row.int(4),
                                    missing: DraftView.missing(title: title, ingredientCount: ingredients),
                                    lastRejection: try DraftView.lastRejection(fromJSON: row.optionalText(7)),
                                    updatedAt: Self.time(row.int64(6)))
            }
        }
    }

    // MARK: - Access

    /// Whether the `recipes` row `alias` may be seen by the actor bound at `parameter` (`?`
    /// twice, or a numbered one): it owns the recipe or holds a grant on it. The rule of
    /// `visibleTo` for every query, as `RecipeAccessView.isVisible(to:)` is for one recipe.
    private static func recipe(_ alias: String, isVisibleTo parameter: String) -> String {
        "(\(alias).owner = \(parameter) OR EXISTS (SELECT 1 FROM json_each(\(alias).grants) g WHERE g.key = \(parameter)))"
    }

    /// The recipe's owner and grants, or nil when the log never touched it.
    public func access(_ id: RecipeID) throws -> RecipeAccessView? {
        try read { db in
            let row = try db.statement("SELECT owner, grants FROM recipes WHERE recipe_id = ?").bind(.id(id))
            guard try row.step() else { return nil }
            let grants = try ContentCoding.grants(fromJSON: row.optionalText(1))
            return RecipeAccessView(owner: row.optionalText(0),
                                    grants: Dictionary(uniqueKeysWithValues: grants.map { ($0.actor, $0.role.rawValue) }))
        }
    }

    private static func draft(_ row: SQLiteStatement) throws -> DraftView {
        try DraftView(id: row.text(0), content: ContentCoding.content(fromJSON: row.text(1)), baseVersion: row.int(2),
                      revision: row.int(3), lastRejectionJSON: row.optionalText(5), updatedAt: row.int64(4))
    }

    // MARK: - History and rejections

    /// Every record of the recipe in log order, with its outcome.
    public func history(_ id: RecipeID) throws -> RecipeHistory {
        try read { db in
            let items = try db.statement("""
                SELECT \(Self.historyColumns.joined(separator: ", ")) FROM history WHERE recipe_id = ? ORDER BY offset
                """).bind(.id(id)).rows { try Self.historyItem($0) }
            if items.isEmpty { throw QueryError.notFound(id.text) }
            return RecipeHistory(items: items)
        }
    }

    /// The outcome of the record at a position, once the store has it. Looked
    /// up by position: quick for recent records, which is what it is asked for
    /// (the outcome of an append).
    public func outcome(partition: Int32, offset: Int64) throws -> HistoryItem? {
        try read { db in
            // The chunks' own columns and indexes, not the view: the view cannot use them.
            let columns = Self.historyColumns.map { $0 == "partition" ? "c.partition" : HistoryChunk.member($0) }
            let row = try db.statement("""
                SELECT \(columns.joined(separator: ", ")) FROM history_chunks c, json_each(c.entries) e
                WHERE c.partition = ?1 AND c.last_offset >= ?2 AND c.first_offset <= ?2 AND \(HistoryChunk.member("offset")) = ?2
                """).bind(.int(Int(partition)), .integer(offset))
            guard try row.step() else { return nil }
            return try Self.historyItem(row)
        }
    }

    /// The columns of the `history` view that `historyItem` reads, in its order.
    static let historyColumns = ["partition", "offset", "time", "actor", "type", "command_id", "outcome",
                                         "reason_code", "reason_message", "revision", "actor_role", "rules_version"]

    static func historyItem(_ row: SQLiteStatement) throws -> HistoryItem {
        guard let outcome = RecordOutcome(rawValue: row.text(6)) else {
            throw StoreError.corrupted("history entry at \(row.int(0)):\(row.int64(1)) has the outcome \(row.text(6))")
        }
        return HistoryItem(position: "\(row.int(0)):\(row.int64(1))", time: row.isNull(2) ? nil : time(row.int64(2)),
                           actor: row.optionalText(3), type: row.text(4), commandId: row.optionalText(5),
                           outcome: outcome, reason: reason(row, 7), revision: row.optionalInt(9),
                           actorRole: row.optionalText(10), rulesVersion: row.optionalInt(11))
    }

    /// The most recent rejected or undecodable records, newest first; with `visibleTo`, only
    /// those keyed by a recipe that actor owns or holds a grant on (none without a key).
    public func rejections(limit: Int = 100, visibleTo actor: String? = nil) throws -> [RejectionItem] {
        try read { db in
            let columns = "j.partition, j.offset, j.key, j.command_id, j.type, j.reason_code, j.reason_message"
            let order = "ORDER BY j.log_time DESC, j.partition, j.offset DESC LIMIT ?1"
            let statement = if let actor {
                try db.statement("""
                    SELECT \(columns) FROM rejections j JOIN recipes r ON r.recipe_id = j.key
                    WHERE \(Self.recipe("r", isVisibleTo: "?2")) \(order)
                    """).bind(.int(limit), .text(actor))
            } else {
                try db.statement("SELECT \(columns) FROM rejections j \(order)").bind(.int(limit))
            }
            return try statement.rows { row in
                RejectionItem(position: "\(row.int(0)):\(row.int64(1))", key: row.optionalText(2),
                              commandId: row.optionalText(3), type: row.text(4),
                              reason: ReasonView(code: row.text(5), message: row.text(6)))
            }
        }
    }

    // MARK: - Conversions

    static func time(_ milliseconds: Int64) -> String {
        RFC3339.string(Timestamp(millisecondsSinceEpoch: milliseconds))
    }

    /// A list entry's tags as the projector wrote them (`ContentCoding.json(_:)`).
    static func tags(fromJSON text: String) throws -> [TagView] {
        var text = text
        let read = text.withUTF8 { utf8 in
            Result { () throws(ContentJSON.ReadError) in try ContentJSON.readTags(UnsafeRawBufferPointer(utf8), .stored) }
        }
        switch read {
        case .success(let tags): return tags.map(TagView.init)
        case .failure(let error): throw StoreError.corrupted("recipe tags: \(error.message)")
        }
    }

    static func reason(_ row: SQLiteStatement, _ column: Int32) -> ReasonView? {
        row.isNull(column) ? nil : ReasonView(code: row.text(column), message: row.text(column + 1))
    }

    static func scalingMessage(_ error: ScalingError, id: String) -> String {
        switch error {
        case .recipeHasNoServings: "recipe \(id) has no servings, so it cannot be scaled for guests"
        case .guestsOutOfRange(let guests):
            "guests must be in \(RecipeLimits.guests.lowerBound)…\(RecipeLimits.guests.upperBound), got \(guests)"
        }
    }
}

/// A list cursor: the title key and id of the last item returned, joined by a NUL, as
/// unpadded base64url. Opaque to clients, but every string of its form (`form`) is one: it
/// decodes to a place in the list's order, so a cursor made up only starts the page
/// elsewhere. The contract can then say what a cursor is, and the server answers every
/// cursor of that form.
enum ListCursor {
    /// Room for the longest title key and id, several times over.
    static let maxLength = 4096

    static func encode(titleKey: String, id: String) -> String {
        Data((titleKey + "\u{0}" + id).utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The place a cursor stands for; nil for a string not of the form. Bits past the last
    /// whole byte are dropped; bytes that are not UTF-8 read as U+FFFD; without a NUL the
    /// whole is a title key, before every id.
    static func decode(_ cursor: String) -> (String, String)? {
        guard cursor.utf8.count <= maxLength else { return nil }
        var letters = Array(cursor.utf8)
        while letters.last == UInt8(ascii: "=") && letters.count > cursor.utf8.count - 2 { letters.removeLast() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(letters.count * 3 / 4)
        var bits: UInt32 = 0, count = 0
        for letter in letters {
            guard let value = sextet(letter) else { return nil }
            bits = bits << 6 | UInt32(value)
            count += 6
            if count >= 8 {
                count -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count == 2 ? String(parts[1]) : "")
    }

    private static func sextet(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): letter - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): letter - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): letter - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}

// MARK: - The log

extension ReadModel {
    /// The log the store is built from and the heads it lacks, nil before its first projection.
    public func storeLog() throws -> StoreLog? {
        try read { db in try StoreLog.read(from: db) }
    }
}

/// A read inside `ReadModel.withoutWaiting` that would have to wait for a lock: make it again
/// where waiting is allowed.
public struct ReadWouldWait: Error, Sendable {
    public init() {}
}

extension SQLiteError {
    /// Another connection holds a lock this statement needs (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }
}
