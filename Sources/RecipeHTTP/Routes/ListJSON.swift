import RecipeJSON
import RecipeProjection
import RecipeWire

extension RecipeList {
    /// The list as `HTTPResponse.json` writes it with `DocumentJSON.encoder` (members sorted,
    /// absent optionals left out), byte for byte, written by hand because the list is a hot query
    /// (docs/benchmarks.md, "Issue 50"). ListJSONTests compares the two on every member.
    func json() -> [UInt8] {
        var writer = JSONWriter(capacity: 64 + 256 * items.count)
        writer.key("items", first: true)
        writer.raw("[")
        for item in items {
            writer.element()
            item.write(to: &writer)
        }
        writer.raw("]")
        if let nextCursor { writer.key("nextCursor"); writer.string(nextCursor) }
        writer.raw("}")
        return writer.bytes
    }
}

extension RecipeSummary {
    fileprivate func write(to writer: inout JSONWriter) {
        writer.key("id", first: true); writer.string(id)
        if let image { writer.key("image"); writer.string(image) }
        writer.key("ingredientCount"); writer.integer(ingredientCount)
        if let servings { writer.key("servings"); writer.integer(servings) }
        writer.key("tags"); writer.raw("[")
        for tag in tags {
            writer.element()
            writer.key("name", first: true); writer.string(tag.name)
            if let payload = tag.payload { writer.key("payload"); writer.string(payload) }
            writer.raw("}")
        }
        writer.raw("]")
        writer.key("title"); writer.string(title)
        writer.key("updatedAt"); writer.string(updatedAt)
        writer.key("version"); writer.integer(version)
        writer.raw("}")
    }
}

extension HTTPResponse {
    /// A list of recipes (`RecipeList.json`).
    static func json(_ list: RecipeList, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: list.json())
    }
}
