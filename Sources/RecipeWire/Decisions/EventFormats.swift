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
typealias EventFormat = VersionedFormat<RecipeEvent.Kind, RecipeEvent>

/// Every data version of every event kind the decoder reads.
enum EventFormats {
    static let standard = VersionTable(all)

    private static let names = CaseNames<RecipeEvent.Kind>()

    /// The event kind whose name is `name` exactly (case-sensitive), if any.
    static func kind(named name: UnsafeRawBufferPointer) -> RecipeEvent.Kind? { names.value(named: name) }
}

// MARK: - The versions read

extension EventFormats {
    /// Every version of every kind: the one each description writes, and the older ones.
    static let all: [EventFormat] = EventDescription.all.map(\.format) + older

    /// Readers of the event versions no longer written, each turning its data into today's
    /// event (none yet: every event kind is at the version its description writes).
    static let older: [EventFormat] = []
}
