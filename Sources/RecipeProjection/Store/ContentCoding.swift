import Foundation
import RecipeDomain
import RecipeWire

/// How recipe content is kept in the store: the JSON shape of the HTTP API's
/// detail (`title`, `servings`, `image`, `ingredients`, `instructions`, `tags`),
/// written canonically so that equal content is equal text (the canonical
/// dumps of `audit verify` compare it byte for byte).
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
        writer.key("ingredients")
        writer.raw("[")
        for (index, ingredient) in content.ingredients.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.key("id", first: true)
            writer.string(ingredient.id)
            writer.key("name")
            writer.string(ingredient.name)
            writer.key("amount")
            writer.number(ingredient.amount)
            writer.key("metric")
            writer.string(ingredient.metric)
            writer.raw("}")
        }
        writer.raw("]")
        writer.key("instructions")
        writer.raw("[")
        for (index, instruction) in content.instructions.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.key("id", first: true)
            writer.string(instruction.id)
            writer.key("order")
            writer.integer(instruction.order)
            writer.key("description")
            writer.string(instruction.description)
            writer.raw("}")
        }
        writer.raw("]")
        writer.key("tags")
        write(content.tags, into: &writer)
        writer.raw("}")
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

    /// Reads content the store wrote; anything else is a corrupted store.
    static func content(fromJSON text: String) throws -> RecipeContent {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw StoreError.corrupted("recipe content is not a JSON object")
        }
        func list(_ key: String) -> [[String: Any]] { object[key] as? [[String: Any]] ?? [] }
        return RecipeContent(
            title: object["title"] as? String ?? "",
            servings: (object["servings"] as? NSNumber)?.intValue,
            image: object["image"] as? String,
            ingredients: list("ingredients").map {
                Ingredient(id: $0["id"] as? String ?? "", name: $0["name"] as? String ?? "",
                           amount: ($0["amount"] as? NSNumber)?.doubleValue ?? 0, metric: $0["metric"] as? String ?? "")
            },
            instructions: list("instructions").map {
                Instruction(id: $0["id"] as? String ?? "", description: $0["description"] as? String ?? "",
                            order: ($0["order"] as? NSNumber)?.intValue ?? 0)
            },
            tags: list("tags").map { Tag(name: $0["name"] as? String ?? "", payload: $0["payload"] as? String) })
    }
}
