import Kafka
import RecipeDomain
import RecipeWire

/// Folds batches of records into the store, one SQLite transaction per batch:
/// the changed read-model rows and the next offset of every partition it
/// consumed commit together, so a projector killed at any instant resumes
/// exactly after its last transaction.
///
/// Used from one thread (the projector's).
final class ProjectionWriter {
    let db: SQLiteConnection
    let topic: String
    /// Recipes as of the last commit. Bounded: cleared when it grows past
    /// `cacheLimit`, so memory does not grow with the log.
    private var cache: [String: ProjectedRecipe] = [:]
    private let cacheLimit: Int

    init(path: String, topic: String, cacheLimit: Int = 20_000) throws {
        db = try SQLiteConnection(path: path)
        try StoreSchema.migrate(db)
        self.topic = topic
        self.cacheLimit = cacheLimit
    }

    /// Forgets cached recipes: another process may have changed them (group mode rebalance).
    func dropCache() { cache.removeAll(keepingCapacity: true) }

    func storedPositions() throws -> [Int32: Int64] {
        let rows = try db.statement("SELECT partition, next_offset FROM positions WHERE topic = ?").bind(.text(topic))
        return Dictionary(uniqueKeysWithValues: try rows.rows { (Int32($0.int(0)), $0.int64(1)) })
    }

    // MARK: - One batch

    /// Applies `records` (in the order of each partition) and commits.
    @discardableResult
    func project(_ records: [KafkaConsumerRecord], partitionCount: Int) throws -> BatchSummary {
        var batch = PendingBatch()
        let judge = RecordJudge(partitionCount: partitionCount)
        do {
            let summary = try db.transaction { () throws -> BatchSummary in
                // Read inside the transaction: another process sharing the store may have moved them.
                var positions = try storedPositions()
                var summary = BatchSummary()
                for record in records where record.topic == topic {
                    if let next = positions[record.partition], record.offset < next {
                        summary.skipped += 1
                        continue
                    }
                    try project(record, judge: judge, into: &batch, summary: &summary)
                    positions[record.partition] = record.offset + 1
                    batch.positions[record.partition] = record.offset + 1
                }
                try write(batch)
                return summary
            }
            for (id, projected) in batch.touched { cache[id] = projected }
            if cache.count > cacheLimit { cache.removeAll(keepingCapacity: true) }
            return summary
        } catch {
            // The rows rolled back; cached states may hold the batch's changes.
            cache.removeAll()
            throw error
        }
    }

    private func project(_ record: KafkaConsumerRecord, judge: RecordJudge,
                         into batch: inout PendingBatch, summary: inout BatchSummary) throws {
        switch judge.read(record) {
        case .rejected(let entry, let rejection):
            // A record that breaks the schema is still the last word on an open draft.
            if rejection.code != .wrongPartition, let recipeID = entry.recipeID,
               var projected = try takeRecipe(recipeID, from: &batch) {
                projected.noteRejection(rejection, entry: entry)
                batch.touched[recipeID] = projected
            }
            batch.history.append(entry)
            batch.rejections.append(entry)
            summary.rejected += 1
        case .command(var entry, let decoded):
            let envelope = decoded.envelope
            var projected = try takeRecipe(envelope.recipeID, from: &batch) ?? ProjectedRecipe(id: envelope.recipeID)
            let versionsBefore = projected.recipe.versions.count
            let deletedBefore = projected.recipe.isDeleted
            switch projected.apply(envelope, entry: &entry) {
            case .accepted:
                for version in projected.recipe.versions[versionsBefore...] {
                    batch.newVersions.append((envelope.recipeID, version))
                }
                if projected.recipe.versions.count != versionsBefore || projected.recipe.isDeleted != deletedBefore {
                    batch.listingChanged.insert(envelope.recipeID)
                }
                summary.accepted += 1
            case .duplicate:
                summary.duplicates += 1
            case .rejected:
                batch.rejections.append(entry)
                summary.rejected += 1
            }
            batch.history.append(entry)
            batch.touched[envelope.recipeID] = projected
        }
    }

    /// The recipe's latest state, moved out of the batch or the cache so that
    /// folding into it mutates in place instead of copying its versions.
    /// The batch takes it back; a failed batch clears the cache anyway.
    private func takeRecipe(_ id: String, from batch: inout PendingBatch) throws -> ProjectedRecipe? {
        if let projected = batch.touched.removeValue(forKey: id) ?? cache.removeValue(forKey: id) { return projected }
        return try load(id)
    }
}

/// What a batch changes, written at its end.
struct PendingBatch {
    var touched: [String: ProjectedRecipe] = [:]
    var newVersions: [(String, RecipeVersion)] = []
    var history: [HistoryEntry] = []
    var rejections: [HistoryEntry] = []
    var positions: [Int32: Int64] = [:]
    /// Recipes whose list entry (latest version, deleted) changed.
    var listingChanged: Set<String> = []
}
