// MARK: - Import errors

/// Why a page or file gave no recipe. Each message names what is wrong and, where
/// it applies, where: a JSON path (`$.recipeIngredient[3]`), after `script 2: ` when
/// the JSON came from the second `<script type="application/ld+json">` of a page.
public enum SchemaOrgImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input is larger than the limit for its format; nothing of it was read.
    case documentTooLarge(bytes: Int, limit: Int)
    /// The content type is neither JSON nor HTML.
    case unsupportedContentType(String)
    /// The bytes are not text in the declared (or default UTF-8) encoding.
    case notText(encoding: String)
    /// The JSON document (or a page's only JSON-LD block) does not parse.
    case notJSON(where: String, reason: String)
    /// An HTML page without any `<script type="application/ld+json">`.
    case noJSONLD
    /// JSON-LD without a node whose `@type` is `Recipe`. `unreadableScripts` says which of a
    /// page's JSON-LD blocks did not parse, and why (`script 2: …`), as they may have held it.
    case noRecipe(unreadableScripts: [String])
    /// More than one different recipe where one was asked for; `recipes(from:…)` reads them all.
    case severalRecipes(names: [String])
    /// The recipe has no usable `name`.
    case missingName(path: String)
    /// A value of the wrong JSON type where the recipe needs it.
    case wrongType(path: String, expected: String, found: String)
    /// A text over its limit, in Unicode scalars (as `RecipeLimits` counts).
    case tooLong(path: String, what: String, length: Int, limit: Int)
    /// More entries than the domain allows.
    case tooMany(path: String, what: String, count: Int, limit: Int)

    public var description: String {
        switch self {
        case let .documentTooLarge(bytes, limit):
            return "The document is \(bytes) bytes; at most \(limit) bytes (\(limit >> 20) MiB) are read."
        case let .unsupportedContentType(type):
            return "Content type \"\(type)\" is not JSON-LD, JSON or HTML."
        case let .notText(encoding):
            return "The document is not valid \(encoding) text."
        case let .notJSON(location, reason):
            return "\(location) is not JSON: \(reason)"
        case .noJSONLD:
            return "The page has no <script type=\"application/ld+json\"> block, so no schema.org recipe."
        case let .noRecipe(unreadable):
            let base = "No node with \"@type\": \"Recipe\" was found."
            guard !unreadable.isEmpty else { return base }
            return base + " Unreadable JSON-LD: " + unreadable.joined(separator: "; ")
        case let .severalRecipes(names):
            let list = names.map { $0.debugDescription }.joined(separator: ", ")
            return "The document holds \(names.count) different recipes (\(list)); import them all, or one document per recipe."
        case let .missingName(path):
            return "\(path): the recipe has no name."
        case let .wrongType(path, expected, found):
            return "\(path): expected \(expected), found \(found)."
        case let .tooLong(path, what, length, limit):
            return "\(path): \(what) is \(length) characters; at most \(limit) are allowed."
        case let .tooMany(path, what, count, limit):
            return "\(path): \(count) \(what); at most \(limit) are allowed."
        }
    }
}

// MARK: - JSON paths

/// Where a value sits in a JSON document, written the way people read it:
/// `$.recipeInstructions[2].itemListElement[0].text`, `$["@graph"][1]`.
struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// Text before the path: `script 2: ` for a page's second JSON-LD block.
    var prefix: String
    var components: String

    init(prefix: String = "") {
        self.prefix = prefix
        components = "$"
    }

    func key(_ name: String) -> JSONPath {
        var next = self
        let isIdentifier = name.first.map { $0.isLetter || $0 == "_" } == true
            && name.allSatisfy { ($0.isLetter || $0.isNumber || $0 == "_") && $0.isASCII }
        next.components += isIdentifier ? "." + name : "[\(name.debugDescription)]"
        return next
    }

    func index(_ index: Int) -> JSONPath {
        var next = self
        next.components += "[\(index)]"
        return next
    }

    var description: String { prefix + components }
}
