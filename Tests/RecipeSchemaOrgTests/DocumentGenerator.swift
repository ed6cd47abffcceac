import RecipeDomain
import RecipeGenerators
@testable import RecipeSchemaOrg

/// Seeded random recipe documents of the kind an import gives: text trimmed, names on
/// one line, durations as the domain takes them, tags valid names, sections on ingredients from some line
/// on (a heading covers every line after it) and on any run of steps. Texts mix accents,
/// scripts, emoji and characters JSON must escape (quotes, backslashes), and "&" and "<"
/// where they are not markup. No control characters: no record may hold one, and the import
/// reads a page's as spaces (`ImportedControlsTests`).
struct DocumentGenerator {
    var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    static let words = [
        "flour", "Butter", "crème", "brûlée", "日本", "Ærø", "naïve", "🍋", "Ελληνικά", "שקשוקה", "\"quoted\"", "back\\slash",
        "a/b", "R&D", "50%", "< 5", "x;y", "{braces}", "[list]", "O'Neil", "ünïcödé", "semi;colon",
    ]
    /// Only in texts that may have several lines: steps and descriptions. The import gives
    /// their lines as a browser shows them (runs of spaces one space, no blank lines), so only
    /// line breaks, and characters that are no space.
    static let multiLinePieces = ["\n", " — "]
    static let sectionNames = ["For the sauce", "Crème pâtissière", "Garnish", "日本 style", "Dough \"base\"", "Back\\slash & co"]
    static let units = ["g", "cups", "tbsp", "tsp", "ml", "cloves", ""]
    static let yields = ["12 cookies", "1 loaf", "2 trays, about 24 pieces", "4 servings", "Ærø-size batch"]
    static let tagNames = ["vegan", "quick", "grand-mère", "日本", "low_carb2", "one-pot", "ελληνικά", "x"]

    mutating func document() -> RecipeDocument {
        var document = RecipeDocument(name: line(words: 1...6))
        if random.chance(0.7) { document.description = paragraphs() }
        if random.chance(0.6) { document.image = url(host: "img.example.org") }
        if random.chance(0.7) { document.recipeYield = random.pick(Self.yields) }
        if random.chance(0.7) { document.servings = random.int(in: RecipeLimits.servings) }
        // A yield that names people gives the servings when none are given, as the import reads it.
        if document.servings == nil, document.recipeYield == "4 servings" { document.servings = 4 }
        if random.chance(0.6) { document.prepTime = duration() }
        if random.chance(0.6) { document.cookTime = duration() }
        if random.chance(0.6) { document.totalTime = duration() }
        if random.chance(0.5) { document.sourceUrl = url(host: "kitchen.example.org") }
        for _ in 0..<random.int(in: 0...5) {
            let tag = random.pick(Self.tagNames)
            if !document.tags.contains(tag) { document.tags.append(tag) }
        }
        document.ingredients = ingredients()
        document.instructions = steps()
        if random.chance(0.5) { document.nutrition = nutrition() }
        return document
    }

    /// Some nutrients, each with up to two decimals (as pages state them), within its bounds.
    private mutating func nutrition() -> Nutrition {
        var nutrition = Nutrition()
        for nutrient in Nutrition.Nutrient.allCases where random.chance(0.5) {
            nutrition.amounts[nutrient] = Double(random.int(in: 0...Int(nutrient.maximum) * 100)) / 100
        }
        if nutrition.amounts.isEmpty || random.chance(0.3) { nutrition.servingSize = line(words: 1...3) }
        return nutrition
    }

    // MARK: - Parts

    private mutating func line(words range: ClosedRange<Int>) -> String {
        (0..<random.int(in: range)).map { _ in random.pick(Self.words) }.joined(separator: " ")
    }

    /// Several lines and odd spacing inside, none at the ends.
    private mutating func paragraphs() -> String {
        var text = random.pick(Self.words)
        for _ in 0..<random.int(in: 0...8) {
            text += random.chance(0.3) ? random.pick(Self.multiLinePieces) : " "
            text += random.pick(Self.words)
        }
        return text
    }

    private mutating func url(host: String) -> String {
        let scheme = random.chance(0.5) ? "https" : "http"
        return "\(scheme)://\(host)/\(random.pick(["r", "crème-brûlée", "日本"]))/\(random.int(in: 1...999)).jpg?w=\(random.int(in: 1...9))&h=2"
    }

    private mutating func duration() -> String {
        switch random.int(below: 4) {
        case 0: return "PT\(random.int(in: 1...12))H\(random.int(in: 1...59))M"
        case 1: return "P0DT\(random.int(in: 1...90))M"
        case 2: return "P\(random.int(in: 1...3))D"
        default: return "PT\(random.int(in: 1...9))H30M"
        }
    }

    /// Lines without a section first, then sections of one line or more each.
    private mutating func ingredients() -> [DocumentIngredient] {
        var lines: [DocumentIngredient] = []
        let unsectioned = random.int(in: 0...4)
        for _ in 0..<unsectioned { lines.append(DocumentIngredient(text: ingredientText())) }
        if random.chance(0.5) || unsectioned == 0 {
            for _ in 0..<random.int(in: 0...3) {
                let section = random.pick(Self.sectionNames)
                for _ in 0..<random.int(in: 1...3) { lines.append(DocumentIngredient(text: ingredientText(), section: section)) }
            }
        }
        return lines
    }

    private mutating func ingredientText() -> String {
        let words = line(words: 1...3)
        guard random.chance(0.7) else { return words }
        let unit = random.pick(Self.units)
        return "\(random.int(in: 1...500)) \(unit.isEmpty ? "" : unit + " ")\(words)"
    }

    /// Runs of steps with or without a section, in any order.
    private mutating func steps() -> [DocumentStep] {
        var steps: [DocumentStep] = []
        for _ in 0..<random.int(in: 0...4) {
            let section = random.chance(0.5) ? random.pick(Self.sectionNames) : nil
            for _ in 0..<random.int(in: 1...3) { steps.append(DocumentStep(text: paragraphs(), section: section)) }
        }
        return steps
    }
}
