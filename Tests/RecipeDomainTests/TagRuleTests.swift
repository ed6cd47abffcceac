import RecipeDomain
import Testing

@Suite("Tag commands")
struct TagRuleTests {
    // MARK: - TagAdded

    @Test func addingATagStoresNameAndPayload() {
        var scenario = RecipeScenario()
        let outcome = scenario.when(.tagAdded(text: "from @source(grand-mère)"))
        #expect(outcome.events.last == .tagAdded(Tag(name: "source", payload: "grand-mère")))
        #expect(scenario.draft?.tagTexts == ["@source(grand-mère)"])
    }

    @Test(arguments: ["@vegan", "@VEGAN", "@Vegan(strict)"])
    func aSecondTagWithTheSameNameIgnoringCaseIsADuplicate(text: String) {
        var scenario = RecipeScenario()
        scenario.given(.tagAdded(text: "@vegan"))
        #expect(scenario.when(.tagAdded(text: text)).rejectionCode == .duplicateTag)
        #expect(scenario.draft?.tagTexts == ["@vegan"])
    }

    @Test(arguments: ["@vegan @quick", "no tag", "@note(open"])
    func addingATextWithoutExactlyOneTagIsAnInvalidTag(text: String) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.tagAdded(text: text)).rejectionCode == .invalidTag)
        #expect(scenario.recipe.draft == nil)
    }

    @Test func theFiftyFirstTagExceedsTheLimit() {
        var scenario = RecipeScenario()
        for index in 0..<RecipeLimits.maxTags {
            scenario.given(.tagAdded(text: "@tag\(index)"))
        }
        #expect(scenario.when(.tagAdded(text: "@onemore")).rejectionCode == .limitExceeded)
        #expect(scenario.draft?.tags.count == RecipeLimits.maxTags)
    }

    // MARK: - TagChanged

    @Test func changingATagReplacesItInPlace() {
        var scenario = RecipeScenario()
        scenario.given(.tagAdded(text: "@quick"), .tagAdded(text: "@spicy(2)"), .tagAdded(text: "@vegan"))
        let outcome = scenario.when(.tagChanged(name: "spicy", text: "@spicy(5)"))
        #expect(outcome.events == [.tagChanged(previousName: "spicy", tag: Tag(name: "spicy", payload: "5"))])
        #expect(scenario.draft?.tagTexts == ["@quick", "@spicy(5)", "@vegan"])
    }

    @Test func aTagMayBeRenamedOrRecasedAndFoundIgnoringCase() {
        var scenario = RecipeScenario()
        scenario.given(.tagAdded(text: "@vegan"))
        scenario.given(.tagChanged(name: "@VEGAN", text: "@Vegan"))
        #expect(scenario.draft?.tagTexts == ["@Vegan"])
        scenario.given(.tagChanged(name: "vegan", text: "@plant-based"))
        #expect(scenario.draft?.tagTexts == ["@plant-based"])
    }

    @Test func changingATagToAnotherTagsNameIsADuplicate() {
        var scenario = RecipeScenario()
        scenario.given(.tagAdded(text: "@quick"), .tagAdded(text: "@vegan"))
        #expect(scenario.when(.tagChanged(name: "quick", text: "@Vegan(strict)")).rejectionCode == .duplicateTag)
        #expect(scenario.draft?.tagTexts == ["@quick", "@vegan"])
    }

    @Test func changingAnUnknownTagIsRejected() {
        var scenario = RecipeScenario()
        scenario.given(.tagAdded(text: "@quick"))
        #expect(scenario.when(.tagChanged(name: "slow", text: "@slow")).rejectionCode == .unknownTag)
    }

    @Test(arguments: ["@quick @vegan", "", "@1"])
    func aRejectedChangeKeepsTheOldTag(text: String) {
        var scenario = RecipeScenario()
        scenario.given(events: .ownerAssigned(owner: "alice"), .draftOpened(baseVersion: 0, implicit: true),
                       .tagAdded(Tag(name: "quick", payload: "10 min")))
        #expect(scenario.when(.tagChanged(name: "quick", text: text)).rejectionCode == .invalidTag)
        #expect(scenario.draft?.tags == [Tag(name: "quick", payload: "10 min")])
    }

    // MARK: - TagRemoved

    @Test func removingATagByNameIgnoringCase() {
        var scenario = RecipeScenario()
        scenario.given(events: .ownerAssigned(owner: "alice"), .draftOpened(baseVersion: 0, implicit: true),
                       .tagAdded(Tag(name: "Quick", payload: nil)), .tagAdded(Tag(name: "vegan", payload: nil)))
        #expect(scenario.when(.tagRemoved(name: "quick")).events == [.tagRemoved(name: "Quick")])
        #expect(scenario.draft?.tagTexts == ["@vegan"])
    }

    @Test func removingAnUnknownTagIsRejected() {
        var scenario = RecipeScenario()
        #expect(scenario.when(.tagRemoved(name: "quick")).rejectionCode == .unknownTag)
    }
}
