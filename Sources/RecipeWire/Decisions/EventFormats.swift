import RecipeDomain

// MARK: - Event formats and upcasting
//
// As `DataFormats` for commands: every (event kind, version) a decision may hold
// has one `EventFormat`, the fields of its `data` and a reader that turns them
// into *today's* `RecipeEvent`; a version the table lacks is `unsupportedVersion`.
// The version written comes from the kind's `EventDescription`; a new version of an
// event changes its description and moves the old reader to `EventFormats.older`
// (decisions are kept forever).

/// How to read one version of one event's `data`.
struct EventFormat: Sendable {
    typealias Reader = @Sendable (DataFields) throws(WireError) -> RecipeEvent

    let kind: RecipeEvent.Kind
    let version: Int
    let fields: [DataField]
    let read: Reader

    init(_ kind: RecipeEvent.Kind, version: Int, fields: [DataField], read: @escaping Reader) {
        precondition(fields.count <= DataFields.capacity, "an event format has at most \(DataFields.capacity) fields")
        precondition(version >= 1)
        self.kind = kind
        self.version = version
        self.fields = fields
        self.read = read
    }
}

/// Every data version of every event kind the decoder reads.
struct EventFormats: Sendable {
    static let standard = EventFormats(all)

    /// Indexed by the kind's position in `allCases`, then by version - 1.
    private let table: [[EventFormat?]]

    init(_ formats: [EventFormat]) {
        precondition(RecipeEvent.Kind.allCases.indices.allSatisfy { RecipeEvent.Kind.allCases[$0].ordinal == $0 },
                     "RecipeEvent.Kind.ordinal must be the position in allCases")
        var table = [[EventFormat?]](repeating: [], count: RecipeEvent.Kind.allCases.count)
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

    func format(_ kind: RecipeEvent.Kind, version: Int) -> EventFormat? {
        let versions = table[kind.ordinal]
        guard version >= 1, version <= versions.count else { return nil }
        return versions[version - 1]
    }

    func currentVersion(of kind: RecipeEvent.Kind) -> Int { table[kind.ordinal].count }

    func versions(of kind: RecipeEvent.Kind) -> [Int] { table[kind.ordinal].compactMap { $0?.version } }

    private static let names = CaseNames<RecipeEvent.Kind>()

    /// The event kind whose name is `name` exactly (case-sensitive), if any.
    static func kind(named name: UnsafeRawBufferPointer) -> RecipeEvent.Kind? { names.value(named: name) }
}

extension RecipeEvent.Kind {
    /// Position in `allCases`, as `RecipeCommand.Kind.ordinal` finds it (the case's
    /// index, which is how Swift stores an enum without payloads; `EventFormats.init`
    /// checks it for every kind). A dictionary of ordinals hashed the kind's name at
    /// every event read: 1.5 % of decoding a decision.
    var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}

// MARK: - The versions read

extension EventFormats {
    /// Every version of every kind: the one each description writes, and the older ones.
    static let all: [EventFormat] = EventDescription.all.map(\.format) + older

    /// Readers of the event versions no longer written, each turning its data into today's
    /// event (none yet: every event kind is at the version its description writes).
    static let older: [EventFormat] = []
}
