import Foundation
import RecipeDomain
import RecipeJSON
import RecipeWire

// MARK: - Reading one Recipe node

/// Reads the members of one `Recipe` node into a `RecipeDocument` that the domain's rules
/// accept field by field (`FieldRules`, the fold's own checks), collecting what it cuts or
/// leaves out. A value the rules would refuse is cut to fit or left out, with an omission
/// that says so: never kept to fail later. Only a recipe without a name is an error.
struct RecipeNodeReader {
    let nodes: NodeIndex
    private(set) var omissions: [ImportOmission] = []
    /// Values visited so far (following `@id` references visits a node again), for the whole document.
    private(set) var visits: Int
    let maxVisits: Int
    /// The title each step read so far was given (a `HowToStep`'s `name` kept before its text), nil where none.
    var stepTitles: [String?] = []

    init(nodes: NodeIndex, visits: Int, maxVisits: Int) {
        self.nodes = nodes
        self.visits = visits
        self.maxVisits = maxVisits
    }

    mutating func document(from node: NodeIndex.Node, at path: JSONPath) throws(SchemaOrgImportError) -> RecipeDocument {
        try visit(path)
        var document = RecipeDocument(name: try name(of: node, at: path))
        document.description = description(of: node, at: path)
        document.image = image(of: node, at: path)
        (document.recipeYield, document.servings) = yield(of: node, at: path)
        document.prepTime = duration(of: node, "prepTime", at: path)
        document.cookTime = duration(of: node, "cookTime", at: path)
        document.totalTime = duration(of: node, "totalTime", at: path)
        document.sourceUrl = sourceURL(of: node, at: path)
        document.tags = try tags(of: node, at: path)
        document.ingredients = try ingredients(of: node, at: path)
        document.instructions = try instructions(of: node, at: path)
        document.nutrition = try nutrition(of: node, at: path)
        return document
    }

    /// Counts one value read; past `maxVisits` the document is refused, so no document,
    /// however its nodes refer to each other, costs more than that.
    mutating func visit(_ place: JSONPath) throws(SchemaOrgImportError) {
        visits += 1
        guard visits <= maxVisits else {
            throw .tooComplex(where: place.description, what: "more than \(maxVisits) values read, following the nodes' references")
        }
    }

    // MARK: - Name and description

    /// `name`, else `headline` (a Recipe that is also an article); the first text of a list.
    /// Cut to `RecipeLimits.maxTitleLength`.
    private mutating func name(of node: NodeIndex.Node, at path: JSONPath) throws(SchemaOrgImportError) -> String {
        guard let (member, found) = node.member("name") ?? node.member("headline") else { throw .missingName(path: path.description) }
        let place = path.key(member)
        var value = found
        if case .array(let items) = value { value = items.first { $0 != .null } ?? .null }
        let name: String
        switch value {
        case .null: throw .missingName(path: path.description)
        case .string(let text): name = TextCleaning.line(text)
        case let other: throw .wrongType(path: place.description, expected: "text", found: other.kindDescription)
        }
        guard !name.isEmpty else { throw .missingName(path: place.description) }
        return fitted(name, at: place, what: "a title", limit: RecipeLimits.maxTitleLength) { FieldRules.title($0) }
    }

    /// `description` as text (the first of a list); paragraphs as lines; cut to `maxRecipeDescriptionLength`.
    private mutating func description(of node: NodeIndex.Node, at path: JSONPath) -> String? {
        guard let (member, found) = node.member("description") else { return nil }
        let place = path.key(member)
        var value = found
        if case .array(let items) = value { value = items.first { $0 != .null } ?? .null }
        switch value {
        case .null: return nil
        case .string(let text):
            let description = TextCleaning.paragraphs(text)
            guard !description.isEmpty else { return nil }
            return fitted(description, at: place, what: "a description", limit: RecipeLimits.maxRecipeDescriptionLength) {
                FieldRules.optionalText($0, "Description", limit: RecipeLimits.maxRecipeDescriptionLength)
            }
        case let other:
            omit(other, at: place, because: "a description is text")
            return nil
        }
    }

    // MARK: - Image and source

    /// The first usable `image`: a URL, an `ImageObject` (`url`, else `contentUrl`), a
    /// reference to one by `@id`, or a list of those; usable as `FieldRules.imageURL` says.
    private mutating func image(of node: NodeIndex.Node, at path: JSONPath) -> String? {
        guard let (member, value) = node.member("image"), value != .null else { return nil }
        var candidates: [JSONValue] = []
        func gather(_ value: JSONValue) {
            switch value {
            case .array(let items):
                items.prefix(64).forEach(gather)
            case .object(let members):
                let image = nodes.resolved(members)
                candidates += ["url", "contentUrl"].compactMap { image[$0] }
            default:
                candidates.append(value)
            }
        }
        gather(value)
        for candidate in candidates {
            if case .string(let text) = candidate, case let url = HTMLText.decodingEntities(text.trimmed), FieldRules.imageURL(url) == nil {
                return url
            }
        }
        omit(value, at: path.key(member), because: "no absolute http(s) URL of at most \(RecipeLimits.maxImageURLLength) characters in it")
        return nil
    }

