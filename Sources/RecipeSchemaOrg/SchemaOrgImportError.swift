// MARK: - Import errors

/// Why a page or file gave no recipe. Each message names what is wrong and, where
/// it applies, where: a JSON path (`$.recipeIngredient[3]`), after `script 2: ` when
/// the JSON came from the second `<script type="application/ld+json">` of a page.
public enum SchemaOrgImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input is larger than the limit for its format; nothing of it was read.
    case documentTooLarge(bytes: Int, limit: Int)
    /// The document holds more than an import reads (`SchemaOrgImport.maxValues` values,
    /// `maxDepth` levels, as many visits, or `maxSteps` steps of reading markup): refused at
    /// that point, so its cost is bounded.
    case tooComplex(where: String, what: String)
    /// The content type is neither JSON nor HTML.
    case unsupportedContentType(String)
    /// The bytes are not text in the declared (or default UTF-8) encoding.
    case notText(encoding: String)
    /// The JSON document does not parse, even leniently.
    case notJSON(where: String, reason: String)
    /// An HTML page with no JSON-LD script and no microdata or RDFa Recipe.
    case noStructuredData
    /// No node whose `@type` is `Recipe`. `unreadableScripts` says which of a page's
    /// JSON-LD blocks could not be read, and why (`script 2: …`), as they may have held it.
    case noRecipe(unreadableScripts: [String])
    /// The recipe has no usable `name`.
    case missingName(path: String)
    /// A name of the wrong JSON type.
    case wrongType(path: String, expected: String, found: String)
    /// The domain's rules would refuse the recipe as read (`RecipeJudge`, as the decider
    /// decides it); the import appends nothing that would fail later.
    case refusedByRules(reason: String)
    /// Stopped before the end, as the caller asked (`shouldStop`): nothing of it was imported.
    case interrupted

    public var description: String {
        switch self {
        case let .documentTooLarge(bytes, limit):
            return "The document is \(bytes) bytes; at most \(limit) bytes (\(limit >> 20) MiB) are read."
        case let .tooComplex(location, what):
            return "\(location): \(what); an import reads no more."
        case let .unsupportedContentType(type):
            return "Content type \"\(type)\" is not JSON-LD, JSON or HTML."
        case let .notText(encoding):
            return "The document is not valid \(encoding) text."
        case let .notJSON(location, reason):
            return "\(location) is not JSON: \(reason)"
        case .noStructuredData:
            return "The page has no recipe: no <script type=\"application/ld+json\"> block, no microdata or RDFa Recipe, "
                + "and no recipe card or ingredients and steps under headings in its markup."
        case let .noRecipe(unreadable):
            let base = "No node with \"@type\": \"Recipe\" was found."
            guard !unreadable.isEmpty else { return base }
            return base + " Unreadable JSON-LD: " + unreadable.joined(separator: "; ")
        case let .missingName(path):
            return "\(path): the recipe has no name."
        case let .wrongType(path, expected, found):
            return "\(path): expected \(expected), found \(found)."
        case let .refusedByRules(reason):
            return "The recipe as read breaks a rule of the recipe it would become: \(reason)"
        case .interrupted:
            return "The import was stopped before the document was read."
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

    /// One step into a value: a member or a list item.
    enum Step {
        case key(String)
        case index(Int)
    }

    /// The path after `steps`.
    func following(_ steps: [Step]) -> JSONPath {
        steps.reduce(self) { path, step in
            switch step {
            case .key(let name): path.key(name)
            case .index(let index): path.index(index)
            }
        }
    }

    var description: String { prefix + components }
}
