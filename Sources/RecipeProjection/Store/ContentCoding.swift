import Foundation
import RecipeDomain
import RecipeJSON
import RecipeWire

/// How recipe content is kept in the store: the JSON shape of the HTTP API's
/// detail (`title`, `servings`, `image`, `ingredients`, `instructions`, `tags`),
/// written canonically so that equal content is equal text (the canonical
/// dumps of `audit verify` compare it byte for byte).
///
/// Content version 2 adds members that are written only when present (the
/// recipe's `description`, `yield`, `prepTime`, `cookTime`, `totalTime`,
/// `sourceUrl`; an ingredient's `amountMax`, `note`, `section`, `text`, and its
/// `amount` and unit now optional; a step's `section`), and keeps the unit under
/// its v1 name `metric`. So content stored before v2 is exactly what v2 writes for
/// the same content, and old stores are read as they are (store schema 3 only
/// keeps code older than v2 away from stores that may hold v2 content).
enum ContentCoding {
    /// The JSON as bytes, to bind as text without making a String of it first.
    static func utf8(_ content: RecipeContent) -> [UInt8] {
        // Room for a typical recipe at once, rather than growing four or five times.
        var writer = JSONWriter(capacity: 1024)
        write(content, into: &writer)
        return writer.bytes
    }

    static func write(_ content: RecipeContent, into writer: inout JSONWriter) {
        writer.key("title", first: true)
        writer.string(content.title)
        writer.key("servings")
        if let servings = content.servings { writer.integer(servings) } else { writer.raw("null") }
        writer.key("image")
        if let image = content.image { writer.string(image) } else { writer.raw("null") }
        writeIfPresent(content.description, "description", into: &writer)
        writeIfPresent(content.yield, "yield", into: &writer)
        writeIfPresent(content.prepTime, "prepTime", into: &writer)
        writeIfPresent(content.cookTime, "cookTime", into: &writer)
        writeIfPresent(content.totalTime, "totalTime", into: &writer)
        writeIfPresent(content.sourceUrl, "sourceUrl", into: &writer)
        writer.key("ingredients")
        writer.raw("[")
        // Fields read where they lie: a copy of each ingredient retained and released its strings.
        content.ingredients.withUnsafeBufferPointer { ingredients in
            for index in ingredients.indices {
                if index > 0 { writer.raw(",") }
                writer.key("id", first: true)
                writer.string(ingredients[index].id)
                writer.key("name")
                writer.string(ingredients[index].name)
                if let amount = ingredients[index].amount {
                    writer.key("amount")
                    writer.number(amount)
                }
                if let amountMax = ingredients[index].amountMax {
                    writer.key("amountMax")
                    writer.number(amountMax)
                }
                writeIfPresent(ingredients[index].unit, "metric", into: &writer)
                writeIfPresent(ingredients[index].note, "note", into: &writer)
                writeIfPresent(ingredients[index].section, "section", into: &writer)
                writeIfPresent(ingredients[index].text, "text", into: &writer)
                writer.raw("}")
            }
        }
        writer.raw("]")
        writer.key("instructions")
        writer.raw("[")
        content.instructions.withUnsafeBufferPointer { instructions in
            for index in instructions.indices {
                if index > 0 { writer.raw(",") }
                writer.key("id", first: true)
                writer.string(instructions[index].id)
                writer.key("order")
                writer.integer(instructions[index].order)
                writer.key("description")
                writer.string(instructions[index].description)
                writeIfPresent(instructions[index].section, "section", into: &writer)
                writer.raw("}")
            }
        }
        writer.raw("]")
        writer.key("tags")
        write(content.tags, into: &writer)
        if let nutrition = content.nutrition { write(nutrition, into: &writer) }
        writer.raw("}")
    }

    /// `,"nutrition":{"calories":240,…,"servingSize":"1 slice"}`: the nutrients stated, per
    /// serving, in `Nutrition.Nutrient` order, then the serving size when stated. Written only
    /// when the content has nutrition, so content stored before it is the same text.
    private static func write(_ nutrition: Nutrition, into writer: inout JSONWriter) {
        writer.key("nutrition")
        writer.raw("{")
        for nutrient in Nutrition.Nutrient.allCases {
            guard let amount = nutrition.amounts[nutrient] else { continue }
            if writer.last != UInt8(ascii: "{") { writer.raw(",") }
            writer.string(nutrient.rawValue)
            writer.raw(":")
            writer.number(amount)
        }
        if let servingSize = nutrition.servingSize { writer.member("servingSize"); writer.string(servingSize) }
        writer.raw("}")
    }

    @inline(__always)
    private static func writeIfPresent(_ text: String?, _ name: StaticString, into writer: inout JSONWriter) {
        guard let text else { return }
        writer.key(name)
        writer.string(text)
    }

