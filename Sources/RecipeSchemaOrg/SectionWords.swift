// MARK: - The headings of a recipe's parts, as pages write them

/// The words that head a recipe's ingredients and its steps on a page, in the languages recipe
/// pages are written in, the words that head what comes after them, and the page's furniture
/// a recipe never continues into.
enum SectionWords {
    enum Section { case ingredients, instructions }

    /// The longest text, in bytes, an element may hold and still head a section.
    static let longestHeading = 80

    static let ingredientHeadings = [
        "ingredients", "ingredient list", "you will need", "you'll need", "what you need", "what you'll need",
        "zutaten", "ingrédients", "ingredienti", "ingredientes", "ingrediënten", "ingredienser", "składniki",
        "suroviny", "ainekset", "ingrediente",
    ]
    static let instructionHeadings = [
        "instructions", "directions", "method", "preparation", "steps", "how to make it", "how to make", "to make",
        "zubereitung", "anleitung", "préparation", "preparazione", "procedimento", "preparación", "elaboración", "modo de preparo",
        "modo de preparação", "bereiding", "bereidingswijze", "werkwijze", "gör så här", "tillagning", "fremgangsmåde",
        "fremgangsmåte", "sposób przygotowania", "przygotowanie", "postup", "valmistus", "instrucciones",
    ]
    /// What follows a recipe's steps on a page.
    static let laterHeadings = [
        "notes", "note", "recipe notes", "tips", "nutrition", "nutrition information", "video", "comments", "reviews",
        "equipment", "you may also like", "related", "more recipes", "storage", "faq", "notizen", "hinweise", "remarques", "note:",
    ]

    /// The section a heading's text begins: its words, in any case, alone or followed by more
    /// ("Ingredients for 4", "Method:").
    static func section(of text: String) -> Section? {
        let words = normalized(text)
        guard !words.isEmpty, words.utf8.count <= longestHeading else { return nil }
        if begins(words, ingredientHeadings) { return .ingredients }
        if begins(words, instructionHeadings) { return .instructions }
        return nil
    }

    static func isSectionHeading(_ text: String) -> Bool { section(of: text) != nil }

    /// Whether a heading's text begins what comes after a recipe ("Notes", "Nutrition").
    static func endsASection(_ text: String) -> Bool { begins(normalized(text), laterHeadings) }

    /// Elements that may head a section: headings, and the paragraphs and bold text pages use as headings.
    static func mayHead(_ element: HTMLOutline.Element) -> Bool {
        element.isHeading || ["p", "strong", "b", "dt", "th", "div", "span", "header", "legend"].contains(element.name)
    }

    /// The page's furniture: what a recipe's lists never run into.
    static func isFurniture(_ element: HTMLOutline.Element) -> Bool {
        ["footer", "aside", "nav", "form"].contains(element.name)
            || element.classes.contains { $0.contains("comment") || $0.contains("sidebar") || $0.contains("related") }
    }

    private static func normalized(_ text: String) -> String {
        HTMLText.collapsingWhitespace(text.lowercased()).trimmingCharacters(in: [":", " ", ".", "*", "#"])
    }

    private static func begins(_ words: String, _ headings: [String]) -> Bool {
        headings.contains { words == $0 || words.hasPrefix($0 + " ") || words.hasPrefix($0 + ":") || words.hasPrefix($0 + " (") }
    }
}
