import RecipeDomain
import Testing

/// `evolve` holds no rules: it applies what it is given and never fails.
@Suite("Evolve is total and rule-free")
struct EvolveTests {
    private let saved: Recipe = {
        var scenario = RecipeScenario()
        scenario.given(.title("Soup"), .addIngredient("water", 1, "l", id: "w"), .recipeSaved)
        return scenario.recipe
    }()

    @Test(arguments: [
        RecipeEvent.titleChanged("x"), .servingsChanged(2), .imageChanged("https://a.b"),
        .ingredientAdded(Ingredient(id: "i", name: "n", amount: 1, metric: "g")), .ingredientRemoved(id: "w"),
        .instructionAdded(Instruction(id: "s", description: "d", order: 1)), .tagAdded(Tag(name: "t")),
        .versionCommitted(number: 2, savedAt: Timestamp(millisecondsSinceEpoch: 0), savedBy: "a"), .draftDiscarded,
    ])
    func eventsThatNeedADraftChangeNothingWithoutOne(event: RecipeEvent) {
        #expect(RecipeDecider.evolve(saved, event) == saved)
    }

    @Test(arguments: [
        RecipeEvent.ingredientUpdated(Ingredient(id: "nope", name: "n", amount: 1, metric: "g")),
        .ingredientRemoved(id: "nope"), .instructionUpdated(id: "nope", description: "d", section: nil),
        .instructionRemoved(id: "nope"), .instructionMoved(id: "nope", position: 1),
        .tagChanged(previousName: "nope", tag: Tag(name: "t")), .tagRemoved(name: "nope"),
    ])
    func eventsForUnknownItemsChangeNothing(event: RecipeEvent) {
        let open = RecipeDecider.evolve(saved, .draftOpened(baseVersion: 1, implicit: false))
        #expect(RecipeDecider.evolve(open, event) == open)
    }

    @Test func outOfRangeInstructionOrdersAreClampedSoOrdersStayOneToN() {
        var recipe = RecipeDecider.evolve(Recipe(id: "r"), .draftOpened(baseVersion: 0, implicit: true))
        recipe.evolve(.instructionAdded(Instruction(id: "a", description: "A", order: 99)))
        recipe.evolve(.instructionAdded(Instruction(id: "b", description: "B", order: -5)))
        recipe.evolve(.instructionMoved(id: "b", position: 42))
        #expect(recipe.draft?.content.instructions.map(\.id) == ["a", "b"])
        #expect(recipe.draft?.content.instructions.map(\.order) == [1, 2])
    }

    @Test func evolveDoesNotCountRevisionsOnlyFoldDoes() {
        let opened = RecipeDecider.evolve(Recipe(id: "r"), .draftOpened(baseVersion: 0, implicit: false))
        #expect(opened.draft != nil)
        #expect(opened.revision == 0)
    }
}
