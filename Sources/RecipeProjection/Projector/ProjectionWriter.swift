import Kafka
import RecipeDomain
import RecipeJSON
import RecipeWire

/// Folds batches of decisions into the store, one SQLite transaction per batch:
/// the changed read-model rows and the next offset of every partition it
/// consumed commit together, so a projector killed at any instant resumes
/// exactly after its last transaction.
///
/// Two halves that may run on two threads (the projector pipelines them):
/// `judge`, `seal` and `trimCache` fold records against the cache and the
/// committed store (through `reader`); `commit` writes a sealed batch
/// (through `db`). Each half is used by one thread at a time.
final class ProjectionWriter {
    /// The write connection: batches commit on it (`commit`).
    let db: SQLiteConnection
    /// Reads committed state (positions, recipes to load) beside a commit in progress.
    private let reader: SQLiteConnection
    let topic: String
    /// Recipes as of the last record judged, with what the batch being judged
    /// did to each. Bounded: trimmed to the last sealed batch's recipes when
    /// it grows past `cacheLimit` (see `trimCache`), so memory does not grow
    /// with the log.
    private var cache: [RecipeID: CachedRecipe] = [:]
    private let cacheLimit: Int
    /// Counts sealed batches: a cached recipe whose `batch` differs is not yet touched by this one.
    private var batchNumber = 0

    private let checkpointer: WALCheckpointer

    /// - Parameter pageLimit: the most pages the store may grow to, as a full disk would stop it
    ///   (a test's way to make SQLite answer SQLITE_FULL where no small file system can be mounted).
    init(path: String, topic: String, cacheLimit: Int, pageLimit: Int? = nil) throws {
        db = try SQLiteConnection(path: path)
        try StoreSchema.migrate(db)
        if let pageLimit { try db.execute("PRAGMA max_page_count=\(pageLimit)") }
        reader = try SQLiteConnection(path: path)
        self.topic = topic
        self.cacheLimit = cacheLimit
        checkpointer = try WALCheckpointer(writer: db, bytes: 32 << 20)
    }

    /// Closed first in `deinit`: the last connection to close then checkpoints what is left.
    deinit { checkpointer.close() }

    /// Forgets cached recipes: a batch they came from failed to commit, or the
    /// projector is done with them.
    func dropCache() { cache.removeAll(keepingCapacity: true) }

    /// The next offset of every partition of the decisions topic, as committed.
    func storedPositions() throws -> [Int32: Int64] {
        try storedState().positions
    }

    /// The committed positions, and each partition's last effective decision, read together.
    func storedState() throws -> (positions: [Int32: Int64], effective: EffectiveDecisions) {
        try reader.transaction(writing: false) {
            let rows = try reader.statement("SELECT partition, next_offset, tail FROM positions WHERE topic = ?").bind(.text(topic))
            var positions: [Int32: Int64] = [:], tails: [Int32: DecisionLink] = [:]
            while try rows.step() {
                let partition = Int32(rows.int(0))
                positions[partition] = rows.int64(1)
                if let text = rows.optionalText(2) {
                    guard let link = DecisionLink(text) else { throw StoreError.corrupted("positions: tail \(text) of partition \(partition)") }
                    tails[partition] = link
                }
            }
            return (positions, EffectiveDecisions(tails: tails))
        }
    }

    // MARK: - One batch

