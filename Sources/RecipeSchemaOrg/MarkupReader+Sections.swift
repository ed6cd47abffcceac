import Foundation
import RecipeJSON
import RecipeWire

// MARK: - A recipe without a card: its parts under headings, or in elements named for them

extension MarkupReader {
    /// The ingredients and steps of a page without a known card: the lists under its headings
    /// ("Ingredients", "Method", …), else the elements its classes name for them
    /// (`ingredients__item`, `recipe-instructions`), and the page's title. When `whole`, nil
    /// unless it shows both; else what it shows, perhaps only the title.
    mutating func nodeFromSections(whole: Bool) throws(LenientJSONReader.Failure) -> JSONValue? {
        let headings = try sectionHeadings()
        var ingredients = try firstSection(under: headings.ingredients)
        if ingredients.isEmpty { ingredients = try classed(.ingredients) }
        guard !whole || !ingredients.isEmpty else { return nil }
        var steps = try firstSection(under: headings.instructions)
        if steps.isEmpty { steps = try classed(.instructions) }
        guard !whole || !steps.isEmpty else { return nil }
        var node: [String: JSONValue] = ["@type": .string("Recipe")]
        node["name"] = try pageTitle().map(JSONValue.string)
        if !ingredients.isEmpty { node["recipeIngredient"] = .array(Self.ingredientLines(ingredients).map(JSONValue.string)) }
        if !steps.isEmpty { node["recipeInstructions"] = .array(Self.steps(steps)) }
        return .object(node)
    }

    /// The elements that head each part, in page order, the first `maxHeadings` of each.
    private mutating func sectionHeadings() throws(LenientJSONReader.Failure) -> (ingredients: [Int], instructions: [Int]) {
        var found: (ingredients: [Int], instructions: [Int]) = ([], [])
        var index = 0
        while index < elements.count, found.ingredients.count < Self.maxHeadings || found.instructions.count < Self.maxHeadings {
            let element = elements[index]
            guard SectionWords.mayHead(element), element.textEnd - element.textStart <= SectionWords.longestHeading else {
                index += 1
                continue
            }
            switch SectionWords.section(of: try outline.text(of: index, looking: true, budget: &budget)) {
            case .ingredients?: found.ingredients.append(index)
            case .instructions?: found.instructions.append(index)
            case nil: break
            }
            index = element.end
        }
        return (Array(found.ingredients.prefix(Self.maxHeadings)), Array(found.instructions.prefix(Self.maxHeadings)))
    }

    /// The most headings of one part tried: a page names its parts a few times (a table of contents, the recipe).
    private static var maxHeadings: Int { 8 }

    /// The section under the first of `headings` that has one.
    private mutating func firstSection(under headings: [Int]) throws(LenientJSONReader.Failure) -> [(group: String?, text: String)] {
        for heading in headings {
            let items = try section(under: heading)
            if !items.isEmpty { return items }
        }
        return []
    }

    /// The list items (else the paragraphs' lines) after a section's heading, up to the next
    /// heading of its rank or above, another section's heading, or the page's furniture
    /// (navigation, comments, footers); headings of a lower rank, and bold paragraphs, between are groups.
    private mutating func section(under heading: Int) throws(LenientJSONReader.Failure) -> [(group: String?, text: String)] {
        // The headings that end it: of its rank or above; under a heading that is no `h1`–`h6`
        // (a bold `div`), the page's main ones, `h1`–`h3`, while smaller ones head its groups.
        let ends = elements[heading].isHeading ? Self.rank(of: elements[heading]) : 3
        var items: [(group: String?, text: String)] = []
        var paragraphs: [(group: String?, text: String)] = []
        var group: String?
        var index = elements[heading].end
        scan: while index < elements.count, items.count < Self.maxItems {
            let element = elements[index]
            if SectionWords.isFurniture(element) { break scan }
            if SectionWords.mayHead(element), element.textEnd - element.textStart <= SectionWords.longestHeading {
                let text = try outline.text(of: index, budget: &budget)
                if SectionWords.section(of: text) != nil || SectionWords.endsASection(text) { break scan }
                // An empty heading heads nothing (a group without a name).
                if element.isHeading, !text.isEmpty, Self.rank(of: element) <= ends { break scan }
                // A group's heading is one line; a heading of several lines is a list written as one.
                if !text.isEmpty, !text.contains("\n"),
                   element.isHeading || ["strong", "b", "dt"].contains(element.name) || isBoldParagraph(index) || text.hasSuffix(":") {
                    group = text.trimmingCharacters(in: [":", " "])
                    index = element.end
                    continue
                }
            }
            if element.name == "li" {
                let text = try outline.text(of: index, budget: &budget)
                if !text.isEmpty { items.append((group, text)) }
                index = element.end
            } else if element.isCheckbox, let row = element.parent, row >= elements[heading].end {
                // A row to tick off (`<div><input type="checkbox"> 200 g rice</div>`) is an item.
                let text = try outline.text(of: row, budget: &budget).replacingOccurrences(of: "\n", with: " ")
                if !text.isEmpty { items.append((group, text)) }
                index = elements[row].end
            } else if element.name == "p" || element.isHeading {
                // A paragraph's lines; a heading too long to head anything is lines as well (a list
                // written as one `<h5>` of lines broken by `<br>`).
                for line in try outline.text(of: index, budget: &budget).split(separator: "\n") {
                    let text = Self.withoutBullet(line)
                    if !text.isEmpty { paragraphs.append((group, text)) }
                }
                index = element.end
            } else {
                index += 1
            }
        }
        return items.isEmpty ? Array(paragraphs.prefix(Self.maxItems)) : items
    }

