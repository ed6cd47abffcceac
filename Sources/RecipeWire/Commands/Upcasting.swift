import RecipeDomain

// MARK: - Data formats and upcasting
//
// Every (command, version) the decoder reads has one `DataFormat`: the field
// names of its `data` and a reader that turns them into *today's* command. There
// is no chain v1 → v2 → v3: each version's reader maps straight to the current
// `RecipeCommand`, so one place per version holds all it takes to read it, and
// when the domain's command changes the compiler points at every reader to adjust.
//
// A new version of a command changes its `CommandDescription` (the newest version,
// which the encoder writes) and moves the version it replaces, as a `DataFormat`, to
// `DataFormats.older`, so old records keep decoding. A version the table lacks is
// `unsupportedVersion`, never guessed at; docs/extending.md lists the rest.

/// How to read one version of one command's `data`.
struct DataFormat: Sendable {
    typealias Reader = @Sendable (DataFields) throws(WireError) -> RecipeCommand

    let kind: RecipeCommand.Kind
    let version: Int
    /// The members `data` may have, in canonical order, each with its JSON type and
    /// whether it is required; the reader reads them with the matching accessors
    /// (checked in debug builds).
    let fields: [DataField]
    let read: Reader

    init(_ kind: RecipeCommand.Kind, version: Int, fields: [DataField], read: @escaping Reader) {
        precondition(fields.count <= DataFields.capacity, "a data format has at most \(DataFields.capacity) fields")
        precondition(version >= 1)
        self.kind = kind
        self.version = version
        self.fields = fields
        self.read = read
    }
}

/// The upcasting table: every data version the decoder reads, per command.
struct DataFormats: Sendable {
    /// Today's table: the older versions and the described ones.
    static let standard = DataFormats(older + current)

    /// Indexed by `kind.ordinal`, then by version - 1; nil for a missing version.
    private let table: [[DataFormat?]]

    init(_ formats: [DataFormat]) {
        precondition(RecipeCommand.Kind.allCases.indices.allSatisfy { RecipeCommand.Kind.allCases[$0].ordinal == $0 },
                     "RecipeCommand.Kind.ordinal must be the position in allCases")
        var table = [[DataFormat?]](repeating: [], count: RecipeCommand.Kind.allCases.count)
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

    func format(_ kind: RecipeCommand.Kind, version: Int) -> DataFormat? {
        let versions = table[kind.ordinal]
        guard version >= 1, version <= versions.count else { return nil }
        return versions[version - 1]
    }

    func currentVersion(of kind: RecipeCommand.Kind) -> Int {
        table[kind.ordinal].count
    }

    func versions(of kind: RecipeCommand.Kind) -> [Int] {
        table[kind.ordinal].compactMap { $0?.version }
    }

    // MARK: - Command names

    private static let names = CaseNames<RecipeCommand.Kind>()

    /// The command whose name is `name` exactly (case-sensitive), if any.
    static func kind(named name: UnsafeRawBufferPointer) -> RecipeCommand.Kind? { names.value(named: name) }
}

extension RecipeCommand.Kind {
    /// Position in `allCases`, without hashing, searching or a numbering to keep by
    /// hand: an enum without payloads is stored as the index of its case in
    /// declaration order (Swift's type layout), and `allCases` is that order.
    /// `DataFormats.init` checks it for every kind.
    var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
