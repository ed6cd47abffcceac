import Foundation
@testable import RecipeSchemaOrg
import Testing

/// Reading a recipe from a page's markup stays linear in the page, whatever its elements do:
/// items never closed, so that each would hold all the rest; a heading repeated thousands of times.
@Suite("Import: a page's markup read in steps linear in the page")
struct PageMarkupWorkTests {
    /// A recipe card whose steps are `count` elements never closed, each inside the one before.
    static func nestedCardSteps(_ count: Int) -> Data {
        let steps = String(repeating: #"<div class="wprm-recipe-instruction-text">Stir the pot well. "#, count: count)
        return Data(("<html><body><div class=\"wprm-recipe\"><h2 class=\"wprm-recipe-name\">Stew</h2>"
                     + "<div class=\"wprm-recipe-ingredients-container\"><ul><li class=\"wprm-recipe-ingredient\">1 onion</li></ul></div>"
                     + "<div class=\"wprm-recipe-instructions-container\">" + steps).utf8)
    }

    /// A page that heads its ingredients `count` times, each heading followed by one more list item.
    static func repeatedHeadings(_ count: Int) -> Data {
        let parts = String(repeating: "<h2>Ingredients</h2><ul><li>1 egg</li></ul><h2>Method</h2><p>Beat it.</p>", count: count)
        return Data(("<html><head><title>Eggs</title></head><body>" + parts + "</body></html>").utf8)
    }

    @Test("steps nested in each other and never closed: the first holds the rest, read once")
    func nestedItemsAreReadOnce() throws {
        let small = try SchemaOrgImport.read(Self.nestedCardSteps(2_000), contentType: "text/html")
        let large = try SchemaOrgImport.read(Self.nestedCardSteps(4_000), contentType: "text/html")
        #expect(large.steps <= 2 * small.steps + 1_000, "\(small.steps) → \(large.steps)")
        let imported = try SchemaOrgImport.recipe(from: Self.nestedCardSteps(4_000), contentType: "text/html")
        #expect(imported.document.instructions.count == 1 && imported.sources.instructions == .markup)
    }

    @Test("a part headed thousands of times: a few headings tried, each section read up to the next")
    func repeatedHeadingsCostLinearSteps() throws {
        let small = try SchemaOrgImport.read(Self.repeatedHeadings(2_000), contentType: "text/html")
        let large = try SchemaOrgImport.read(Self.repeatedHeadings(4_000), contentType: "text/html")
        #expect(large.steps <= 2 * small.steps + 1_000, "\(small.steps) → \(large.steps)")
        let imported = try SchemaOrgImport.recipe(from: Self.repeatedHeadings(4_000), contentType: "text/html")
        #expect(imported.document.ingredients.map(\.text) == ["1 egg"] && imported.document.instructions.map(\.text) == ["Beat it."])
    }
}
