import RecipeDomain
import Testing

/// The rules content version 2 adds, each as given / when / then.
@Suite("Content v2: ingredient lines, sections, recipe fields, the whole content")
struct ContentV2Tests {
    static func line(_ name: String = "garlic", amount: Double? = nil, amountMax: Double? = nil, unit: String? = nil,
                     note: String? = nil, section: String? = nil, text: String? = nil) -> RecipeCommand {
        .ingredientAdded(IngredientLine(name: name, amount: amount, amountMax: amountMax, unit: unit, note: note,
                                        section: section, text: text), ingredientID: "i")
    }

    // MARK: - Ingredient lines

    @Test func aLineMayHaveNoQuantityARangeANoteASectionAndItsText() {
        var scenario = RecipeScenario()
        scenario.given(Self.line("salt", note: "to taste", text: "Salt, to taste"))
        #expect(scenario.draft?.ingredients == [Ingredient(id: "i", name: "salt", note: "to taste", text: "Salt, to taste")])
        var ranged = RecipeScenario()
        ranged.given(Self.line(amount: 2, amountMax: 3, unit: "clove", note: "finely chopped", section: "For the sauce"))
        #expect(ranged.draft?.ingredients.first?.quantity == IngredientQuantity(amount: 2, amountMax: 3, unit: "clove"))
        #expect(ranged.draft?.ingredients.first?.section == "For the sauce")
    }

    @Test(arguments: [
        line(amountMax: 3),                          // a range needs its lower end
        line(amount: 3, amountMax: 2),               // and does not go down
        line(amount: 2, amountMax: 0),
        line(amount: 2, amountMax: .infinity),
        line(unit: " "),                             // blank optional texts: leave them out instead
        line(note: ""),
        line(section: "\n"),
        line(text: "  "),
        line(note: String(repeating: "x", count: RecipeLimits.maxIngredientNoteLength + 1)),
        line(section: String(repeating: "é", count: RecipeLimits.maxSectionLength + 1)),
        line(text: String(repeating: "x", count: RecipeLimits.maxIngredientTextLength + 1)),
    ])
    func linesBreakingARuleAreInvalid(command: RecipeCommand) {
        var scenario = RecipeScenario()
        #expect(scenario.when(command).rejectionCode == .invalid)
    }

    @Test func aRangeMayHaveEqualEnds() {
        var scenario = RecipeScenario()
        #expect(scenario.when(Self.line(amount: 2, amountMax: 2, unit: "cup")).isAccepted)
    }

