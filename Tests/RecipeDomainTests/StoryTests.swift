import RecipeDomain
import Testing

/// The stories of the app, end to end through the fold.
@Suite("Stories")
struct StoryTests {
    @Test func aNewRecipeIsWrittenSavedAsVersionOneThenEditedAndSavedAsVersionTwo() throws {
        // Given a new recipe with a title, two ingredients and two steps
        var scenario = RecipeScenario(recipeID: "3f1c2a9e-0000-4000-8000-000000000001")
        scenario.given(
            .title("Pancakes"),
            .addIngredient("flour", 250, "g", id: "flour"),
            .addIngredient("milk", 0.5, "l", id: "milk"),
            .addInstruction("Whisk everything.", id: "whisk"),
            .addInstruction("Fry in butter.", id: "fry"))

        // When it is saved
        let saved = scenario.when(.recipeSaved)

        // Then it is version 1, with no draft left open
        #expect(saved.events.map(\.name) == ["versionCommitted"])
        let version1 = try #require(scenario.recipe.versions.first)
        #expect(scenario.recipe.versions.count == 1)
        #expect(version1.number == 1)
        #expect(version1.content.title == "Pancakes")
        #expect(version1.content.ingredients.map(\.id) == ["flour", "milk"])
        #expect(version1.content.instructionIDs == ["whisk", "fry"])
        #expect(version1.content.instructionOrders == [1, 2])
        #expect(scenario.recipe.draft == nil)

        // When it is edited again: an ingredient removed and a tag added
        let opened = scenario.when(.ingredientRemoved(ingredientID: "milk"))
        #expect(opened.events.first == .draftOpened(baseVersion: 1, implicit: true))
        scenario.given(.tagAdded(text: "@breakfast"))
        #expect(scenario.recipe.draft?.baseVersion == 1)

        // And saved
        scenario.given(.recipeSaved)

        // Then it is version 2, and version 1 is as it was
        #expect(scenario.recipe.versions.map(\.number) == [1, 2])
        #expect(scenario.recipe.versions[0] == version1)
        let version2 = scenario.recipe.versions[1].content
        #expect(version2.ingredients.map(\.id) == ["flour"])
        #expect(version2.tagTexts == ["@breakfast"])
        #expect(version2.instructionIDs == ["whisk", "fry"])
        #expect(scenario.recipe.revision == 9)
    }

    @Test func anIngredientWithAmountZeroOrAnEmptyUnitIsRejected() {
        var scenario = RecipeScenario()
        scenario.given(.title("Toast"))
        #expect(scenario.when(.addIngredient("bread", 0, "slice")).rejectionCode == .invalid)
        #expect(scenario.when(.addIngredient("bread", 2, "")).rejectionCode == .invalid)
        #expect(scenario.draft?.ingredients.isEmpty == true)
        #expect(scenario.when(.addIngredient("bread", 2, "slice")).isAccepted)
    }

    @Test func aSecondTagInOneTextIsRejectedAndTheOldTagKept() {
        var scenario = RecipeScenario()
        scenario.given(.tagAdded(text: "@vegan"))
        let outcome = scenario.when(.tagChanged(name: "vegan", text: "@vegan @quick"))
        #expect(outcome.rejectionCode == .invalidTag)
        #expect(scenario.draft?.tags == [Tag(name: "vegan")])
    }

    @Test func savingWithNoTitleIsRejectedAndTheDraftStaysOpen() {
        var scenario = RecipeScenario()
        scenario.given(.addIngredient("flour", 1, "cup"))
        let draft = scenario.recipe.draft
        #expect(scenario.when(.recipeSaved).rejectionCode == .notSavable)
        #expect(scenario.recipe.draft == draft)
        // Typing a title then saving works.
        scenario.given(.title("Flour"), .recipeSaved)
        #expect(scenario.recipe.versions.count == 1)
    }

    @Test func twoWritersRaceAndTheStaleOneGetsAConflict() {
        var scenario = RecipeScenario()
        scenario.given(.title("Soup"), .addIngredient("water", 1, "l"), .recipeSaved)
        let seenRevision = scenario.recipe.revision
        // Both read revision 3; Alice's edit lands first.
        #expect(scenario.when(.title("Tomato soup"), expectedRevision: seenRevision).isAccepted)
        scenario.actor = "bob"
        #expect(scenario.when(.title("Onion soup"), expectedRevision: seenRevision).rejectionCode == .conflict)
        #expect(scenario.draft?.title == "Tomato soup")
    }
}
