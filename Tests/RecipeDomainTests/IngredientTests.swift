import RecipeDomain
import Testing

@Suite("Ingredients")
struct IngredientTests {
    // MARK: - Adding

    @Test func anIngredientWithoutAnIDGetsTheCommandID() {
        var scenario = RecipeScenario()
        let outcome = scenario.when(.addIngredient("flour", 250, "g"), id: "c-42")
        let added = Ingredient(id: "c-42", name: "flour", amount: 250, metric: "g")
        #expect(outcome.events.last == .ingredientAdded(added))
        #expect(scenario.draft?.ingredients == [added])
    }

    @Test func anIngredientKeepsAnExplicitID() {
        var scenario = RecipeScenario()
        scenario.given(.addIngredient("flour", 250, "g", id: "flour"))
        #expect(scenario.draft?.ingredients.map(\.id) == ["flour"])
    }

    @Test func anExplicitIDAlreadyInTheDraftIsInvalid() {
        var scenario = RecipeScenario()
        scenario.given(.addIngredient("flour", 250, "g", id: "x"))
        #expect(scenario.when(.addIngredient("sugar", 1, "g", id: "x")).rejectionCode == .invalid)
        #expect(scenario.draft?.ingredients.count == 1)
    }

    @Test(arguments: ["", " ", String(repeating: "i", count: RecipeLimits.maxIdentifierLength + 1)])
    func aBlankOrOverlongExplicitIDIsInvalid(id: String) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.addIngredient("flour", 1, "g", id: id)).rejectionCode == .invalid)
    }

    @Test func aDerivedIDTakenByAnExplicitOneGetsASuffix() {
        var scenario = RecipeScenario()
        scenario.given(.addIngredient("flour", 1, "g", id: "c-9"), .addIngredient("salt", 1, "g", id: "c-9#2"))
        scenario.when(.addIngredient("sugar", 1, "g"), id: "c-9")
        #expect(scenario.draft?.ingredients.map(\.id) == ["c-9", "c-9#2", "c-9#3"])
    }

    /// Below 0.01 an amount shows as "0" (two decimals): `5e-324` was taken and shown so.
    @Test(arguments: [0, -1, -0.0, .nan, .infinity, -.infinity, RecipeLimits.maxIngredientAmount.nextUp,
                      Double.leastNonzeroMagnitude, 0.001, 0.004, RecipeLimits.minIngredientAmount.nextDown])
    func amountsOutOfTheShownRangeAreInvalid(amount: Double) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.addIngredient("flour", amount, "g")).rejectionCode == .invalid)
        #expect(scenario.recipe.draft == nil)
    }

    @Test(arguments: [RecipeLimits.minIngredientAmount, 0.05, 1, RecipeLimits.maxIngredientAmount])
    func amountsFromTheLeastShownToTheLimitAreAccepted(amount: Double) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.addIngredient("flour", amount, "g")).isAccepted)
    }

    @Test(arguments: [
        ("", "g"), ("  ", "g"), ("flour", ""), ("flour", "\t"),
        (String(repeating: "n", count: RecipeLimits.maxIngredientNameLength + 1), "g"),
        ("flour", String(repeating: "u", count: RecipeLimits.maxMetricLength + 1)),
    ])
    func blankOrOverlongNamesAndUnitsAreInvalid(name: String, metric: String) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.addIngredient(name, 1, metric)).rejectionCode == .invalid)
    }

    @Test func theTwoHundredAndFirstIngredientExceedsTheLimit() {
        var scenario = RecipeScenario()
        for index in 0..<RecipeLimits.maxIngredients {
            scenario.given(.addIngredient("item \(index)", 1, "g"))
        }
        #expect(scenario.when(.addIngredient("one more", 1, "g")).rejectionCode == .limitExceeded)
        #expect(scenario.draft?.ingredients.count == RecipeLimits.maxIngredients)
    }

    // MARK: - Updating

    @Test func anUpdateChangesOnlyTheGivenFields() {
        var scenario = RecipeScenario()
        scenario.given(.addIngredient("flour", 250, "g", id: "f"))
        let outcome = scenario.when(.ingredientUpdated(ingredientID: "f", name: nil, amount: 300, metric: nil))
        let updated = Ingredient(id: "f", name: "flour", amount: 300, metric: "g")
        #expect(outcome.events == [.ingredientUpdated(updated)])
        scenario.given(.ingredientUpdated(ingredientID: "f", name: "rye flour", amount: nil, metric: "kg"))
        #expect(scenario.draft?.ingredients == [Ingredient(id: "f", name: "rye flour", amount: 300, metric: "kg")])
    }

    @Test func updatingAnUnknownIngredientIsRejected() {
        var scenario = RecipeScenario()
        scenario.given(.addIngredient("flour", 250, "g", id: "f"))
        let outcome = scenario.when(.ingredientUpdated(ingredientID: "nope", name: "x", amount: nil, metric: nil))
        #expect(outcome.rejectionCode == .unknownIngredient)
    }

    @Test(arguments: [
        RecipeCommand.ingredientUpdated(ingredientID: "f", name: nil, amount: nil, metric: nil),
        .ingredientUpdated(ingredientID: "f", name: "", amount: nil, metric: nil),
        .ingredientUpdated(ingredientID: "f", name: nil, amount: 0, metric: nil),
        .ingredientUpdated(ingredientID: "f", name: nil, amount: .nan, metric: nil),
        .ingredientUpdated(ingredientID: "f", name: nil, amount: nil, metric: " "),
    ])
    func anUpdateBreakingAFieldRuleIsInvalidAndChangesNothing(command: RecipeCommand) {
        var scenario = RecipeScenario()
        scenario.given(.addIngredient("flour", 250, "g", id: "f"))
        #expect(scenario.when(command).rejectionCode == .invalid)
        #expect(scenario.draft?.ingredients == [Ingredient(id: "f", name: "flour", amount: 250, metric: "g")])
    }

    // MARK: - Removing

    @Test func removingAnIngredientKeepsTheOthersInOrder() {
        var scenario = RecipeScenario()
        scenario.given(
            .addIngredient("a", 1, "g", id: "a"), .addIngredient("b", 1, "g", id: "b"), .addIngredient("c", 1, "g", id: "c"))
        #expect(scenario.when(.ingredientRemoved(ingredientID: "b")).events == [.ingredientRemoved(id: "b")])
        #expect(scenario.draft?.ingredients.map(\.id) == ["a", "c"])
    }

    @Test func removingAnUnknownIngredientIsRejected() {
        var scenario = RecipeScenario()
        #expect(scenario.when(.ingredientRemoved(ingredientID: "nope")).rejectionCode == .unknownIngredient)
    }

    @Test func idsCompareByTheirExactBytes() {
        var scenario = RecipeScenario()
        scenario.given(.addIngredient("purée", 1, "cup", id: "pur\u{E9}e"))
        // The same text decomposed is a different id: ids are opaque tokens.
        let outcome = scenario.when(.ingredientRemoved(ingredientID: "pure\u{301}e"))
        #expect(outcome.rejectionCode == .unknownIngredient)
        #expect(scenario.when(.ingredientRemoved(ingredientID: "pur\u{E9}e")).isAccepted)
    }

    @Test func aRemovedIDMayBeUsedAgain() {
        var scenario = RecipeScenario()
        scenario.given(.addIngredient("a", 1, "g", id: "a"), .ingredientRemoved(ingredientID: "a"))
        #expect(scenario.when(.addIngredient("a again", 2, "g", id: "a")).isAccepted)
    }
}
