import Foundation
import RecipeWire

// MARK: - Import

/// Reads schema.org `Recipe` nodes from JSON-LD or from the JSON-LD scripts of an HTML page.
///
/// Every function gives complete recipes or throws: a recipe with a bad ingredient or
/// step, or over a limit, is an error, never a part of a recipe. Values that only
/// describe the recipe and cannot be used (a keyword that makes no tag name, a time
/// that is not an ISO 8601 duration, an image that is not an http(s) URL) are left out
/// and listed in `ImportedRecipe.omissions`.
public enum SchemaOrgImport {
    /// The largest JSON document read: far above any recipe, small enough to refuse at once.
    public static let maxJSONBytes = 2 << 20
    /// The largest HTML page read: pages carry markup, scripts and styles around their
    /// JSON-LD; each JSON-LD block in it is still held to `maxJSONBytes`.
    public static let maxHTMLBytes = 5 << 20

    /// What the bytes are.
    public enum Format: Sendable, Hashable {
        /// `application/ld+json` or `application/json`: a Recipe, a list of nodes, or `@graph`.
        case json
        /// `text/html` (or XHTML) with `<script type="application/ld+json">` blocks.
        case html

        /// The format of a content type (`text/html; charset=utf-8`), nil when it is neither.
        public init?(contentType: String) {
            switch ContentType(contentType).mediaType {
            case "application/ld+json", "application/json", "text/json": self = .json
            case "text/html", "application/xhtml+xml": self = .html
            default: return nil
            }
        }

        /// JSON when the first character that is not a space opens an object or a list, else HTML:
        /// for files, which come without a content type.
        public static func sniffed(from data: Data) -> Format {
            let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
            return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .html
        }

        var limit: Int { self == .json ? SchemaOrgImport.maxJSONBytes : SchemaOrgImport.maxHTMLBytes }
    }

    // MARK: - Entry points

    /// The one recipe of a document. Several copies of the same recipe (pages often repeat
    /// it) count as one; several different recipes are `severalRecipes`, since picking one
    /// would silently import the wrong one: use `recipes(from:contentType:)` for those.
    ///
    /// - Parameter contentType: the HTTP content type, or nil to tell JSON from HTML by the first character.
    public static func recipe(from data: Data, contentType: String?) throws(SchemaOrgImportError) -> ImportedRecipe {
        let all = try recipes(from: data, contentType: contentType)
        guard all.count == 1, let only = all.first else {
            throw .severalRecipes(names: all.map(\.document.name))
        }
        return only
    }

    /// Every different recipe of a document, in document order; at least one.
    public static func recipes(from data: Data, contentType: String?) throws(SchemaOrgImportError) -> [ImportedRecipe] {
        let charset: String?
        let format: Format
        if let contentType {
            guard let known = Format(contentType: contentType) else { throw .unsupportedContentType(contentType) }
            format = known
            charset = ContentType(contentType).charset
        } else {
            format = Format.sniffed(from: data)
            charset = nil
        }
        switch format {
        case .json: return try recipesFromJSON(data, charset: charset)
        case .html: return try recipesFromHTML(data, charset: charset)
        }
    }

    /// Every different recipe of a JSON-LD document (`application/ld+json`, `application/json`).
    public static func recipesFromJSON(_ data: Data, charset: String? = nil) throws(SchemaOrgImportError) -> [ImportedRecipe] {
        try checkSize(data, format: .json)
        let bytes = try utf8Bytes(of: data, charset: charset)
        let value: JSONValue
        switch parse(bytes[...]) {
        case .success(let parsed): value = parsed
        case .failure(let failure): throw .notJSON(where: "The document", reason: failure.reason)
        }
        return try recipes(in: [(value, JSONPath())], unreadable: [])
    }

    /// Every different recipe in the `<script type="application/ld+json">` blocks of an HTML page.
    public static func recipesFromHTML(_ data: Data, charset: String? = nil) throws(SchemaOrgImportError) -> [ImportedRecipe] {
        try checkSize(data, format: .html)
        let page = try utf8Bytes(of: data, charset: charset)
        let blocks = JSONLDScripts.blocks(in: page)
        guard !blocks.isEmpty else { throw .noJSONLD }
        var documents: [(JSONValue, JSONPath)] = []
        var unreadable: [String] = []
        for (offset, block) in blocks.enumerated() {
            let name = "script \(offset + 1)"
            guard block.count <= maxJSONBytes else {
                unreadable.append("\(name): \(block.count) bytes, over the \(maxJSONBytes)-byte limit")
                continue
            }
            switch parse(block) {
            case .success(let value):
                documents.append((value, JSONPath(prefix: name + ": ")))
            case .failure(let failure):
                // Some pages HTML-escape the whole block (`{&quot;@type&quot;: …}`); read it once more decoded.
                let decoded = HTMLText.decodingEntities(String(decoding: block, as: UTF8.self))
                if case .success(let value) = parse(Array(decoded.utf8)[...]) {
                    documents.append((value, JSONPath(prefix: name + ": ")))
                } else {
                    unreadable.append("\(name): \(failure.reason)")
                }
            }
        }
        return try recipes(in: documents, unreadable: unreadable)
    }