    @Test func anUpdateKeepsClearsOrSetsEachField() {
        var scenario = RecipeScenario()
        scenario.given(Self.line(amount: 2, amountMax: 3, unit: "clove", note: "chopped", section: "Sauce", text: "2-3 cloves garlic"))
        scenario.given(.ingredientUpdated(ingredientID: "i", changes: IngredientChanges(
            amountMax: .clear, note: .set("crushed"), section: .clear)))
        #expect(scenario.draft?.ingredients == [
            Ingredient(id: "i", name: "garlic", amount: 2, unit: "clove", note: "crushed", text: "2-3 cloves garlic"),
        ])
        // Clearing the amount of a range alone would leave an upper end without a lower one.
        scenario.given(.ingredientUpdated(ingredientID: "i", changes: IngredientChanges(amountMax: .set(4))))
        #expect(scenario.when(.ingredientUpdated(ingredientID: "i", changes: IngredientChanges(amount: .clear))).rejectionCode == .invalid)
        #expect(scenario.when(.ingredientUpdated(ingredientID: "i", changes: IngredientChanges(amount: .clear, amountMax: .clear, unit: .clear)))
            .isAccepted)
        #expect(scenario.draft?.ingredients.first?.quantity == IngredientQuantity())
    }

    @Test func anUpdateThatChangesNothingIsInvalid() {
        var scenario = RecipeScenario()
        scenario.given(Self.line(amount: 1))
        #expect(scenario.when(.ingredientUpdated(ingredientID: "i", changes: IngredientChanges())).rejectionCode == .invalid)
        #expect(scenario.when(.ingredientUpdated(ingredientID: "nope", changes: IngredientChanges(note: .set("x")))).rejectionCode
            == .unknownIngredient)
    }

    // MARK: - Sections of steps

    @Test func stepsHaveSectionsThatAnUpdateMovesOrRemoves() {
        var scenario = RecipeScenario()
        scenario.given(.instructionAdded(description: "Simmer.", position: nil, instructionID: "s", section: "Sauce"))
        #expect(scenario.draft?.instructions == [Instruction(id: "s", description: "Simmer.", order: 1, section: "Sauce")])
        let moved = scenario.when(.instructionUpdated(instructionID: "s", description: nil, section: .set("Topping")))
        #expect(moved.events == [.instructionUpdated(id: "s", description: "Simmer.", section: "Topping")])
        scenario.given(.instructionUpdated(instructionID: "s", description: "Simmer gently.", section: .clear))
        #expect(scenario.draft?.instructions == [Instruction(id: "s", description: "Simmer gently.", order: 1)])
        #expect(scenario.when(.instructionUpdated(instructionID: "s", description: nil, section: .keep)).rejectionCode == .invalid)
        #expect(scenario.when(.instructionUpdated(instructionID: "s", description: nil, section: .set(" "))).rejectionCode == .invalid)
    }

    // MARK: - The recipe's own fields

    @Test func descriptionYieldAndSourceAreSetAndRemoved() {
        var scenario = RecipeScenario()
        scenario.given(.descriptionChanged(description: "A weeknight classic."), .yieldChanged(yield: "12 muffins"),
                       .sourceChanged(url: "https://example.com/r/1"))
        #expect(scenario.draft?.description == "A weeknight classic.")
        #expect(scenario.draft?.yield == "12 muffins")
        #expect(scenario.draft?.sourceUrl == "https://example.com/r/1")
        scenario.given(.descriptionChanged(description: nil), .yieldChanged(yield: nil), .sourceChanged(url: nil))
        #expect(scenario.draft == RecipeContent())
    }

    @Test(arguments: [
        RecipeCommand.descriptionChanged(description: " "),
        .descriptionChanged(description: String(repeating: "x", count: RecipeLimits.maxRecipeDescriptionLength + 1)),
        .yieldChanged(yield: ""),
        .yieldChanged(yield: String(repeating: "x", count: RecipeLimits.maxYieldLength + 1)),
        .sourceChanged(url: "ftp://example.com/r"),
        .sourceChanged(url: "https://"),
        .timesChanged(prepTime: .keep, cookTime: .keep, totalTime: .keep),
        .timesChanged(prepTime: .set("1h30"), cookTime: .keep, totalTime: .keep),
    ])
    func recipeFieldsBreakingARuleAreInvalid(command: RecipeCommand) {
        var scenario = RecipeScenario()
        #expect(scenario.when(command).rejectionCode == .invalid)
    }

    @Test func timesAreSetClearedOrKeptEachOnItsOwn() {
        var scenario = RecipeScenario()
        scenario.given(.timesChanged(prepTime: .set("PT15M"), cookTime: .set("PT1H30M"), totalTime: .keep))
        scenario.given(.timesChanged(prepTime: .keep, cookTime: .clear, totalTime: .set("P1DT2H")))
        let times: [String?] = [scenario.draft?.prepTime, scenario.draft?.cookTime, scenario.draft?.totalTime]
        #expect(times == ["PT15M", nil, "P1DT2H"])
    }

    @Test(arguments: [
        ("PT30M", 1800), ("PT1H30M", 5400), ("P1D", 86_400), ("P1DT2H", 93_600), ("PT90S", 90), ("P2W", 1_209_600),
        ("PT0M", 0), ("P1W2DT3H4M5S", 788_645),
    ])
    func durationsAreISO8601(text: String, seconds: Int) {
        #expect(RecipeDuration.seconds(text) == seconds)
    }

    @Test(arguments: ["", "P", "PT", "P1DT", "PT1.5H", "P1M", "P1Y", "pt10m", "PT10", "PT1M1H", "P1DT1D", "1H", "PT-5M",
                      "PT1234567M", "P T1H", "PT1H "])
    func otherDurationsAreNot(text: String) {
        #expect(RecipeDuration.seconds(text) == nil)
    }

    // MARK: - The whole content at once

    static let full = DraftContent(
        title: "Shakshuka", servings: 2, description: "Eggs in sauce.", yield: "2 plates", prepTime: "PT10M",
        ingredients: [
            NewIngredient(id: "eggs", IngredientLine(name: "eggs", amount: 4)),
            NewIngredient(IngredientLine(name: "tomatoes", amount: 400, unit: "g", section: "Sauce")),
            NewIngredient(IngredientLine(name: "salt", note: "to taste")),
        ],
        instructions: [NewInstruction(description: "Simmer.", section: "Sauce"), NewInstruction(id: "s2", description: "Add eggs.")],
        tags: ["@vegetarian", "@origin(Maghreb)"])

    @Test func theWholeContentReplacesTheDraftWithDerivedIdsForItemsWithout() {
        var scenario = RecipeScenario()
        scenario.given(.titleChanged(title: "Old"), .addIngredient("flour", 1, "g"), .tagAdded(text: "@old"))
        let outcome = scenario.when(.draftContentSet(Self.full), id: "c-7")
        #expect(outcome.isAccepted)
        let draft = scenario.draft
        #expect(draft?.title == "Shakshuka")
        #expect(draft?.ingredients.map(\.id) == ["eggs", "c-7:i2", "c-7:i3"])
        #expect(draft?.instructions.map(\.id) == ["c-7:s1", "s2"])
        #expect(draft?.instructions.map(\.order) == [1, 2])
        #expect(draft?.tags.map(\.name) == ["vegetarian", "origin"])
        #expect(draft?.prepTime == "PT10M" && draft?.cookTime == nil)
    }

    @Test func aDerivedIdStepsAroundAnExplicitOneThatTookIt() {
        var content = Self.full
        content.ingredients[0].id = "c-7:i2"
        var scenario = RecipeScenario()
        #expect(scenario.when(.draftContentSet(content), id: "c-7").isAccepted)
        #expect(scenario.draft?.ingredients.map(\.id) == ["c-7:i2", "c-7:i2#2", "c-7:i3"])
    }

    @Test func theFirstProblemRejectsTheWholeCommandAndChangesNothing() {
        var cases: [(DraftContent, RejectionCode)] = []
        var broken = Self.full
        broken.ingredients[2].line.amountMax = 1
        cases.append((broken, .invalid))
        broken = Self.full
        broken.ingredients[1].id = "eggs"
        cases.append((broken, .invalid))
        broken = Self.full
        broken.tags.append("@Vegetarian")
        cases.append((broken, .duplicateTag))
        broken = Self.full
        broken.tags.append("no tag")
        cases.append((broken, .invalidTag))
        broken = Self.full
        broken.totalTime = "an hour"
        cases.append((broken, .invalid))
        broken = Self.full
        broken.instructions.append(NewInstruction(description: " "))
        cases.append((broken, .invalid))
        broken = Self.full
        broken.ingredients = Array(repeating: NewIngredient(IngredientLine(name: "x")), count: RecipeLimits.maxIngredients + 1)
        cases.append((broken, .limitExceeded))
        broken = Self.full
        broken.tags = (0...RecipeLimits.maxTags).map { "@t\($0)" }
        cases.append((broken, .limitExceeded))
        for (content, code) in cases {
            var scenario = RecipeScenario()
            scenario.given(.titleChanged(title: "Kept"))
            #expect(scenario.when(.draftContentSet(content)).rejectionCode == code)
            #expect(scenario.draft == RecipeContent(title: "Kept"))
        }
    }

    @Test func itOpensADraftFromTheLatestVersionWhenNoneIsOpen() {
        var scenario = RecipeScenario()
        scenario.given(.titleChanged(title: "Soup"), .addIngredient("water", 1, "l"), .recipeSaved)
        let outcome = scenario.when(.draftContentSet(Self.full))
        #expect(outcome.events.first == .draftOpened(baseVersion: 1, implicit: true))
        #expect(scenario.recipe.draftBaseVersion == 1)
    }
}
