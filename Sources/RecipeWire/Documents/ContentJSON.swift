import RecipeDomain
import RecipeJSON

// MARK: - Content JSON

/// A value holding a whole content: its scalars and its lists under their own names
/// (`RecipeContent`, and the documents `RecipeDetail` and `DraftView`, whose lists hold
/// views of the items).
public protocol ContentDocument: ContentScalars {
    associatedtype Line: IngredientMembers
    associatedtype Step: StepMembers
    associatedtype TagItem: TagMembers
    associatedtype NutritionItem: NutritionMember
    var ingredients: [Line] { get }
    var instructions: [Step] { get }
    var tags: [TagItem] { get }
    var nutrition: NutritionItem? { get }
}

public protocol IngredientMembers {
    var id: String { get }
    var name: String { get }
    var amount: Double? { get }
    var amountMax: Double? { get }
    var unit: String? { get }
    var note: String? { get }
    var section: String? { get }
    var text: String? { get }
    /// The quantity as people read it (`IngredientView.display`).
    var display: String { get }
}

public protocol StepMembers {
    var id: String { get }
    var order: Int { get }
    var description: String { get }
    var section: String? { get }
}

public protocol TagMembers {
    var name: String { get }
    var payload: String? { get }
}

/// Nutrition as its holder writes it: the stored form (`Nutrition`) or the documents' view (`NutritionView`).
public protocol NutritionMember {
    func write(to writer: inout JSONWriter)
}

extension RecipeContent: ContentDocument {}
extension RecipeDetail: ContentDocument {}
extension Ingredient: IngredientMembers {
    public var display: String { readableQuantity }
}
extension IngredientView: IngredientMembers {}
extension Instruction: StepMembers {}
extension InstructionView: StepMembers {}
extension Tag: TagMembers {}
extension TagView: TagMembers {}
extension NutritionView: NutritionMember {}

/// The one writer of a recipe's content as JSON, whichever document holds it: the members
/// of `ContentField` in the order and spelling `format` gives. A document's own members
/// (a detail's `id`, `version`, …) are written by `document` when their turn comes.
public enum ContentJSON {
    /// A recipe's content as one JSON object (the stored form, the event's data).
    public static func write(_ content: RecipeContent, _ format: ContentFormat, into writer: inout JSONWriter) {
        write(content, format, into: &writer) { _, _ in }
    }

    /// `content` as one JSON object, `{` to `}`. `document(i, &writer)` writes the document's
    /// `i`th own member (`ContentFormat.documentKeys`), key included, or nothing when it has no value.
    public static func write<Content: ContentDocument>(
        _ content: Content, _ format: ContentFormat, into writer: inout JSONWriter,
        document: (Int, inout JSONWriter) -> Void
    ) {
        writer.raw("{")
        format.members.withUnsafeBufferPointer { members in
            for member in members {
                switch member.part {
                case .document(let index): document(index, &writer)
                case .content(let field): write(field, member.prepared, of: content, format, into: &writer)
                }
            }
        }
        writer.raw("}")
    }

    static func write<Content: ContentDocument>(
        _ field: ContentField, _ key: PreparedKey, of content: Content, _ format: ContentFormat,
        into writer: inout JSONWriter
    ) {
        switch field.kind {
        case .title:
            writer.member(key); writer.string(content.title)
        case .servings:
            if let servings = content.servings {
                writer.member(key); writer.integer(servings)
            } else if format.writesNull(field) {
                writer.member(key); writer.raw("null")
            }
        case .text:
            if let text = content[text: field] {
                writer.member(key); writer.string(text)
            } else if format.writesNull(field) {
                writer.member(key); writer.raw("null")
            }
        case .ingredients:
            writer.member(key); writer.raw("[")
            content.ingredients.withUnsafeBufferPointer { lines in
                for index in lines.indices {
                    if index > 0 { writer.raw(",") }
                    write(lines[index], format, into: &writer)
                }
            }
            writer.raw("]")
        case .instructions:
            writer.member(key); writer.raw("[")
            content.instructions.withUnsafeBufferPointer { steps in
                for index in steps.indices {
                    if index > 0 { writer.raw(",") }
                    write(steps[index], format, into: &writer)
                }
            }
            writer.raw("]")
        case .tags:
            writer.member(key)
            writeTagList(content.tags, format, into: &writer)
        case .nutrition:
            if let nutrition = content.nutrition { writer.member(key); nutrition.write(to: &writer) }
        }
    }

