// MARK: - Who may do what to a recipe

/// The role a token gives its actor, as the gateway that checked the token wrote
/// it into the record (the CloudEvents extension `actorrole`). The fold never
/// sees tokens: it trusts the record, because only trusted producers write the
/// log. A record without a role (written before roles existed, by a gateway
/// without tokens, or by `recipes send`) is not checked at all, so existing logs
/// keep the meaning they had.
public enum ActorRole: String, Sendable, Hashable, CaseIterable {
    /// May act on any recipe; the history shows the role beside the command.
    case admin
    /// May create recipes, and act on the ones it owns or was made editor of.
    case writer
    /// May read only; a command from a reader is `forbidden`.
    case reader
}

/// What the owner of a recipe shares it as.
public enum AccessRole: String, Sendable, Hashable, CaseIterable {
    /// May edit, save and discard drafts (not delete, share or transfer).
    case editor
    /// May see the recipe under `--private`; may not write.
    case viewer
}

/// One actor's share of a recipe.
public struct AccessGrant: Sendable, Hashable {
    public var actor: String
    public var role: AccessRole

    public init(actor: String, role: AccessRole) {
        self.actor = actor
        self.role = role
    }
}

extension Recipe {
    /// The role `actor` was granted, if any.
    public func grantedRole(of actor: String) -> AccessRole? {
        grants.first { $0.actor == actor }?.role
    }

    /// Whether `actor` may see this recipe when reads are private: its owner and
    /// everyone it is shared with (admins see everything; that is the caller's check).
    public func isVisible(to actor: String) -> Bool {
        owner == actor || grantedRole(of: actor) != nil
    }
}
