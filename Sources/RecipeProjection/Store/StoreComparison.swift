import Foundation
import RecipeJSON
import RecipeWire

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
            // `history` is a view that takes every row out of its chunk's JSON, four times over in the
            // two EXCEPTs below (four fifths of a verify): only recipes whose chunks may differ go through it.
            let suspects = try historySuspects(db)
            for table in StoreDump.tables {
                let keyCount = table.order.split(separator: ",").count
                if table.name == "history", suspects.recipes.isEmpty, !suspects.noRecipe { continue }
                /// The rows of `table` in `schema` that `other` has not, the suspects bound for `history`.
                func rows(in schema: String, notIn other: String) throws -> SQLiteStatement {
                    let rows = try db.statement(query(table, in: schema, notIn: other))
                    if table.name == "history" { suspects.bind(to: rows) }
                    return rows
                }
                let keys = try rows(in: "main", notIn: "replay")
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
                let others = try rows(in: "replay", notIn: "main")
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

    /// The query of the rows of `table` in the store `schema` that the store `other` has not.
    /// A table is probed row by row through its key's index: an EXCEPT sorted both sides into
    /// temporary files, six of the eight seconds of comparing a million commands' stores
    /// (`versions`, whose rows hold whole recipes). `history`, a view with no index, is compared
    /// with EXCEPT, over the suspects' rows only (`HistorySuspects.bind(to:)`).
    private static func query(_ table: (name: String, columns: String, order: String, recipe: String?),
                              in schema: String, notIn other: String) -> String {
        if table.name == "history" {
            let only = "WHERE recipe_id IN (SELECT value FROM json_each(?1)) OR (recipe_id IS NULL AND ?2)"
            return "SELECT \(table.columns) FROM \(schema).history \(only) EXCEPT SELECT \(table.columns) FROM \(other).history \(only)"
        }
        // `IS`: NULL matches NULL, as in EXCEPT.
        let same = table.columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .map { "o.\($0) IS t.\($0)" }.joined(separator: " AND ")
        return "SELECT \(table.columns) FROM \(schema).\(table.name) AS t WHERE NOT EXISTS (SELECT 1 FROM \(other).\(table.name) AS o WHERE \(same))"
    }

    /// The recipes whose history rows may differ between the stores, and whether the rows of no
    /// recipe may: the rest have chunks that hold, recipe by recipe and partition by partition, the
    /// same entries in the same order, so the same rows, however their batches cut them into chunks.
    private struct HistorySuspects {
        var recipes: [String] = []
        var noRecipe = false

        func bind(to statement: SQLiteStatement) {
            var list = JSONWriter(capacity: 64)
            list.raw("[")
            for recipe in recipes {
                list.element()
                list.string(recipe)
            }
            list.raw("]")
            statement.bind(.text(list.withBytes { String(decoding: $0, as: UTF8.self) }), at: 1)
            statement.bind(.integer(noRecipe ? 1 : 0), at: 2)
        }
    }

    /// A merge of both stores' chunks in (recipe, partition, first offset) order.
    private static func historySuspects(_ db: SQLiteConnection) throws -> HistorySuspects {
        let order = "ORDER BY recipe_id, partition, first_offset"
        let live = HistoryGroups(try db.statement("SELECT recipe_id, partition, entries FROM main.history_chunks \(order)"))
        let replay = HistoryGroups(try db.statement("SELECT recipe_id, partition, entries FROM replay.history_chunks \(order)"))
        var suspects = HistorySuspects()
        func suspect(_ group: HistoryGroups.Group) {
            guard let recipe = group.recipe else { return suspects.noRecipe = true }
            if suspects.recipes.last != recipe { suspects.recipes.append(recipe) }
        }
        var (left, right) = (try live.next(), try replay.next())
        while left != nil || right != nil {
            if let l = left, let r = right, l.key == r.key {
                if l.entries != r.entries { suspect(l) }
                (left, right) = (try live.next(), try replay.next())
            } else if let l = left, right.map({ l.precedes($0) }) ?? true {
                suspect(l)
                left = try live.next()
            } else {
                suspect(right!)
                right = try replay.next()
            }
        }
        return suspects
    }

    /// One store's chunks, a (recipe, partition) at a time, in the order SQLite sorts them.
    private final class HistoryGroups {
        struct Group {
            var recipe: String?
            var partition: Int
            /// The entries of its chunks in order, as one JSON list without its brackets.
            var entries: [UInt8]

            var key: Key { Key(recipe: recipe.map { Array($0.utf8) }, partition: partition) }

            /// SQLite's order: NULL first, then text byte by byte (the BINARY collation), then partition.
            func precedes(_ other: Group) -> Bool {
                switch (recipe, other.recipe) {
                case (nil, nil): return partition < other.partition
                case (nil, _): return true
                case (_, nil): return false
                case (let a?, let b?):
                    return a == b ? partition < other.partition : a.utf8.lexicographicallyPrecedes(b.utf8)
                }
            }
        }

        struct Key: Equatable {
            var recipe: [UInt8]?
            var partition: Int
        }

        private let rows: SQLiteStatement
        private var pending: Group?
        /// Stepped past its last row: stepped again, SQLite would run the query from the start.
        private var finished = false

        init(_ rows: SQLiteStatement) { self.rows = rows }

        func next() throws -> Group? {
            var group = pending
            pending = nil
            while !finished {
                guard try rows.step() else {
                    finished = true
                    break
                }
                let recipe = rows.optionalText(0), partition = rows.int(1)
                // A chunk's entries are a JSON list: `[e1,e2]` and `[e3]` join as `e1,e2,e3`.
                let list = rows.bytes(2).dropFirst().dropLast()
                if group != nil, group?.recipe == recipe, group?.partition == partition {
                    // In place, with no other reference to the entries: a copy would be made of all
                    // gathered so far at each chunk.
                    if !list.isEmpty {
                        if group?.entries.isEmpty == false { group?.entries.append(UInt8(ascii: ",")) }
                        group?.entries.append(contentsOf: list)
                    }
                } else if let current = group {
                    pending = Group(recipe: recipe, partition: partition, entries: Array(list))
                    return current
                } else {
                    group = Group(recipe: recipe, partition: partition, entries: Array(list))
                }
            }
            return group
        }
    }
}
