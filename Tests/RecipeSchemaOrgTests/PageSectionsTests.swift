import Foundation
@testable import RecipeSchemaOrg
import Testing

/// Pages without a card, written as small blogs write them: the parts under headings, in
/// paragraphs, in headings of lines, or in elements their classes name.
@Suite("Import: a recipe under a page's headings, or in elements named for its parts")
struct PageSectionsTests {
    static func imported(_ body: String) throws -> ImportedRecipe {
        try SchemaOrgImport.recipe(from: Data(("<html><head><title>Butter Chicken | A Kitchen</title></head><body>" + body + "</body></html>").utf8),
                                   contentType: "text/html")
    }

    @Test("a list written as one heading of lines with bullets, steps in paragraphs; the title before the site's name")
    func linesOfAHeadingAndParagraphs() throws {
        let imported = try Self.imported("""
            <h4>Ingredients</h4><h5>• 2 tablespoons olive oil<br /> • 50g butter<br /> • 1.6kg chicken thighs</h5>
            <h4>Method</h4><p>Brown the chicken in the oil and butter.</p><p>Simmer for 30 minutes.</p>
            <div class="comments"><p>Lovely!</p></div>
            """)
        #expect(imported.document.name == "Butter Chicken")
        #expect(imported.document.ingredients.map(\.text) == ["2 tablespoons olive oil", "50g butter", "1.6kg chicken thighs"])
        #expect(imported.document.instructions.map(\.text) == ["Brown the chicken in the oil and butter.", "Simmer for 30 minutes."])
        #expect(imported.sources == ImportedRecipe.Sources(title: .markup, ingredients: .markup, instructions: .markup))
    }

    @Test("headings a page's table of contents repeats: the first with a section under it counts")
    func theFirstHeadingWithASectionCounts() throws {
        let imported = try Self.imported("""
            <nav><a href="#i"><span>Ingredients</span></a> <a href="#m"><span>Method</span></a></nav>
            <h1>Butter Chicken</h1>
            <h2 id="i">Things you'll need</h2><ul><li>1 onion</li><li>2 cloves garlic</li></ul>
            <h2 id="m">Let's get started!</h2><ol><li>Fry the onion.</li><li>Add the garlic.</li></ol>
            <h2>Notes</h2><ul><li>Keeps a day.</li></ul>
            """)
        #expect(imported.document.ingredients.map(\.text) == ["1 onion", "2 cloves garlic"])
        #expect(imported.document.instructions.map(\.text) == ["Fry the onion.", "Add the garlic."])
    }

    @Test("no heading: the items of a class that names one ingredient, the lines of one that names the steps")
    func partsNamedByClass() throws {
        let imported = try Self.imported("""
            <h1>Butter Chicken</h1>
            <div class="recipe_details__ingredients"><div class="ingredients__item"><span class="ingredients__quantity">1</span> onion</div>
            <div class="ingredients__item"><span class="ingredients__quantity">2</span> cloves garlic</div></div>
            <div class="recipe-instructions"><p>Fry the onion.<br>Add the garlic.</p></div>
            """)
        #expect(imported.document.ingredients.map(\.text) == ["1 onion", "2 cloves garlic"])
        #expect(imported.document.instructions.map(\.text) == ["Fry the onion.", "Add the garlic."])
    }

    @Test("rows to tick off under a heading are the ingredients, a smaller heading among them their group")
    func checkboxRowsAreItems() throws {
        let imported = try Self.imported("""
            <h1>Rice pudding</h1><div class="text-xl">Hozzávalók</div><div class="grid"><div><h5 class="font-bold">A rizshez</h5>
            <div class="row"><input type="checkbox" id="a"/><div class="flex"><div>2<!-- --> rúd</div><div class="font-bold">fahéj</div></div></div>
            <div class="row"><input type="checkbox" id="b"/><div class="flex"><div>200<!-- --> g</div><div class="font-bold">rizs</div></div></div>
            </div></div><hr/><div class="text-xl">Elkészítés</div><article><p>A tejet feltesszük főni a rizzsel.</p></article>
            """)
        #expect(imported.document.ingredients == [DocumentIngredient(text: "2 rúd fahéj", section: "A rizshez"),
                                                  DocumentIngredient(text: "200 g rizs", section: "A rizshez")])
        #expect(imported.document.instructions.map(\.text) == ["A tejet feltesszük főni a rizzsel."])
    }
}
