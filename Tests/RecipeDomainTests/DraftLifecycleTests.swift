import RecipeDomain
import Testing

@Suite("Drafts: start, implicit opening, save, discard, delete")
struct DraftLifecycleTests {
    /// A recipe with version 1 saved and no draft open.
    private func savedRecipe() -> RecipeScenario {
        var scenario = RecipeScenario()
        scenario.given(.title("Pancakes"), .addIngredient("flour", 250, "g", id: "flour"), .recipeSaved)
        return scenario
    }

    // MARK: - DraftStarted

    @Test func draftStartedOnANewRecipeOpensAnEmptyDraftOnVersionZero() {
        var scenario = RecipeScenario()
        let outcome = scenario.when(.draftStarted)
        #expect(outcome.events == [.ownerAssigned(owner: "alice"), .draftOpened(baseVersion: 0, implicit: false)])
        #expect(scenario.recipe.draft == RecipeDraft(content: .empty, baseVersion: 0))
        #expect(scenario.recipe.revision == 1)
    }

    @Test func draftStartedAfterASaveCopiesTheLatestVersion() {
        var scenario = savedRecipe()
        let outcome = scenario.when(.draftStarted)
        #expect(outcome.events == [.draftOpened(baseVersion: 1, implicit: false)])
        #expect(scenario.recipe.draft?.baseVersion == 1)
        #expect(scenario.draft == scenario.recipe.versions[0].content)
    }

    @Test func draftStartedWithADraftOpenIsRejectedAndKeepsTheDraft() {
        var scenario = RecipeScenario()
        scenario.given(.title("Soup"))
        let before = scenario.recipe
        let outcome = scenario.when(.draftStarted)
        #expect(outcome.rejectionCode == .invalid)
        #expect(scenario.recipe == before)
        #expect(scenario.draft?.title == "Soup")
    }

    // MARK: - Implicit drafts

    @Test func anEditOnANewRecipeOpensADraftImplicitly() {
        var scenario = RecipeScenario()
        let outcome = scenario.when(.title("Soup"))
        #expect(outcome.events == [.ownerAssigned(owner: "alice"), .draftOpened(baseVersion: 0, implicit: true), .titleChanged("Soup")])
        #expect(scenario.draft?.title == "Soup")
        #expect(scenario.recipe.revision == 1)
    }

    @Test func anEditAfterASaveOpensACopyOfTheLatestVersion() {
        var scenario = savedRecipe()
        let outcome = scenario.when(.servingsChanged(servings: 4))
        #expect(outcome.events == [.draftOpened(baseVersion: 1, implicit: true), .servingsChanged(4)])
        #expect(scenario.draft?.title == "Pancakes")
        #expect(scenario.draft?.ingredients.map(\.id) == ["flour"])
        #expect(scenario.recipe.versions[0].content.servings == nil)
    }

    @Test func anEditWithADraftOpenDoesNotOpenAnother() {
        var scenario = RecipeScenario()
        scenario.given(.title("Soup"))
        #expect(scenario.when(.title("Stew")).events == [.titleChanged("Stew")])
    }

    @Test func aRejectedEditDoesNotOpenADraft() {
        var scenario = savedRecipe()
        #expect(scenario.when(.servingsChanged(servings: 0)).rejectionCode == .invalid)
        #expect(scenario.recipe.draft == nil)
        #expect(scenario.recipe.revision == 3)
    }

    // MARK: - RecipeSaved

    @Test func savingCommitsTheDraftAsVersionOneWithTimeAndActorAndClosesIt() {
        var scenario = RecipeScenario()
        scenario.given(.title("Soup"), .addIngredient("water", 1, "l"))
        scenario.actor = "bob"
        let envelope = scenario.envelope(.recipeSaved)
        let outcome = scenario.send(envelope)
        #expect(outcome.events == [.versionCommitted(number: 1, savedAt: envelope.time, savedBy: "bob")])
        #expect(scenario.recipe.draft == nil)
        #expect(scenario.recipe.versions.map(\.number) == [1])
        #expect(scenario.recipe.versions[0].savedAt == envelope.time)
        #expect(scenario.recipe.versions[0].savedBy == "bob")
        #expect(scenario.recipe.versions[0].content.title == "Soup")
    }

    @Test func savingWithoutADraftIsRejectedAsNoDraft() {
        var scenario = savedRecipe()
        #expect(scenario.when(.recipeSaved).rejectionCode == .noDraft)
        var fresh = RecipeScenario()
        #expect(fresh.when(.recipeSaved).rejectionCode == .noDraft)
    }

    @Test(arguments: ["", "   ", "\t\n", "\u{00A0}\u{3000}"])
    func savingWithABlankTitleIsNotSavableAndTheDraftStaysOpen(title: String) {
        var scenario = RecipeScenario()
        scenario.given(.title(title), .addIngredient("flour", 1, "cup"))
        #expect(scenario.when(.recipeSaved).rejectionCode == .notSavable)
        #expect(scenario.recipe.draft != nil)
        #expect(scenario.recipe.versions.isEmpty)
    }

    @Test func savingWithoutIngredientsIsNotSavable() {
        var scenario = RecipeScenario()
        scenario.given(.title("Air"))
        #expect(scenario.when(.recipeSaved).rejectionCode == .notSavable)
        #expect(scenario.recipe.draft != nil)
    }

    // MARK: - DraftDiscarded

    @Test func discardingClosesTheDraftAndLeavesVersionsAlone() {
        var scenario = savedRecipe()
        let version = scenario.recipe.versions
        scenario.given(.title("Crêpes"), .ingredientRemoved(ingredientID: "flour"))
        let outcome = scenario.when(.draftDiscarded)
        #expect(outcome.events == [.draftDiscarded])
        #expect(scenario.recipe.draft == nil)
        #expect(scenario.recipe.versions == version)
        // The next edit starts again from version 1, not from the discarded draft.
        scenario.given(.servingsChanged(servings: 2))
        #expect(scenario.draft?.title == "Pancakes")
    }

    @Test func discardingWithoutADraftIsRejectedAsNoDraft() {
        var scenario = savedRecipe()
        #expect(scenario.when(.draftDiscarded).rejectionCode == .noDraft)
    }

    // MARK: - RecipeDeleted

    @Test func deletingKeepsTheVersionsAndRejectsEveryLaterCommand() {
        var scenario = savedRecipe()
        #expect(scenario.when(.recipeDeleted).events == [.recipeDeleted])
        #expect(scenario.recipe.isDeleted)
        #expect(scenario.recipe.versions.count == 1)
        let later: [RecipeCommand] = [
            .title("Again"), .draftStarted, .recipeSaved, .draftDiscarded, .recipeDeleted, .tagAdded(text: "@x"),
        ]
        for command in later {
            #expect(scenario.when(command).rejectionCode == .deleted, "\(command.name)")
        }
    }

    @Test func deletingWithADraftOpenDiscardsItFirst() {
        var scenario = RecipeScenario()
        scenario.given(.title("Half done"))
        #expect(scenario.when(.recipeDeleted).events == [.draftDiscarded, .recipeDeleted])
        #expect(scenario.recipe.draft == nil)
        #expect(scenario.recipe.isDeleted)
    }

    @Test func deletingARecipeNoCommandTouchedIsRejected() {
        var scenario = RecipeScenario()
        #expect(scenario.when(.recipeDeleted).rejectionCode == .invalid)
        #expect(!scenario.recipe.isDeleted)
        // So the id can still be used for a new recipe.
        scenario.given(.title("Fresh start"))
    }
}
