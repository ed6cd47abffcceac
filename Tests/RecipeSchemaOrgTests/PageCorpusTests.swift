import Foundation
import RecipeDomain
@testable import RecipeSchemaOrg
import Testing

/// Pages written for these tests in `Pages/`, each shaped like a real recipe page (a head of
/// other scripts and styles, navigation, ad slots, the article) and each built around what
/// real pages publish and a strict reader refused or misread: JSON-LD that browsers read but
/// the JSON grammar does not, several Recipe nodes, values over the domain's limits, times
/// and yields in other shapes, named steps, paragraphs in one string, microdata and RDFa.
/// Every field of every result is asserted, and every omission.
@Suite("Import: a corpus of pages")
struct PageCorpusTests {
    static let pages = SchemaOrgTestSupport.testsDirectory.appendingPathComponent("Pages")

    static func imported(_ file: String) throws -> ImportedRecipe {
        let data = try Data(contentsOf: pages.appendingPathComponent(file))
        return try SchemaOrgImport.recipe(from: data, contentType: "text/html; charset=utf-8")
    }

    static func lines(_ texts: [String], section: String? = nil) -> [DocumentIngredient] {
        texts.map { DocumentIngredient(text: $0, section: section) }
    }

    static func steps(_ texts: [String], section: String? = nil) -> [DocumentStep] {
        texts.map { DocumentStep(text: $0, section: section) }
    }