    /// `url`, else `mainEntityOfPage` (a URL, or a WebPage node with `@id` or `url`); usable
    /// as `FieldRules.sourceURL` says.
    private mutating func sourceURL(of node: NodeIndex.Node, at path: JSONPath) -> String? {
        for name in ["url", "mainEntityOfPage"] {
            guard let (member, value) = node.member(name), value != .null else { continue }
            var texts: [String] = []
            switch value {
            case .string(let text): texts = [text]
            case .object(let page): texts = ["url", "@id"].compactMap { if case .string(let text)? = page[$0] { text } else { nil } }
            // `"mainEntityOfPage": true` says the recipe is the page's main entity, not where it is.
            case .bool: continue
            default: break
            }
            if let url = texts.map({ HTMLText.decodingEntities($0.trimmed) }).first(where: { FieldRules.sourceURL($0) == nil }) { return url }
            omit(value, at: path.key(member), because: "not an absolute http(s) URL")
        }
        return nil
    }

    // MARK: - Yield

    /// `recipeYield` as text, number, `QuantitativeValue` (`value`, `unitText`) or a list: the
    /// first plain number within `RecipeLimits.servings`, or else the first number of people a
    /// text names (`YieldText`: "Serves 4-6" is 4), is the servings; the first entry other than
    /// a plain number is the yield text (cut to `maxYieldLength`). A yield that counts only
    /// things ("24 cookies") leaves the servings empty, and the omissions say so.
    private mutating func yield(of node: NodeIndex.Node, at path: JSONPath) -> (String?, Int?) {
        guard let (member, value) = node.member("recipeYield") ?? node.member("yield") else { return (nil, nil) }
        let place = path.key(member)
        let entries: [(JSONValue, JSONPath)]
        if case .array(let items) = value {
            entries = items.prefix(64).enumerated().map { ($1, place.index($0)) }
        } else {
            entries = [(value, place)]
        }
        var text: String?
        var servings: Int?
        var namedPeople: Int?
        var countsThings: (String, JSONPath)?
        func take(_ written: String, at entryPlace: JSONPath) {
            if let number = Int(written), RecipeLimits.servings.contains(number) {
                if servings == nil { servings = number }
                return
            }
            guard !written.isEmpty else { return }
            switch YieldText(written) {
            case .people(let people): namedPeople = namedPeople ?? people
            case .things: countsThings = countsThings ?? (written, entryPlace)
            case .unknown: break
            }
            if text == nil {
                text = fitted(written, at: entryPlace, what: "a yield", limit: RecipeLimits.maxYieldLength) {
                    FieldRules.optionalText($0, "Yield", limit: RecipeLimits.maxYieldLength)
                }
            }
        }
        for (entry, entryPlace) in entries {
            switch entry {
            case .null: continue
            case .integer, .number, .string: take(Self.written(entry), at: entryPlace)
            case .object(let quantity) where quantity["value"].map(Self.isScalar) == true:
                // {"@type": "QuantitativeValue", "value": 6, "unitText": "servings"}: 6, and "6 servings".
                let amount = Self.written(quantity["value"]!)
                take(amount, at: entryPlace.key("value"))
                if case .string(let unit)? = quantity["unitText"] ?? quantity["unitCode"], case let unit = TextCleaning.line(unit), !unit.isEmpty {
                    take(amount + " " + unit, at: entryPlace)
                }
            default:
                omit(entry, at: entryPlace, because: "a yield is text, a number or a QuantitativeValue")
            }
        }
        servings = servings ?? namedPeople
        if servings == nil, let (written, entryPlace) = countsThings {
            omissions.append(ImportOmission(path: entryPlace.description, value: "",
                                            reason: Self.noServings(yield: JSONValue.string(written).shortText)))
        }
        return (text, servings)
    }

