import Foundation
import RecipeDomain
import RecipeJSON
import RecipeWire

// MARK: - Reading a recipe card, or the lists under a page's headings

/// Reads the parts of a recipe from an `HTMLOutline`: a plugin's card (`RecipeCard`), or the
/// lists under the headings "Ingredients" and "Method" (and their translations). Each text
/// read is counted against the budget; each scan over elements moves forward only.
struct MarkupReader {
    let outline: HTMLOutline
    var budget: LenientJSONReader.Budget
    var elements: [HTMLOutline.Element] { outline.elements }

    init(outline: HTMLOutline, budget: LenientJSONReader.Budget) {
        self.outline = outline
        self.budget = budget
    }

    /// The most items a list is read to: past what a recipe holds, the rest is not read.
    static let maxItems = 2 * max(RecipeLimits.maxIngredients, RecipeLimits.maxInstructions)

    // MARK: - A plugin's card

    mutating func node(of card: RecipeCard) throws(LenientJSONReader.Failure) -> JSONValue? {
        guard let cardIndex = first(card.card, in: elements.indices) else { return nil }
        let scope = cardIndex..<elements[cardIndex].end
        let ingredients = try list(card.ingredients, in: scope)
        let steps = try list(card.instructions, in: scope)
        guard !ingredients.isEmpty || !steps.isEmpty else { return nil }
        var node: [String: JSONValue] = ["@type": .string("Recipe")]
        var title = try text(of: card.title, in: scope)
        if title == nil { title = try pageTitle() }
        node["name"] = title.map(JSONValue.string)
        node["description"] = try text(of: card.summary, in: scope).map(JSONValue.string)
        node["recipeYield"] = try text(of: card.yield, in: scope).map { .string(Self.withoutLabel($0)) }
        for (member, selectors) in card.times {
            if let time = try text(of: selectors, in: scope), let start = time.firstIndex(where: \.isNumber) {
                node[member] = .string(String(time[start...]).replacingOccurrences(of: "\n", with: " "))
            }
        }
        node["recipeIngredient"] = .array(Self.ingredientLines(ingredients).map(JSONValue.string))
        node["recipeInstructions"] = .array(Self.steps(steps))
        return .object(node)
    }

    /// The items of a card's list with the heading of the group each is in.
    private mutating func list(_ list: RecipeCard.List, in scope: Range<Int>) throws(LenientJSONReader.Failure) -> [(group: String?, text: String)] {
        guard let container = first(list.container, in: scope) else { return [] }
        var items: [(group: String?, text: String)] = []
        var group: String?
        var index = container + 1
        while index < elements[container].end, items.count < Self.maxItems {
            let element = elements[index]
            if list.heading.map({ $0.matches(element) }) ?? element.isHeading {
                let heading = try outline.text(of: index, budget: &budget)
                if !heading.isEmpty, !SectionWords.isSectionHeading(heading) { group = heading.trimmingCharacters(in: [":", " "]) }
                index = element.end
            } else if list.item.map({ $0.matches(element) }) ?? (element.name == "li") {
                let text = try outline.text(of: index, budget: &budget)
                if !text.isEmpty { items.append((group, text)) }
                index = element.end
            } else {
                index += 1
            }
        }
        return items
    }

    // MARK: - Values

    private func first(_ selectors: [RecipeCard.Selector], in scope: Range<Int>) -> Int? {
        for selector in selectors {
            if let found = scope.first(where: { selector.matches(elements[$0]) }) { return found }
        }
        return nil
    }

    private mutating func text(of selectors: [RecipeCard.Selector], in scope: Range<Int>) throws(LenientJSONReader.Failure) -> String? {
        guard let index = first(selectors, in: scope) else { return nil }
        let text = try outline.text(of: index, budget: &budget).replacingOccurrences(of: "\n", with: " ")
        return text.isEmpty ? nil : text
    }

    /// The page's first `h1`, else its `<title>` without the site's name after a separator.
    mutating func pageTitle() throws(LenientJSONReader.Failure) -> String? {
        if let h1 = elements.indices.first(where: { elements[$0].name == "h1" }) {
            let text = try outline.text(of: h1, budget: &budget).replacingOccurrences(of: "\n", with: " ")
            if !text.isEmpty { return text }
        }
        guard let title = outline.title, !title.isEmpty else { return nil }
        for separator in [" | ", " – ", " — ", " - ", " · "] {
            if let range = title.range(of: separator) { return String(title[..<range.lowerBound]) }
        }
        return title
    }

    /// "Yield: 4 servings" is "4 servings": a label before a colon is no part of the yield.
    private static func withoutLabel(_ text: String) -> String {
        guard let colon = text.firstIndex(of: ":"), text.distance(from: text.startIndex, to: colon) <= 20 else { return text }
        let rest = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return rest.isEmpty ? text : rest
    }

    /// Ingredient lines, a group's heading before its first line as `Heading:`, as JSON-LD pages write them.
    static func ingredientLines(_ items: [(group: String?, text: String)]) -> [String] {
        var lines: [String] = []
        var group: String?
        for item in items {
            if item.group != group, let heading = item.group { lines.append(heading + ":") }
            group = item.group
            lines.append(item.text.replacingOccurrences(of: "\n", with: " "))
        }
        return lines
    }

    /// Steps, each run in one group as a `HowToSection` of that name.
    static func steps(_ items: [(group: String?, text: String)]) -> [JSONValue] {
        var steps: [JSONValue] = []
        var start = 0
        while start < items.count {
            var end = start + 1
            while end < items.count, items[end].group == items[start].group { end += 1 }
            let texts = items[start..<end].map { JSONValue.string($0.text) }
            if let group = items[start].group {
                steps.append(.object(["@type": .string("HowToSection"), "name": .string(group), "itemListElement": .array(texts)]))
            } else {
                steps.append(contentsOf: texts)
            }
            start = end
        }
        return steps
    }
}
