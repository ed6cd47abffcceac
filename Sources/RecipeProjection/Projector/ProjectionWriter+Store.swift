import RecipeDomain
import RecipeWire

// MARK: - Store I/O of the projection writer

extension ProjectionWriter {
    func write(_ batch: PendingBatch) throws {
        for rows in batch.recipes { try write(rows) }
        let version = try db.statement("INSERT INTO versions(recipe_id, version, content, saved_at, saved_by) VALUES(?, ?, ?, ?, ?)")
        for saved in batch.newVersions {
            try version.bind(.id(saved.recipeID), .int(saved.number), .utf8(saved.content),
                             .integer(saved.savedAt), .text(saved.savedBy)).run()
            version.reset()
        }
        let chunk = try db.statement("""
            INSERT INTO history_chunks(recipe_id, partition, first_offset, last_offset, entries) VALUES(?, ?, ?, ?, ?)
            """)
        for entries in batch.history {
            try chunk.bind(.id(entries.key.recipeID), .int(Int(entries.key.partition)), .integer(entries.firstOffset),
                           .integer(entries.lastOffset), .utf8(entries.entries)).run()
            chunk.reset()
        }
        let rejection = try db.statement("""
            INSERT INTO rejections(partition, offset, key, command_id, type, reason_code, reason_message, log_time)
            VALUES(?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for entry in batch.rejections {
            try rejection.bind(.int(Int(entry.partition)), .integer(entry.offset), .id(entry.recipeID),
                               .string(entry.commandID), .text(entry.type), .string(entry.reasonCode),
                               .string(entry.reasonMessage), entry.logTime.map { .integer($0) }).run()
            rejection.reset()
        }
        // The command position moves only with an effective decision; the row keeps it otherwise.
        let position = try db.statement("""
            INSERT INTO positions(topic, partition, next_offset, next_command, tail) VALUES(?, ?, ?, ?, ?)
            ON CONFLICT(topic, partition) DO UPDATE SET next_offset = excluded.next_offset,
                next_command = coalesce(excluded.next_command, next_command), tail = coalesce(excluded.tail, tail)
            """)
        for (partition, next) in batch.positions {
            let tail = batch.decided[partition]
            try position.bind(.text(topic), .int(Int(partition)), .integer(next), tail.map { SQLiteValue.integer($0.offset + 1) },
                              .string(tail?.description)).run()
            position.reset()
        }
    }

    private func write(_ recipe: RecipeRows) throws {
        let (id, latest, before) = (recipe.id, recipe.latest, recipe.before)
        let listed = latest != nil && !recipe.isDeleted
        if before != .none, !recipe.listingChanged {
            // Only a new version or a deletion changes the list entry: leave it, and its index, alone.
            try db.statement("UPDATE recipes SET revision = ?, draft_base = ?, owner = ?, grants = ? WHERE recipe_id = ?")
                .bind(.int(recipe.revision), .int(recipe.draft?.baseVersion), .string(recipe.owner), .string(recipe.grantsJSON),
                      .id(id)).run()
        } else {
            try db.statement("""
                INSERT OR REPLACE INTO recipes(recipe_id, revision, deleted, draft_base, latest_version, listed, title,
                    title_key, servings, image, ingredient_count, tags, updated_at, owner, grants)
                VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).bind(
                    .id(id), .int(recipe.revision), .int(recipe.isDeleted ? 1 : 0), .int(recipe.draft?.baseVersion),
                    .int(latest?.number ?? 0), .int(listed ? 1 : 0), .string(latest?.content.title),
                    .string(latest.map { ListOrder.titleKey($0.content.title) }), .int(latest?.content.servings),
                    .string(latest?.content.image), .int(latest?.content.ingredients.count), .string(recipe.latestTagsJSON),
                    latest.map { .integer($0.savedAt.millisecondsSinceEpoch) }, .string(recipe.owner), .string(recipe.grantsJSON)
                ).run()
        }
        if let draft = recipe.draft {
            try db.statement("""
                INSERT INTO drafts(recipe_id, content, base_version, revision, updated_at, last_rejection, title,
                    ingredient_count, instruction_count)
                VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(recipe_id) DO UPDATE SET content = excluded.content, base_version = excluded.base_version,
                    revision = excluded.revision, updated_at = excluded.updated_at, last_rejection = excluded.last_rejection,
                    title = excluded.title, ingredient_count = excluded.ingredient_count, instruction_count = excluded.instruction_count
                """).bind(.id(id), .utf8(draft.content), .int(draft.baseVersion),
                          .int(recipe.revision), .integer(recipe.updatedAt), .string(recipe.lastRejection), .text(draft.title),
                          .int(draft.ingredientCount), .int(draft.instructionCount)).run()
        } else if before == .recipeAndDraft {
            try db.statement("DELETE FROM drafts WHERE recipe_id = ?").bind(.id(id)).run()
        }
        if recipe.tagsChanged {
            if before != .none {
                try db.statement("DELETE FROM recipe_tags WHERE recipe_id = ?").bind(.id(id)).run()
            }
            if listed, let latest {
                let insert = try db.statement("INSERT OR IGNORE INTO recipe_tags(tag, recipe_id) VALUES(?, ?)")
                for tag in latest.content.tags {
                    try insert.bind(.text(ListOrder.tagKey(tag.name)), .id(id)).run()
                    insert.reset()
                }
            }
        }
    }

    /// A recipe as the store has it, or nil if the log never touched it.
    func load(_ id: RecipeID, from db: SQLiteConnection) throws -> ProjectedRecipe? {
        let header = try db.statement("SELECT revision, deleted, draft_base, owner, grants FROM recipes WHERE recipe_id = ?")
            .bind(.id(id))
        guard try header.step() else { return nil }
        let (revision, deleted, draftBase) = (header.int(0), header.int(1) != 0, header.optionalInt(2))
        let (owner, grants) = (header.optionalText(3), try ContentCoding.grants(fromJSON: header.optionalText(4)))
        let versions = try db.statement("""
            SELECT version, content, saved_at, saved_by FROM versions WHERE recipe_id = ? ORDER BY version
            """).bind(.id(id)).rows {
                RecipeVersion(number: $0.int(0), content: try ContentCoding.content(fromJSON: $0.text(1)),
                              savedAt: Timestamp(millisecondsSinceEpoch: $0.int64(2)), savedBy: $0.text(3))
            }
        var draft: RecipeDraft?
        var lastRejection: String?
        var updatedAt: Int64 = 0
        if let draftBase {
            let row = try db.statement("SELECT content, last_rejection, updated_at FROM drafts WHERE recipe_id = ?")
                .bind(.id(id))
            guard try row.step() else { throw StoreError.corrupted("recipe \(id) has an open draft but no drafts row") }
            draft = RecipeDraft(content: try ContentCoding.content(fromJSON: row.text(0)), baseVersion: draftBase)
            lastRejection = row.optionalText(1)
            updatedAt = row.int64(2)
        }
        // No applied command ids: the projector folds decisions and never decides (`ProjectedRecipe.fold`).
        let recipe = Recipe(id: id, versions: versions, draft: draft, revision: revision, isDeleted: deleted,
                            appliedCommandIDs: [], owner: owner, grants: grants)
        return ProjectedRecipe(recipe: recipe, lastRejection: lastRejection, updatedAt: updatedAt)
    }

}

/// Keys the list is ordered and filtered by.
enum ListOrder {
    /// Case-insensitive title order (Unicode lowercase), so "apple" and "Apple" sort together.
    static func titleKey(_ title: String) -> String { title.lowercased() }
    /// Tag names match ignoring case and a leading `@`, as the domain compares them.
    static func tagKey(_ name: String) -> String {
        (name.hasPrefix("@") ? String(name.dropFirst()) : name).lowercased()
    }
}
