import RecipeJSON
import RecipeWire

// MARK: - A recipe read from a page's own markup

/// The recipe a page shows, read from its markup when it publishes no structured data, or
/// publishes a recipe without ingredients or steps. Most recipe pages are made with a few
/// publishing plugins whose cards are regular (`RecipeCard.known`: class names such as
/// `wprm-recipe-ingredient`); the rest usually hold a list of ingredients and numbered steps
/// under headings ("Ingredients", "Method", in the languages recipe pages are written in).
/// What is found is given as the node JSON-LD would have held (`recipeIngredient` with
/// `Heading:` lines for groups, `recipeInstructions` with `HowToSection`s), so one reader
/// (`RecipeNodeReader`) reads it by the same rules. It is a guess: the import says so
/// (`ImportedRecipe.Source.markup`), so a client can ask its user to check it.
enum PageMarkup {
    /// The recipe the page's markup shows, as a Recipe node, or nil when it shows neither
    /// ingredients nor steps.
    /// - Parameter whole: whether only a recipe with both ingredients and steps will do (a page
    ///   without structured data), or any part (to fill what its structured recipe lacks).
    static func recipe(in outline: HTMLOutline, whole: Bool, budget: inout LenientJSONReader.Budget) throws(LenientJSONReader.Failure) -> JSONValue? {
        var reader = MarkupReader(outline: outline, budget: budget)
        defer { budget = reader.budget }
        for card in RecipeCard.known {
            if let node = try reader.node(of: card) { return node }
        }
        return try reader.nodeFromSections(whole: whole)
    }
}

/// Where a publishing plugin puts each part of its recipe card: class names (or ids) in lower case.
struct RecipeCard {
    enum Selector {
        case className(String)
        case id(String)

        func matches(_ element: HTMLOutline.Element) -> Bool {
            switch self {
            case .className(let name): element.hasClass(name)
            case .id(let id): element.id == id
            }
        }
    }

    /// A list of the card: the element that holds it, its items (`li` when nil), and the
    /// headings of its groups (`h1`–`h6` when nil).
    struct List {
        var container: [Selector]
        var item: Selector?
        var heading: Selector?
    }

    var plugin: String
    var card: [Selector]
    var title: [Selector]
    var summary: [Selector] = []
    var yield: [Selector] = []
    var times: [(member: String, selectors: [Selector])] = []
    var ingredients: List
    var instructions: List

    static let known: [RecipeCard] = [
        RecipeCard(
            plugin: "WP Recipe Maker", card: [.className("wprm-recipe")], title: [.className("wprm-recipe-name")],
            summary: [.className("wprm-recipe-summary")],
            yield: [.className("wprm-recipe-servings-with-unit"), .className("wprm-recipe-servings")],
            times: [("prepTime", [.className("wprm-recipe-prep_time")]), ("cookTime", [.className("wprm-recipe-cook_time")]),
                    ("totalTime", [.className("wprm-recipe-total_time")])],
            ingredients: List(container: [.className("wprm-recipe-ingredients-container")], item: .className("wprm-recipe-ingredient"),
                              heading: .className("wprm-recipe-group-name")),
            instructions: List(container: [.className("wprm-recipe-instructions-container")], item: .className("wprm-recipe-instruction-text"),
                               heading: .className("wprm-recipe-group-name"))),
        RecipeCard(
            plugin: "Tasty Recipes", card: [.className("tasty-recipes")], title: [.className("tasty-recipes-title")],
            summary: [.className("tasty-recipes-description-body"), .className("tasty-recipes-description")],
            yield: [.className("tasty-recipes-yield")],
            times: [("prepTime", [.className("tasty-recipes-prep-time")]), ("cookTime", [.className("tasty-recipes-cook-time")]),
                    ("totalTime", [.className("tasty-recipes-total-time")])],
            ingredients: List(container: [.className("tasty-recipes-ingredients-body"), .className("tasty-recipes-ingredients")]),
            instructions: List(container: [.className("tasty-recipes-instructions-body"), .className("tasty-recipes-instructions")])),
        RecipeCard(
            plugin: "Create by Mediavine", card: [.className("mv-create-card")], title: [.className("mv-create-title")],
            summary: [.className("mv-create-description")], yield: [.className("mv-create-yield")],
            times: [("prepTime", [.className("mv-create-time-prep")]), ("cookTime", [.className("mv-create-time-active"), .className("mv-create-time-cook")]),
                    ("totalTime", [.className("mv-create-time-total")])],
            ingredients: List(container: [.className("mv-create-ingredients")]),
            instructions: List(container: [.className("mv-create-instructions")])),
        RecipeCard(
            plugin: "Zip Recipes", card: [.id("zlrecipe-container"), .className("zlrecipe-container")], title: [.id("zlrecipe-title")],
            summary: [.id("zlrecipe-summary")], yield: [.id("zlrecipe-yield"), .className("zlrecipe-yield")],
            times: [("prepTime", [.id("zlrecipe-prep-time")]), ("cookTime", [.id("zlrecipe-cook-time")]), ("totalTime", [.id("zlrecipe-total-time")])],
            ingredients: List(container: [.id("zlrecipe-ingredients-list")]),
            instructions: List(container: [.id("zlrecipe-instructions-list")])),
        RecipeCard(
            plugin: "Easy Recipe", card: [.className("easyrecipe")], title: [.className("ersname")],
            summary: [.className("erssummary")], yield: [.className("ersservings")],
            ingredients: List(container: [.className("ersingredients")], heading: .className("ersseparator")),
            instructions: List(container: [.className("ersinstructions")], heading: .className("ersseparator"))),
        RecipeCard(
            plugin: "Recipe Card Blocks by WPZOOM", card: [.className("wp-block-wpzoom-recipe-card-block-recipe-card")],
            title: [.className("recipe-card-title")], summary: [.className("recipe-card-summary")],
            yield: [.className("detail-item-servings"), .className("recipe-card-servings")],
            ingredients: List(container: [.className("ingredients-list")], item: .className("ingredient-item")),
            instructions: List(container: [.className("directions-list")], item: .className("direction-step"))),
        RecipeCard(
            plugin: "WP Ultimate Recipe", card: [.className("wpurp-container")], title: [.className("wpurp-recipe-title")],
            summary: [.className("wpurp-recipe-description")], yield: [.className("wpurp-recipe-servings")],
            ingredients: List(container: [.className("wpurp-recipe-ingredients")], item: .className("wpurp-recipe-ingredient"),
                              heading: .className("wpurp-recipe-ingredient-group")),
            instructions: List(container: [.className("wpurp-recipe-instructions")], item: .className("wpurp-recipe-instruction"),
                               heading: .className("wpurp-recipe-instruction-group"))),
    ]
}