    /// The tags of a list entry as JSON text.
    static func json(_ tags: [Tag]) -> String {
        var writer = JSONWriter(capacity: 64)
        write(tags, into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// `[{"name","payload"}, …]`: the tags of content, and of a list entry.
    static func write(_ tags: [Tag], into writer: inout JSONWriter) {
        writer.raw("[")
        for (index, tag) in tags.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.key("name", first: true)
            writer.string(tag.name)
            writer.key("payload")
            if let payload = tag.payload { writer.string(payload) } else { writer.raw("null") }
            writer.raw("}")
        }
        writer.raw("]")
    }

    /// Reads content the store wrote; anything else, a member missing or of
    /// another type included, is a corrupted store rather than a default.
    static func content(fromJSON text: String) throws -> RecipeContent {
        do {
            return try decoder.decode(StoredContent.self, from: Data(text.utf8)).content
        } catch let error as DecodingError {
            throw StoreError.corrupted("recipe content: \(describe(error))")
        }
    }

    private static let decoder = JSONDecoder()

    /// The members `write` writes; `servings`, `image` and `payload` are written as
    /// null when absent, the members of content v2 left out (so read as absent);
    /// a member of another type is corrupted all the same.
    private struct StoredContent: Decodable {
        struct StoredIngredient: Decodable {
            let id, name: String
            let amount, amountMax: Double?
            let metric, note, section, text: String?
        }
        struct StoredInstruction: Decodable { let id: String; let order: Int; let description: String; let section: String? }
        struct StoredTag: Decodable { let name: String; let payload: String? }
        /// The nutrients by name (`Nutrition.Nutrient`), each a number, and `servingSize`; a
        /// member of another name is a corrupted store, as is an object that states nothing.
        struct StoredNutrition: Decodable {
            let nutrition: Nutrition

            init(from decoder: any Decoder) throws {
                let members = try decoder.container(keyedBy: NutritionKey.self)
                var nutrition = Nutrition()
                for key in members.allKeys {
                    if key.stringValue == "servingSize" {
                        nutrition.servingSize = try members.decode(String.self, forKey: key)
                    } else if let nutrient = Nutrition.Nutrient(rawValue: key.stringValue) {
                        nutrition.amounts[nutrient] = try members.decode(Double.self, forKey: key)
                    } else {
                        throw DecodingError.dataCorruptedError(forKey: key, in: members, debugDescription: "not a nutrient")
                    }
                }
                guard !nutrition.isEmpty else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no nutrient and no serving size"))
                }
                self.nutrition = nutrition
            }
        }
        struct NutritionKey: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
        let title: String
        let servings: Int?
        let image: String?
        let description, yield, prepTime, cookTime, totalTime, sourceUrl: String?
        let ingredients: [StoredIngredient]
        let instructions: [StoredInstruction]
        let tags: [StoredTag]
        let nutrition: StoredNutrition?

        var content: RecipeContent {
            RecipeContent(
                title: title, servings: servings, image: image, description: description, yield: yield,
                prepTime: prepTime, cookTime: cookTime, totalTime: totalTime, sourceUrl: sourceUrl,
                nutrition: nutrition?.nutrition,
                ingredients: ingredients.map {
                    Ingredient(id: $0.id, name: $0.name, amount: $0.amount, amountMax: $0.amountMax, unit: $0.metric,
                               note: $0.note, section: $0.section, text: $0.text)
                },
                instructions: instructions.map {
                    Instruction(id: $0.id, description: $0.description, order: $0.order, section: $0.section)
                },
                tags: tags.map { Tag(name: $0.name, payload: $0.payload) })
        }
    }

    /// Where the content breaks its shape, e.g. "ingredients[2]: no member amount".
    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "the content" : String(path.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)): no member \(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

// MARK: - Grants

extension ContentCoding {
    /// A recipe's grants as `{"actor":"role",…}` in actor order (the fold keeps them
    /// sorted, so equal grants are equal text); nil for none, as a store migrated
    /// from before grants existed has it.
    static func grantsJSON(_ grants: [AccessGrant]) -> String? {
        guard !grants.isEmpty else { return nil }
        var writer = JSONWriter(capacity: 64)
        for (index, grant) in grants.enumerated() {
            writer.append(index == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
            writer.string(grant.actor)
            writer.append(UInt8(ascii: ":"))
            writer.string(grant.role.rawValue)
        }
        writer.raw("}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func grants(fromJSON text: String?) throws -> [AccessGrant] {
        guard let text else { return [] }
        guard let members = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else {
            throw StoreError.corrupted("recipe grants: not an object of roles: \(text)")
        }
        return try members.keys.sorted().map { actor in
            guard let role = AccessRole(rawValue: members[actor]!) else {
                throw StoreError.corrupted("recipe grants: \(actor) has the unknown role \(members[actor]!)")
            }
            return AccessGrant(actor: actor, role: role)
        }
    }
}
