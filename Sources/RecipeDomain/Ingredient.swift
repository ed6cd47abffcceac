// MARK: - Ingredient

/// One line of a recipe's ingredient list: "250 g flour", "2–3 cloves garlic, finely
/// chopped", "salt, to taste".
///
/// Content version 2: the amount and the unit are optional (a line may have no
/// quantity), a range has an upper end, and the line keeps its preparation note,
/// its section heading and its text as the cook wrote it. A v1 ingredient (always
/// an amount and a unit, called `metric` on the wire) is one with `amount` and
/// `unit` set and nothing else.
public struct Ingredient: Sendable, Hashable {
    /// Stable id: survives edits, drafts and versions. Given by the command or
    /// derived from the id of the command that added it.
    public var id: String
    /// What it is ("flour"). Never blank.
    public var name: String
    /// How much, in `unit`s: greater than zero and finite; nil for a line without
    /// a quantity ("salt, to taste"), which scaling leaves as it is.
    public var amount: Double?
    /// The upper end of a range ("2–3 cloves"): only with an `amount`, and not below it.
    public var amountMax: Double?
    /// The unit ("g", "cup", "clove", or a cook's own word); nil for counted things
    /// written without one ("2 eggs"). Never blank. Called `metric` on the wire's v1.
    public var unit: String?
    /// How it is prepared, or anything else said about it ("finely chopped"). Never blank.
    public var note: String?
    /// The heading the line stands under ("For the sauce"). Never blank.
    public var section: String?
    /// The line as written ("2-3 garlic cloves, finely chopped"), kept for display and
    /// export; the fields above are what scaling and conversion use. Never blank.
    public var text: String?

    public init(id: String, _ line: IngredientLine) {
        self.id = id
        name = line.name
        amount = line.amount
        amountMax = line.amountMax
        unit = line.unit
        note = line.note
        section = line.section
        text = line.text
    }

    public init(
        id: String, name: String, amount: Double? = nil, amountMax: Double? = nil, unit: String? = nil,
        note: String? = nil, section: String? = nil, text: String? = nil
    ) {
        self.init(id: id, IngredientLine(
            name: name, amount: amount, amountMax: amountMax, unit: unit, note: note, section: section, text: text))
    }

    /// A v1 ingredient: an amount in a unit, nothing else.
    public init(id: String, name: String, amount: Double, metric: String) {
        self.init(id: id, name: name, amount: amount, unit: metric)
    }

    /// Everything but the id.
    public var line: IngredientLine {
        IngredientLine(name: name, amount: amount, amountMax: amountMax, unit: unit, note: note, section: section, text: text)
    }

    /// The amount, range and unit, for scaling, conversion and display.
    public var quantity: IngredientQuantity {
        IngredientQuantity(amount: amount, amountMax: amountMax, unit: unit)
    }
}

/// What an ingredient says, without its id: what `IngredientAdded` and
/// `DraftContentSet` carry. The same rules as `Ingredient`'s fields
/// (`RecipeDecider` checks them; `RecipeLimits` has the bounds).
public struct IngredientLine: Sendable, Hashable {
    public var name: String
    public var amount: Double?
    public var amountMax: Double?
    public var unit: String?
    public var note: String?
    public var section: String?
    public var text: String?

    public init(
        name: String, amount: Double? = nil, amountMax: Double? = nil, unit: String? = nil,
        note: String? = nil, section: String? = nil, text: String? = nil
    ) {
        self.name = name
        self.amount = amount
        self.amountMax = amountMax
        self.unit = unit
        self.note = note
        self.section = section
        self.text = text
    }
}

/// What an `IngredientUpdated` changes: each field kept, cleared or set. The name
/// cannot be cleared (an ingredient always has one), so it is only kept or set.
public struct IngredientChanges: Sendable, Hashable {
    public var name: String?
    public var amount: FieldUpdate<Double>
    public var amountMax: FieldUpdate<Double>
    public var unit: FieldUpdate<String>
    public var note: FieldUpdate<String>
    public var section: FieldUpdate<String>
    public var text: FieldUpdate<String>

    public init(
        name: String? = nil, amount: FieldUpdate<Double> = .keep, amountMax: FieldUpdate<Double> = .keep,
        unit: FieldUpdate<String> = .keep, note: FieldUpdate<String> = .keep, section: FieldUpdate<String> = .keep,
        text: FieldUpdate<String> = .keep
    ) {
        self.name = name
        self.amount = amount
        self.amountMax = amountMax
        self.unit = unit
        self.note = note
        self.section = section
        self.text = text
    }

    /// Whether the update changes nothing at all (which the rules refuse).
    public var keepsEverything: Bool {
        name == nil && amount == .keep && amountMax == .keep && unit == .keep && note == .keep && section == .keep
            && text == .keep
    }
}

/// One optional field of an update: left as it is, removed, or set to a value.
/// On the wire: the member absent, `null`, or a value.
public enum FieldUpdate<Value: Sendable & Hashable>: Sendable, Hashable {
    case keep
    case clear
    case set(Value)

    /// `value` as an update that never clears: nil keeps.
    public init(setting value: Value?) {
        self = value.map(FieldUpdate.set) ?? .keep
    }

    /// The value after the update.
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .keep: current
        case .clear: nil
        case .set(let value): value
        }
    }

    /// The value being set, if any.
    public var newValue: Value? {
        if case .set(let value) = self { return value }
        return nil
    }
}
