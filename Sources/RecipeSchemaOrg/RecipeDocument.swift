import RecipeDomain

// MARK: - A recipe as schema.org describes it

/// What a schema.org `Recipe` says, in plain values, already cleaned: text without
/// HTML, durations checked, tags made into names the domain accepts. The import
/// produces it, the export writes it; mapping it onto the domain's content is the
/// caller's business, so this type does not change when the content model does.
public struct RecipeDocument: Sendable, Hashable {
    /// `name`: never blank, at most `RecipeLimits.maxTitleLength`.
    public var name: String
    /// `description`, as text; paragraphs are separated by newlines.
    public var description: String?
    /// `image`: one absolute http(s) URL.
    public var image: String?
    /// `recipeYield` as written, when it says more than a number of servings ("12 cookies",
    /// "4 servings"); nil when the yield was only a number, which is then `servings`.
    public var recipeYield: String?
    /// The servings, when the yield (or one entry of a yield list) is a plain number
    /// within `RecipeLimits.servings`: `4`, `"4"`, `["4", "4 servings"]`.
    public var servings: Int?
    /// ISO 8601 durations (`PT1H30M`, `P0DT20M`), checked and in upper case.
    public var prepTime: String?
    public var cookTime: String?
    public var totalTime: String?
    /// `url`, else `mainEntityOfPage`: an absolute http(s) URL.
    public var sourceUrl: String?
    /// Tag names without the `@`, each valid for `Tag.isValidName`, lower case, no two the
    /// same: from `keywords`, `recipeCategory` and `recipeCuisine`, in that order.
    public var tags: [String]
    /// `recipeIngredient` (or the older `ingredients`), one line each.
    public var ingredients: [DocumentIngredient]
    /// `recipeInstructions`, one step each, in order.
    public var instructions: [DocumentStep]
    /// `nutrition` (a `NutritionInformation`): per serving, each amount within its nutrient's
    /// bounds; nil when the page states none.
    public var nutrition: Nutrition?

    public init(name: String, description: String? = nil, image: String? = nil, recipeYield: String? = nil,
                servings: Int? = nil, prepTime: String? = nil, cookTime: String? = nil, totalTime: String? = nil,
                sourceUrl: String? = nil, tags: [String] = [], ingredients: [DocumentIngredient] = [],
                instructions: [DocumentStep] = [], nutrition: Nutrition? = nil) {
        self.name = name
        self.description = description
        self.image = image
        self.recipeYield = recipeYield
        self.servings = servings
        self.prepTime = prepTime
        self.cookTime = cookTime
        self.totalTime = totalTime
        self.sourceUrl = sourceUrl
        self.tags = tags
        self.ingredients = ingredients
        self.instructions = instructions
        self.nutrition = nutrition
    }
}

/// One ingredient line as the page wrote it, and the heading it stands under.
public struct DocumentIngredient: Sendable, Hashable {
    /// The line, trimmed, never blank.
    public var text: String
    /// The heading of its group ("For the sauce"), from a heading line such as
    /// `"For the sauce:"` among the ingredients; nil before any heading.
    public var section: String?

    public init(text: String, section: String? = nil) {
        self.text = text
        self.section = section
    }

    /// The line read by the domain's parser: amount, range, unit, name and note.
    public var parsed: ParsedIngredient { IngredientLineParser.parse(text) }

    /// The domain's ingredient line: the parsed fields, the section, and the text as written,
    /// so that a bad parse is visible and fixable by an edit.
    public var ingredientLine: IngredientLine {
        let parsed = parsed
        return IngredientLine(name: parsed.name, amount: parsed.amount, amountMax: parsed.amountMax, unit: parsed.unit,
                              note: parsed.note, section: section, text: text)
    }
}

/// One step of the method, and the heading of its part of the method.
public struct DocumentStep: Sendable, Hashable {
    /// The step, trimmed, never blank, at most `RecipeLimits.maxDescriptionLength`.
    public var text: String
    /// The `name` of the `HowToSection` it is in; nil outside any section.
    public var section: String?

    public init(text: String, section: String? = nil) {
        self.text = text
        self.section = section
    }
}

// MARK: - What an import gives

/// A recipe read from a page or file, and what of it was left out.
public struct ImportedRecipe: Sendable, Hashable {
    public var document: RecipeDocument
    /// What the import cut or left out, each with where it was and why: a value the
    /// domain's rules would refuse (a keyword that makes no tag name, a time that is no
    /// duration, a description over its length), entries past a count, the document's other
    /// recipes. Nothing is dropped without one.
    public var omissions: [ImportOmission]
    /// Where each part came from; a part read from the page's own markup is a guess to check.
    public var sources: Sources

    /// What a part of a recipe was read from.
    public enum Source: String, Sendable, Hashable, Encodable {
        /// A `<script type="application/ld+json">` block, or a JSON-LD document.
        case jsonLD = "json-ld"
        /// The page's microdata or RDFa.
        case microdata
        /// The page's own markup: a publishing plugin's recipe card, or lists under headings.
        case markup
    }

    /// Where the title, the ingredients and the steps came from; nil for a part the recipe lacks.
    public struct Sources: Sendable, Hashable, Encodable {
        public var title: Source?
        public var ingredients: Source?
        public var instructions: Source?
        /// Where the nutrition came from; nil when the page states none.
        public var nutrition: Source?

        public init(title: Source? = nil, ingredients: Source? = nil, instructions: Source? = nil, nutrition: Source? = nil) {
            (self.title, self.ingredients, self.instructions, self.nutrition) = (title, ingredients, instructions, nutrition)
        }
    }

    public init(document: RecipeDocument, omissions: [ImportOmission] = [], sources: Sources = Sources()) {
        self.document = document
        self.omissions = omissions
        self.sources = sources
    }
}

/// One value left out of an import.
public struct ImportOmission: Sendable, Hashable, CustomStringConvertible {
    /// Where the value was: a JSON path such as `$.keywords`, after `script 2: ` in a page
    /// (`markup: ` for its microdata and RDFa); empty for the document as a whole.
    public var path: String
    /// The value as found, shortened to 80 characters.
    public var value: String
    /// Why it was left out.
    public var reason: String

    public init(path: String, value: String, reason: String) {
        self.path = path
        self.value = value
        self.reason = reason
    }

    public var description: String {
        let place = path.isEmpty ? "" : path + ": "
        return value.isEmpty ? "\(place)left out: \(reason)" : "\(place)left out \(value.debugDescription): \(reason)"
    }
}
