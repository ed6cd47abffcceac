import RecipeDomain
import RecipeJSON

// MARK: - Event writer

/// Writes events as a decision holds them: `{"type":"<Kind>.v<N>","data":{…}}`,
/// each in the newest version of its kind, members in the order `EventFormats`
/// lists them, optional members left out when absent. When an event gets a new
/// data version, its case here writes the new shape.
enum EventWriter {
    static func write(_ event: RecipeEvent, to writer: inout JSONWriter) {
        let kind = event.kind
        writer.key("type", first: true)
        writer.raw("\"")
        writer.append(utf8: kind.rawValue)
        writer.raw(".v")
        writer.integer(DecisionFormat.currentVersion(of: kind))
        writer.raw("\"")
        writer.key("data")
        writeData(event, to: &writer)
        writer.raw("}")
    }

    private static func writeData(_ event: RecipeEvent, to writer: inout JSONWriter) {
        switch event {
        case .draftDiscarded, .recipeDeleted:
            writer.raw("{}")
            return
        case .draftOpened(let baseVersion, let implicit):
            writer.key("baseVersion", first: true)
            writer.integer(baseVersion)
            writer.key("implicit")
            writer.raw(implicit ? "true" : "false")
        case .titleChanged(let title):
            writer.key("title", first: true)
            writer.string(title)
        case .servingsChanged(let servings):
            writer.key("servings", first: true)
            writer.integer(servings)
        case .imageChanged(let url):
            writer.key("url", first: true)
            writeNullable(url, to: &writer)
        case .ingredientAdded(let ingredient), .ingredientUpdated(let ingredient):
            writeIngredient(ingredient, to: &writer)
        case .ingredientRemoved(let id):
            writer.key("ingredientId", first: true)
            writer.string(id)
        case .instructionAdded(let instruction):
            writer.key("instructionId", first: true)
            writer.string(instruction.id)
            writer.key("description")
            writer.string(instruction.description)
            writer.key("order")
            writer.integer(instruction.order)
            writeOptional(instruction.section, "section", to: &writer)
        case .instructionUpdated(let id, let description, let section):
            writer.key("instructionId", first: true)
            writer.string(id)
            writer.key("description")
            writer.string(description)
            writeOptional(section, "section", to: &writer)
        case .instructionRemoved(let id):
            writer.key("instructionId", first: true)
            writer.string(id)
        case .instructionMoved(let id, let position):
            writer.key("instructionId", first: true)
            writer.string(id)
            writer.key("position")
            writer.integer(position)
        case .tagAdded(let tag):
            writeTag(tag, to: &writer)
        case .tagChanged(let previousName, let tag):
            writer.key("previousName", first: true)
            writer.string(previousName)
            writeTag(tag, to: &writer, first: false)
        case .tagRemoved(let name):
            writer.key("name", first: true)
            writer.string(name)
        case .descriptionChanged(let description):
            writer.key("description", first: true)
            writeNullable(description, to: &writer)
        case .yieldChanged(let yield):
            writer.key("yield", first: true)
            writeNullable(yield, to: &writer)
        case .timesChanged(let prepTime, let cookTime, let totalTime):
            writer.key("prepTime", first: true)
            writeNullable(prepTime, to: &writer)
            writer.key("cookTime")
            writeNullable(cookTime, to: &writer)
            writer.key("totalTime")
            writeNullable(totalTime, to: &writer)
        case .sourceChanged(let url):
            writer.key("url", first: true)
            writeNullable(url, to: &writer)
        case .nutritionChanged(let nutrition):
            let values = Nutrition.Nutrient.allCases.map { DataValue.optional(nutrition?.amounts[$0]) }
                + [.optional(nutrition?.servingSize)]
            writer.data(values, EventFormats.nutritionFields)
            return
        case .contentSet(let content):
            writeContent(content, to: &writer)
        case .versionCommitted(let number, let savedAt, let savedBy):
            writer.key("number", first: true)
            writer.integer(number)
            writer.raw(#","savedAt":""#)
            RFC3339.write(savedAt, to: &writer)
            writer.raw("\"")
            writer.key("savedBy")
            writer.string(savedBy)
        case .accessGranted(let grant):
            writer.key("actor", first: true)
            writer.string(grant.actor)
            writer.key("role")
            writer.string(grant.role.rawValue)
        case .accessRevoked(let actor):
            writer.key("actor", first: true)
            writer.string(actor)
        case .ownershipTransferred(let newOwner):
            writer.key("newOwner", first: true)
            writer.string(newOwner)
        case .ownerAssigned(let owner):
            writer.key("owner", first: true)
            writer.string(owner)
        }
        writer.raw("}")
    }

    // MARK: - Parts

    /// An ingredient's members, the object opened (`ingredientId` first).
    private static func writeIngredient(_ ingredient: Ingredient, to writer: inout JSONWriter) {
        writer.key("ingredientId", first: true)
        writer.string(ingredient.id)
        writer.key("name")
        writer.string(ingredient.name)
        if let amount = ingredient.amount {
            writer.key("amount")
            writer.number(amount)
        }
        if let amountMax = ingredient.amountMax {
            writer.key("amountMax")
            writer.number(amountMax)
        }
        writeOptional(ingredient.unit, "unit", to: &writer)
        writeOptional(ingredient.note, "note", to: &writer)
        writeOptional(ingredient.section, "section", to: &writer)
        writeOptional(ingredient.text, "text", to: &writer)
    }

    private static func writeTag(_ tag: Tag, to writer: inout JSONWriter, first: Bool = true) {
        writer.key("name", first: first)
        writer.string(tag.name)
        writeOptional(tag.payload, "payload", to: &writer)
    }

    private static func writeContent(_ content: RecipeContent, to writer: inout JSONWriter) {
        writer.key("title", first: true)
        writer.string(content.title)
        if let servings = content.servings {
            writer.key("servings")
            writer.integer(servings)
        }
        writeOptional(content.image, "image", to: &writer)
        writeOptional(content.description, "description", to: &writer)
        writeOptional(content.yield, "yield", to: &writer)
        writeOptional(content.prepTime, "prepTime", to: &writer)
        writeOptional(content.cookTime, "cookTime", to: &writer)
        writeOptional(content.totalTime, "totalTime", to: &writer)
        writeOptional(content.sourceUrl, "sourceUrl", to: &writer)
        writer.key("ingredients")
        writer.raw("[")
        for (index, ingredient) in content.ingredients.enumerated() {
            if index > 0 { writer.raw(",") }
            writeIngredient(ingredient, to: &writer)
            writer.raw("}")
        }
        writer.raw("]")
        // A step's order is its place in the list (the fold keeps them 1...n).
        writer.key("instructions")
        writer.raw("[")
        for (index, instruction) in content.instructions.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.key("instructionId", first: true)
            writer.string(instruction.id)
            writer.key("description")
            writer.string(instruction.description)
            writeOptional(instruction.section, "section", to: &writer)
            writer.raw("}")
        }
        writer.raw("]")
        writer.key("tags")
        writer.raw("[")
        for (index, tag) in content.tags.enumerated() {
            if index > 0 { writer.raw(",") }
            writeTag(tag, to: &writer)
            writer.raw("}")
        }
        writer.raw("]")
    }

    private static func writeOptional(_ value: String?, _ name: StaticString, to writer: inout JSONWriter) {
        guard let value else { return }
        writer.key(name)
        writer.string(value)
    }

    private static func writeNullable(_ value: String?, to writer: inout JSONWriter) {
        if let value { writer.string(value) } else { writer.raw("null") }
    }
}
