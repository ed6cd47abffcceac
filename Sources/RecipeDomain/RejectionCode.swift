// MARK: - Rejection code

/// Why a command or record was turned down, machine-readable. The raw values are
/// part of the wire format and of the history read model: never rename them.
public enum RejectionCode: String, Sendable, Hashable, CaseIterable {
    // Rules of the domain.

    /// A field breaks its rule (blank, too long, out of range, not http(s), id taken…).
    case invalid
    /// `expectedRevision` differs from the recipe's revision.
    case conflict
    /// `RecipeSaved` or `DraftDiscarded` with no open draft.
    case noDraft
    /// `RecipeSaved` on a draft without a title or without ingredients.
    case notSavable
    /// The ingredient id is not in the draft.
    case unknownIngredient
    /// The instruction id is not in the draft.
    case unknownInstruction
    /// The text does not hold exactly one well-formed tag.
    case invalidTag
    /// Another tag already has this name (ignoring case).
    case duplicateTag
    /// No tag has this name.
    case unknownTag
    /// The recipe was deleted; it takes no more commands.
    case deleted
    /// The draft already has the most ingredients, instructions or tags allowed.
    case limitExceeded
    /// The actor may not do this to this recipe: not its owner, not an editor
    /// (for edits), not an admin; or a reader.
    case forbidden

    // Records that cannot be decoded; produced by the wire layer, not by the fold
    // (except `keyMismatch`, which the fold also uses as a routing guard).

    /// Not a well-formed record.
    case malformed
    /// The record's type names no known command.
    case unknownType
    /// The record's format version is not understood.
    case unsupportedVersion
    /// The record's key and the recipe id it carries disagree.
    case keyMismatch
    /// The record is larger than allowed.
    case tooLarge
    /// The record sits on a partition its key does not hash to.
    case wrongPartition
}