    /// Folds the effective decisions among the records read into `batch`, skipping
    /// records below `positions` (already applied) and advancing `positions` past the
    /// others, and `effective` past the decisions that count. Writes nothing.
    func judge(_ readings: inout [DecisionReading], positions: inout [Int32: Int64], effective: inout EffectiveDecisions,
               into batch: inout PendingBatch) throws -> BatchSummary {
        var summary = BatchSummary()
        // Each reading is used where it lies in the buffer, its decision moved out and back:
        // a copy retained and released each of its two dozen references, on objects the
        // reading thread made (and frees, when the readings are recycled).
        try readings.withUnsafeMutableBufferPointer { readings in
            var index = 0
            while index < readings.count {
                // A poll holds each partition's records in runs: its position and tail are
                // looked up once a run and written back after it (even when a fold throws),
                // not looked up and stored in four dictionaries for every record.
                let partition = readings[index].partition
                var next = positions[partition] ?? 0
                var tail = effective.tails[partition]
                let (nextBefore, tailBefore) = (next, tail)
                // The run's last effective decision folded.
                var decided: DecisionLink?
                defer {
                    if next != nextBefore {
                        positions[partition] = next
                        batch.positions[partition] = next
                    }
                    if tail != tailBefore { effective.setTail(tail, of: partition) }
                    if let decided { batch.decided[partition] = decided }
                }
                while index < readings.count, readings[index].partition == partition {
                    defer { index += 1 }
                    let offset = readings[index].offset
                    if offset < next {
                        summary.skipped += 1
                        continue
                    }
                    // A partition whose head is gone (a read model allowed to be partial) starts
                    // its chain at the first decision read: what it follows was never seen.
                    if offset > next, tail == nil, let follows = readings[index].decision?.follows { tail = follows }
                    var counted = false
                    if let decision = readings[index].decision.take() {
                        if let link = EffectiveDecisions.link(of: decision, onPartition: partition, after: tail) {
                            tail = link
                            try project(decision, logTime: readings[index].logTime, recipeID: readings[index].recipeID,
                                        into: &batch, summary: &summary)
                            (decided, counted) = (link, true)
                        }
                        readings[index].decision = consume decision
                    }
                    if !counted { summary.superseded += 1 }
                    next = offset + 1
                    batch.records += 1
                }
            }
        }
        return summary
    }

    /// Writes a judged batch in one transaction.
    func commit(_ batch: PendingBatch) throws {
        try db.transaction { try write(batch) }
    }

    /// Ends a batch's judging: takes from the cache the rows of every recipe it
    /// touched, encoded, and their history. Needs no earlier batch committed.
    func seal(_ batch: inout PendingBatch) {
        batch.recipes.reserveCapacity(batch.touched.count)
        for id in batch.touched {
            let cached = cache[id]!
            batch.recipes.append(RecipeRows(cached))
            if let chunk = cached.history.take() { batch.history.append(chunk) }
        }
        batch.history.append(contentsOf: batch.strayHistory.values)
        batch.strayHistory = [:]
        batchNumber += 1
    }

    /// Keeps only the recipes of the batch sealed last when the cache has grown
    /// past its limit. Call once every batch before that one is committed: the
    /// others are then loaded from the store again when needed.
    func trimCache() {
        guard cache.count > cacheLimit else { return }
        let sealed = batchNumber - 1
        cache = cache.filter { $0.value.batch == sealed }
    }

    /// An accepted or duplicate decision's history entry is written straight from the decision
    /// (`CachedRecipe.record(_:outcome:…)`); a `HistoryEntry` is made only for the others, which
    /// the rejections and stray chunks keep: making one retained and released each of its strings,
    /// on objects the reading threads made.
    private func project(_ decision: DecisionRecord, logTime: Int64?, recipeID: RecipeID?, into batch: inout PendingBatch,
                         summary: inout BatchSummary) throws {
        guard decision.commandKind != nil, let recipeID else {
            let entry = HistoryEntry(decision, logTime: logTime, recipeID: recipeID)
            // Not a command (undecodable): still the last word on an open draft of the recipe it
            // names, unless it lies in another partition than that recipe's. Such a record is not
            // ordered with the recipe's own, so where it fell among them would depend on how the
            // partitions were interleaved: marking the draft would let two replicas disagree.
            let marksDraft = decision.outcome.rejection?.code != .wrongPartition
            if marksDraft, let recipeID = entry.recipeID, let cached = try cached(recipeID, for: &batch, creating: false) {
                cached.projected.fold(decision, entry: entry, keepsAppliedIDs: false)
                cached.record(entry, strays: &batch.strayHistory)
            } else {
                batch.strayHistory.append(entry)
            }
            batch.rejections.append(entry)
            summary.rejected += 1
            return
        }
        let cached = try cached(recipeID, for: &batch, creating: true)!
        // Folded where it lies in the cache: in place, without copying the recipe.
        let (versionsBefore, deletedBefore) = (cached.projected.recipe.versions.count, cached.projected.recipe.isDeleted)
        switch decision.outcome {
        case .accepted:
            cached.projected.foldEvents(of: decision, keepsAppliedIDs: false)
            // Read where they lie: a copy of the recipe retained and released each of its parts.
            let versionsAfter = cached.projected.recipe.versions.count
            for index in versionsBefore..<versionsAfter {
                batch.newVersions.append(SavedVersion(recipeID: recipeID, cached.projected.recipe.versions[index]))
            }
            if versionsAfter != versionsBefore || cached.projected.recipe.isDeleted != deletedBefore { cached.listingChanged = true }
            summary.accepted += 1
            cached.record(decision, outcome: .accepted, logTime: logTime, recipeID: recipeID, strays: &batch.strayHistory)
        case .duplicate:
            summary.duplicates += 1
            cached.record(decision, outcome: .duplicate, logTime: logTime, recipeID: recipeID, strays: &batch.strayHistory)
        case .rejected, .undecodable:
            let entry = HistoryEntry(decision, logTime: logTime, recipeID: recipeID)
            cached.projected.fold(decision, entry: entry, keepsAppliedIDs: false)
            batch.rejections.append(entry)
            summary.rejected += 1
            cached.record(entry, strays: &batch.strayHistory)
        }
    }

