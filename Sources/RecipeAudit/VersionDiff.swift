import RecipeDomain
import RecipeProjection

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
        ingredients = Self.compare(a.ingredients.map(IngredientView.init), b.ingredients.map(IngredientView.init), by: \.id)
        instructions = Self.compare(a.instructions.map(InstructionView.init), b.instructions.map(InstructionView.init), by: \.id)
        tags = Self.compare(a.tags.map(TagView.init), b.tags.map(TagView.init)) { $0.name.lowercased() }
    }

    public var isEmpty: Bool {
        title == nil && servings == nil && image == nil && ingredients.isEmpty && instructions.isEmpty && tags.isEmpty
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
        func describe(_ ingredient: IngredientView) -> String { "\(ingredient.id) \(ingredient.name): \(ingredient.display)" }
        lines += ingredients.added.map { "+ ingredient \(describe($0))" }
        lines += ingredients.removed.map { "- ingredient \(describe($0))" }
        lines += ingredients.changed.map { change in
            let name = change.from.name == change.to.name ? change.to.name : "\(change.from.name) → \(change.to.name)"
            let amount = change.from.display == change.to.display ? change.to.display : "\(change.from.display) → \(change.to.display)"
            return "~ ingredient \(change.id) \(name): \(amount)"
        }
        func describe(_ step: InstructionView) -> String { "\(step.id) #\(step.order): \(step.description)" }
        lines += instructions.added.map { "+ instruction \(describe($0))" }
        lines += instructions.removed.map { "- instruction \(describe($0))" }
        lines += instructions.changed.map { "~ instruction \(describe($0.from)) → \(describe($0.to))" }
        func describe(_ tag: TagView) -> String { tag.payload.map { "\(tag.name)(\($0))" } ?? tag.name }
        lines += tags.added.map { "+ tag \(describe($0))" }
        lines += tags.removed.map { "- tag \(describe($0))" }
        lines += tags.changed.map { "~ tag \(describe($0.from)) → \(describe($0.to))" }
        return lines
    }

    private func quoted(_ text: String) -> String { "\"\(text)\"" }
    private func text<T>(_ value: T?) -> String { value.map { "\($0)" } ?? "none" }
}
