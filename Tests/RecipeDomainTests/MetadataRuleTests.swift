import RecipeDomain
import Testing

@Suite("Command metadata: duplicates, expected revision, ids, routing")
struct MetadataRuleTests {
    @Test func aCommandIDAppliedBeforeIsADuplicateWithNoSecondEffect() {
        var scenario = RecipeScenario()
        let envelope = scenario.envelope(.addIngredient("flour", 100, "g"))
        #expect(scenario.send(envelope).isAccepted)
        let before = scenario.recipe
        #expect(scenario.send(envelope).isDuplicate)
        #expect(scenario.recipe == before)
        #expect(scenario.draft?.ingredients.count == 1)
        #expect(scenario.recipe.revision == 1)
    }

    @Test func theDuplicateCheckLooksAtTheIDNotTheCommand() {
        var scenario = RecipeScenario()
        scenario.given(.title("A"))
        #expect(scenario.when(.title("B"), id: "cmd-1").isDuplicate)
        #expect(scenario.draft?.title == "A")
    }

    @Test func theDuplicateCheckComesBeforeDeletedAndConflict() {
        var scenario = RecipeScenario()
        let edit = scenario.envelope(.title("A"), expectedRevision: 0)
        scenario.send(edit)
        scenario.given(events: .recipeDeleted)
        // Resent after the recipe was deleted and with a stale expected revision:
        // still only a duplicate.
        #expect(scenario.send(edit).isDuplicate)
    }

    @Test func aRejectedCommandIDIsNotRememberedSoItMayBeRetried() {
        var scenario = RecipeScenario()
        #expect(scenario.when(.servingsChanged(servings: 0), id: "retry-me").rejectionCode == .invalid)
        #expect(!scenario.recipe.hasApplied("retry-me"))
        #expect(scenario.when(.servingsChanged(servings: 2), id: "retry-me").isAccepted)
        #expect(scenario.recipe.hasApplied("retry-me"))
    }

    @Test func theRevisionCountsAcceptedCommandsOnly() {
        var scenario = RecipeScenario()
        scenario.given(.title("A"))
        scenario.when(.servingsChanged(servings: 0))
        scenario.when(.title("B"), id: "cmd-1")
        scenario.given(.servingsChanged(servings: 3))
        #expect(scenario.recipe.revision == 2)
        #expect(scenario.recipe.appliedCommandIDs == ["cmd-1", "cmd-4"])
    }

    @Test func aMatchingExpectedRevisionIsAccepted() {
        var scenario = RecipeScenario()
        scenario.given(.title("A"), .title("B"))
        #expect(scenario.when(.title("C"), expectedRevision: 2).isAccepted)
    }

    @Test(arguments: [0, 1, 3, -1])
    func aDifferentExpectedRevisionIsAConflict(expected: Int) {
        var scenario = RecipeScenario()
        scenario.given(.title("A"), .title("B"))
        #expect(scenario.when(.title("C"), expectedRevision: expected).rejectionCode == .conflict)
        #expect(scenario.draft?.title == "B")
    }

    @Test func aDeletedRecipeRejectsAsDeletedEvenWithAStaleExpectedRevision() {
        var scenario = RecipeScenario()
        scenario.given(events: .ownerAssigned(owner: "alice"), .recipeDeleted)
        #expect(scenario.when(.title("B"), expectedRevision: 0).rejectionCode == .deleted)
    }

    @Test(arguments: ["", "  ", String(repeating: "x", count: RecipeLimits.maxIdentifierLength + 1)])
    func aBlankOrOverlongCommandIDIsInvalid(commandID: String) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.title("A"), id: commandID).rejectionCode == .invalid)
    }

    @Test func aCommandIDOfTheLongestAllowedLengthIsAccepted() {
        var scenario = RecipeScenario()
        #expect(scenario.when(.title("A"), id: String(repeating: "é", count: RecipeLimits.maxIdentifierLength)).isAccepted)
    }

    @Test func aCommandForAnotherRecipeIsAKeyMismatch() {
        let recipe = Recipe(id: "recipe-1")
        let envelope = CommandEnvelope(
            commandID: "c1", recipeID: "recipe-2", actor: "alice",
            time: Timestamp(millisecondsSinceEpoch: 0), command: .title("A"))
        #expect(RecipeDecider.fold(recipe, envelope).rejectionCode == .keyMismatch)
    }
}