    /// The recipe's latest state in the cache, loaded from the store (or, with
    /// `creating`, made new) if it is not there; nil if the log never touched
    /// it. Marks it touched by the batch on its first record there.
    private func cached(_ id: RecipeID, for batch: inout PendingBatch, creating: Bool) throws -> CachedRecipe? {
        if let cached = cache[id] {
            if cached.batch != batchNumber {
                cached.begin(batchNumber)
                batch.touched.append(id)
            }
            return cached
        }
        let stored = try reader.transaction(writing: false) { try load(id, from: reader) }
        guard let projected = stored ?? (creating ? ProjectedRecipe(id: id) : nil) else { return nil }
        let cached = CachedRecipe(projected: projected, batch: batchNumber, stored: stored != nil)
        cache[id] = cached
        batch.touched.append(id)
        return cached
    }
}

/// A recipe in the writer's cache, and what the batch being judged did to it.
/// A class, so that the fold reaches it through one lookup and changes it in
/// place (a dictionary's value read through an index is copied out).
final class CachedRecipe {
    var projected: ProjectedRecipe
    /// The batch that last touched it.
    private(set) var batch: Int
    /// The rows the store holds for it before that batch.
    private(set) var rowsBefore: StoredRows = .none
    /// Its tags in the list before that batch (nil when not listed).
    private(set) var listedTagsBefore: [Tag]?
    /// Whether that batch changed its list entry (latest version, deleted).
    var listingChanged = false
    /// That batch's history entries in the recipe's partition.
    var history: HistoryChunk?

    /// - Parameter stored: whether the store holds the recipe (else the batch is its first).
    init(projected: ProjectedRecipe, batch: Int, stored: Bool) {
        (self.projected, self.batch) = (projected, batch)
        if stored { noteStoredRows() }
    }

    /// Starts a batch for a recipe whose earlier batches are (or will be, before it) committed.
    func begin(_ batch: Int) {
        self.batch = batch
        noteStoredRows()
        listingChanged = false
    }

    /// What the store holds for the recipe once every earlier batch is committed.
    private func noteStoredRows() {
        rowsBefore = projected.recipe.hasOpenDraft ? .recipeAndDraft : .recipe
        listedTagsBefore = projected.listedTags
    }

    /// Adds an entry to the recipe's history; one in another partition (a
    /// record keyed to the wrong partition) goes to the batch's stray chunks.
    func record(_ entry: HistoryEntry, strays: inout [HistoryChunk.Key: HistoryChunk]) {
        if history == nil { history = HistoryChunk(recipeID: entry.recipeID, partition: entry.partition) }
        if history!.key.partition == entry.partition {
            history!.append(entry)
        } else {
            strays.append(entry)
        }
    }

    /// The same for an accepted or duplicate decision about this recipe, its entry
    /// written from the decision: the bytes `HistoryEntry(decision, …)` gives.
    func record(_ decision: borrowing DecisionRecord, outcome: RecordOutcome, logTime: Int64?, recipeID: RecipeID,
                strays: inout [HistoryChunk.Key: HistoryChunk]) {
        if history == nil { history = HistoryChunk(recipeID: recipeID, partition: decision.partition) }
        if history!.key.partition == decision.partition {
            history!.append(decision, outcome: outcome)
        } else {
            strays.append(HistoryEntry(decision, logTime: logTime, recipeID: recipeID))
        }
    }
}

