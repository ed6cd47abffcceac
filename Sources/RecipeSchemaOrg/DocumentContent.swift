import RecipeDomain

// MARK: - Documents and recipe content

extension RecipeDocument {
    /// The whole draft an import sets in one `DraftContentSet`: every ingredient line
    /// parsed (`IngredientLineParser`), its text kept as written, so that a bad parse is
    /// visible and fixable by an edit; tags as `@name`.
    public var draftContent: DraftContent {
        DraftContent(
            title: name, servings: servings, image: image, description: description, yield: recipeYield,
            prepTime: prepTime, cookTime: cookTime, totalTime: totalTime, sourceUrl: sourceUrl,
            ingredients: ingredients.map { NewIngredient($0.ingredientLine) },
            instructions: instructions.map { NewInstruction(description: $0.text, section: $0.section) },
            tags: tags.map { "@" + $0 })
    }

    /// The document a recipe exports as. Each ingredient is written as `written(_:quantity:)`
    /// says; tags export by name (a payload has no place in keywords); nutrition per serving.
    public init(title: String, servings: Int?, image: String?, description: String?, yield: String?,
                prepTime: String?, cookTime: String?, totalTime: String?, sourceUrl: String?, tags: [String],
                ingredients: [(line: IngredientLine, quantity: String?)], instructions: [(text: String, section: String?)],
                nutrition: Nutrition? = nil) {
        self.init(
            name: title, description: description, image: image, recipeYield: yield, servings: servings,
            prepTime: prepTime, cookTime: cookTime, totalTime: totalTime, sourceUrl: sourceUrl, tags: tags,
            ingredients: ingredients.map { DocumentIngredient(text: Self.written($0.line, quantity: $0.quantity), section: $0.line.section) },
            instructions: instructions.map { DocumentStep(text: $0.text, section: $0.section) }, nutrition: nutrition)
    }

    /// The line an ingredient exports as, one that the import reads back as its fields:
    /// - its text as written, while that still says what the fields say (an edit of the amount
    ///   keeps the text: it would still say "250 g flour" of 300 g);
    /// - else the line written from the fields, with the quantity as people read it ("1½ cups
    ///   flour, sifted"), or with the amounts exact where that quantity reads as other amounts
    ///   (it rounds: 1.2345 is "1.23"). An amount below what the rules take now (0.004 kg, kept
    ///   from rules version 1) is written exact too: the import reads that line without a quantity.
    static func written(_ line: IngredientLine, quantity: String?) -> String {
        if let text = line.text, reads(text, as: line) { return text }
        func withName(_ quantity: String?) -> String {
            [quantity, line.name].compactMap { $0 }.joined(separator: " ") + (line.note.map { ", " + $0 } ?? "")
        }
        let readable = withName(quantity)
        guard let amount = line.amount, !readsAmounts(readable, as: line) else { return readable }
        let exact = withName([amount, line.amountMax].compactMap { $0 }.map(Self.exactText).joined(separator: "–")
            + (line.unit.map { " " + $0 } ?? ""))
        return readsAmounts(exact, as: line) || !RecipeLimits.isAllowedAmount(amount) ? exact : readable
    }

    private static func reads(_ text: String, as line: IngredientLine) -> Bool {
        let parsed = IngredientLineParser.parse(text)
        return (parsed.name, parsed.amount, parsed.amountMax, parsed.unit, parsed.note)
            == (line.name, line.amount, line.amountMax, line.unit, line.note)
    }

    private static func readsAmounts(_ text: String, as line: IngredientLine) -> Bool {
        let parsed = IngredientLineParser.parse(text)
        return parsed.amount == line.amount && parsed.amountMax == line.amountMax
    }

    /// The shortest decimal that reads back as `value` (Swift's), without a ".0" on whole numbers.
    private static func exactText(_ value: Double) -> String {
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
