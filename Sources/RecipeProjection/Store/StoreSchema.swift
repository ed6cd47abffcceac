import CSQLite
import Foundation

/// The read-model tables and their migrations. The version lives in the
/// store; a store newer than the code is refused rather than misread.
enum StoreSchema {
    static let version = 8

    /// `migrations[n]` takes a store from version n to n+1.
    static let migrations: [String] = [
        """
        CREATE TABLE store_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE positions(
            topic TEXT NOT NULL, partition INTEGER NOT NULL, next_offset INTEGER NOT NULL,
            PRIMARY KEY(topic, partition)) WITHOUT ROWID;
        -- One row per recipe the log has touched: the fold's header and, when it
        -- has a version and is not deleted, its list entry.
        CREATE TABLE recipes(
            recipe_id TEXT PRIMARY KEY,
            revision INTEGER NOT NULL,
            deleted INTEGER NOT NULL,
            draft_base INTEGER,
            latest_version INTEGER NOT NULL,
            listed INTEGER NOT NULL,
            title TEXT, title_key TEXT, servings INTEGER, image TEXT,
            ingredient_count INTEGER, tags TEXT, updated_at INTEGER) WITHOUT ROWID;
        CREATE INDEX recipes_list ON recipes(listed, title_key, recipe_id);
        -- Keyed by recipe (rewritten per recipe), indexed by tag (the list filter).
        CREATE TABLE recipe_tags(recipe_id TEXT NOT NULL, tag TEXT NOT NULL, PRIMARY KEY(recipe_id, tag)) WITHOUT ROWID;
        CREATE INDEX recipe_tags_by_tag ON recipe_tags(tag, recipe_id);
        CREATE TABLE versions(
            recipe_id TEXT NOT NULL, version INTEGER NOT NULL, content TEXT NOT NULL,
            saved_at INTEGER NOT NULL, saved_by TEXT NOT NULL,
            PRIMARY KEY(recipe_id, version)) WITHOUT ROWID;
        CREATE TABLE drafts(
            recipe_id TEXT PRIMARY KEY, content TEXT NOT NULL, base_version INTEGER NOT NULL,
            revision INTEGER NOT NULL, updated_at INTEGER NOT NULL, last_rejection TEXT) WITHOUT ROWID;
        CREATE TABLE history(
            partition INTEGER NOT NULL, offset INTEGER NOT NULL, recipe_id TEXT,
            command_id TEXT, time INTEGER, actor TEXT, type TEXT NOT NULL,
            outcome TEXT NOT NULL, reason_code TEXT, reason_message TEXT, revision INTEGER,
            PRIMARY KEY(partition, offset)) WITHOUT ROWID;
        CREATE INDEX history_recipe ON history(recipe_id, offset);
        -- log_time: the Kafka timestamp of the record, the order of "most recent".
        CREATE TABLE rejections(
            partition INTEGER NOT NULL, offset INTEGER NOT NULL, key TEXT, command_id TEXT, type TEXT,
            reason_code TEXT NOT NULL, reason_message TEXT NOT NULL, log_time INTEGER,
            PRIMARY KEY(partition, offset)) WITHOUT ROWID;
        CREATE INDEX rejections_recent ON rejections(log_time);
        """,
        // History in chunks: one row per recipe and partition per transaction,
        // holding that transaction's entries as a JSON array (`HistoryChunk`).
        // A row per record cost an insert into a per-recipe index for every
        // record, which rewrote nearly every page of that index in every
        // transaction; chunks are appended in commit order, and their indexes
        // take one entry per recipe per transaction. The `history` view gives
        // back one row per record, as before.
        //
        // Drafts and versions hold content of a kilobyte or more: in a WITHOUT
        // ROWID table (an index b-tree) such rows spill into overflow pages,
        // and every insert or rewrite moves them. A rowid table keeps them on
        // their page, with a small index to find them by recipe.
        """
        CREATE TABLE history_chunks(
            chunk INTEGER PRIMARY KEY, recipe_id TEXT, partition INTEGER NOT NULL,
            first_offset INTEGER NOT NULL, last_offset INTEGER NOT NULL, entries TEXT NOT NULL);
        INSERT INTO history_chunks(recipe_id, partition, first_offset, last_offset, entries)
            SELECT recipe_id, partition, min(offset), max(offset),
                json_group_array(json_array(\(historyMembersV2.joined(separator: ", "))))
            FROM (SELECT * FROM history ORDER BY partition, offset) GROUP BY recipe_id, partition;
        DROP TABLE history;
        CREATE INDEX history_chunks_recipe ON history_chunks(recipe_id, first_offset);
        CREATE INDEX history_chunks_position ON history_chunks(partition, last_offset);
        CREATE VIEW history(partition, recipe_id, \(historyMembersV2.joined(separator: ", "))) AS
            SELECT c.partition, c.recipe_id, \(historyMembersV2.map { HistoryChunk.member($0) }.joined(separator: ", "))
            FROM history_chunks c, json_each(c.entries) e;
        CREATE TABLE versions_v2(
            recipe_id TEXT NOT NULL, version INTEGER NOT NULL, content TEXT NOT NULL,
            saved_at INTEGER NOT NULL, saved_by TEXT NOT NULL, UNIQUE(recipe_id, version));
        INSERT INTO versions_v2 SELECT recipe_id, version, content, saved_at, saved_by FROM versions;
        DROP TABLE versions;
        ALTER TABLE versions_v2 RENAME TO versions;
        CREATE TABLE drafts_v2(
            recipe_id TEXT NOT NULL UNIQUE, content TEXT NOT NULL, base_version INTEGER NOT NULL,
            revision INTEGER NOT NULL, updated_at INTEGER NOT NULL, last_rejection TEXT);
        INSERT INTO drafts_v2 SELECT recipe_id, content, base_version, revision, updated_at, last_rejection FROM drafts;
        DROP TABLE drafts;
        ALTER TABLE drafts_v2 RENAME TO drafts;
        """,
        // Who may do what: each recipe's owner and grants (as the fold keeps them),
        // and each history entry's `actorrole`. Entries written before have no
        // role member, which reads as NULL, as a replay writes it. The owner of an
        // existing recipe is the actor of its first accepted command: what the
        // fold makes of the same log (a recipe's records share one partition).
        """
        ALTER TABLE recipes ADD COLUMN owner TEXT;
        ALTER TABLE recipes ADD COLUMN grants TEXT;
        UPDATE recipes SET owner = (
            SELECT h.actor FROM history h WHERE h.recipe_id = recipes.recipe_id AND h.outcome = 'accepted'
            ORDER BY h.offset LIMIT 1);
        DROP VIEW history;
        CREATE VIEW history(partition, recipe_id, \(HistoryChunk.members.joined(separator: ", "))) AS
            SELECT c.partition, c.recipe_id, \(HistoryChunk.members.map { HistoryChunk.member($0) }.joined(separator: ", "))
            FROM history_chunks c, json_each(c.entries) e;
        """,
        // Content version 2 (issue 16): no table changes, and no data to convert,
        // since content stored before it is exactly what ContentCoding writes for
        // that content today (the new members are left out when absent). The
        // version moves so that code older than v2, which would misread a store
        // holding v2 content (an ingredient without an amount), refuses it.
        """
        -- content version 2: stored content may hold its new members
        SELECT 1;
        """,
        // The drafts list's summary of each draft (its title and counts, read out of its
        // content once, here and when the draft is written), and the content last in the row:
        // the list then reads the first bytes of each row, never a content, which spills into
        // overflow pages (a draft holds up to about 1.7 MB).
        """
        CREATE TABLE drafts_v5(
            recipe_id TEXT NOT NULL UNIQUE, base_version INTEGER NOT NULL, revision INTEGER NOT NULL,
            updated_at INTEGER NOT NULL, last_rejection TEXT, title TEXT NOT NULL, ingredient_count INTEGER NOT NULL,
            instruction_count INTEGER NOT NULL, content TEXT NOT NULL);
        INSERT INTO drafts_v5 SELECT recipe_id, base_version, revision, updated_at, last_rejection, content ->> '$.title',
            json_array_length(content, '$.ingredients'), json_array_length(content, '$.instructions'), content FROM drafts;
        DROP TABLE drafts;
        ALTER TABLE drafts_v5 RENAME TO drafts;
        """,
        // Read models folded from decisions (recipes.decisions): beside the next offset of the
        // decisions topic, the next command offset of the partition whose decision is applied
        // (what `after=` and a POST's position are about) and the last effective decision
        // (`<decider>:<offset>`), from which the next one is told. A store of an older version
        // folded the commands themselves: its log is another topic, which it refuses to mix
        // (`LogMismatch.otherTopic`); it is rebuilt by a replay.
        """
        ALTER TABLE positions ADD COLUMN next_command INTEGER;
        ALTER TABLE positions ADD COLUMN tail TEXT;
        """,
        // Each history entry names the rules version that decided it: one more member of the
        // entries, read by the view. Entries a store folded before have none (null) until a
        // replay folds them again; no chunk is rewritten.
        """
        DROP VIEW history;
        CREATE VIEW history(partition, recipe_id, \(HistoryChunk.members.joined(separator: ", "))) AS
            SELECT c.partition, c.recipe_id, \(HistoryChunk.members.map { HistoryChunk.member($0) }.joined(separator: ", "))
            FROM history_chunks c, json_each(c.entries) e;
        """,
        // Stored content may hold `nutrition`, written only when present: no table changes and
        // nothing to convert. The version moves so that code without it, which would read such
        // content and drop the nutrition, refuses the store.
        """
        -- stored content may hold nutrition
        SELECT 1;
        """,
    ]

