import Kafka
import RecipeDomain
import RecipeWire

/// Folds batches of records into the store, one SQLite transaction per batch:
/// the changed read-model rows and the next offset of every partition it
/// consumed commit together, so a projector killed at any instant resumes
/// exactly after its last transaction.
///
/// Two halves that may run on two threads (the projector pipelines them):
/// `judge` and `remember` fold records against the cache and the committed
/// store (through `reader`); `commit` writes a judged batch (through `db`).
/// Each half is used by one thread at a time.
final class ProjectionWriter {
    /// The write connection: only `commit` and `project` use it.
    let db: SQLiteConnection
    /// Reads committed state (positions, recipes to load) beside a commit in progress.
    private let reader: SQLiteConnection
    let topic: String
    /// Recipes as of the last batch judged. Bounded: cleared when it grows past
    /// `cacheLimit` (only between batches, once they are committed), so memory
    /// does not grow with the log.
    private var cache: [String: ProjectedRecipe] = [:]
    private let cacheLimit: Int

    init(path: String, topic: String, cacheLimit: Int = 20_000) throws {
        db = try SQLiteConnection(path: path)
        try StoreSchema.migrate(db)
        reader = try SQLiteConnection(path: path)
        self.topic = topic
        self.cacheLimit = cacheLimit
    }

    /// Forgets cached recipes: another process may have changed them (group
    /// mode rebalance), or a batch they came from failed to commit.
    func dropCache() { cache.removeAll(keepingCapacity: true) }

    /// The next offset of every partition, as committed.
    func storedPositions() throws -> [Int32: Int64] {
        try reader.transaction(writing: false) {
            let rows = try reader.statement("SELECT partition, next_offset FROM positions WHERE topic = ?").bind(.text(topic))
            return Dictionary(uniqueKeysWithValues: try rows.rows { (Int32($0.int(0)), $0.int64(1)) })
        }
    }

    // MARK: - One batch

    /// Judges and commits `readings` (in the order of each partition) in one
    /// transaction, reading the positions inside it: for a store that other
    /// processes write too (group mode).
    @discardableResult
    func project(_ readings: [RecordJudge.Reading]) throws -> BatchSummary {
        var batch = PendingBatch()
        do {
            let summary = try db.transaction { () throws -> BatchSummary in
                // Read under the write lock: another process sharing the store may have moved them.
                var positions = try storedPositions()
                let summary = try judge(readings, positions: &positions, into: &batch)
                try write(batch)
                return summary
            }
            remember(batch)
            return summary
        } catch {
            // The rows rolled back; cached states may hold the batch's changes.
            dropCache()
            throw error
        }
    }

    /// Folds the records read into `batch`, skipping those below `positions` (already
    /// applied) and advancing `positions` past the others. Writes nothing.
    func judge(_ readings: [RecordJudge.Reading], positions: inout [Int32: Int64],
               into batch: inout PendingBatch) throws -> BatchSummary {
        var summary = BatchSummary()
        for index in readings.indices {
            let (partition, offset) = (readings[index].entry.partition, readings[index].entry.offset)
            if let next = positions[partition], offset < next {
                summary.skipped += 1
                continue
            }
            try project(readings[index], into: &batch, summary: &summary)
            positions[partition] = offset + 1
            batch.positions[partition] = offset + 1
            batch.records += 1
        }
        return summary
    }

    /// Writes a judged batch in one transaction.
    func commit(_ batch: PendingBatch) throws {
        try db.transaction { try write(batch) }
    }

    /// Keeps the states a batch leaves for the batches after it. Call once
    /// every earlier batch is committed (states not cached are loaded from the
    /// store) and before judging the next.
    func remember(_ batch: PendingBatch) {
        if cache.count + batch.touched.count > cacheLimit { cache.removeAll(keepingCapacity: true) }
        for (id, projected) in batch.touched { cache[id] = projected }
    }

    private func project(_ reading: RecordJudge.Reading, into batch: inout PendingBatch, summary: inout BatchSummary) throws {
        switch reading.content {
        case .rejected(let rejection):
            let entry = reading.entry
            // A record that breaks the schema is still the last word on an open draft.
            if rejection.code != .wrongPartition, let recipeID = entry.recipeID, try bringIn(recipeID, to: &batch) {
                batch.touched[recipeID]!.noteRejection(rejection, entry: entry)
            }
            batch.record(entry)
            batch.rejections.append(entry)
            summary.rejected += 1
        case .command(let decoded):
            var entry = reading.entry
            let envelope = decoded.envelope
            let id = envelope.recipeID
            if try !bringIn(id, to: &batch) { batch.touched[id] = ProjectedRecipe(id: id) }
            // Folded where it lies in the batch: in place, without copying the recipe.
            var saved: [RecipeVersion] = []
            var listingChanged = false
            switch batch.touched[id]!.apply(envelope, entry: &entry, saved: &saved, listingChanged: &listingChanged) {
            case .accepted:
                for version in saved { batch.newVersions.append((id, version)) }
                if listingChanged { batch.listingChanged.insert(id) }
                summary.accepted += 1
            case .duplicate:
                summary.duplicates += 1
            case .rejected:
                batch.rejections.append(entry)
                summary.rejected += 1
            }
            batch.record(entry)
        }
    }