    /// Why a recipe whose yield counts things imports without servings.
    static func noServings(yield: String) -> String {
        "servings: the yield \"\(yield)\" counts things, not people; set the servings to scale the recipe for guests"
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .integer, .number, .string: true
        default: false
        }
    }

    /// A number or text as one line: `4`, `4.0` and `"4"` all read "4".
    private static func written(_ value: JSONValue) -> String {
        switch value {
        case .integer(let number): String(number)
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .string(let string): TextCleaning.line(string)
        default: ""
        }
    }

    // MARK: - Durations

    /// A time as `ImportedDuration` reads it; else left out, its text in the omission.
    private mutating func duration(of node: NodeIndex.Node, _ name: String, at path: JSONPath) -> String? {
        guard let (member, value) = node.member(name), value != .null else { return nil }
        if case .string(let text) = value, let duration = ImportedDuration.read(TextCleaning.line(text)) { return duration }
        omit(value, at: path.key(member),
             because: "not a time the recipe can hold: an ISO 8601 duration such as PT1H30M (no years or months), or hours and minutes (\"1 hour 30 minutes\")")
        return nil
    }

    // MARK: - Fitting and omissions

    /// `text` as the rule `check` takes it: whole, or cut to `limit` characters (at a word's
    /// end, with "…") with an omission naming what was cut.
    mutating func fitted(_ text: String, at place: JSONPath, what: String, limit: Int,
                         check: (String) -> Rejection?) -> String {
        guard check(text) != nil else { return text }
        let (kept, cut) = TextCleaning.cut(text, to: limit)
        omissions.append(ImportOmission(path: place.description, value: JSONValue.string(cut).shortText,
                                        reason: "cut: \(what) holds at most \(limit) characters, this one had \(text.unicodeScalars.count)"))
        return kept
    }

    mutating func omit(_ value: JSONValue, at place: JSONPath, because reason: String) {
        omissions.append(ImportOmission(path: place.description, value: value.shortText, reason: reason))
    }
}

// MARK: - Text

enum TextCleaning {
    /// A text for one line (a name, a heading, an ingredient): HTML taken out when it holds
    /// some, every run of whitespace (line breaks too) one space, none at the ends.
    static func line(_ text: String) -> String {
        HTMLText.collapsingWhitespace(HTMLText.looksLikeHTML(text) ? HTMLText.plainText(fromHTML: text) : text)
    }

    /// A text that may have several lines (a description, a step): HTML taken out when it
    /// holds some (block ends become line breaks); each line's runs of spaces and tabs one
    /// space, blank lines dropped, as a browser shows it.
    static func paragraphs(_ text: String) -> String {
        lines(text).joined(separator: "\n")
    }

    /// The lines of a text: of one that stands for several items (all the ingredients, or all
    /// the steps, in one text), or of one step. HTML block ends and line breaks separate them.
    static func lines(_ text: String) -> [String] {
        let plain = HTMLText.looksLikeHTML(text) ? HTMLText.plainText(fromHTML: text) : text
        return plain.split(whereSeparator: \.isNewline).map { HTMLText.collapsingWhitespace(String($0)) }.filter { !$0.isEmpty }
    }

    /// Whether a text says anything: not only punctuation and spaces (a "," left between
    /// two paragraphs of a joined list is no step).
    static func saysSomething(_ text: String) -> Bool {
        text.unicodeScalars.contains { !$0.properties.isWhitespace && !CharacterSet.punctuationCharacters.contains($0) }
    }

    /// `text` cut to at most `limit` Unicode scalars, ending in "…": at the last space when
    /// one is in the last fifth, else mid-word. Also what was cut off.
    static func cut(_ text: String, to limit: Int) -> (kept: String, cut: String) {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > limit, limit > 1 else { return (text, "") }
        var end = limit - 1
        if let space = scalars[(limit - 1 - limit / 5)..<(limit - 1)].lastIndex(where: { $0.properties.isWhitespace }) { end = space }
        var kept = String(String.UnicodeScalarView(scalars[..<end])).trimmed
        kept += "…"
        return (kept, String(String.UnicodeScalarView(scalars[end...])).trimmed)
    }
}

extension StringProtocol {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

extension JSONValue {
    /// What kind of value this is, for messages.
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .integer, .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// The value as short text for an omission: a text as it is, anything else as compact JSON;
    /// at most 80 characters, written no further than that, however large the value.
    var shortText: String {
        var text = ShortText()
        text.write(self)
        return text.result
    }
}

/// Compact JSON of a value, stopped once it is longer than 80 characters.
private struct ShortText {
    private var scalars = String.UnicodeScalarView()
    private var count = 0
    private static let limit = 80

    var result: String {
        count <= Self.limit ? String(scalars) : String(String.UnicodeScalarView(scalars.prefix(Self.limit - 1))) + "…"
    }

    mutating func write(_ value: JSONValue, quoted: Bool = false) {
        guard count <= Self.limit else { return }
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .integer(let number): append(String(number))
        case .number(let number): append(String(number))
        case .string(let string): append(quoted ? string.debugDescription : string)
        case .array(let items):
            append("[")
            for (index, item) in items.enumerated() {
                guard count <= Self.limit else { return }
                if index > 0 { append(",") }
                write(item, quoted: true)
            }
            append("]")
        case .object(let members):
            append("{")
            for (index, name) in members.keys.sorted().enumerated() {
                guard count <= Self.limit else { return }
                if index > 0 { append(",") }
                append(name.debugDescription + ":")
                write(members[name]!, quoted: true)
            }
            append("}")
        }
    }

    private mutating func append(_ text: String) {
        for scalar in text.unicodeScalars {
            guard count <= Self.limit else { return }
            scalars.append(scalar)
            count += 1
        }
    }
}