    /// The history members of schema version 2, frozen: migration 2 builds the
    /// chunks and the view from them, whatever `HistoryChunk.members` became later.
    static let historyMembersV2 = ["offset", "command_id", "time", "actor", "type", "outcome", "reason_code", "reason_message",
                                   "revision"]

    static func migrate(_ db: SQLiteConnection) throws {
        // 16 KiB pages (for a new store; an existing one keeps its own): a replay
        // writes a WAL frame, and two system calls, per page, and with 4 KiB pages
        // those cost it a fifth of its speed. Queries were as fast either way.
        // WAL: readers never block the writer; the projector checkpoints on a
        // thread of its own (`WALCheckpointer`). A larger page cache keeps the
        // random-page writes of big batches cheap. No memory map: its pages
        // count as resident and grow with the store.
        try db.execute("""
            PRAGMA page_size=16384; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536;
            PRAGMA mmap_size=0;
            """)
        // A store that is up to date is only read; an older one migrates in one
        // write transaction, all of it or none.
        let found = try db.transaction(writing: false) { try installedVersion(db) }
        if found > version { throw StoreError.newerSchema(found: found, supported: version) }
        if found == version { return }
        try db.transaction {
            let current = try installedVersion(db)
            if current > version { throw StoreError.newerSchema(found: current, supported: version) }
            guard current < version else { return }
            for step in current..<version { try db.execute(migrations[step]) }
            try db.statement("INSERT OR REPLACE INTO store_meta(key, value) VALUES('schema_version', ?)")
                .bind(.text(String(version))).run()
        }
    }

    static func installedVersion(_ db: SQLiteConnection) throws -> Int {
        // Read to the end: a statement left mid-rows would lock the schema against the migrations.
        let tables = try db.statement("SELECT count(*) FROM sqlite_master WHERE name = 'store_meta'").rows { $0.int(0) }
        guard tables == [1] else { return 0 }
        let versions = try db.statement("SELECT value FROM store_meta WHERE key = 'schema_version'").rows { Int($0.text(0)) }
        guard versions.count == 1, let version = versions[0] else { throw StoreError.corrupted("no schema version") }
        return version
    }
}