    /// Puts the recipe's latest state into the batch, moved out of the cache
    /// (or loaded) on its first record there; false if the log never touched it.
    /// A failed batch clears the cache anyway.
    private func bringIn(_ id: String, to batch: inout PendingBatch) throws -> Bool {
        // Looked up by index: `touched[id] != nil` would copy the recipe out to compare.
        if batch.touched.index(forKey: id) != nil { return true }
        let projected = try cache.removeValue(forKey: id) ?? reader.transaction(writing: false) { try load(id, from: reader) }
        // What the store holds for it, once every earlier batch is committed.
        batch.rowsBefore[id] = projected.map { $0.recipe.hasOpenDraft ? .recipeAndDraft : .recipe } ?? .none
        batch.touched[id] = projected
        return projected != nil
    }
}

enum StoredRows: Sendable {
    case none, recipe, recipeAndDraft
}

/// What a batch changes, written at its end.
struct PendingBatch: Sendable {
    var touched: [String: ProjectedRecipe] = [:]
    var newVersions: [(String, RecipeVersion)] = []
    /// History entries by recipe and partition, encoded as they are judged.
    var history: [HistoryChunk.Key: HistoryChunk] = [:]
    var rejections: [HistoryEntry] = []
    var positions: [Int32: Int64] = [:]
    /// Records judged into the batch.
    var records = 0
    /// The rows each touched recipe had in the store before the batch.
    var rowsBefore: [String: StoredRows] = [:]
    /// Recipes whose list entry (latest version, deleted) changed.
    var listingChanged: Set<String> = []
}

extension PendingBatch {
    /// Adds an entry to the history chunk of its recipe and partition.
    mutating func record(_ entry: HistoryEntry) {
        history[HistoryChunk.Key(recipeID: entry.recipeID, partition: entry.partition), default: HistoryChunk()]
            .append(entry)
    }
}

/// One recipe's history entries in one partition in one batch: a row of
/// `history_chunks`, its entries a JSON array in offset order.
struct HistoryChunk: Sendable {
    struct Key: Hashable, Sendable {
        var recipeID: String?
        var partition: Int32
    }

    private(set) var firstOffset: Int64 = -1
    private(set) var lastOffset: Int64 = -1
    private var writer = JSONWriter(capacity: 256)

    /// The JSON array (the layout the `history` view reads).
    var entries: [UInt8] { writer.bytes + [UInt8(ascii: "]")] }

    mutating func append(_ entry: HistoryEntry) {
        if firstOffset < 0 {
            firstOffset = entry.offset
            writer.raw("[[")
        } else {
            writer.raw(",[")
        }
        lastOffset = entry.offset
        writer.integer(Int(entry.offset))
        writer.raw(",")
        optional(entry.commandID)
        writer.raw(",")
        if let time = entry.time { writer.integer(Int(time)) } else { writer.raw("null") }
        writer.raw(",")
        optional(entry.actor)
        writer.raw(",")
        writer.string(entry.type)
        writer.raw(",")
        writer.string(entry.outcome)
        writer.raw(",")
        optional(entry.reasonCode)
        writer.raw(",")
        optional(entry.reasonMessage)
        writer.raw(",")
        if let revision = entry.revision { writer.integer(revision) } else { writer.raw("null") }
        writer.raw("]")
    }

    private mutating func optional(_ text: String?) {
        if let text { writer.string(text) } else { writer.raw("null") }
    }
}

extension ProjectedRecipe {
    /// Folds a command and says what the batch must write beyond the recipe's
    /// rows: the versions it saved, and whether its list entry changed.
    mutating func apply(_ envelope: CommandEnvelope, entry: inout HistoryEntry, saved: inout [RecipeVersion],
                        listingChanged: inout Bool) -> RecipeDecision {
        let (versionsBefore, deletedBefore) = (recipe.versions.count, recipe.isDeleted)
        let decision = apply(envelope, entry: &entry)
        if case .accepted = decision {
            saved.append(contentsOf: recipe.versions[versionsBefore...])
            listingChanged = recipe.versions.count != versionsBefore || recipe.isDeleted != deletedBefore
        }
        return decision
    }
}
