import Foundation
import RecipeHTTP
import RecipeTestSupport
import Testing

@Suite("schema.org import and export over HTTP")
struct ImportTests {
    /// A recipe page's JSON-LD, written for this test: sections, a range, a note, an unquantified line.
    static let document = #"""
        {"@context":"https://schema.org","@graph":[{"@type":"WebSite","name":"A kitchen"},
         {"@type":"Recipe","name":"Lentil soup","description":"A thick soup for cold days.","recipeYield":["4","4 bowls"],
          "prepTime":"PT15M","cookTime":"PT40M","keywords":"soup, vegan",
          "recipeIngredient":["250 g red lentils","2–3 cloves garlic, crushed","1 ½ cups water","Salt, to taste"],
          "recipeInstructions":[{"@type":"HowToSection","name":"The base","itemListElement":[
             {"@type":"HowToStep","text":"Soften the garlic."},{"@type":"HowToStep","text":"Add lentils and water; simmer."}]},
           {"@type":"HowToStep","text":"Season and serve."}]}]}
        """#

    @Test("an imported recipe is saved, read back scaled for six guests, exported as JSON-LD, and imports again the same")
    func importScaleExportImport() throws {
        let fixture = try ServiceFixture()
        let imported = try fixture.post("/v1/import?save=true", Self.document, headers: ["content-type": "application/ld+json"])
        #expect(imported.status == 202, "\(imported.text)")
        let id = try #require(imported.object["recipeId"] as? String)
        let saved = try #require(imported.object["savedPosition"] as? String)

        let scaled = try fixture.get("/v1/recipes/\(id)?guests=6&after=\(saved)")
        #expect(scaled.status == 200, "\(scaled.text)")
        #expect(scaled.object["title"] as? String == "Lentil soup")
        #expect(scaled.object["servings"] as? Int == 4 && scaled.object["yield"] as? String == "4 bowls", "\(scaled.object["yield"] ?? "none")")
        let ingredients = try #require(scaled.object["ingredients"] as? [[String: Any]])
        #expect(ingredients.map { $0["display"] as? String } == ["375 g", "3–4½ cloves", "2¼ cups", ""])
        #expect(ingredients[1]["note"] as? String == "crushed")
        #expect(ingredients[3]["text"] as? String == "Salt, to taste" && ingredients[3]["amount"] == nil)
        let steps = try #require(scaled.object["instructions"] as? [[String: Any]])
        #expect(steps.map { $0["section"] as? String } == ["The base", "The base", nil])
        #expect((scaled.object["tags"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["soup", "vegan"])

        let exported = try fixture.get("/v1/recipes/\(id)?format=jsonld")
        #expect(exported.status == 200)
        #expect(exported.headers.first { $0.key.lowercased() == "content-type" }?.value == "application/ld+json")
        #expect(exported.object["@type"] as? String == "Recipe" && exported.object["name"] as? String == "Lentil soup")
        #expect(exported.object["recipeIngredient"] as? [String] == ["250 g red lentils", "2–3 cloves garlic, crushed", "1 ½ cups water",
                                                                     "Salt, to taste"])
        let byAccept = try fixture.get("/v1/recipes/\(id)", headers: ["accept": "application/ld+json"])
        #expect(byAccept.body == exported.body)

        let again = try fixture.post("/v1/import?save=true", exported.text, headers: ["content-type": "application/ld+json"])
        let second = try #require(again.object["recipeId"] as? String)
        let reread = try fixture.get("/v1/recipes/\(second)?after=\(try #require(again.object["savedPosition"] as? String))")
        let original = try fixture.get("/v1/recipes/\(id)")
        for field in ["title", "servings", "yield", "description", "prepTime", "cookTime"] {
            #expect("\(reread.object[field] ?? "-")" == "\(original.object[field] ?? "-")", "\(field)")
        }
        func lines(_ detail: HTTPResult) -> [String] {
            (detail.object["ingredients"] as? [[String: Any]] ?? []).map { "\($0["text"] ?? "") \($0["amount"] ?? "-") \($0["unit"] ?? "-")" }
        }
        #expect(lines(reread) == lines(original))
    }

    @Test("a page holding the recipe imports; what is no recipe, or too large, is refused naming why")
    func pagesAndRefusals() throws {
        let fixture = try ServiceFixture()
        let page = "<html><head><script type=\"application/ld+json\">\(Self.document)</script></head><body>…</body></html>"
        let fromPage = try fixture.post("/v1/import", page, headers: ["content-type": "text/html; charset=utf-8"])
        #expect(fromPage.status == 202, "\(fromPage.text)")
        #expect(fromPage.object["savedPosition"] == nil)

        let notJSON = try fixture.post("/v1/import", "{not json", headers: ["content-type": "application/json"])
        #expect(notJSON.status == 422 && notJSON.errorCode == "badRecipeDocument", "\(notJSON.text)")
        let noRecipe = try fixture.post("/v1/import", #"{"@type":"Person","name":"Ada"}"#, headers: ["content-type": "application/json"])
        #expect(noRecipe.status == 422, "\(noRecipe.text)")
        let longName = #"{"@type":"Recipe","name":"\#(String(repeating: "x", count: 300))","recipeIngredient":["1 egg"]}"#
        let tooLong = try fixture.post("/v1/import", longName, headers: ["content-type": "application/json"])
        #expect(tooLong.status == 422 && tooLong.text.contains("name"), "\(tooLong.text)")
        let huge = "<html>" + String(repeating: "<p>padding</p>", count: 800_000) + "</html>"
        let tooLarge = try fixture.post("/v1/import", huge, headers: ["content-type": "text/html"])
        #expect(tooLarge.status == 413, "\(tooLarge.status)")
        let wrongType = try fixture.post("/v1/import", "a recipe", headers: ["content-type": "text/plain"])
        #expect(wrongType.status == 415, "\(wrongType.text)")
    }

    @Test("ingredient lines are parsed as the import parses them")
    func parseLines() throws {
        let fixture = try ServiceFixture()
        let parsed = try fixture.post("/v1/parse/ingredients", #"{"lines":["1 ½ cups flour, sifted","Salt, to taste"]}"#)
        #expect(parsed.status == 200, "\(parsed.text)")
        let items = try parsed.items
        #expect(items.count == 2)
        #expect(items[0]["amount"] as? Double == 1.5 && items[0]["unit"] as? String == "cup" && items[0]["name"] as? String == "flour")
        #expect(items[0]["note"] as? String == "sifted" && items[0]["text"] as? String == "1 ½ cups flour, sifted")
        #expect(items[1]["amount"] == nil && items[1]["name"] as? String == "Salt")
        let bad = try fixture.post("/v1/parse/ingredients", #"{"line":"flour"}"#)
        #expect(bad.status == 400)
    }
}
