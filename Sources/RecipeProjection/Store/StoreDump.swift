import Foundation

/// The canonical dump of a store: every read-model row, one line each, tables
/// in a fixed order and rows sorted by their keys. Two stores built from the
/// same log give byte-identical dumps, whatever their history of crashes.
public enum StoreDump {
    /// Tables and the order their rows are dumped in.
    static let tables: [(name: String, columns: String, order: String)] = [
        ("positions", "topic, partition, next_offset", "topic, partition"),
        ("recipes", "recipe_id, revision, deleted, draft_base, latest_version, listed, title, title_key, servings, image, ingredient_count, tags, updated_at", "recipe_id"),
        ("recipe_tags", "tag, recipe_id", "tag, recipe_id"),
        ("versions", "recipe_id, version, content, saved_at, saved_by", "recipe_id, version"),
        ("drafts", "recipe_id, content, base_version, revision, updated_at, last_rejection", "recipe_id"),
        ("history", "partition, offset, recipe_id, command_id, time, actor, type, outcome, reason_code, reason_message, revision", "partition, offset"),
        ("rejections", "partition, offset, key, command_id, type, reason_code, reason_message, log_time", "partition, offset"),
    ]

    /// Writes the dump line by line (tab-separated, `\N` for NULL).
    public static func write(storeAt path: String, to line: (String) throws -> Void) throws {
        let db = try SQLiteConnection(path: path)
        try db.transaction(writing: false) {
            for table in tables {
                let rows = try db.statement("SELECT \(table.columns) FROM \(table.name) ORDER BY \(table.order)")
                let count = table.columns.split(separator: ",").count
                while try rows.step() {
                    let cells = (0..<Int32(count)).map { rows.isNull($0) ? "\\N" : escape(rows.text($0)) }
                    try line(table.name + "\t" + cells.joined(separator: "\t"))
                }
            }
        }
    }

    /// The whole dump as one string.
    public static func string(storeAt path: String) throws -> String {
        var text = ""
        try write(storeAt: path) { text += $0 + "\n" }
        return text
    }

    private static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\\" }) else { return text }
        return text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