/// A version a batch saved, its content already JSON: encoded as it is judged,
/// beside the commit of the batch before, rather than in the commit of its own.
struct SavedVersion: Sendable {
    let recipeID: RecipeID
    let number: Int
    let content: [UInt8]
    let savedAt: Int64
    let savedBy: String

    init(recipeID: RecipeID, _ version: RecipeVersion) {
        (self.recipeID, number, savedAt, savedBy) = (recipeID, version.number, version.savedAt.millisecondsSinceEpoch, version.savedBy)
        content = ContentCoding.utf8(version.content)
    }
}

/// What a batch writes for one recipe: its state at the batch's end, without
/// what only the fold needs (applied ids, earlier versions), so the cache
/// keeps sole ownership of those and folds the next batch without copying them.
struct RecipeRows: Sendable {
    let id: RecipeID
    let revision: Int
    let isDeleted: Bool
    let owner: String?
    /// Its grants as a JSON object `{"actor":"role"}` in actor order, nil when there are none.
    let grantsJSON: String?
    let latest: RecipeVersion?
    /// The list entry's tags as JSON, when the list entry is written (new, or changed).
    let latestTagsJSON: String?
    /// The open draft's base version, content as JSON, and what the drafts list shows of it.
    let draft: (baseVersion: Int, content: [UInt8], title: String, ingredientCount: Int, instructionCount: Int)?
    let lastRejection: String?
    let updatedAt: Int64
    let before: StoredRows
    let listingChanged: Bool
    /// Whether its rows in `recipe_tags` change (most new versions keep their tags).
    let tagsChanged: Bool

    /// Encodes what the commit writes as JSON, so that the commit thread has less to do.
    init(_ cached: CachedRecipe) {
        let recipe = cached.projected.recipe
        (id, revision, isDeleted, latest) = (recipe.id, recipe.revision, recipe.isDeleted, recipe.latestVersion)
        owner = recipe.owner
        grantsJSON = ContentCoding.grantsJSON(recipe.grants)
        draft = recipe.draft.map {
            ($0.baseVersion, ContentCoding.utf8($0.content), $0.content.title, $0.content.ingredients.count, $0.content.instructions.count)
        }
        (lastRejection, updatedAt) = (cached.projected.lastRejection, cached.projected.updatedAt)
        (before, listingChanged) = (cached.rowsBefore, cached.listingChanged)
        tagsChanged = cached.projected.listedTags != cached.listedTagsBefore
        let writesListing = before == .none || listingChanged
        latestTagsJSON = writesListing ? latest.map { ContentCoding.json($0.content.tags) } : nil
    }
}

enum StoredRows: Sendable {
    case none, recipe, recipeAndDraft
}

/// What a batch changes, written at its end.
struct PendingBatch: Sendable {
    /// Recipes the batch touched, in the order it first did.
    var touched: [RecipeID] = []
    /// Their rows (filled by `seal`).
    var recipes: [RecipeRows] = []
    var newVersions: [SavedVersion] = []
    /// History entries by recipe and partition, encoded as they are judged (filled by `seal`).
    var history: [HistoryChunk] = []
    /// Entries with no recipe, or in a partition not their recipe's, while judging.
    var strayHistory: [HistoryChunk.Key: HistoryChunk] = [:]
    var rejections: [HistoryEntry] = []
    /// Next offset in the decisions topic of each partition read.
    var positions: [Int32: Int64] = [:]
    /// Each partition's last effective decision, where the batch folded one.
    var decided: [Int32: DecisionLink] = [:]
    /// Records judged into the batch.
    var records = 0
}

extension Dictionary where Key == HistoryChunk.Key, Value == HistoryChunk {
    /// Adds an entry to the chunk of its recipe and partition.
    mutating func append(_ entry: HistoryEntry) {
        let key = HistoryChunk.Key(recipeID: entry.recipeID, partition: entry.partition)
        self[key, default: HistoryChunk(recipeID: key.recipeID, partition: key.partition)].append(entry)
    }
}

