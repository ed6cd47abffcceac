import RecipeDomain
import RecipeJSON

// MARK: - Access
//
// Who may act on a recipe: grants and its owner.

extension CommandDescription {
    static let accessGranted = CommandDescription(
        .accessGranted, summary: ". Shares the recipe with an actor as editor or viewer, replacing an earlier grant; only its owner or an admin may.",
        fields: [
            .string("grantee", .actorName,
                "The actor shared with (a token's actor); at most 128 characters. An actor name (ActorName): in Unicode NFC (jose\\u0301 is invalid, naming jos\\u00e9), without spaces, control characters or '#'."),
            .string("role", .oneOf(["editor", "viewer"]),
                "editor: may edit, save and discard drafts; viewer: may see it under --private."),
        ],
        read: { data throws(WireError) in
            let role = try data.string("role")
            guard let accessRole = AccessRole(rawValue: role) else {
                throw .invalid("data.role", "must be editor or viewer, not \(quoted(role))")
            }
            return .accessGranted(grantee: try data.string("grantee"), role: accessRole)
        },
        values: { command, put in
            guard case .accessGranted(let grantee, let role) = command else { return false }
            put(.string(grantee))
            put(.string(role.rawValue))
            return true
        })

    static let accessRevoked = CommandDescription(
        .accessRevoked, summary: ". Takes back what was granted to an actor; only the recipe's owner or an admin may.",
        fields: [
            .string("grantee", .actorName,
                "The actor whose grant ends; at most 128 characters. An actor name (ActorName): in Unicode NFC (jose\\u0301 is invalid, naming jos\\u00e9), without spaces, control characters or '#'."),
        ],
        read: { data throws(WireError) in .accessRevoked(grantee: try data.string("grantee")) },
        values: { command, put in guard case .accessRevoked(let grantee) = command else { return false }; put(.string(grantee)); return true })

    static let ownershipTransferred = CommandDescription(
        .ownershipTransferred, summary: ". Makes another actor the recipe's owner; the previous owner keeps no access. Only the owner or an admin may.",
        fields: [
            .string("newOwner", .actorName,
                "The actor who owns the recipe from now on; at most 128 characters. An actor name (ActorName): in Unicode NFC (jose\\u0301 is invalid, naming jos\\u00e9), without spaces, control characters or '#'."),
        ],
        read: { data throws(WireError) in .ownershipTransferred(newOwner: try data.string("newOwner")) },
        values: { command, put in guard case .ownershipTransferred(let newOwner) = command else { return false }; put(.string(newOwner)); return true })
}

extension EventDescription {
    static let accessGranted = EventDescription(
        .accessGranted, summary: ". The owner shared the recipe.",
        fields: [
            .string("actor", "Who now holds the role (replacing what it held)."),
            .string("role", .oneOf(AccessRole.allCases.map(\.rawValue)), "The role shared."),
        ],
        read: { data throws(WireError) in
            let role = try data.string("role")
            guard let accessRole = AccessRole(rawValue: role) else {
                throw data.error(.invalid, "role", "must be editor or viewer, not \(quoted(role))")
            }
            return .accessGranted(AccessGrant(actor: try data.string("actor"), role: accessRole))
        },
        values: { event, put in
            guard case .accessGranted(let grant) = event else { return false }
            put(.string(grant.actor))
            put(.string(grant.role.rawValue))
            return true
        })

    static let accessRevoked = EventDescription(
        .accessRevoked, summary: ". A grant was revoked.",
        fields: [
            .string("actor", "Who holds no grant any more."),
        ],
        read: { data throws(WireError) in .accessRevoked(actor: try data.string("actor")) },
        values: { event, put in
            guard case .accessRevoked(let actor) = event else { return false }
            put(.string(actor))
            return true
        })

    static let ownershipTransferred = EventDescription(
        .ownershipTransferred, summary: ". The recipe was given to another actor.",
        fields: [
            .string("newOwner", "Who owns the recipe now; it holds no grant beside that."),
        ],
        read: { data throws(WireError) in .ownershipTransferred(newOwner: try data.string("newOwner")) },
        values: { event, put in
            guard case .ownershipTransferred(let newOwner) = event else { return false }
            put(.string(newOwner))
            return true
        })

    static let ownerAssigned = EventDescription(
        .ownerAssigned,
        summary: ". The recipe, which had no owner, is owned by `owner`: the first event of the first command accepted for a recipe.",
        fields: [
            .string("owner", "Who owns the recipe: the actor of its first accepted command."),
        ],
        read: { data throws(WireError) in .ownerAssigned(owner: try data.string("owner")) },
        values: { event, put in
            guard case .ownerAssigned(let owner) = event else { return false }
            put(.string(owner))
            return true
        })
}