    // MARK: - Steps

    private static func checkSize(_ data: Data, format: Format) throws(SchemaOrgImportError) {
        guard data.count <= format.limit else { throw .documentTooLarge(bytes: data.count, limit: format.limit) }
    }

    /// The document as UTF-8 without a byte order mark. UTF-8 is what JSON is and what pages
    /// are unless they say otherwise; Latin-1 and Windows-1252 are converted.
    private static func utf8Bytes(of data: Data, charset: String?) throws(SchemaOrgImportError) -> [UInt8] {
        switch charset?.lowercased() {
        case nil, "utf-8", "utf8", "us-ascii", "ascii":
            var bytes = [UInt8](data)
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            return bytes
        case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
            guard let text = String(data: data, encoding: .isoLatin1) else { throw .notText(encoding: "ISO-8859-1") }
            return Array(text.utf8)
        case "windows-1252", "cp1252":
            guard let text = String(data: data, encoding: .windowsCP1252) else { throw .notText(encoding: "Windows-1252") }
            return Array(text.utf8)
        case let other?:
            throw .notText(encoding: other)
        }
    }

    /// One JSON value, or why the bytes are not one.
    private static func parse(_ bytes: ArraySlice<UInt8>) -> Result<JSONValue, ParseFailure> {
        do {
            return .success(try JSONDecoder().decode(JSONValue.self, from: Data(bytes)))
        } catch {
            return .failure(ParseFailure(reason: reason(of: error)))
        }
    }

    private struct ParseFailure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// The decoder's own explanation ("Unexpected character 'x' around line 1, column 1."),
    /// which names the place, rather than its generic "not valid JSON".
    private static func reason(of error: any Error) -> String {
        guard case DecodingError.dataCorrupted(let context) = error else { return "\(error)" }
        if let underlying = context.underlyingError as NSError?,
           let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
            return detail
        }
        return context.debugDescription
    }

    /// The recipes of the parsed documents, each read completely, copies dropped.
    private static func recipes(in documents: [(JSONValue, JSONPath)], unreadable: [String]) throws(SchemaOrgImportError) -> [ImportedRecipe] {
        var nodes = NodeIndex()
        for (value, path) in documents { nodes.collect(value, at: path) }
        guard !nodes.recipes.isEmpty else { throw .noRecipe(unreadableScripts: unreadable) }
        var imported: [ImportedRecipe] = []
        for (node, path) in nodes.recipes {
            var reader = RecipeNodeReader(nodes: nodes)
            let document = try reader.document(from: node, at: path)
            if !imported.contains(where: { $0.document == document }) {
                imported.append(ImportedRecipe(document: document, omissions: reader.omissions))
            }
        }
        return imported
    }
}

// MARK: - Content types

/// A content type's media type and charset, in lower case.
struct ContentType {
    var mediaType: String
    var charset: String?

    init(_ text: String) {
        let parts = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        mediaType = parts.first ?? ""
        charset = parts.dropFirst().first { $0.hasPrefix("charset=") }
            .map { String($0.dropFirst("charset=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")) }
    }
}

// MARK: - Nodes

/// The Recipe nodes of the documents, found anywhere (top level, a list, `@graph`,
/// `mainEntity`), and every node with an `@id`, so a reference such as
/// `"image": {"@id": "#primaryimage"}` can be followed to the node it names.
struct NodeIndex {
    var recipes: [([String: JSONValue], JSONPath)] = []
    var identified: [String: [String: JSONValue]] = [:]

    mutating func collect(_ value: JSONValue, at path: JSONPath) {
        switch value {
        case .array(let items):
            for (index, item) in items.enumerated() { collect(item, at: path.index(index)) }
        case .object(let members):
            if case .string(let id)? = members["@id"], members.count > 1, identified[id] == nil {
                identified[id] = members
            }
            if Self.types(of: members).contains("recipe") {
                recipes.append((members, path))
                return
            }
            // Sorted, so that the order recipes are found in does not depend on hashing.
            for name in members.keys.sorted() { collect(members[name]!, at: path.key(name)) }
        default:
            return
        }
    }

    /// The node an object stands for: the object itself, or the node its lone `@id` names.
    func resolved(_ members: [String: JSONValue]) -> [String: JSONValue] {
        guard members.count == 1, case .string(let id)? = members["@id"], let node = identified[id] else { return members }
        return node
    }

    /// The `@type`s of a node in lower case, without a `schema:` or schema.org prefix.
    static func types(of members: [String: JSONValue]) -> [String] {
        let names: [String]
        switch members["@type"] {
        case .string(let name)?: names = [name]
        case .array(let items)?: names = items.compactMap { if case .string(let name) = $0 { name } else { nil } }
        default: names = []
        }
        return names.map { name in
            var type = name.trimmingCharacters(in: .whitespaces)
            for prefix in ["https://schema.org/", "http://schema.org/", "schema:"] where type.lowercased().hasPrefix(prefix) {
                type = String(type.dropFirst(prefix.count))
            }
            return type.lowercased()
        }
    }
}
