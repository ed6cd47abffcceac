import RecipeDomain
// MARK: - Vocabulary of generated commands
//
// Realistic values for plausible commands, and awkward ones (non-ASCII, JSON
// escapes, control characters) for arbitrary commands.

extension RandomCommandGenerator {
    enum Vocabulary {
        static let actors = ["alice", "bob", "chloé", "dai", "user-42"]
        static let titles = [
            "Pancakes", "Grandma's apple pie", "Miso soup 味噌汁", "Tarte flambée", "Chili sin carne",
            "Lemon risotto", "Shakshuka", "Crème brûlée", "Pad kra pao", "Sunday roast",
        ]
        static let overlongTitle = String(repeating: "x", count: RecipeLimits.maxTitleLength + 1)
        static let ingredientNames = [
            "flour", "sugar", "butter", "eggs", "milk", "salt", "olive oil", "garlic", "onion", "tomatoes",
            "crème fraîche", "jalapeño", "味噌", "basil", "lemon juice", "baking powder", "dark chocolate",
            "rice", "chicken thigh", "parmesan",
        ]
        static let units = ["g", "kg", "ml", "l", "dl", "cup", "tbsp", "tsp", "piece", "pinch", "clove"]
        static let amounts: [Double] = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 100, 125, 200, 250, 500, 1.0 / 3, 2.0 / 3, 1.2345]
        static let steps = [
            "Preheat the oven to 180 °C.", "Whisk the eggs with the sugar until pale.", "Fold in the flour.",
            "Simmer for 20 minutes, stirring now and then.", "Season to taste.", "Chop the onion finely.",
            "Let it rest for an hour before serving.", "Bake for 35–40 minutes until golden.",
        ]
        static let tagTexts = [
            "@vegan", "@vegetarian", "@quick", "@dessert", "@source(grand-mère)", "@origin(日本)", "@spicy(3)",
            "@serves-crowd", "@low_carb", "@oven(180 °C)", "@season(winter)", "@budget()",
        ]
        static let badTagTexts = ["@vegan @quick", "no tag here", "@", "@1st", "@note(unclosed", ""]
        static let payloads = ["mild", "hot", "3", "grand-mère", "日本", "see (p. 12)", "summer"]
        static let imageURLs = ["https://img.example.com/r/1.jpg", "http://cdn.example.org/p.png", "HTTPS://EXAMPLE.COM/a?b=c"]
        static let badURLs = ["ftp://example.com/x.jpg", "not a url", "https://", "https://exa mple.com/x.jpg"]
        static let unknownID = "no-such-id"
        // Content version 2.
        static let notes = ["finely chopped", "at room temperature", "to taste", "about 400 g; cubed", "optional"]
        static let sections = ["For the sauce", "For the dough", "Topping", "Pour la pâte"]
        static let lineTexts = ["2-3 garlic cloves, finely chopped", "Salt, to taste", "1½ cups milk", "250g flour (sifted)"]
        static let descriptions = [
            "A weeknight classic.", "Crisp outside, soft inside.\nBest eaten warm.", "Une recette de grand-mère.",
        ]
        static let yields = ["12 muffins", "one 23 cm loaf", "2 litres", "4 bowls"]
        static let durations = ["PT10M", "PT1H30M", "PT45M", "P1D", "PT2H", "P1DT2H", "PT90S"]
        static let badDurations = ["1h30", "PT", "P1M", "PT1.5H", "pt10m", ""]
        static let textPieces = [
            "flour", "Crème brûlée", "grand-mère", "日本", "🍅", "👩‍🍳", "quote\"d", "back\\slash", "tab\there",
            "line\nbreak", "nul\u{0}byte", "bell\u{7}", "</script>", "{\"json\": true}", "@vegan", "@a(b)", " ", "",
            "\u{301}combining", "RTL \u{202E}text", "ß", "İ",
        ]
    }
}