    /// `[{"name":…,"payload":…},…]`: a content's tags (and a list entry's, in the stored form).
    public static func writeTags(_ tags: [Tag], _ format: ContentFormat, into writer: inout JSONWriter) {
        writeTagList(tags, format, into: &writer)
    }

    static func writeTagList<Item: TagMembers>(_ tags: [Item], _ format: ContentFormat, into writer: inout JSONWriter) {
        writer.raw("[")
        for index in tags.indices {
            if index > 0 { writer.raw(",") }
            writer.raw("{")
            for member in format.tagMembers {
                switch member.part {
                case .name: writer.member(member.prepared); writer.string(tags[index].name)
                case .payload:
                    if let payload = tags[index].payload {
                        writer.member(member.prepared); writer.string(payload)
                    } else if format.tagPayloadNull {
                        writer.member(member.prepared); writer.raw("null")
                    }
                }
            }
            writer.raw("}")
        }
        writer.raw("]")
    }

    static func write<Line: IngredientMembers>(_ line: Line, _ format: ContentFormat, into writer: inout JSONWriter) {
        writer.raw("{")
        format.ingredientMembers.withUnsafeBufferPointer { members in
            for member in members {
                switch member.part {
                case .id: writer.member(member.prepared); writer.string(line.id)
                case .name: writer.member(member.prepared); writer.string(line.name)
                case .amount: if let amount = line.amount { writer.member(member.prepared); writer.number(amount) }
                case .amountMax: if let amountMax = line.amountMax { writer.member(member.prepared); writer.number(amountMax) }
                case .unit: if let unit = line.unit { writer.member(member.prepared); writer.string(unit) }
                case .note: if let note = line.note { writer.member(member.prepared); writer.string(note) }
                case .section: if let section = line.section { writer.member(member.prepared); writer.string(section) }
                case .text: if let text = line.text { writer.member(member.prepared); writer.string(text) }
                case .display: writer.member(member.prepared); writer.string(line.display)
                }
            }
        }
        writer.raw("}")
    }

    static func write<Step: StepMembers>(_ step: Step, _ format: ContentFormat, into writer: inout JSONWriter) {
        writer.raw("{")
        format.stepMembers.withUnsafeBufferPointer { members in
            for member in members {
                switch member.part {
                case .id: writer.member(member.prepared); writer.string(step.id)
                case .order: writer.member(member.prepared); writer.integer(step.order)
                case .description: writer.member(member.prepared); writer.string(step.description)
                case .section: if let section = step.section { writer.member(member.prepared); writer.string(section) }
                }
            }
        }
        writer.raw("}")
    }
}

// MARK: - Nutrition, stored

extension Nutrition: NutritionMember {
    /// `{"calories":240,…,"servingSize":"1 slice"}`: the nutrients stated, per serving, in
    /// `Nutrition.Nutrient` order, then the serving size when stated.
    public func write(to writer: inout JSONWriter) {
        writer.raw("{")
        for nutrient in Nutrition.Nutrient.allCases {
            guard let amount = amounts[nutrient] else { continue }
            if writer.last != UInt8(ascii: "{") { writer.raw(",") }
            writer.string(nutrient.rawValue)
            writer.raw(":")
            writer.number(amount)
        }
        if let servingSize { writer.member("servingSize"); writer.string(servingSize) }
        writer.raw("}")
    }
}
