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

    @Test("an imported recipe is saved (the answer says so), read back scaled for six guests, exported as JSON-LD, and imports again the same")
    func importScaleExportImport() throws {
        let fixture = try ServiceFixture()
        let imported = try fixture.post("/v1/import?save=true", Self.document, headers: ["content-type": "application/ld+json"])
        #expect(imported.status == 200, "\(imported.text)")
        let id = try #require(imported.object["recipeId"] as? String)
        #expect(imported.object["outcome"] as? String == "accepted" && imported.object["revision"] as? Int == 1, "\(imported.text)")
        let save = try #require(imported.object["save"] as? [String: Any])
        #expect(save["outcome"] as? String == "accepted" && save["revision"] as? Int == 2 && save["commandId"] is String, "\(save)")
        #expect(imported.object["savedPosition"] is String)

        // Answered once folded: the saved recipe is there without waiting for a position.
        let scaled = try fixture.get("/v1/recipes/\(id)?guests=6")
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
        let reread = try fixture.get("/v1/recipes/\(second)")
        let original = try fixture.get("/v1/recipes/\(id)")
        for field in ["title", "servings", "yield", "description", "prepTime", "cookTime"] {
            #expect("\(reread.object[field] ?? "-")" == "\(original.object[field] ?? "-")", "\(field)")
        }
        func lines(_ detail: HTTPResult) -> [String] {
            (detail.object["ingredients"] as? [[String: Any]] ?? []).map { "\($0["text"] ?? "") \($0["amount"] ?? "-") \($0["unit"] ?? "-")" }
        }
        #expect(lines(reread) == lines(original))
    }

    @Test("a page holding the recipe imports; what is no recipe, too large or past the bounds is refused naming why")
    func pagesAndRefusals() throws {
        let fixture = try ServiceFixture()
        let page = "<html><head><script type=\"application/ld+json\">\(Self.document)</script></head><body>…</body></html>"
        let fromPage = try fixture.post("/v1/import", page, headers: ["content-type": "text/html; charset=utf-8"])
        #expect(fromPage.status == 202, "\(fromPage.text)")
        #expect(fromPage.object["savedPosition"] == nil && fromPage.object["save"] == nil && fromPage.object["outcome"] == nil)

        let notJSON = try fixture.post("/v1/import", "{not json", headers: ["content-type": "application/json"])
        #expect(notJSON.status == 422 && notJSON.errorCode == "badRecipeDocument", "\(notJSON.text)")
        let noRecipe = try fixture.post("/v1/import", #"{"@type":"Person","name":"Ada"}"#, headers: ["content-type": "application/json"])
        #expect(noRecipe.status == 422, "\(noRecipe.text)")
        let noName = try fixture.post("/v1/import", #"{"@type":"Recipe","recipeIngredient":["1 egg"]}"#, headers: ["content-type": "application/json"])
        #expect(noName.status == 422 && noName.text.contains("no name"), "\(noName.text)")
        let huge = "<html>" + String(repeating: "<p>padding</p>", count: 800_000) + "</html>"
        let tooLarge = try fixture.post("/v1/import", huge, headers: ["content-type": "text/html"])
        #expect(tooLarge.status == 413 && tooLarge.errorCode == "tooLarge", "\(tooLarge.status)")
        let pastTheBound = #"{"@graph":["# + Array(repeating: #"{"@type":"Thing"}"#, count: 60_000).joined(separator: ",") + "]}"
        let tooComplex = try fixture.post("/v1/import", pastTheBound, headers: ["content-type": "application/ld+json"])
        #expect(tooComplex.status == 413 && tooComplex.errorCode == "tooComplex" && tooComplex.text.contains("100000 values"), "\(tooComplex.text)")
        let wrongType = try fixture.post("/v1/import", "a recipe", headers: ["content-type": "text/plain"])
        #expect(wrongType.status == 415, "\(wrongType.text)")
    }

    @Test("case 4: a recipe without ingredients imports as a draft and the answer says why it was not saved; no save is appended")
    func aSaveTheRulesRefuseIsAnsweredNotAppended() throws {
        let fixture = try ServiceFixture()
        let document = #"{"@type":"Recipe","name":"Just a method","recipeInstructions":["Boil water.","Pour."]}"#
        let imported = try fixture.post("/v1/import?save=true", document, headers: ["content-type": "application/ld+json"])
        #expect(imported.status == 200, "\(imported.text)")
        #expect(imported.object["outcome"] as? String == "accepted" && imported.object["savedPosition"] == nil, "\(imported.text)")
        let save = try #require(imported.object["save"] as? [String: Any])
        #expect(save["outcome"] as? String == "rejected" && save["commandId"] == nil, "\(save)")
        let reason = try #require(save["reason"] as? [String: Any])
        #expect(reason["code"] as? String == "notSavable" && reason["message"] as? String == "A recipe needs at least one ingredient to be saved.")

        let id = try #require(imported.object["recipeId"] as? String)
        let draft = try fixture.get("/v1/recipes/\(id)/draft")
        #expect(draft.status == 200 && draft.object["title"] as? String == "Just a method", "\(draft.text)")
        let history = try fixture.get("/v1/recipes/\(id)/history")
        #expect(try history.items.map { $0["type"] as? String } == ["DraftContentSet"], "\(history.text)")
    }

    @Test("case 4: a time the rules refuse (P30M) is left out and named, so the import saves, with ?wait=true answering the content's outcome")
    func aTimeTheRulesRefuseIsLeftOutAndTheRecipeSaves() throws {
        let fixture = try ServiceFixture()
        let document = #"{"@type":"Recipe","name":"Quick rice","prepTime":"P30M","cookTime":"20 minutes","recipeIngredient":["200 g rice"]}"#
        let saved = try fixture.post("/v1/import?save=true", document, headers: ["content-type": "application/ld+json"])
        #expect(saved.status == 200 && (saved.object["save"] as? [String: Any])?["outcome"] as? String == "accepted", "\(saved.text)")
        #expect((saved.object["omissions"] as? [String])?.count == 1 && (saved.object["omissions"] as? [String])?.first?.hasPrefix("$.prepTime: left out \"P30M\"") == true,
                "\(saved.text)")
        let detail = try fixture.get("/v1/recipes/\(try #require(saved.object["recipeId"] as? String))")
        #expect(detail.object["prepTime"] == nil && detail.object["cookTime"] as? String == "PT20M", "\(detail.text)")

        let waited = try fixture.post("/v1/import?wait=true", document, headers: ["content-type": "application/ld+json"])
        #expect(waited.status == 200 && waited.object["outcome"] as? String == "accepted" && waited.object["revision"] as? Int == 1, "\(waited.text)")
        #expect(waited.object["save"] == nil && waited.object["savedPosition"] == nil)
    }

    /// A page of the schema.org tests' corpus.
    static func corpusPage(_ name: String) throws -> String {
        let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("RecipeSchemaOrgTests/Pages")
        return try String(contentsOf: pages.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("case 7: a microdata page imports and saves over HTTP, every line as written")
    func aMicrodataPageSaves() throws {
        let fixture = try ServiceFixture()
        let imported = try fixture.post("/v1/import?save=true", try Self.corpusPage("08-microdata.html"), headers: ["content-type": "text/html"])
        #expect(imported.status == 200 && (imported.object["save"] as? [String: Any])?["outcome"] as? String == "accepted", "\(imported.text)")
        let detail = try fixture.get("/v1/recipes/\(try #require(imported.object["recipeId"] as? String))")
        #expect(detail.object["title"] as? String == "Apple and Oat Crumble" && detail.object["servings"] as? Int == 6)
        let lines = (detail.object["ingredients"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(lines == ["1 kg cooking apples, peeled and sliced", "2 tbsp demerara sugar", "150 g plain flour", "100 g rolled oats",
                          "125 g cold butter & a little extra"])
        #expect((detail.object["instructions"] as? [[String: Any]])?.count == 4)
    }

    @Test("a page without structured data imports from its recipe card and saves; the answer says each part is a guess from the markup")
    func aPluginCardWithoutJSONLDSavesAndSaysWhereItCameFrom() throws {
        let fixture = try ServiceFixture()
        let imported = try fixture.post("/v1/import?save=true", try Self.corpusPage("12-tasty-recipes.html"), headers: ["content-type": "text/html"])
        #expect(imported.status == 200 && (imported.object["save"] as? [String: Any])?["outcome"] as? String == "accepted", "\(imported.text)")
        #expect(imported.object["sources"] as? [String: String] == ["title": "markup", "ingredients": "markup", "instructions": "markup"])
        let detail = try fixture.get("/v1/recipes/\(try #require(imported.object["recipeId"] as? String))?guests=4")
        #expect(detail.object["title"] as? String == "Miso Butter Noodles" && detail.object["servings"] as? Int == 2, "\(detail.text)")
        #expect((detail.object["ingredients"] as? [[String: Any]])?.count == 4 && (detail.object["instructions"] as? [[String: Any]])?.count == 3)
        let jsonLD = try fixture.post("/v1/import", try Self.corpusPage("16-json-ld-without-ingredients.html"), headers: ["content-type": "text/html"])
        #expect(jsonLD.object["sources"] as? [String: String] == ["title": "json-ld", "ingredients": "markup", "instructions": "json-ld"], "\(jsonLD.text)")
    }

    @Test("recipes import prints the omissions the API answers for the same page, and saves what the rules allow")
    func theCLIShowsTheSameOmissions() throws {
        let fixture = try ServiceFixture()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.corpusPage("04-over-the-limits.html").write(to: file, atomically: true, encoding: .utf8)
        let answer = try fixture.post("/v1/import", try Self.corpusPage("04-over-the-limits.html"), headers: ["content-type": "text/html"])
        let omissions = try #require(answer.object["omissions"] as? [String])
        // A description cut, tags past the limit, a stub, and a yield of things without servings.
        #expect(omissions.count == 4)

        let run = try runRecipes(["import", file.path, "--save", "--brokers", fixture.kafka.bootstrapServers])
        #expect(run.status == 0, "\(run.err)")
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 + omissions.count, "\(run.out)")
        #expect(lines.first?.hasPrefix("\(file.path): Fig and Walnut Loaf recipe ") == true && lines.first?.contains(", saved at ") == true, "\(run.out)")
        #expect(Array(lines.dropFirst()) == omissions.map { "  " + $0 })
        let recipe = try #require(lines.first?.split(separator: " ").first { $0.count == 36 }.map(String.init))
        let saved = try #require(lines.first?.split(separator: " ").last.map(String.init))
        let detail = try fixture.get("/v1/recipes/\(recipe)?after=\(saved)")
        #expect(detail.status == 200 && detail.object["title"] as? String == "Fig and Walnut Loaf", "\(detail.text)")

        let method = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).jsonld")
        defer { try? FileManager.default.removeItem(at: method) }
        try #"{"@type":"Recipe","name":"Just a method","recipeInstructions":"Boil water."}"#.write(to: method, atomically: true, encoding: .utf8)
        let unsaved = try runRecipes(["import", method.path, "--save", "--brokers", fixture.kafka.bootstrapServers])
        #expect(unsaved.status == 0 && unsaved.out.contains(", not saved (notSavable): A recipe needs at least one ingredient to be saved."), "\(unsaved.out)")
    }

    @Test("a page's nutrition is appended after the content as NutritionChanged, and the save waits for it")
    func nutritionIsStatedAfterTheContent() throws {
        let fixture = try ServiceFixture()
        let document = #"""
            {"@context":"https://schema.org","@type":"Recipe","name":"Flapjacks","recipeIngredient":["250 g oats"],
             "nutrition":{"@type":"NutritionInformation","calories":"240 calories","fatContent":"9.5g","sodiumContent":"0.5 g",
                          "sugarContent":"N/A","servingSize":"1 bar"}}
            """#
        let imported = try fixture.post("/v1/import?save=true", document, headers: ["content-type": "application/ld+json"])
        #expect(imported.status == 200, "\(imported.text)")
        let id = try #require(imported.object["recipeId"] as? String)
        let nutritionCommand = try #require(imported.object["nutritionCommandId"] as? String, "\(imported.text)")
        #expect(imported.object["nutritionPosition"] is String)
        #expect((imported.object["sources"] as? [String: Any])?["nutrition"] as? String == "json-ld")
        #expect(imported.object["omissions"] as? [String] == [#"$.nutrition.sugarContent: left out "N/A": not an amount of sugar: a number, with or without a unit (g or mg)"#])
        // The content, the nutrition, then the save: the save is the third accepted record.
        let save = try #require(imported.object["save"] as? [String: Any])
        #expect(save["outcome"] as? String == "accepted" && save["revision"] as? Int == 3, "\(save)")
        let history = try fixture.get("/v1/recipes/\(id)/history").items
        #expect(history.map { $0["commandId"] as? String }.contains(nutritionCommand))
        #expect(history.allSatisfy { $0["outcome"] as? String == "accepted" }, "\(history)")

        // Exported as schema.org writes it, and imported again to the same amounts.
        let exported = try fixture.get("/v1/recipes/\(id)?format=jsonld")
        let information = try #require(exported.object["nutrition"] as? [String: Any], "\(exported.text)")
        #expect(information["@type"] as? String == "NutritionInformation")
        #expect(information["calories"] as? String == "240 kcal" && information["fatContent"] as? String == "9.5 g")
        #expect(information["sodiumContent"] as? String == "500 mg" && information["servingSize"] as? String == "1 bar")
        let again = try fixture.post("/v1/import?save=true", exported.text, headers: ["content-type": "application/ld+json"])
        let second = try #require(again.object["recipeId"] as? String, "\(again.text)")
        let detail = try fixture.get("/v1/recipes/\(second)").object
        let perServing = try #require((detail["nutrition"] as? [String: Any])?["perServing"] as? [String: [String: Any]], "\(detail)")
        #expect(perServing["calories"]?["amount"] as? Double == 240 && perServing["fat"]?["amount"] as? Double == 9.5)
        #expect(perServing["sodium"]?["amount"] as? Double == 500 && perServing["sodium"]?["unit"] as? String == "mg")
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
