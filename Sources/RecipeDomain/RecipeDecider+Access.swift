// MARK: - Access rules: ownership, sharing, roles

extension RecipeDecider {
    /// Whether the record's actor may issue this command to this recipe.
    ///
    /// Decided from the record alone (its `actor` and `actorrole`) and the
    /// recipe's owner and grants, which the fold itself built: every replica and
    /// every replay agrees. A record without a role is not checked: it was
    /// written before roles existed, by a gateway without tokens (open mode,
    /// where everyone is the same anonymous actor), or by a producer with direct
    /// access to the log, all of which the log trusts as it always did.
    static func accessRejection(_ envelope: CommandEnvelope, _ state: Recipe) -> Rejection? {
        guard let role = envelope.actorRole else { return nil }
        switch role {
        case .admin:
            return nil
        case .reader:
            return Rejection(.forbidden, "\(envelope.actor) is a reader and may not write.")
        case .writer:
            break
        }
        // A recipe no command was accepted for has no owner yet: whoever creates it owns it.
        guard let owner = state.owner, envelope.actor != owner else { return nil }
        let kind = envelope.command.kind
        if kind.isAccessChange || kind == .recipeDeleted {
            return Rejection(.forbidden, "Only the owner (\(owner)) or an admin may \(verb(kind)) this recipe.")
        }
        switch state.grantedRole(of: envelope.actor) {
        case .editor?:
            return nil
        case .viewer?:
            return Rejection(.forbidden, "\(envelope.actor) may view this recipe but not change it.")
        case nil:
            return Rejection(.forbidden, "\(envelope.actor) has no access to this recipe; its owner may share it.")
        }
    }

    private static func verb(_ kind: RecipeCommand.Kind) -> String {
        switch kind {
        case .recipeDeleted: "delete"
        case .accessGranted: "share"
        case .accessRevoked: "revoke access to"
        default: "transfer"
        }
    }

    /// Shares the recipe; a second grant to the same actor replaces the first.
    static func accessGranted(grantee: String, role: AccessRole, _ state: Recipe) -> Result<[RecipeEvent], Rejection> {
        if let rejection = shareable(state) ?? FieldRules.identifier(grantee, "The actor to share with")
            ?? FieldRules.actorName(grantee, "The actor to share with") {
            return .failure(rejection)
        }
        if grantee == state.owner {
            return .failure(Rejection(.invalid, "\(grantee) owns the recipe already."))
        }
        if state.grantedRole(of: grantee) == role {
            return .failure(Rejection(.invalid, "\(grantee) is \(role.rawValue) already."))
        }
        return .success([.accessGranted(AccessGrant(actor: grantee, role: role))])
    }

    static func accessRevoked(grantee: String, _ state: Recipe) -> Result<[RecipeEvent], Rejection> {
        if let rejection = shareable(state) { return .failure(rejection) }
        guard state.grantedRole(of: grantee) != nil else {
            return .failure(Rejection(.invalid, "\(grantee) holds no access to revoke."))
        }
        return .success([.accessRevoked(actor: grantee)])
    }

    /// Gives the recipe to another actor. The previous owner keeps nothing: to
    /// stay an editor, the new owner shares it back.
    static func ownershipTransferred(newOwner: String, _ state: Recipe) -> Result<[RecipeEvent], Rejection> {
        if let rejection = shareable(state) ?? FieldRules.identifier(newOwner, "The new owner")
            ?? FieldRules.actorName(newOwner, "The new owner") {
            return .failure(rejection)
        }
        if newOwner == state.owner {
            return .failure(Rejection(.invalid, "\(newOwner) owns the recipe already."))
        }
        return .success([.ownershipTransferred(newOwner: newOwner)])
    }

    /// A recipe no command created has nothing to share, and accepting would make
    /// the sharer the owner of an id nobody started.
    private static func shareable(_ state: Recipe) -> Rejection? {
        state.revision == 0 ? Rejection(.invalid, "There is no recipe to share.") : nil
    }
}
