import RecipeDomain
import Testing

/// The access rules in the fold alone: the record's actor and role against the recipe's owner and grants.
@Suite("Access rules in the fold")
struct AccessRuleTests {
    var recipe = Recipe(id: "r-1")
    var next = 0

    mutating func send(_ command: RecipeCommand, by actor: String, as role: ActorRole? = .writer) -> RecipeDecision {
        next += 1
        return recipe.apply(CommandEnvelope(commandID: "c-\(next)", recipeID: "r-1", actor: actor,
                                            time: Timestamp(millisecondsSinceEpoch: Int64(next)), actorRole: role, command: command))
    }

    static func code(_ decision: RecipeDecision) -> RejectionCode? {
        if case .rejected(let rejection) = decision { return rejection.code }
        return nil
    }

    @Test mutating func theFirstActorOwnsAndSharesTheRecipe() {
        #expect(Self.code(send(.draftStarted, by: "alice")) == nil)
        #expect(recipe.owner == "alice")
        #expect(Self.code(send(.titleChanged(title: "x"), by: "bob")) == .forbidden)
        #expect(Self.code(send(.accessGranted(grantee: "bob", role: .editor), by: "bob")) == .forbidden)
        #expect(Self.code(send(.accessGranted(grantee: "bob", role: .editor), by: "alice")) == nil)
        #expect(recipe.grants == [AccessGrant(actor: "bob", role: .editor)])
        #expect(Self.code(send(.titleChanged(title: "x"), by: "bob")) == nil)
        #expect(Self.code(send(.recipeDeleted, by: "bob")) == .forbidden)
        #expect(Self.code(send(.accessGranted(grantee: "bob", role: .viewer), by: "alice")) == nil)
        #expect(Self.code(send(.titleChanged(title: "y"), by: "bob")) == .forbidden)
        #expect(Self.code(send(.accessGranted(grantee: "alice", role: .viewer), by: "alice")) == .invalid)
        #expect(Self.code(send(.accessRevoked(grantee: "dai"), by: "alice")) == .invalid)
        #expect(Self.code(send(.accessRevoked(grantee: "bob"), by: "alice")) == nil)
        #expect(recipe.grants.isEmpty)
        #expect(Self.code(send(.ownershipTransferred(newOwner: "bob"), by: "alice")) == nil)
        #expect(recipe.owner == "bob")
        #expect(Self.code(send(.titleChanged(title: "z"), by: "alice")) == .forbidden)
        #expect(Self.code(send(.titleChanged(title: "z"), by: "root", as: .admin)) == nil)
        #expect(Self.code(send(.titleChanged(title: "z"), by: "bob", as: .reader)) == .forbidden)
        // Records without a role (older logs, open mode, recipes send) are not checked.
        #expect(Self.code(send(.titleChanged(title: "w"), by: "mallory", as: nil)) == nil)
        #expect(Self.code(send(.recipeDeleted, by: "root", as: .admin)) == nil)
    }

    @Test mutating func forbiddenComesBeforeDeletedAndConflict() {
        _ = send(.draftStarted, by: "alice")
        _ = send(.recipeDeleted, by: "alice")
        #expect(Self.code(send(.titleChanged(title: "x"), by: "bob")) == .forbidden)
        #expect(Self.code(send(.titleChanged(title: "x"), by: "alice")) == .deleted)
    }

    @Test mutating func nothingToShareBeforeARecipeExists() {
        #expect(Self.code(send(.accessGranted(grantee: "bob", role: .viewer), by: "alice")) == .invalid)
        #expect(recipe.owner == nil)
    }
}
