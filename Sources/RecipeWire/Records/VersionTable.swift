import RecipeDomain

// MARK: - Versions of a kind's data

/// A kind of `data` (a command's, an event's): an enum without payloads whose raw value is its
/// stable name.
protocol DataKind: RawRepresentable, CaseIterable, Sendable where RawValue == String, AllCases == [Self] {}

extension DataKind {
    /// Position in `allCases`, without hashing, searching or a numbering to keep by hand: an
    /// enum without payloads is stored as the index of its case in declaration order (Swift's
    /// type layout), and `allCases` is that order. `VersionTable.init` checks it for every kind.
    var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}

extension RecipeCommand.Kind: DataKind {}
extension RecipeEvent.Kind: DataKind {}

/// How to read one version of one kind's `data` into today's value: there is no chain
/// v1 → v2 → v3, each version's reader maps straight to the current command or event.
struct VersionedFormat<Kind: DataKind, Value: Sendable>: Sendable {
    typealias Reader = @Sendable (DataFields) throws(WireError) -> Value

    let kind: Kind
    let version: Int
    /// The members `data` may have, in canonical order, each with its JSON type and whether it
    /// is required; the reader reads them with the matching accessors.
    let fields: [DataField]
    let read: Reader

    init(_ kind: Kind, version: Int, fields: [DataField], read: @escaping Reader) {
        precondition(fields.count <= DataFields.capacity, "a data format has at most \(DataFields.capacity) fields")
        precondition(version >= 1)
        self.kind = kind
        self.version = version
        self.fields = fields
        self.read = read
    }
}

/// Every data version a decoder reads, per kind; a version it lacks is `unsupportedVersion`,
/// never guessed at.
struct VersionTable<Kind: DataKind, Value: Sendable>: Sendable {
    /// Indexed by `kind.ordinal`, then by version - 1; nil for a missing version.
    private let table: [[VersionedFormat<Kind, Value>?]]

    init(_ formats: [VersionedFormat<Kind, Value>]) {
        precondition(Kind.allCases.indices.allSatisfy { Kind.allCases[$0].ordinal == $0 },
                     "\(Kind.self).ordinal must be the position in allCases")
        var table = [[VersionedFormat<Kind, Value>?]](repeating: [], count: Kind.allCases.count)
        for format in formats {
            let ordinal = format.kind.ordinal
            if table[ordinal].count < format.version {
                table[ordinal] += Array(repeating: nil, count: format.version - table[ordinal].count)
            }
            precondition(table[ordinal][format.version - 1] == nil, "\(format.kind) v\(format.version) listed twice")
            table[ordinal][format.version - 1] = format
        }
        self.table = table
    }

    func format(_ kind: Kind, version: Int) -> VersionedFormat<Kind, Value>? {
        let versions = table[kind.ordinal]
        guard version >= 1, version <= versions.count else { return nil }
        return versions[version - 1]
    }

    /// The newest version: the one the kind's description writes.
    func currentVersion(of kind: Kind) -> Int { table[kind.ordinal].count }

    func versions(of kind: Kind) -> [Int] { table[kind.ordinal].compactMap { $0?.version } }
}