    @Test("case 1: raw line breaks and tabs inside strings and \\' escapes are read as browsers read them")
    func rawLineBreaksTabsAndEscapes() throws {
        let imported = try Self.imported("01-raw-breaks-and-escapes.html")
        #expect(imported.document == RecipeDocument(
            name: "Nonna's Bean Soup", description: "A slow soup of white beans.\nBetter on the second day.",
            image: "https://saltandember.example/img/bean-soup-1x1.jpg", recipeYield: "6 bowls", servings: 6,
            prepTime: "PT20M", cookTime: "PT2H", totalTime: "PT2H20M", sourceUrl: "https://saltandember.example/nonnas-bean-soup/",
            tags: ["beans", "winter", "soup", "italian"],
            ingredients: Self.lines(["500 g dried cannellini beans", "2 tbsp olive oil", "1 onion, diced", "3 cloves garlic",
                                     "1 sprig rosemary", "Salt, to taste"]),
            instructions: Self.steps(["Soak the beans overnight. Drain them.",
                                      "Soften the onion and garlic in the oil.\nAdd the beans, rosemary and 2 litres of water.",
                                      "Simmer for two hours; salt at the end. Don't rush it."])))
        #expect(imported.omissions.isEmpty, "\(imported.omissions)")
    }

    @Test("case 1: a block in // <![CDATA[ … // ]]> with a ; after the object and trailing commas")
    func cdataSemicolonAndTrailingCommas() throws {
        let imported = try Self.imported("02-cdata-and-semicolon.html")
        #expect(imported.document == RecipeDocument(
            name: "Buttermilk Scones", description: "Tall, soft scones in twenty-five minutes.",
            image: "https://flourdrawer.example/img/scones.jpg", recipeYield: "8 scones", servings: nil,
            prepTime: "PT15M", cookTime: "PT12M", totalTime: nil, sourceUrl: "https://flourdrawer.example/recipes/buttermilk-scones",
            tags: ["baking", "afternoon-tea"],
            ingredients: Self.lines(["350 g self-raising flour", "85 g cold butter, cubed", "175 ml buttermilk", "1 pinch salt"]),
            instructions: Self.steps(["Rub the butter into the flour and salt.", "Stir in the buttermilk with a knife.",
                                      "Cut rounds and bake at 220 °C for 12 minutes."])))
        #expect(imported.omissions.map(\.reason) == [RecipeNodeReader.noServings(yield: "8 scones")], "\(imported.omissions)")
    }

    @Test("case 2: the page's main entity is imported, not its larger sub-recipes, which are named; a copy counts once")
    func mainRecipeAmongSubRecipes() throws {
        let imported = try Self.imported("03-main-and-sub-recipes.html")
        #expect(imported.document == RecipeDocument(
            name: "Lasagne al forno", image: "https://cucinadicasa.example/img/lasagne.jpg", servings: 8,
            prepTime: "PT40M", cookTime: "PT45M", tags: ["pasta"],
            ingredients: Self.lines(["12 sheets dried lasagne", "1 quantity ragù", "1 quantity béchamel"], section: "For the layers")
                + Self.lines(["60 g parmesan, grated"], section: "For the top"),
            instructions: Self.steps(["Spread a little ragù in the dish.", "Layer pasta, ragù and béchamel four times."], section: "Assemble")
                + Self.steps(["Top with parmesan and bake at 190 °C for 45 minutes."], section: "Bake")))
        #expect(imported.omissions.map(\.path) == [#"script 1: $["@graph"][2]"#, #"script 1: $["@graph"][3]"#])
        #expect(imported.omissions.map(\.value) == ["Ragù", "Béchamel"])
        #expect(imported.omissions.allSatisfy { $0.reason.hasPrefix("another recipe of the document") && $0.reason.contains("main entity") },
                "\(imported.omissions)")
        #expect(imported.omissions[0].reason.contains("8 ingredients, 3 steps"))
    }

    @Test("case 3: a description over its limit is cut, tags past 50 are named, an empty stub is named, lists of lists are read")
    func overTheLimitsKeepsWhatFits() throws {
        let imported = try Self.imported("04-over-the-limits.html")
        let keywords = ["bread", "fig", "walnut", "loaf", "sourdough", "autumn", "baking", "breakfast", "snack", "vegan",
                        "dairy-free", "egg-free", "make-ahead", "freezer-friendly", "weekend", "rustic", "crusty", "sweet", "fruit", "nuts",
                        "toast", "picnic", "lunchbox", "brunch", "teatime", "homemade", "yeasted", "long-rise", "overnight", "slow",
                        "simple", "classic", "family", "kids", "gift", "holiday", "harvest", "country", "farmhouse", "wholesome",
                        "hearty", "warm", "golden", "chewy", "tender", "aromatic", "seasonal", "pantry", "budget", "easy",
                        "rye", "spelt", "honey", "cinnamon", "orange", "raisin", "apricot", "hazelnut", "almond", "date"]
        var document = imported.document
        // The description: at most the limit, cut at a word's end, a prefix of the page's text.
        let description = try #require(document.description)
        let original = try Self.pageDescription("04-over-the-limits.html")
        #expect(original.unicodeScalars.count == 5_588)
        #expect(description.unicodeScalars.count <= RecipeLimits.maxRecipeDescriptionLength)
        #expect(description.unicodeScalars.count > RecipeLimits.maxRecipeDescriptionLength - 100)
        #expect(description.hasSuffix("…") && original.hasPrefix(String(description.dropLast())))
        #expect(FieldRules.optionalText(description, "Description", limit: RecipeLimits.maxRecipeDescriptionLength) == nil)
        document.description = nil
        #expect(document == RecipeDocument(
            name: "Fig and Walnut Loaf", image: "https://crumbandcrust.example/img/fig-loaf.jpg", recipeYield: "1 loaf",
            prepTime: "PT30M", cookTime: "PT45M", tags: Array(keywords.prefix(RecipeLimits.maxTags)),
            ingredients: Self.lines(["400 g strong white flour", "7 g dried yeast", "150 g dried figs, chopped", "75 g walnuts",
                                     "300 ml warm water", "1 tsp salt"]),
            instructions: Self.steps(["Mix flour, yeast, salt and water into a soft dough.", "Fold in the figs and walnuts after the first rise.",
                                      "Shape, prove for an hour and bake at 220 °C for 45 minutes."])))
        #expect(imported.omissions.map(\.path) == ["script 1: $[1].description", "script 1: $[1].recipeYield", "script 1: $[1]", "script 1: $[0]"])
        try #require(imported.omissions.count == 4)
        #expect(imported.omissions[0].reason.contains("5588") && imported.omissions[0].reason.contains("\(RecipeLimits.maxRecipeDescriptionLength)"))
        #expect(imported.omissions[1].reason == RecipeNodeReader.noServings(yield: "1 loaf"))
        #expect(imported.omissions[2].value == keywords.dropFirst(RecipeLimits.maxTags).joined(separator: ", "))
        #expect(imported.omissions[2].reason.hasPrefix("10 more tags"))
        #expect(imported.omissions[3].value == "Fig and Walnut Loaf")
        #expect(imported.omissions[3].reason == "a Recipe with no ingredients or steps, beside the one imported")
    }

    @Test("case 6: a QuantitativeValue yield, times written loosely, an ingredient entry with a line break; case 5: a list entry with a line break is one step")
    func timesYieldsAndLineBreaks() throws {
        let imported = try Self.imported("05-times-yield-and-lines.html")
        #expect(imported.document == RecipeDocument(
            name: "Fennel Roast Pork", image: "https://sundaytable.example/media/pork-16x9.jpg", recipeYield: "6 servings", servings: 6,
            prepTime: "PT30M", cookTime: "PT45M", totalTime: "PT4H45M",
            ingredients: Self.lines(["1.5 kg pork shoulder", "1 tbsp fennel seeds, lightly crushed", "4 cloves garlic", "2 tbsp olive oil"]),
            instructions: Self.steps(["Toast the fennel seeds.\nGrind them coarsely with the garlic.",
                                      "Rub the paste over the pork and leave for three hours.", "Roast at 200 °C for 45 minutes."])))
        #expect(imported.omissions.isEmpty, "\(imported.omissions)")
    }

    @Test("case 5: RecipeInstructions with a capital R, HowToSteps with a name and a text; case 4: P30M is left out, PT1.5H read")
    func namedStepsAndAmbiguousTimes() throws {
        let imported = try Self.imported("06-named-steps.html")
        #expect(imported.document == RecipeDocument(
            name: "Spiced Lentil Dal", description: "Red lentils with a hot tarka poured over at the end.",
            image: "https://panandpot.example/wp-content/uploads/dal.jpg", recipeYield: "4 bowls", servings: 4,
            prepTime: nil, cookTime: "PT1H30M", tags: ["dal", "lentils", "vegan", "main-course", "indian"],
            ingredients: Self.lines(["250 g red lentils", "1 litre water", "1 tsp turmeric", "2 tbsp ghee or oil", "1 tsp cumin seeds",
                                     "2 cloves garlic, sliced", "Salt, to taste"]),
            instructions: Self.steps([
                "Cook the lentils\nSimmer the lentils with the water and turmeric for 25 minutes, stirring now and then.",
                "Season with salt and beat until smooth.",
                "Heat the ghee and fry the cumin and garlic until golden.",
                "Pour the tarka\nPour over the dal and serve at once.",
            ])))
        #expect(imported.omissions.map(\.path) == ["script 1: $.prepTime"])
        #expect(imported.omissions.map(\.value) == ["P30M"])
        #expect(imported.omissions.first?.reason.contains("no years or months") == true)
    }

    @Test("case 5: one instruction string of <p> paragraphs joined by commas is a step per paragraph, no \",\" steps")
    func paragraphsJoinedByCommas() throws {
        let imported = try Self.imported("07-paragraph-instructions.html")
        #expect(imported.document == RecipeDocument(
            name: "Chocolate Mousse", image: "https://petitecuisine.example/images/mousse.jpg", servings: 6, totalTime: "PT4H20M",
            tags: ["dessert"],
            ingredients: Self.lines(["200 g dark chocolate", "6 eggs, separated", "2 tbsp caster sugar", "1 pinch salt"]),
            instructions: Self.steps(["Melt the chocolate over a pan of barely simmering water; let it cool a little.",
                                      "Whisk the whites with the salt to soft peaks, then whisk in the sugar.",
                                      "Stir the yolks into the chocolate, then fold in the whites, a third at a time.",
                                      "Chill for at least four hours."])))
        #expect(imported.omissions.isEmpty, "\(imported.omissions)")
    }

    @Test("case 7: a recipe in microdata, lists written without end tags, nested Person and rating items")
    func microdata() throws {
        let imported = try Self.imported("08-microdata.html")
        #expect(imported.document == RecipeDocument(
            name: "Apple and Oat Crumble", description: "Windfall apples under a crisp oat topping.\nServe it with custard.",
            image: "https://allotmentkitchen.example/photos/crumble.jpg", servings: 6, prepTime: "PT20M", cookTime: "PT40M",
            tags: ["apples", "autumn", "pudding"],
            ingredients: Self.lines(["1 kg cooking apples, peeled and sliced", "2 tbsp demerara sugar", "150 g plain flour",
                                     "100 g rolled oats", "125 g cold butter & a little extra"]),
            instructions: Self.steps(["Heat the oven to 190 °C.", "Toss the apples with the sugar in a baking dish.",
                                      "Rub the butter into the flour and oats until it looks like coarse crumbs.",
                                      "Scatter over the apples and bake for 40 minutes."])))
        #expect(imported.omissions.isEmpty, "\(imported.omissions)")
    }

    @Test("case 7: a recipe in RDFa, with HowToStep items and a content attribute; the page's og: properties are not the recipe's")
    func rdfa() throws {
        let imported = try Self.imported("09-rdfa.html")
        #expect(imported.document == RecipeDocument(
            name: "Green Herb Pesto", description: "A pesto for whatever is growing: basil, parsley or rocket.",
            image: "https://smallplates.example/img/pesto.jpg", recipeYield: "1 jar", totalTime: "PT10M", tags: ["sauce", "basil"],
            ingredients: Self.lines(["50 g basil leaves", "30 g pine nuts, toasted", "1 small clove garlic", "40 g parmesan, finely grated",
                                     "120 ml olive oil"]),
            instructions: Self.steps(["Pound the garlic and pine nuts to a paste.", "Add the basil and pound again.",
                                      "Stir in the cheese, then the oil, a little at a time."])))
        #expect(imported.omissions.map(\.reason) == [RecipeNodeReader.noServings(yield: "1 jar")], "\(imported.omissions)")
    }

    @Test("every page's recipe is one the fold accepts whole and saves: nothing appended to fail later")
    func everyPageFoldsAndSaves() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.pages.path).filter { $0.hasSuffix(".html") }.sorted()
        #expect(files.count == 16)
        for file in files {
            let commands = try Self.imported(file).commands(recipeID: RecipeID(made: "r-\(file)"), actor: "tester", actorRole: .writer, time: Timestamp(millisecondsSinceEpoch: 0),
                                                            save: true, newCommandID: { UUID().uuidString })
            #expect(commands.save != nil && commands.saveRefused == nil, "\(file): \(String(describing: commands.saveRefused))")
            var recipe = Recipe(id: RecipeID(made: "r-\(file)"))
            for envelope in [commands.content, commands.save!] {
                guard case .accepted(let next, _) = RecipeDecider.fold(recipe, envelope) else {
                    Issue.record("\(file): \(envelope.command.kind) is not accepted")
                    break
                }
                recipe = next
            }
            #expect(recipe.versions.count == 1, "\(file)")
        }
    }

    /// The description as the page's JSON-LD writes it.
    private static func pageDescription(_ file: String) throws -> String {
        let page = try String(contentsOf: pages.appendingPathComponent(file), encoding: .utf8)
        let start = try #require(page.range(of: #"<script type="application/ld+json">"#)).upperBound
        let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
        let nodes = try #require(try JSONSerialization.jsonObject(with: Data(page[start..<end].utf8)) as? [[String: Any]])
        return try #require(nodes[1]["description"] as? String)
    }

    @Test("case 10: a yield that names people gives the servings, a range its lower bound; the text is kept")
    func servesARange() throws {
        let imported = try Self.imported("10-serves-a-range.html")
        #expect(imported.document == RecipeDocument(
            name: "Weeknight Chicken Tikka", description: "Yoghurt-marinated chicken under a hot grill.",
            image: "https://busypan.example/wp-content/uploads/tikka.jpg", recipeYield: "Serves 4-6", servings: 4,
            prepTime: "PT40M", cookTime: "PT12M", sourceUrl: "https://busypan.example/chicken-tikka/", tags: ["dinner", "indian"],
            ingredients: Self.lines(["600 g chicken thighs", "150 g plain yoghurt", "2 tsp garam masala", "1 lemon, juiced"]),
            instructions: Self.steps(["Mix the yoghurt, spice and lemon; coat the chicken and leave 30 minutes.",
                                      "Grill on a rack for 12 minutes, turning once."])))
        #expect(imported.omissions.isEmpty, "\(imported.omissions)")
    }

    /// The yields real pages write, each in the same page: the number of people is the servings
    /// (a range's lower bound), whatever the language; a yield of things leaves them empty, and says so.
    @Test("case 10: yields as pages write them", arguments: [
        (#""4 servings""#, 4), (#""4 serving(s)""#, 4), (#""Serves 4""#, 4), (#""Serves 4.0""#, 4), (#""Serves 4-6""#, 4),
        (#""4 persons""#, 4), (#""4 personnes""#, 4), (#""2 Portionen""#, 2), (#""4 portioner""#, 4),
        (#""8 - 10 serving(s)""#, 8), (#""3 to 4 servings""#, 3), (#"["4", "4 servings"]"#, 4), (#""Für 4 Personen""#, 4),
        (#""6 porzioni""#, 6), (#""Para 6 personas""#, 6), (#""Makes 12 servings (about 24 cookies)""#, 12), (#""Serves 4–6""#, 4),
        (#""4人分""#, 4), (#""2 porcie""#, 2), (#""4 főre""#, 4), (#""4 port""#, 4), (#""6 (as a side dish)""#, 6), (#""10-15 porcií""#, 10),
        (#""24 cookies""#, nil), (#""1 loaf""#, nil), (#""2 trays, about 24 pieces""#, nil),
    ] as [(String, Int?)])
    func yieldsAsPagesWriteThem(yield: String, servings: Int?) throws {
        let page = try String(contentsOf: Self.pages.appendingPathComponent("10-serves-a-range.html"), encoding: .utf8)
            .replacingOccurrences(of: #""recipeYield":"Serves 4-6""#, with: #""recipeYield":"# + yield)
        let imported = try SchemaOrgImport.recipe(from: Data(page.utf8), contentType: "text/html")
        #expect(imported.document.servings == servings)
        let text = try JSONSerialization.jsonObject(with: Data(yield.utf8), options: .fragmentsAllowed)
        #expect(imported.document.recipeYield == (text as? String ?? "4 servings"))
        let said = imported.omissions.filter { $0.path == "script 2: $.recipeYield" }.map(\.reason)
        #expect(said == (servings == nil ? [RecipeNodeReader.noServings(yield: text as? String ?? "")] : []))
    }

    // MARK: - Pages without structured data

    static let fromMarkup = ImportedRecipe.Sources(title: .markup, ingredients: .markup, instructions: .markup)

    @Test("case 11: a WP Recipe Maker card without JSON-LD: groups, times, servings of things")
    func wpRecipeMakerCard() throws {
        let imported = try Self.imported("11-wp-recipe-maker.html")
        #expect(imported.document == RecipeDocument(
            name: "Lemon Drizzle Traybake", description: "Soft, sharp & sticky: cut into 16 squares.", recipeYield: "16 squares",
            prepTime: "PT15M", cookTime: "PT35M",
            ingredients: Self.lines(["225 g unsalted butter softened", "225 g caster sugar", "4 eggs", "275 g self-raising flour"], section: "For the sponge")
                + Self.lines(["2 lemons juiced", "175 g granulated sugar"], section: "For the drizzle"),
            instructions: Self.steps(["Heat the oven to 180°C and line a 30 x 23 cm tin.",
                                      "Beat the butter, sugar, eggs and flour together until smooth; spread in the tin.",
                                      "Bake for 35 minutes, then pour the lemon juice and sugar over the hot sponge."])))
        #expect(imported.sources == Self.fromMarkup)
        #expect(imported.omissions.map(\.reason) == [RecipeNodeReader.noServings(yield: "16 squares")], "\(imported.omissions)")
    }

    @Test("case 12: a Tasty Recipes card without JSON-LD: the card's own headings are no groups")
    func tastyRecipesCard() throws {
        let imported = try Self.imported("12-tasty-recipes.html")
        #expect(imported.document == RecipeDocument(
            name: "Miso Butter Noodles", description: "Salty, glossy noodles for a weeknight.", recipeYield: "2 servings", servings: 2,
            prepTime: "PT5M", cookTime: "PT10M",
            ingredients: Self.lines(["200 g udon noodles", "2 tbsp white miso", "30 g butter", "1 spring onion, sliced"]),
            instructions: Self.steps(["Cook the noodles; keep a mug of their water.", "Melt the butter with the miso and a splash of the water.",
                                      "Toss the noodles through and scatter with spring onion."])))
        #expect(imported.sources == Self.fromMarkup)
        #expect(imported.omissions.isEmpty, "\(imported.omissions)")
    }

    @Test("case 13: a Create by Mediavine card: a label before the yield, a group heading between lists")
    func mediavineCreateCard() throws {
        let imported = try Self.imported("13-mediavine-create.html")
        #expect(imported.document == RecipeDocument(
            name: "Roasted Tomato Soup", description: "Sweet roasted tomatoes, garlic and a little cream.", recipeYield: "4 bowls",
            prepTime: "PT10M", cookTime: "PT45M", totalTime: "PT55M",
            ingredients: Self.lines(["1 kg ripe tomatoes, halved", "1 head of garlic", "2 tbsp olive oil"])
                + Self.lines(["100 ml single cream", "Basil leaves"], section: "To finish"),
            instructions: Self.steps(["Roast the tomatoes and garlic with the oil at 200 °C for 45 minutes.",
                                      "Squeeze the garlic from its skins and blend everything until smooth.", "Stir in the cream and serve with basil."])))
        #expect(imported.sources == Self.fromMarkup)
        #expect(imported.omissions.map(\.reason) == [RecipeNodeReader.noServings(yield: "4 bowls")], "\(imported.omissions)")
    }

    @Test("case 14: a Zip Recipes card, found by its ids")
    func zipRecipesCard() throws {
        let imported = try Self.imported("14-zip-recipes.html")
        #expect(imported.document == RecipeDocument(
            name: "Overnight Oats with Berries", description: "Stir it before bed, eat it cold.", recipeYield: "1 jar", prepTime: "PT5M",
            ingredients: Self.lines(["50 g rolled oats", "120 ml milk", "A handful of berries"]),
            instructions: Self.steps(["Stir the oats and milk together in a jar.", "Leave in the fridge overnight; top with berries."])))
        #expect(imported.sources == Self.fromMarkup)
        #expect(imported.omissions.map(\.reason) == [RecipeNodeReader.noServings(yield: "1 jar")], "\(imported.omissions)")
    }

    @Test("case 15: no card at all: the lists under the page's headings, in German, bold paragraphs as groups")
    func listsUnderHeadings() throws {
        let imported = try Self.imported("15-headings-only.html")
        #expect(imported.document == RecipeDocument(
            name: "Omas Apfelkuchen",
            ingredients: Self.lines(["200 g Mehl", "100 g Butter", "1 Ei"], section: "Für den Teig")
                + Self.lines(["4 Äpfel", "2 EL Zucker", "1 TL Zimt"], section: "Für den Belag"),
            instructions: Self.steps(["Mehl, Butter und Ei zu einem Teig kneten und 30 Minuten kühlen.",
                                      "Teig in die Form drücken, Äpfel in Spalten darauflegen.",
                                      "Zucker und Zimt darüberstreuen und 40 Minuten bei 180 °C backen."])))
        #expect(imported.sources == Self.fromMarkup)
        #expect(imported.omissions.isEmpty, "\(imported.omissions)")
    }

    @Test("case 16: a JSON-LD recipe without ingredients gets them from the page's card, and says so")
    func jsonLDWithoutIngredientsTakesThemFromTheCard() throws {
        let imported = try Self.imported("16-json-ld-without-ingredients.html")
        #expect(imported.document == RecipeDocument(
            name: "Chickpea Traybake", description: "Chickpeas and peppers roasted with harissa.", image: "https://greenpantry.example/img/traybake.jpg",
            recipeYield: "4 servings", servings: 4, totalTime: "PT40M",
            ingredients: Self.lines(["2 tins chickpeas, drained", "3 red peppers", "2 tbsp harissa"]),
            instructions: Self.steps(["Heat the oven to 200 °C.", "Toss everything with the harissa and roast for 35 minutes."])))
        #expect(imported.sources == ImportedRecipe.Sources(title: .jsonLD, ingredients: .markup, instructions: .jsonLD))
        #expect(imported.omissions.isEmpty, "\(imported.omissions)")
    }

    @Test("a page whose markup shows no recipe is still refused, naming what was looked for")
    func aPageWithoutARecipeIsRefused() throws {
        let page = "<html><head><title>About us</title></head><body><h1>About</h1><h2>Ingredients</h2><p>Love.</p></body></html>"
        #expect(throws: SchemaOrgImportError.noStructuredData) { try SchemaOrgImport.recipe(from: Data(page.utf8), contentType: "text/html") }
    }
}