    // MARK: - Parts named by class

    /// A part in elements its classes name: the items of the most repeated class that names the
    /// part and one item (`ingredients__item`), else the list items, else the lines, of the first
    /// element whose class names the part (`recipe-instructions`).
    private mutating func classed(_ part: SectionWords.Section) throws(LenientJSONReader.Failure) -> [(group: String?, text: String)] {
        var counts: [Substring: Int] = [:]
        var firstContainer: Int?
        for index in elements.indices {
            for name in elements[index].classes where SectionWords.classNames(part, name) {
                if SectionWords.classNamesItem(name) { counts[name, default: 0] += 1 } else if firstContainer == nil { firstContainer = index }
            }
        }
        if let (itemClass, count) = counts.filter({ $0.value >= 2 }).max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), count >= 2 {
            var items: [(group: String?, text: String)] = []
            var index = 0
            while index < elements.count, items.count < Self.maxItems {
                if elements[index].classes.contains(itemClass) {
                    let text = try outline.text(of: index, budget: &budget).replacingOccurrences(of: "\n", with: " ")
                    if !text.isEmpty { items.append((nil, text)) }
                    index = elements[index].end
                } else {
                    index += 1
                }
            }
            if !items.isEmpty { return items }
        }
        guard let container = firstContainer else { return [] }
        var items: [(group: String?, text: String)] = []
        var index = container + 1
        while index < elements[container].end, items.count < Self.maxItems {
            if elements[index].name == "li" {
                let text = try outline.text(of: index, budget: &budget)
                if !text.isEmpty { items.append((nil, text)) }
                index = elements[index].end
            } else {
                index += 1
            }
        }
        if !items.isEmpty { return items }
        let lines = try outline.text(of: container, budget: &budget).split(separator: "\n").map(String.init)
        return lines.filter { !SectionWords.isSectionHeading($0) }.prefix(Self.maxItems).map { (nil, $0) }
    }

    /// A line without the bullet a page wrote before it ("• 50g butter").
    private static func withoutBullet(_ line: Substring) -> String {
        var text = line
        while let first = text.first, ["•", "◦", "▪", "–", "-", "*", "·"].contains(first) { text = text.dropFirst() }
        return text.trimmingCharacters(in: .whitespaces)
    }

    // MARK: - Headings

    /// A paragraph whose text is all in one bold element: `<p><strong>For the sauce</strong></p>`.
    private func isBoldParagraph(_ index: Int) -> Bool {
        let paragraph = elements[index]
        guard paragraph.name == "p", index + 1 < paragraph.end else { return false }
        var inner = index + 1
        // Through wrappers such as `<span>` around the bold text.
        while inner < paragraph.end, elements[inner].name == "span", inner + 1 < paragraph.end { inner += 1 }
        guard ["strong", "b"].contains(elements[inner].name) else { return false }
        let bold = elements[inner]
        return bold.end == paragraph.end && (paragraph.textEnd - paragraph.textStart) - (bold.textEnd - bold.textStart) <= 2
    }

    /// A heading's rank: 1 to 6 for `h1`–`h6`, 7 for other elements that head a section.
    private static func rank(of element: HTMLOutline.Element) -> Int {
        element.isHeading ? Int(String(element.name.last!))! : 7
    }
}
