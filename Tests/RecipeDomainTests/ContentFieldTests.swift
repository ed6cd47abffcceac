import RecipeDomain
import Testing

@Suite("Title, servings and image")
struct ContentFieldTests {
    // MARK: - Title

    @Test(arguments: [
        "",
        "Pancakes",
        String(repeating: "x", count: RecipeLimits.maxTitleLength),
        // Lengths count Unicode scalars: 200 "é" are 400 UTF-8 bytes and still fit.
        String(repeating: "é", count: RecipeLimits.maxTitleLength),
    ])
    func titlesUpToTheLimitAreAccepted(title: String) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.title(title)).isAccepted)
        #expect(scenario.draft?.title == title)
    }

    @Test(arguments: [
        String(repeating: "x", count: RecipeLimits.maxTitleLength + 1),
        String(repeating: "日", count: RecipeLimits.maxTitleLength + 1),
    ])
    func titlesOverTheLimitAreInvalid(title: String) {
        var scenario = RecipeScenario()
        scenario.given(.title("Kept"))
        #expect(scenario.when(.title(title)).rejectionCode == .invalid)
        #expect(scenario.draft?.title == "Kept")
    }

    /// The rules judge the command, not the state: a title an older build took, longer than
    /// today's limit, stays through other edits and a save.
    @Test func aTitleOverTodaysLimitThatAnOlderBuildTookIsKeptThroughEditsAndASave() {
        let long = String(repeating: "x", count: RecipeLimits.maxTitleLength + 1)
        var scenario = RecipeScenario()
        scenario.given(events: .ownerAssigned(owner: "alice"), .draftOpened(baseVersion: 0, implicit: true), .titleChanged(long))
        scenario.given(.addIngredient("flour", 1, "g"), .recipeSaved)
        #expect(scenario.recipe.versions.last?.content.title == long)
    }

    // MARK: - Servings

    @Test(arguments: [1, 4, 100])
    func servingsFromOneToAHundredAreAccepted(servings: Int) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.servingsChanged(servings: servings)).events.last == .servingsChanged(servings))
        #expect(scenario.draft?.servings == servings)
    }

    @Test(arguments: [0, -1, 101, Int.max])
    func servingsOutsideOneToAHundredAreInvalid(servings: Int) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.servingsChanged(servings: servings)).rejectionCode == .invalid)
    }

    // MARK: - Image

    @Test(arguments: [
        "http://example.com/a.jpg",
        "https://img.example.com/r/1.jpg?size=large#top",
        "HTTPS://EXAMPLE.COM",
        "https://example.com/crème-brûlée.png",
        "https://" + String(repeating: "a", count: RecipeLimits.maxImageURLLength - 8),
    ])
    func httpAndHttpsURLsAreAccepted(url: String) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.imageChanged(url: url)).isAccepted)
        #expect(scenario.draft?.image == url)
    }

    @Test(arguments: [
        "ftp://example.com/a.jpg",
        "example.com/a.jpg",
        "https://",
        "https:///path-only",
        "https://exa mple.com/a.jpg",
        "https://example.com/a\n.jpg",
        "https://example.com/\u{00A0}a.jpg",
        "javascript:alert(1)",
        "",
        "https://" + String(repeating: "a", count: RecipeLimits.maxImageURLLength - 7),
    ])
    func otherURLsAreInvalid(url: String) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.imageChanged(url: url)).rejectionCode == .invalid)
    }

    @Test func aNilURLRemovesTheImage() {
        var scenario = RecipeScenario()
        scenario.given(.imageChanged(url: "https://example.com/a.jpg"))
        #expect(scenario.when(.imageChanged(url: nil)).events == [.imageChanged(nil)])
        #expect(scenario.draft?.image == nil)
    }
}