/// One recipe's history entries in one partition in one batch: a row of
/// `history_chunks`, its entries a JSON array in offset order, each entry an
/// array of `members`. The one place that knows that layout: the `history`
/// view and the queries read the entries through `members`.
struct HistoryChunk: Sendable {
    /// The members of an entry, in the order `append` writes them, named as the
    /// `history` view's columns. Changing them takes a store migration that
    /// rewrites the chunks and the view.
    static let members = ["offset", "command_id", "time", "actor", "type", "outcome", "reason_code", "reason_message", "revision",
                          "actor_role", "rules_version"]

    /// SQL for an entry's member: `entry.value ->> index`, where `entry` is a row of `json_each(entries)`.
    static func member(_ name: String, of entry: String = "e") -> String {
        guard let index = members.firstIndex(of: name) else { preconditionFailure("no history member \(name)") }
        return "\(entry).value ->> \(index)"
    }

    struct Key: Hashable, Sendable {
        var recipeID: RecipeID?
        var partition: Int32
    }

    private(set) var key: Key
    private(set) var firstOffset: Int64 = -1
    private(set) var lastOffset: Int64 = -1
    /// The JSON array (the layout the `history` view reads), kept closed so
    /// the commit binds it as it is.
    private(set) var entries: [UInt8] = []

    init(recipeID: RecipeID?, partition: Int32) {
        key = Key(recipeID: recipeID, partition: partition)
    }

    /// Appends an entry of the chunk's recipe and partition.
    mutating func append(_ entry: HistoryEntry) {
        append(offset: entry.offset, commandID: entry.commandID, time: entry.time, actor: entry.actor, type: entry.type,
               outcome: entry.outcome, reasonCode: entry.reasonCode, reasonMessage: entry.reasonMessage,
               revision: entry.revision, actorRole: entry.actorRole, rulesVersion: entry.rulesVersion)
    }

    /// Appends the entry of an accepted or duplicate decision of the chunk's recipe and
    /// partition, as `HistoryEntry(decision, …)` has it (no reason), without making one.
    mutating func append(_ decision: borrowing DecisionRecord, outcome: RecordOutcome) {
        append(offset: decision.offset, commandID: decision.commandID, time: decision.time?.millisecondsSinceEpoch,
               actor: decision.actor, type: decision.commandKind?.rawValue ?? "unknown", outcome: outcome, reasonCode: nil,
               reasonMessage: nil, revision: decision.outcome.revision, actorRole: decision.actorRole?.rawValue,
               rulesVersion: decision.rulesVersion)
    }

    private mutating func append(offset: Int64, commandID: String?, time: Int64?, actor: String?, type: String,
                                 outcome: RecordOutcome, reasonCode: String?, reasonMessage: String?, revision: Int?,
                                 actorRole: String?, rulesVersion: Int?) {
        var writer = JSONWriter(capacity: 256)
        if firstOffset < 0 {
            firstOffset = offset
            writer.raw("[[")
        } else {
            entries.removeLast() // the array's "]"
            writer.raw(",[")
        }
        lastOffset = offset
        writer.integer(Int(offset))
        writer.raw(",")
        Self.optional(commandID, &writer)
        writer.raw(",")
        if let time = time { writer.integer(Int(time)) } else { writer.raw("null") }
        writer.raw(",")
        Self.optional(actor, &writer)
        writer.raw(",")
        writer.string(type)
        writer.raw(",")
        writer.string(outcome.rawValue)
        writer.raw(",")
        Self.optional(reasonCode, &writer)
        writer.raw(",")
        Self.optional(reasonMessage, &writer)
        writer.raw(",")
        if let revision = revision { writer.integer(revision) } else { writer.raw("null") }
        writer.raw(",")
        Self.optional(actorRole, &writer)
        writer.raw(",")
        if let rulesVersion = rulesVersion { writer.integer(rulesVersion) } else { writer.raw("null") }
        writer.raw("]]")
        writer.withBytes { entries.append(contentsOf: $0) }
    }

    private static func optional(_ text: String?, _ writer: inout JSONWriter) {
        if let text { writer.string(text) } else { writer.raw("null") }
    }
}

extension ProjectedRecipe {
    /// The tags of its list entry, or nil when it is not listed.
    var listedTags: [Tag]? {
        guard let latest = recipe.latestVersion, !recipe.isDeleted else { return nil }
        return latest.content.tags
    }
}
