import RecipeDomain
import Testing

/// Names other layers put on the wire and in read models; changing one is a
/// breaking change, so they are pinned here.
@Suite("Names on the wire")
struct WireContractTests {
    @Test func rejectionCodesAreExactlyTheAgreedStrings() {
        #expect(RejectionCode.allCases.map(\.rawValue) == [
            "invalid", "conflict", "noDraft", "notSavable", "unknownIngredient", "unknownInstruction", "invalidTag",
            "duplicateTag", "unknownTag", "deleted", "limitExceeded", "forbidden",
            "malformed", "unknownType", "unsupportedVersion", "keyMismatch", "tooLarge", "wrongPartition",
        ])
    }

    @Test func commandNamesAreTheAgreedTypes() {
        #expect(RecipeCommand.Kind.allCases.map(\.rawValue) == [
            "DraftStarted", "TitleChanged", "ServingsChanged", "ImageChanged", "IngredientAdded", "IngredientUpdated",
            "IngredientRemoved", "InstructionAdded", "InstructionUpdated", "InstructionRemoved", "InstructionMoved",
            "TagAdded", "TagChanged", "TagRemoved",
            "DescriptionChanged", "YieldChanged", "TimesChanged", "SourceChanged", "NutritionChanged", "DraftContentSet",
            "RecipeSaved", "DraftDiscarded", "RecipeDeleted",
            "AccessGranted", "AccessRevoked", "OwnershipTransferred",
        ])
        #expect(RecipeCommand.ingredientRemoved(ingredientID: "x").name == "IngredientRemoved")
        #expect(RecipeCommand.Kind(rawValue: "TagChanged") == .tagChanged)
    }

    @Test func everyKindButTheLifecycleOnesIsAnEdit() {
        let lifecycle: Set<RecipeCommand.Kind> = [.draftStarted, .recipeSaved, .draftDiscarded, .recipeDeleted,
                                                  .accessGranted, .accessRevoked, .ownershipTransferred]
        for kind in RecipeCommand.Kind.allCases {
            #expect(kind.isEdit == !lifecycle.contains(kind), "\(kind)")
        }
    }

    @Test func aRecipeRestoredFromItsPartsEqualsTheOriginal() {
        var scenario = RecipeScenario()
        scenario.given(.title("Soup"), .addIngredient("water", 1, "l"), .recipeSaved, .servingsChanged(servings: 2))
        let recipe = scenario.recipe
        let restored = Recipe(
            id: recipe.id, versions: recipe.versions, draft: recipe.draft, revision: recipe.revision,
            isDeleted: recipe.isDeleted, appliedCommandIDs: recipe.appliedCommandIDs, owner: recipe.owner, grants: recipe.grants)
        #expect(restored == recipe)
        // And it goes on folding the same way, duplicates included.
        var copy = restored
        #expect(copy.apply(scenario.envelope(.title("x"), id: "cmd-2")) == .duplicate)
    }
}
