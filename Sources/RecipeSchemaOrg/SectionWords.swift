// MARK: - The headings of a recipe's parts, as pages write them

/// The words that head a recipe's ingredients and its steps on a page, in the languages recipe
/// pages are written in, the words that head what comes after them, and the page's furniture
/// a recipe never continues into.
enum SectionWords {
    enum Section { case ingredients, instructions }

    /// The longest text, in bytes, an element may hold and still head a section.
    static let longestHeading = 80

    static let ingredientHeadings = [
        "ingredients", "ingredient list", "you will need", "you'll need", "what you need", "what you'll need", "things you'll need",
        "things you will need",
        "zutaten", "ingrédients", "ingredienti", "ingredientes", "ingrediënten", "ingredienser", "składniki",
        "suroviny", "ainekset", "ingrediente", "ingrediencie", "υλικά", "hozzávalók", "malzemeler", "sastojci", "ингредиенты",
        "材料", "재료", "bahan", "bahan-bahan",
    ]
    static let instructionHeadings = [
        "instructions", "directions", "method", "preparation", "procedure", "steps", "how to make it", "how to make", "to make",
        "let's get started", "let’s get started",
        "zubereitung", "anleitung", "préparation", "preparazione", "procedimento", "preparación", "elaboración", "modo de preparo",
        "modo de preparação", "bereiding", "bereidingswijze", "werkwijze", "gör så här", "tillagning", "fremgangsmåde",
        "fremgangsmåte", "sposób przygotowania", "przygotowanie", "postup", "valmistus", "instrucciones",
        "εκτέλεση", "οδηγίες", "παρασκευή", "elkészítés", "yapılışı", "hazırlanışı", "priprema", "príprava",
        "приготовление", "способ приготовления", "作り方", "做法", "步骤", "만드는 법", "cara membuat", "mod de preparare",
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
        if begins(words, instructionHeadings) || words == "recipe" { return .instructions }
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

    /// Whether a class name names a part: "ingredient" in it, or a word for steps.
    static func classNames(_ part: Section, _ name: Substring) -> Bool {
        switch part {
        case .ingredients: name.contains("ingredient") || name.contains("zutat")
        case .instructions: ["instruction", "direction", "step", "method", "preparation", "zubereitung", "anleitung"].contains { name.contains($0) }
        }
    }

    /// Whether a class name that names a part names one item of it, not a part of an item (its
    /// amount, its label) nor the whole (its list, its title).
    static func classNamesItem(_ name: Substring) -> Bool {
        let namesOne = ["item", "line", "row", "entry"].contains { name.contains($0) }
            || ["ingredient", "step", "instruction", "direction"].contains { name.hasSuffix($0) }
        return namesOne && !notItems.contains { name.contains($0) }
    }

    private static let notItems = [
        "title", "heading", "header", "label", "amount", "quantity", "qty", "unit", "name", "note", "check", "icon", "image", "img",
        "button", "count", "number", "num", "wrapper", "container", "list", "group", "section", "body", "scale", "serving", "tab",
        "nav", "link", "print", "video", "photo", "media", "tip", "time", "description", "text", "inner", "content", "holder", "box",
        "block-container", "toggle", "select", "input", "highlight", "progress",
    ]

    private static func normalized(_ text: String) -> String {
        HTMLText.collapsingWhitespace(text.lowercased()).trimmingCharacters(in: [":", " ", ".", "*", "#", "!"])
    }

    private static func begins(_ words: String, _ headings: [String]) -> Bool {
        headings.contains { words == $0 || words.hasPrefix($0 + " ") || words.hasPrefix($0 + ":") || words.hasPrefix($0 + " (") }
    }
}
