import Foundation

/// Compares two stores row by row over every table of the canonical dump:
/// how `audit verify` finds where a live store and a replay disagree.
public enum StoreComparison {
    /// One row that differs: the live store's line, the replay's, or both
    /// (rows with the same key whose other columns differ).
    public struct Difference: Sendable, Equatable {
        public var table: String
        /// The recipe the row belongs to (nil for positions).
        public var recipeID: String?
        /// The row as a dump line; nil when only the other store has it.
        public var live: String?
        public var replay: String?
    }

    /// A consistent copy of a store, even while a projector writes it.
    public static func snapshot(of path: String, into copy: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.missing(path: path) }
        let db = try SQLiteConnection(path: path, readOnly: true)
        try db.statement("VACUUM INTO ?").bind(.text(copy)).run()
    }

    /// Every differing row, in dump order within each table. Equal stores give none.
    public static func differences(live: String, replay: String) throws -> [Difference] {
        let db = try SQLiteConnection(path: live, readOnly: true)
        try db.statement("ATTACH DATABASE ? AS replay").bind(.text(replay)).run()
        return try db.transaction(writing: false) {
            var differences: [Difference] = []
            for table in StoreDump.tables {
                let keyCount = table.order.split(separator: ",").count
                let keys = try db.statement("""
                    SELECT \(table.columns) FROM main.\(table.name) EXCEPT SELECT \(table.columns) FROM replay.\(table.name)
                    """)
                var onlyLive: [String: String] = [:]
                var order: [String] = []
                let recipeColumn = table.recipe.flatMap { name in
                    table.columns.split(separator: ",").firstIndex { $0.trimmingCharacters(in: .whitespaces) == name }
                }
                var recipes: [String: String] = [:]
                func key(_ line: String) -> String {
                    line.split(separator: "\t", omittingEmptySubsequences: false).prefix(keyCount + 1).joined(separator: "\t")
                }
                func recipe(_ line: String) -> String? {
                    recipeColumn.map { String(line.split(separator: "\t", omittingEmptySubsequences: false)[$0 + 1]) }
                }
                while try keys.step() {
                    let line = StoreDump.line(table.name, keys)
                    onlyLive[key(line)] = line
                    order.append(key(line))
                    recipes[key(line)] = recipe(line)
                }
                let others = try db.statement("""
                    SELECT \(table.columns) FROM replay.\(table.name) EXCEPT SELECT \(table.columns) FROM main.\(table.name)
                    """)
                var onlyReplay: [String: String] = [:]
                while try others.step() {
                    let line = StoreDump.line(table.name, others)
                    if onlyLive[key(line)] == nil { order.append(key(line)) }
                    onlyReplay[key(line)] = line
                    recipes[key(line)] = recipes[key(line)] ?? recipe(line)
                }
                for key in order.sorted() {
                    differences.append(Difference(table: table.name, recipeID: recipes[key].flatMap { $0 == "\\N" ? nil : $0 },
                                                  live: onlyLive[key], replay: onlyReplay[key]))
                }
            }
            return differences
        }
    }
}
