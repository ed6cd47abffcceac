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
            ingredients: ingredients.map { line in
                let parsed = line.parsed
                return NewIngredient(IngredientLine(name: parsed.name, amount: parsed.amount, amountMax: parsed.amountMax,
                                                    unit: parsed.unit, note: parsed.note, section: line.section, text: line.text))
            },
            instructions: instructions.map { NewInstruction(description: $0.text, section: $0.section) },
            tags: tags.map { "@" + $0 })
    }

    /// The document a recipe exports as. An ingredient without the line as written
    /// (one added by fields, or before lines were kept) is written from its fields:
    /// "250 g flour, sifted". Tags export by name (a payload has no place in keywords).
    public init(title: String, servings: Int?, image: String?, description: String?, yield: String?,
                prepTime: String?, cookTime: String?, totalTime: String?, sourceUrl: String?, tags: [String],
                ingredients: [(line: IngredientLine, quantity: String?)], instructions: [(text: String, section: String?)]) {
        self.init(
            name: title, description: description, image: image, recipeYield: yield, servings: servings,
            prepTime: prepTime, cookTime: cookTime, totalTime: totalTime, sourceUrl: sourceUrl, tags: tags,
            ingredients: ingredients.map { ingredient in
                let written = ingredient.line.text ?? ([ingredient.quantity, ingredient.line.name].compactMap { $0 }.joined(separator: " ")
                    + (ingredient.line.note.map { ", " + $0 } ?? ""))
                return DocumentIngredient(text: written, section: ingredient.line.section)
            },
            instructions: instructions.map { DocumentStep(text: $0.text, section: $0.section) })
    }
}
