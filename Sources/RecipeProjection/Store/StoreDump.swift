import Foundation

/// The canonical dump of a store: every read-model row, one line each, tables
/// in a fixed order and rows sorted by their keys. Two stores built from the
/// same log give byte-identical dumps, whatever their history of crashes.
public enum StoreDump {
    /// Tables, the order their rows are dumped in (their keys), and the
    /// column naming the recipe a row belongs to.
    static let tables: [(name: String, columns: String, order: String, recipe: String?)] = [
        // Command positions only: the decisions topic (its name, its offsets) and the tail's decider
        // depend on which deciders wrote (and how often they restarted), not on what counted.
        ("positions", "partition, next_command", "partition", nil),
        ("recipes", "recipe_id, revision, deleted, draft_base, latest_version, listed, title, title_key, servings, image, ingredient_count, tags, updated_at, owner, grants", "recipe_id", "recipe_id"),
        ("recipe_tags", "tag, recipe_id", "tag, recipe_id", "recipe_id"),
        ("versions", "recipe_id, version, content, saved_at, saved_by", "recipe_id, version", "recipe_id"),
        ("drafts", "recipe_id, content, base_version, revision, updated_at, last_rejection, title, ingredient_count, instruction_count",
         "recipe_id", "recipe_id"),
        ("history", "partition, offset, recipe_id, command_id, time, actor, type, outcome, reason_code, reason_message, revision, actor_role, rules_version", "partition, offset", "recipe_id"),
        ("rejections", "partition, offset, key, command_id, type, reason_code, reason_message, log_time", "partition, offset", "key"),
    ]

    /// Writes the dump line by line (tab-separated, `\N` for NULL).
    public static func write(storeAt path: String, to line: (String) throws -> Void) throws {
        let db = try SQLiteConnection(path: path)
        try db.transaction(writing: false) {
            for table in tables {
                let rows = try db.statement("SELECT \(table.columns) FROM \(table.name) ORDER BY \(table.order)")
                while try rows.step() { try line(self.line(table.name, rows)) }
            }
        }
    }

    /// The whole dump as one string.
    public static func string(storeAt path: String) throws -> String {
        var text = ""
        try write(storeAt: path) { text += $0 + "\n" }
        return text
    }

    /// The dump line of the row `rows` is on: the table, then every column.
    static func line(_ table: String, _ rows: SQLiteStatement) -> String {
        let cells = (0..<rows.columnCount).map { rows.isNull($0) ? "\\N" : escape(rows.text($0)) }
        return table + "\t" + cells.joined(separator: "\t")
    }

    private static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\\" }) else { return text }
        return text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
