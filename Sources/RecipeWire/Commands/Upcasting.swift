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
typealias DataFormat = VersionedFormat<RecipeCommand.Kind, RecipeCommand>

/// The upcasting table: every data version the decoder reads, per command.
enum DataFormats {
    /// Today's table: the older versions and the described ones.
    static let standard = VersionTable(older + current)

    private static let names = CaseNames<RecipeCommand.Kind>()

    /// The command whose name is `name` exactly (case-sensitive), if any.
    static func kind(named name: UnsafeRawBufferPointer) -> RecipeCommand.Kind? { names.value(named: name) }
}
