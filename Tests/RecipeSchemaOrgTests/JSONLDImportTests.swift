import Foundation
import RecipeDomain
@testable import RecipeSchemaOrg
import Testing

@Suite("Import: JSON-LD shapes")
struct JSONLDImportTests {
    typealias Support = SchemaOrgTestSupport

    // MARK: - A whole recipe

    @Test func aFullRecipeGivesEveryField() throws {
        let json = #"""
        {
          "@context": "https://schema.org",
          "@type": "Recipe",
          "name": "Rye and Caraway Loaf",
          "description": "A dense loaf for the weekend.\nKeeps for five days.",
          "image": "https://pictures.example.org/rye/1.jpg",
          "recipeYield": "1 loaf",
          "prepTime": "PT40M",
          "cookTime": "pt1h5m",
          "totalTime": "P0DT13H",
          "url": "https://kitchen.example.org/rye-loaf",
          "keywords": "bread, Rye, sourdough",
          "recipeCategory": "Baking",
          "recipeCuisine": "Nordic",
          "recipeIngredient": ["500 g rye flour", "2 tsp caraway seeds", "400 ml warm water"],
          "recipeInstructions": [
            {"@type": "HowToStep", "text": "Stir flour, seeds and water into a thick paste."},
            {"@type": "HowToStep", "text": "Leave covered overnight."},
            {"@type": "HowToStep", "text": "Bake at 220 °C for 65 minutes."}
          ]
        }
        """#
        let imported = try Support.importJSON(json)
        // A loaf counts things, not people: the import says the recipe has no servings to scale.
        #expect(imported.omissions == [ImportOmission(path: "$.recipeYield", value: "", reason: RecipeNodeReader.noServings(yield: "1 loaf"))])
        #expect(imported.document == RecipeDocument(
            name: "Rye and Caraway Loaf",
            description: "A dense loaf for the weekend.\nKeeps for five days.",
            image: "https://pictures.example.org/rye/1.jpg",
            recipeYield: "1 loaf", servings: nil,
            prepTime: "PT40M", cookTime: "PT1H5M", totalTime: "P0DT13H",
            sourceUrl: "https://kitchen.example.org/rye-loaf",
            tags: ["bread", "rye", "sourdough", "baking", "nordic"],
            ingredients: [DocumentIngredient(text: "500 g rye flour"), DocumentIngredient(text: "2 tsp caraway seeds"),
                          DocumentIngredient(text: "400 ml warm water")],
            instructions: [DocumentStep(text: "Stir flour, seeds and water into a thick paste."),
                           DocumentStep(text: "Leave covered overnight."),
                           DocumentStep(text: "Bake at 220 °C for 65 minutes.")]))
    }

    @Test func ingredientLinesAreReadByTheDomainsParser() throws {
        let imported = try Support.importJSON(Support.recipe(#""recipeIngredient": ["1½ cups oat milk, warmed", "Salt to taste"]"#))
        let milk = imported.document.ingredients[0].parsed
        #expect(milk.amount == 1.5)
        #expect(milk.unit == "cup")
        #expect(milk.name == "oat milk")
        #expect(milk.note == "warmed")
        #expect(imported.document.ingredients[1].parsed.note == "to taste")
    }

    @Test func missingOptionalFieldsAreNil() throws {
        let imported = try Support.importJSON(#"{"@type": "Recipe", "name": "Plain Toast"}"#)
        #expect(imported.document == RecipeDocument(name: "Plain Toast"))
        #expect(imported.omissions.isEmpty)
    }

    // MARK: - Where the Recipe node is

    @Test func aRecipeInAGraphAmongOtherNodes() throws {
        let json = #"""
        {"@context": "https://schema.org", "@graph": [
          {"@type": "Organization", "@id": "https://kitchen.example.org/#org", "name": "Kitchen Notes"},
          {"@type": "WebPage", "@id": "https://kitchen.example.org/leek-soup", "name": "Leek soup | Kitchen Notes"},
          {"@type": "Recipe", "name": "Leek Soup", "mainEntityOfPage": {"@id": "https://kitchen.example.org/leek-soup"},
           "recipeIngredient": ["3 leeks"]}
        ]}
        """#
        let document = try Support.importJSON(json).document
        #expect(document.name == "Leek Soup")
        #expect(document.sourceUrl == "https://kitchen.example.org/leek-soup")
        #expect(document.ingredients.map(\.text) == ["3 leeks"])
    }

    @Test func aRecipeInATopLevelList() throws {
        let json = #"[{"@type": "BreadcrumbList", "itemListElement": []}, {"@type": "Recipe", "name": "Fig Jam"}]"#
        #expect(try Support.importJSON(json).document.name == "Fig Jam")
    }

    @Test func aRecipeAsTheMainEntityOfAPage() throws {
        let json = #"{"@type": "WebPage", "mainEntity": {"@type": "Recipe", "name": "Nettle Pesto"}}"#
        #expect(try Support.importJSON(json).document.name == "Nettle Pesto")
    }

    @Test(arguments: [
        #"["Recipe", "NewsArticle"]"#, #"["NewsArticle", "Recipe"]"#, #""schema:Recipe""#, #""https://schema.org/Recipe""#,
        #""http://schema.org/Recipe""#,
    ])
    func typeAsAListOrWithAPrefix(type: String) throws {
        let json = #"{"@type": "# + type + #", "name": "Barley Salad"}"#
        #expect(try Support.importJSON(json).document.name == "Barley Salad")
    }

    @Test func aRecipeThatIsAlsoAnArticleMayNameItselfByHeadline() throws {
        let json = #"{"@type": ["Recipe", "NewsArticle"], "headline": "Quince Paste"}"#
        #expect(try Support.importJSON(json).document.name == "Quince Paste")
    }

    @Test func twoCopiesOfOneRecipeAreOneRecipe() throws {
        let node = #"{"@type": "Recipe", "name": "Apple Cake", "recipeIngredient": ["4 apples"]}"#
        #expect(try Support.importJSON("[\(node), \(node)]").document.name == "Apple Cake")
    }

    @Test func ofSeveralDifferentRecipesTheLargestIsImportedAndTheOthersNamed() throws {
        let json = #"""
        [{"@type": "Recipe", "name": "Red Sauce", "recipeIngredient": ["4 tomatoes", "1 onion"]},
         {"@type": "Recipe", "name": "Green Sauce", "recipeIngredient": ["1 bunch parsley", "2 anchovies", "1 tbsp capers"]}]
        """#
        let imported = try Support.importJSON(json)
        #expect(imported.document.name == "Green Sauce")
        #expect(imported.omissions.map(\.path) == ["$[0]"] && imported.omissions.map(\.value) == ["Red Sauce"])
        #expect(imported.omissions.first?.reason.contains("2 ingredients, 0 steps") == true)
        let all = try SchemaOrgImport.recipes(from: Data(json.utf8), contentType: "application/ld+json")
        #expect(all.compactMap { try? $0.get().document.name } == ["Red Sauce", "Green Sauce"])
    }

    @Test func aPartOfARecipeIsNotTheMainOneEvenWhenLarger() throws {
        let json = #"""
        {"@type": "Recipe", "name": "Burger", "recipeIngredient": ["4 buns", "500 g beef"],
         "hasPart": {"@type": "Recipe", "name": "Buns", "recipeIngredient": ["500 g flour", "7 g yeast", "1 egg", "50 g butter"]}}
        """#
        let imported = try Support.importJSON(json)
        #expect(imported.document.name == "Burger")
        #expect(imported.omissions.map(\.path) == ["$.hasPart"])
    }

    // MARK: - Instructions

    @Test func instructionsAsOneTextAreOneStepPerLine() throws {
        let json = Support.recipe(#""recipeInstructions": "Whisk the eggs.\n\nFold in the flour.\r\n  Bake for 20 minutes.  ""#)
        #expect(try Support.importJSON(json).document.instructions.map(\.text)
            == ["Whisk the eggs.", "Fold in the flour.", "Bake for 20 minutes."])
    }

    @Test func instructionsAsAListOfTexts() throws {
        let json = Support.recipe(#""recipeInstructions": ["Chop the herbs.", "", "Mix with oil."]"#)
        #expect(try Support.importJSON(json).document.instructions == [
            DocumentStep(text: "Chop the herbs."), DocumentStep(text: "Mix with oil."),
        ])
    }

    @Test func aHowToStepGivesItsTextElseItsName() throws {
        let json = Support.recipe(#"""
        "recipeInstructions": [
          {"@type": "HowToStep", "name": "Soak", "text": "Soak the beans for eight hours."},
          {"@type": "HowToStep", "name": "Drain and rinse the beans."},
          {"@type": "HowToStep", "text": "Simmer for an hour.\nSalt at the end."}
        ]
        """#)
        #expect(try Support.importJSON(json).document.instructions.map(\.text)
            == ["Soak the beans for eight hours.", "Drain and rinse the beans.", "Simmer for an hour.\nSalt at the end."])
    }

    /// A step's name is kept: as the heading of the steps that share it, else as the step's first
    /// line; either way the export gives it back (a `HowToSection`, or the step's text).
    @Test func aStepsNameIsKeptAsItsSectionOrItsTitleAndExportedBack() throws {
        let json = Support.recipe(#"""
        "recipeInstructions": [
          {"@type": "HowToStep", "name": "Make the sauce", "text": "Fry the onion until soft."},
          {"@type": "HowToStep", "name": "Make the sauce", "text": "Add the tomatoes; simmer 20 minutes."},
          {"@type": "HowToStep", "name": "Assemble", "text": "Layer pasta, sauce and cheese."},
          {"@type": "HowToStep", "name": "Bake", "text": "Bake for 30 minutes."},
          {"@type": "HowToStep", "name": "Bake", "text": "Rest for 10 minutes before cutting."}
        ]
        """#)
        let document = try Support.importJSON(json).document
        #expect(document.instructions == [
            DocumentStep(text: "Fry the onion until soft.", section: "Make the sauce"),
            DocumentStep(text: "Add the tomatoes; simmer 20 minutes.", section: "Make the sauce"),
            DocumentStep(text: "Assemble\nLayer pasta, sauce and cheese."),
            DocumentStep(text: "Bake for 30 minutes."),
            DocumentStep(text: "Bake\nRest for 10 minutes before cutting."),
        ])
        let exported = SchemaOrgExport.jsonLD(document)
        #expect(try SchemaOrgImport.recipe(from: exported, contentType: "application/ld+json").document == document)
    }

    @Test func howToSectionsHeadTheirSteps() throws {
        let json = Support.recipe(#"""
        "recipeInstructions": [
          {"@type": "HowToStep", "text": "Heat the oven to 180 °C."},
          {"@type": "HowToSection", "name": "Crust", "itemListElement": [
            {"@type": "HowToStep", "text": "Rub butter into flour."},
            {"@type": "HowToStep", "text": "Chill for 30 minutes."}]},
          {"@type": "HowToSection", "name": "Filling", "itemListElement": [
            {"@type": "HowToStep", "text": "Slice the plums."}]}
        ]
        """#)
        #expect(try Support.importJSON(json).document.instructions == [
            DocumentStep(text: "Heat the oven to 180 °C."),
            DocumentStep(text: "Rub butter into flour.", section: "Crust"),
            DocumentStep(text: "Chill for 30 minutes.", section: "Crust"),
            DocumentStep(text: "Slice the plums.", section: "Filling"),
        ])
    }

    @Test func nestedListsAndStepsMadeOfDirectionsAreFlattenedInOrder() throws {
        let json = Support.recipe(#"""
        "recipeInstructions": [
          [["Toast the seeds."], "Grind them."],
          {"@type": "HowToSection", "name": "Dressing", "itemListElement": [
            [{"@type": "HowToStep", "itemListElement": [
              {"@type": "HowToDirection", "text": "Whisk lemon and oil."},
              {"@type": "HowToTip", "text": "Taste for salt."}]}]]}
        ]
        """#)
        #expect(try Support.importJSON(json).document.instructions == [
            DocumentStep(text: "Toast the seeds."), DocumentStep(text: "Grind them."),
            DocumentStep(text: "Whisk lemon and oil.", section: "Dressing"),
            DocumentStep(text: "Taste for salt.", section: "Dressing"),
        ])
    }

    // MARK: - Ingredients

    @Test func theOldIngredientsMemberIsReadToo() throws {
        let json = Support.recipe(#""ingredients": ["2 pears", "1 lemon"]"#)
        #expect(try Support.importJSON(json).document.ingredients.map(\.text) == ["2 pears", "1 lemon"])
    }

    @Test func headingLinesAmongTheIngredientsAreSections() throws {
        let json = Support.recipe(#"""
        "recipeIngredient": ["1 kg potatoes", "For the sauce:", "2 tbsp butter", "1 tbsp flour", "Topping:", "50 g cheese", "To finish:"]
        """#)
        #expect(try Support.importJSON(json).document.ingredients == [
            DocumentIngredient(text: "1 kg potatoes"),
            DocumentIngredient(text: "2 tbsp butter", section: "For the sauce"),
            DocumentIngredient(text: "1 tbsp flour", section: "For the sauce"),
            DocumentIngredient(text: "50 g cheese", section: "Topping"),
        ])
    }

    @Test func aLineWithAQuantityIsAnIngredientEvenWithAColon() throws {
        let json = Support.recipe(#""recipeIngredient": ["2 cups stock:"]"#)
        #expect(try Support.importJSON(json).document.ingredients == [DocumentIngredient(text: "2 cups stock:")])
    }

    @Test func ingredientsUnderTheMisspelledPluralAreRead() throws {
        let json = Support.recipe(#""recipeIngredients": ["flour", "sugar"]"#)
        #expect(try Support.importJSON(json).document.ingredients.map(\.text) == ["flour", "sugar"])
    }

    @Test func ingredientsAsOneTextAreOneLineEach() throws {
        let json = Support.recipe(#""recipeIngredient": "3 eggs\n200 g sugar\n""#)
        #expect(try Support.importJSON(json).document.ingredients.map(\.text) == ["3 eggs", "200 g sugar"])
    }

    // MARK: - Yield

    @Test(arguments: [
        (#""4""#, nil, 4), ("4", nil, 4), ("4.0", nil, 4), (#"["4", "4 servings"]"#, "4 servings", 4),
        (#"["6 jars", 12]"#, "6 jars", 12), (#""12 cookies""#, "12 cookies", nil), (#""4 servings""#, "4 servings", 4),
        (#""0""#, "0", nil), ("250", "250", nil), (#"["2", "3"]"#, nil, 2),
    ] as [(String, String?, Int?)])
    func yieldAsTextNumberOrList(yield: String, text: String?, servings: Int?) throws {
        let document = try Support.importJSON(Support.recipe(#""recipeYield": "# + yield)).document
        #expect(document.recipeYield == text)
        #expect(document.servings == servings)
    }

    // MARK: - Durations

    @Test func timesThatSayNoDurationAreLeftOutAndReportedAndWordsAreRead() throws {
        let json = Support.recipe(#""prepTime": "overnight", "cookTime": "25 minutes", "totalTime": 45"#)
        let imported = try Support.importJSON(json)
        #expect(imported.document.prepTime == nil)
        #expect(imported.document.cookTime == "PT25M")
        #expect(imported.document.totalTime == nil)
        #expect(imported.omissions.map(\.path) == ["$.prepTime", "$.totalTime"])
        #expect(imported.omissions.map(\.value) == ["overnight", "45"])
        #expect(imported.omissions.allSatisfy { $0.reason.contains("ISO 8601") })
    }

    // MARK: - Keywords and categories

    @Test func keywordsAsTextOrListWithCategoriesBecomeTagNamesOnce() throws {
        let json = Support.recipe(#"""
        "keywords": ["Quick Dinner", "vegetarian, one-pot", "Mom's Favourite"],
        "recipeCategory": ["Main Course", "vegetarian"],
        "recipeCuisine": "Crème & Café, 日本料理"
        """#)
        let imported = try Support.importJSON(json)
        #expect(imported.document.tags
            == ["quick-dinner", "vegetarian", "one-pot", "moms-favourite", "main-course", "crème-café", "日本料理"])
        #expect(imported.document.tags.allSatisfy(Tag.isValidName))
        #expect(imported.omissions.isEmpty)
    }

    @Test func keywordsThatMakeNoTagNameAreLeftOutAndReported() throws {
        let long = String(repeating: "a", count: RecipeLimits.maxTagNameLength + 1)
        let json = Support.recipe(#""keywords": "30-minute meals, easy, !!!, "# + long + #"", "recipeCategory": 7"#)
        let imported = try Support.importJSON(json)
        #expect(imported.document.tags == ["easy"])
        #expect(imported.omissions.map(\.value) == ["30-minute meals", "!!!", long, "7"])
        #expect(imported.omissions.map(\.path) == ["$.keywords", "$.keywords", "$.keywords", "$.recipeCategory"])
    }

    @Test func definedTermsGiveTheirName() throws {
        let json = Support.recipe(#""keywords": [{"@type": "DefinedTerm", "name": "Picnic"}]"#)
        #expect(try Support.importJSON(json).document.tags == ["picnic"])
    }

    // MARK: - Image and source

    @Test(arguments: [
        (#""https://img.example.org/a.jpg""#, "https://img.example.org/a.jpg"),
        (#"["/relative.jpg", "https://img.example.org/b.jpg", "https://img.example.org/c.jpg"]"#, "https://img.example.org/b.jpg"),
        (#"{"@type": "ImageObject", "url": "https://img.example.org/d.jpg", "width": 800}"#, "https://img.example.org/d.jpg"),
        (#"{"@type": "ImageObject", "contentUrl": "https://img.example.org/e.jpg"}"#, "https://img.example.org/e.jpg"),
        (#"[{"@type": "ImageObject", "url": "https://img.example.org/f.jpg"}, "https://img.example.org/g.jpg"]"#, "https://img.example.org/f.jpg"),
        (#""https://img.example.org/h.jpg?w=1&amp;h=2""#, "https://img.example.org/h.jpg?w=1&h=2"),
    ])
    func imageAsURLListOrImageObject(image: String, url: String) throws {
        let imported = try Support.importJSON(Support.recipe(#""image": "# + image))
        #expect(imported.document.image == url)
        #expect(imported.omissions.isEmpty)
    }

    @Test func anImageReferencedByIdIsFoundInTheGraph() throws {
        let json = #"""
        {"@graph": [
          {"@type": "Recipe", "name": "Pear Tart", "image": {"@id": "https://kitchen.example.org/#primaryimage"}},
          {"@type": "ImageObject", "@id": "https://kitchen.example.org/#primaryimage", "contentUrl": "https://img.example.org/tart.jpg"}
        ]}
        """#
        #expect(try Support.importJSON(json).document.image == "https://img.example.org/tart.jpg")
    }

    @Test func anImageThatIsNoWebURLIsLeftOutAndReported() throws {
        let imported = try Support.importJSON(Support.recipe(#""image": ["data:image/png;base64,AAAA", "ftp://x.example.org/p.jpg"]"#))
        #expect(imported.document.image == nil)
        #expect(imported.omissions.map(\.path) == ["$.image"])
    }

    @Test func sourceIsTheURLElseTheMainEntityOfPage() throws {
        let both = Support.recipe(#""url": "https://a.example.org/r", "mainEntityOfPage": "https://b.example.org/r""#)
        #expect(try Support.importJSON(both).document.sourceUrl == "https://a.example.org/r")
        let page = Support.recipe(#""mainEntityOfPage": {"@type": "WebPage", "@id": "https://b.example.org/r"}"#)
        #expect(try Support.importJSON(page).document.sourceUrl == "https://b.example.org/r")
    }

    // MARK: - HTML inside the JSON

    @Test func htmlInTextFieldsIsTakenOut() throws {
        let json = Support.recipe(#"""
        "name": "Fish &amp; Chips",
        "description": "<p>Crisp &amp; light.</p><p>Serve with <b>malt</b> vinegar&nbsp;&#8212; always.</p>",
        "recipeIngredient": ["<strong>2</strong> large potatoes", "Salt &amp; pepper"],
        "recipeInstructions": "<ol><li>Cut the potatoes.</li><li>Fry twice &#x2013; first low, then hot.</li></ol>"
        """#)
        let document = try Support.importJSON(json).document
        #expect(document.name == "Fish & Chips")
        #expect(document.description == "Crisp & light.\nServe with malt vinegar — always.")
        #expect(document.ingredients.map(\.text) == ["2 large potatoes", "Salt & pepper"])
        #expect(document.instructions.map(\.text) == ["Cut the potatoes.", "Fry twice – first low, then hot."])
    }

    @Test func escapedTextKeepsItsLinesButMarkupFollowsHTMLSpacing() throws {
        let escaped = Support.recipe(#""recipeInstructions": "Mix flour &amp; water.\nRest &#8211; 1 hour.""#)
        #expect(try Support.importJSON(escaped).document.instructions.map(\.text) == ["Mix flour & water.", "Rest – 1 hour."])
        let markup = Support.recipe(#""recipeInstructions": "<p>Mix flour\nand water.</p><p>Rest.</p>""#)
        #expect(try Support.importJSON(markup).document.instructions.map(\.text) == ["Mix flour and water.", "Rest."])
    }

    @Test func textThatOnlyLooksLikeMarkupToAPersonIsKept() throws {
        let json = Support.recipe(#""name": "R&D Cookies <3", "recipeInstructions": ["Bake for < 10 min & cool; AT&T style."]"#)
        let document = try Support.importJSON(json).document
        #expect(document.name == "R&D Cookies <3")
        #expect(document.instructions.map(\.text) == ["Bake for < 10 min & cool; AT&T style."])
    }
}
