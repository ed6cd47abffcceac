import RecipeDomain
import RecipeProjection
import RecipeWire

/// What changed between two committed versions of a recipe: the fields, and
/// ingredients and instructions matched by id, tags by name.
public struct VersionDiff: Codable, Sendable, Equatable {
    public struct Change<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        public var from: Value
        public var to: Value
    }

    /// An item present in both versions whose fields differ.
    public struct ItemChange<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        public var id: String
        public var from: Item
        public var to: Item
    }

    public struct ListChanges<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
        public var added: [Item] = []
        public var removed: [Item] = []
        public var changed: [ItemChange<Item>] = []

        public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
    }

    public var id: String
    public var fromVersion: Int
    public var toVersion: Int
    public var title: Change<String>?
    /// `null` stands for "not given".
    public var servings: Change<Int?>?
    public var image: Change<String?>?
    // Content version 2.
    public var description: Change<String?>?
    public var yield: Change<String?>?
    public var prepTime: Change<String?>?
    public var cookTime: Change<String?>?
    public var totalTime: Change<String?>?
    public var sourceUrl: Change<String?>?
    /// Per serving; `null` stands for "none stated".
    public var nutrition: Change<NutritionView?>?
    public var ingredients = ListChanges<IngredientView>()
    public var instructions = ListChanges<InstructionView>()
    public var tags = ListChanges<TagView>()

    public init(id: String, from old: RecipeVersion, to new: RecipeVersion) {
        self.id = id
        fromVersion = old.number
        toVersion = new.number
        let (a, b) = (old.content, new.content)
        if a.title != b.title { title = Change(from: a.title, to: b.title) }
        if a.servings != b.servings { servings = Change(from: a.servings, to: b.servings) }
        if a.image != b.image { image = Change(from: a.image, to: b.image) }
        if a.description != b.description { description = Change(from: a.description, to: b.description) }
        if a.yield != b.yield { yield = Change(from: a.yield, to: b.yield) }
        if a.prepTime != b.prepTime { prepTime = Change(from: a.prepTime, to: b.prepTime) }
        if a.cookTime != b.cookTime { cookTime = Change(from: a.cookTime, to: b.cookTime) }
        if a.totalTime != b.totalTime { totalTime = Change(from: a.totalTime, to: b.totalTime) }
        if a.sourceUrl != b.sourceUrl { sourceUrl = Change(from: a.sourceUrl, to: b.sourceUrl) }
        if a.nutrition != b.nutrition {
            nutrition = Change(from: NutritionView(a.nutrition, forServings: nil), to: NutritionView(b.nutrition, forServings: nil))
        }
        ingredients = Self.compare(a.ingredients.map(IngredientView.init), b.ingredients.map(IngredientView.init), by: \.id)
        instructions = Self.compare(a.instructions.map(InstructionView.init), b.instructions.map(InstructionView.init), by: \.id)
        tags = Self.compare(a.tags.map(TagView.init), b.tags.map(TagView.init)) { $0.name.lowercased() }
    }

    public var isEmpty: Bool {
        title == nil && servings == nil && image == nil && description == nil && yield == nil && prepTime == nil
            && cookTime == nil && totalTime == nil && sourceUrl == nil && nutrition == nil && ingredients.isEmpty && instructions.isEmpty && tags.isEmpty
    }

    static func compare<Item>(_ old: [Item], _ new: [Item], by id: (Item) -> String) -> ListChanges<Item> {
        var changes = ListChanges<Item>()
        let oldByID = Dictionary(old.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.map(id))
        for item in new {
            if let before = oldByID[id(item)] {
                if before != item { changes.changed.append(ItemChange(id: id(item), from: before, to: item)) }
            } else {
                changes.added.append(item)
            }
        }
        changes.removed = old.filter { !newIDs.contains(id($0)) }
        return changes
    }

    /// The changes as lines a person reads, e.g. `~ ingredient i2 flour: 200 g → 250 g`.
    public var lines: [String] {
        var lines: [String] = []
        if let title { lines.append("~ title: \(quoted(title.from)) → \(quoted(title.to))") }
        if let servings { lines.append("~ servings: \(text(servings.from)) → \(text(servings.to))") }
        if let image { lines.append("~ image: \(text(image.from)) → \(text(image.to))") }
        let fields: [(String, Change<String?>?)] = [
            ("description", description), ("yield", yield), ("prepTime", prepTime), ("cookTime", cookTime),
            ("totalTime", totalTime), ("sourceUrl", sourceUrl),
        ]
        for case let (name, change?) in fields { lines.append("~ \(name): \(text(change.from)) → \(text(change.to))") }
        if let nutrition { lines += Self.lines(nutrition) }
        func describe(_ ingredient: IngredientView) -> String {
            var text = "\(ingredient.id) \(ingredient.name): \(ingredient.display)"
            if let note = ingredient.note { text += ", \(note)" }
            if let section = ingredient.section { text += " [\(section)]" }
            return text
        }
        lines += ingredients.added.map { "+ ingredient \(describe($0))" }
        lines += ingredients.removed.map { "- ingredient \(describe($0))" }
        lines += ingredients.changed.map { change in
            let (from, to) = (change.from, change.to)
            let name = from.name == to.name ? to.name : "\(from.name) → \(to.name)"
            var parts = [from.display == to.display ? to.display : "\(from.display) → \(to.display)"]
            // A note, section or the line's text said what changed even when the quantity did not.
            if from.note != to.note { parts.append("note \(text(from.note)) → \(text(to.note))") }
            if from.section != to.section { parts.append("section \(text(from.section)) → \(text(to.section))") }
            if from.text != to.text { parts.append("text \(text(from.text)) → \(text(to.text))") }
            return "~ ingredient \(change.id) \(name): \(parts.joined(separator: "; "))"
        }
        func describe(_ step: InstructionView) -> String {
            "\(step.id) #\(step.order)\(step.section.map { " [\($0)]" } ?? ""): \(step.description)"
        }
        lines += instructions.added.map { "+ instruction \(describe($0))" }
        lines += instructions.removed.map { "- instruction \(describe($0))" }
        lines += instructions.changed.map { "~ instruction \(describe($0.from)) → \(describe($0.to))" }
        func describe(_ tag: TagView) -> String { tag.payload.map { "\(tag.name)(\($0))" } ?? tag.name }
        lines += tags.added.map { "+ tag \(describe($0))" }
        lines += tags.removed.map { "- tag \(describe($0))" }
        lines += tags.changed.map { "~ tag \(describe($0.from)) → \(describe($0.to))" }
        return lines
    }

    /// One line per nutrient or serving size that changed, e.g. `~ nutrition fat: 9.5 g → none`.
    private static func lines(_ change: Change<NutritionView?>) -> [String] {
        func amount(_ view: NutritionView?, _ name: String) -> String {
            guard let stated = view?.perServing[name] else { return "none" }
            let number = "\(stated.amount)"
            return "\(number.hasSuffix(".0") ? String(number.dropLast(2)) : number) \(stated.unit)"
        }
        var lines: [String] = []
        for name in Nutrition.Nutrient.allCases.map(\.rawValue) where amount(change.from, name) != amount(change.to, name) {
            lines.append("~ nutrition \(name): \(amount(change.from, name)) → \(amount(change.to, name))")
        }
        let (from, to) = (change.from?.servingSize, change.to?.servingSize)
        if from != to { lines.append("~ nutrition servingSize: \(from.map { "\"\($0)\"" } ?? "none") → \(to.map { "\"\($0)\"" } ?? "none")") }
        return lines
    }

    private func quoted(_ text: String) -> String { "\"\(text)\"" }
    private func text<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "none" }
}
