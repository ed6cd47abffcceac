import CSQLite
import RecipeDomain

/// An error from SQLite, with its result code and message.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var description: String { "SQLite error \(code): \(message)" }
}

/// One SQLite connection, used by one thread at a time: the projector's
/// writer, or a query reader. Statements are prepared once and cached.
final class SQLiteConnection {
    let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    let path: String
    /// How long a statement waits for another connection's lock before it fails.
    static let busyTimeoutMilliseconds: Int32 = 60_000

    init(path: String, readOnly: Bool = false) throws {
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw SQLiteError(code: status, message: "\(path): \(message)")
        }
        self.handle = handle
        self.path = path
        // Readers and the writer may meet each other's locks (a checkpoint, a new store
        // switching to WAL): wait rather than fail.
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL without results (several statements allowed).
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        guard status == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw SQLiteError(code: status, message: message)
        }
    }

    /// A cached prepared statement, reset and ready to bind.
    func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var pointer: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard status == SQLITE_OK, let pointer else {
            throw SQLiteError(code: status, message: "\(lastMessage) in: \(sql)")
        }
        let statement = SQLiteStatement(pointer, connection: self)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    /// A write transaction takes the write lock at once (no upgrade deadlocks);
    /// a read transaction sees one snapshot and never blocks the writer (WAL).
    /// BEGIN and COMMIT are cached statements too: `sqlite3_exec` would parse them each time
    /// (a fifth of a detail query's instructions).
    func transaction<T>(writing: Bool = true, _ body: () throws -> T) throws -> T {
        try statement(writing ? "BEGIN IMMEDIATE" : "BEGIN").run()
        // A statement left mid-rows would keep the read snapshot open past COMMIT.
        do {
            let result = try body()
            for statement in statements.values { statement.reset() }
            try statement("COMMIT").run()
            return result
        } catch {
            for statement in statements.values { statement.reset() }
            try? statement("ROLLBACK").run()
            throw error
        }
    }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }
}

/// A prepared statement: bind by position (1-based), step, read columns (0-based).
/// Text goes in and comes out with its length in bytes, never as a C string ended by
/// its first NUL: `r\0x` and `r\0y` are two values to SQLite as they are to Swift.
final class SQLiteStatement {
    private let pointer: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(_ pointer: OpaquePointer, connection: SQLiteConnection) {
        self.pointer = pointer
        self.connection = connection
    }

    deinit { sqlite3_finalize(pointer) }

    func reset() {
        sqlite3_reset(pointer)
        sqlite3_clear_bindings(pointer)
    }

    @discardableResult
    func bind(_ values: SQLiteValue?...) -> SQLiteStatement {
        for (index, value) in values.enumerated() { bind(value, at: Int32(index + 1)) }
        return self
    }

    func bind(_ value: SQLiteValue?, at index: Int32) {
        switch value {
        case nil: sqlite3_bind_null(pointer, index)
        case .integer(let number)?: sqlite3_bind_int64(pointer, index, number)
        case .real(let number)?: sqlite3_bind_double(pointer, index, number)
        case .text(var text)?:
            text.withUTF8 { bindText(UnsafeRawBufferPointer($0), at: index) }
        case .utf8(let bytes)?:
            bytes.withUnsafeBytes { bindText($0, at: index) }
        case .blob(let bytes)?:
            _ = bytes.withUnsafeBytes { sqlite3_bind_blob(pointer, index, $0.baseAddress, Int32($0.count), sqliteTransient) }
        }
    }

    /// Text of exactly these bytes. Never a null pointer: SQLite binds NULL for one, and
    /// empty text is not NULL.
    private func bindText(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        withUnsafePointer(to: 0 as CChar) { empty in
            let start = bytes.baseAddress.map { $0.assumingMemoryBound(to: CChar.self) } ?? empty
            sqlite3_bind_text(pointer, index, start, Int32(bytes.count), sqliteTransient)
        }
    }

    /// Advances to the next row: true if there is one.
    func step() throws -> Bool {
        switch sqlite3_step(pointer) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status: throw SQLiteError(code: status, message: connection.lastMessage)
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws {
        while try step() {}
    }

    /// Every row, mapped.
    func rows<T>(_ map: (SQLiteStatement) throws -> T) throws -> [T] {
        var result: [T] = []
        while try step() { result.append(try map(self)) }
        return result
    }

    var columnCount: Int32 { sqlite3_column_count(pointer) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(pointer, column) == SQLITE_NULL }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(pointer, column)) }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }
    func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(pointer, column) }
    /// The column as text, all of its bytes (a NUL within included).
    func text(_ column: Int32) -> String {
        // The length is asked after the text: asking first may convert the value again.
        guard let start = sqlite3_column_text(pointer, column) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(pointer, column))), as: UTF8.self)
    }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(pointer, column))
        guard count > 0, let start = sqlite3_column_blob(pointer, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }
}

/// A value to bind.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Text already encoded as UTF-8.
    case utf8([UInt8])
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    init(stringLiteral value: String) { self = .text(value) }
    init(integerLiteral value: Int64) { self = .integer(value) }
    static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
    static func int(_ value: Int?) -> SQLiteValue? { value.map { .integer(Int64($0)) } }
    static func string(_ value: String?) -> SQLiteValue? { value.map { .text($0) } }
    static func id(_ id: RecipeID) -> SQLiteValue { .text(id.text) }
    static func id(_ id: RecipeID?) -> SQLiteValue? { id.map { .text($0.text) } }
}

/// SQLITE_TRANSIENT, a macro Swift cannot import: SQLite copies the bytes.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
