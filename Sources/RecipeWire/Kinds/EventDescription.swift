import RecipeDomain
import RecipeJSON

// MARK: - Event description

/// Everything a decision's record knows of one event kind, in one place: its data
/// version, its fields (types, presence, bounds, schema words), how its `data` is read
/// into a `RecipeEvent` and what an event of it writes. The event reader (`EventFormats`)
/// and writer (`EventWriter`) and the generated schemas of Schemas/events/ come from
/// these; each kind's description is beside the command that causes it, in
/// Kinds/Commands/<Group>.swift.
///
/// An older data version keeps its own reader in `EventFormats.older`: a decision is
/// kept forever and read into today's event; only the version described is written.
public struct EventDescription: Sendable {
    public let kind: RecipeEvent.Kind
    /// The data version the encoder writes.
    public let version: Int
    /// What the schema says after "The `data` of a `<Kind>.v<N>` event in a decision (…)".
    public let summary: String
    public let fields: [FieldSpec]
    let read: EventFormat.Reader
    /// How an event of the kind writes its `data`.
    enum Writing: Sendable {
        /// Gives the event's members to `put` one by one, in the order of `fields` (an absent
        /// one as `.absent`); false, having given none, for an event of another kind. Given
        /// rather than returned as an array: the writer puts each straight into the bytes.
        case values(@Sendable (RecipeEvent, _ put: (DataValue) -> Void) -> Bool)
        /// Writes the whole `data` object (a content, by `ContentJSON`); false, having written
        /// nothing, for an event of another kind.
        case json(@Sendable (RecipeEvent, inout JSONWriter) -> Bool)
    }

    let writing: Writing

    init(_ kind: RecipeEvent.Kind, version: Int = 1, summary: String, fields: [FieldSpec],
         read: @escaping EventFormat.Reader, values: @escaping @Sendable (RecipeEvent, _ put: (DataValue) -> Void) -> Bool) {
        self.init(kind, version: version, summary: summary, fields: fields, read: read, writing: .values(values))
    }

    init(_ kind: RecipeEvent.Kind, version: Int = 1, summary: String, fields: [FieldSpec],
         read: @escaping EventFormat.Reader, writing: Writing) {
        self.kind = kind
        self.version = version
        self.summary = summary
        self.fields = fields
        self.read = read
        self.writing = writing
    }

    /// The reader of the version written.
    var format: EventFormat { EventFormat(kind, version: version, fields: fields.map(\.field), read: read) }

    /// Every kind's description, in `allCases` order (so `all[kind.ordinal]` is `kind`'s).
    public static let all: [EventDescription] = RecipeEvent.Kind.allCases.map(describing)

    /// Every kind is listed: a new event kind does not compile until it is described.
    static func describing(_ kind: RecipeEvent.Kind) -> EventDescription {
        switch kind {
        case .draftOpened: .draftOpened
        case .titleChanged: .titleChanged
        case .servingsChanged: .servingsChanged
        case .imageChanged: .imageChanged
        case .ingredientAdded: .ingredientAdded
        case .ingredientUpdated: .ingredientUpdated
        case .ingredientRemoved: .ingredientRemoved
        case .instructionAdded: .instructionAdded
        case .instructionUpdated: .instructionUpdated
        case .instructionRemoved: .instructionRemoved
        case .instructionMoved: .instructionMoved
        case .tagAdded: .tagAdded
        case .tagChanged: .tagChanged
        case .tagRemoved: .tagRemoved
        case .descriptionChanged: .descriptionChanged
        case .yieldChanged: .yieldChanged
        case .timesChanged: .timesChanged
        case .sourceChanged: .sourceChanged
        case .nutritionChanged: .nutritionChanged
        case .contentSet: .contentSet
        case .versionCommitted: .versionCommitted
        case .draftDiscarded: .draftDiscarded
        case .recipeDeleted: .recipeDeleted
        case .accessGranted: .accessGranted
        case .accessRevoked: .accessRevoked
        case .ownershipTransferred: .ownershipTransferred
        case .ownerAssigned: .ownerAssigned
        }
    }
}
