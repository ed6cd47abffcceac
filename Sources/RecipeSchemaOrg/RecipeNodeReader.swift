import Foundation
import RecipeDomain
import RecipeWire

// MARK: - Reading one Recipe node

/// Reads the members of one `Recipe` node into a `RecipeDocument`, collecting what it leaves out.
struct RecipeNodeReader {
    let nodes: NodeIndex
    private(set) var omissions: [ImportOmission] = []

    init(nodes: NodeIndex) {
        self.nodes = nodes
    }

    mutating func document(from node: [String: JSONValue], at path: JSONPath) throws(SchemaOrgImportError) -> RecipeDocument {
        var document = RecipeDocument(name: try name(of: node, at: path))
        document.description = try description(of: node, at: path)
        document.image = image(of: node, at: path)
        (document.recipeYield, document.servings) = try yield(of: node, at: path)
        document.prepTime = duration(node["prepTime"], at: path.key("prepTime"))
        document.cookTime = duration(node["cookTime"], at: path.key("cookTime"))
        document.totalTime = duration(node["totalTime"], at: path.key("totalTime"))
        document.sourceUrl = sourceURL(of: node, at: path)
        document.tags = try tags(of: node, at: path)
        document.ingredients = try ingredients(of: node, at: path)
        document.instructions = try instructions(of: node, at: path)
        return document
    }

    // MARK: - Name and description

    /// `name`, else `headline` (a Recipe that is also an article); the first text of a list.
    private func name(of node: [String: JSONValue], at path: JSONPath) throws(SchemaOrgImportError) -> String {
        let member = node["name"] != nil ? "name" : "headline"
        let place = path.key(member)
        var value = node[member]
        if case .array(let items)? = value { value = items.first }
        let name: String
        switch value {
        case nil, .null?: throw .missingName(path: path.description)
        case .string(let text)?: name = TextCleaning.line(text)
        case let other?: throw .wrongType(path: place.description, expected: "text", found: other.kindDescription)
        }
        guard !name.isEmpty else { throw .missingName(path: place.description) }
        try TextCleaning.check(name, at: place, what: "the name", limit: RecipeLimits.maxTitleLength)
        return name
    }

    /// `description` as text; paragraphs as lines. As long as a step may be
    /// (`RecipeLimits.maxDescriptionLength`), until the content gives descriptions a bound of their own.
    private mutating func description(of node: [String: JSONValue], at path: JSONPath) throws(SchemaOrgImportError) -> String? {
        let place = path.key("description")
        switch node["description"] {
        case nil, .null?: return nil
        case .string(let text)?:
            let description = TextCleaning.paragraphs(text)
            guard !description.isEmpty else { return nil }
            try TextCleaning.check(description, at: place, what: "the description", limit: RecipeLimits.maxDescriptionLength)
            return description
        case let other?:
            omit(other, at: place, because: "a description is text")
            return nil
        }
    }

    // MARK: - Image and source

    /// The first usable `image`: a URL, an `ImageObject` (`url`, else `contentUrl`), a
    /// reference to one by `@id`, or a list of those.
    private mutating func image(of node: [String: JSONValue], at path: JSONPath) -> String? {
        guard let value = node["image"], value != .null else { return nil }
        var candidates: [(JSONValue, JSONPath)] = []
        func gather(_ value: JSONValue, _ place: JSONPath) {
            switch value {
            case .array(let items):
                for (index, item) in items.enumerated() { gather(item, place.index(index)) }
            case .object(let members):
                let image = nodes.resolved(members)
                for member in ["url", "contentUrl"] {
                    if let url = image[member] { candidates.append((url, place.key(member))) }
                }
            default:
                candidates.append((value, place))
            }
        }
        gather(value, path.key("image"))
        for (candidate, _) in candidates {
            if case .string(let text) = candidate, case let url = HTMLText.decodingEntities(text.trimmed), WebURL.isAcceptable(url) {
                return url
            }
        }
        omit(value, at: path.key("image"), because: "no absolute http(s) URL of at most \(RecipeLimits.maxImageURLLength) characters in it")
        return nil
    }

    /// `url`, else `mainEntityOfPage` (a URL, or a WebPage node with `@id` or `url`).
    private mutating func sourceURL(of node: [String: JSONValue], at path: JSONPath) -> String? {
        for member in ["url", "mainEntityOfPage"] {
            guard let value = node[member], value != .null else { continue }
            var texts: [String] = []
            switch value {
            case .string(let text): texts = [text]
            case .object(let page): texts = ["url", "@id"].compactMap { if case .string(let text)? = page[$0] { text } else { nil } }
            default: break
            }
            if let url = texts.map({ HTMLText.decodingEntities($0.trimmed) }).first(where: WebURL.isAcceptable) { return url }
            // mainEntityOfPage is often `true` or a bare "#recipe" id: nothing to report when url was usable.
            omit(value, at: path.key(member), because: "not an absolute http(s) URL")
        }
        return nil
    }

    // MARK: - Yield

    /// `recipeYield` as text, number or list: the first plain number within
    /// `RecipeLimits.servings` is the servings, the first other entry the yield text.
    private mutating func yield(of node: [String: JSONValue], at path: JSONPath) throws(SchemaOrgImportError) -> (String?, Int?) {
        guard let value = node["recipeYield"] else { return (nil, nil) }
        let place = path.key("recipeYield")
        let entries: [(JSONValue, JSONPath)]
        if case .array(let items) = value {
            entries = items.enumerated().map { ($1, place.index($0)) }
        } else {
            entries = [(value, place)]
        }
        var text: String?
        var servings: Int?
        for (entry, entryPlace) in entries {
            let written: String
            switch entry {
            case .null: continue
            case .integer(let number): written = String(number)
            case .number(let number): written = number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
            case .string(let string): written = TextCleaning.line(string)
            default:
                omit(entry, at: entryPlace, because: "a yield is text or a number")
                continue
            }
            if let number = Int(written), RecipeLimits.servings.contains(number) {
                if servings == nil { servings = number }
            } else if text == nil, !written.isEmpty {
                try TextCleaning.check(written, at: entryPlace, what: "the yield", limit: RecipeLimits.maxTitleLength)
                text = written
            }
        }
        return (text, servings)
    }

    // MARK: - Durations

    private mutating func duration(_ value: JSONValue?, at place: JSONPath) -> String? {
        guard let value, value != .null else { return nil }
        if case .string(let text) = value, let duration = ISO8601Duration.normalized(text) { return duration }
        omit(value, at: place, because: "not an ISO 8601 duration such as PT1H30M")
        return nil
    }

    // MARK: - Tags

    /// Tag names from `keywords`, `recipeCategory` and `recipeCuisine` (texts, comma-separated
    /// texts, lists of them, or `DefinedTerm`s with a `name`), first seen first, no two the same.
    private mutating func tags(of node: [String: JSONValue], at path: JSONPath) throws(SchemaOrgImportError) -> [String] {
        var names: [String] = []
        for member in ["keywords", "recipeCategory", "recipeCuisine"] {
            guard let value = node[member] else { continue }
            let place = path.key(member)
            let entries: [(JSONValue, JSONPath)]
            if case .array(let items) = value {
                entries = items.enumerated().map { ($1, place.index($0)) }
            } else {
                entries = [(value, place)]
            }
            for (entry, entryPlace) in entries {
                var text: String
                switch entry {
                case .null: continue
                case .string(let string): text = string
                case .object(let term):
                    guard case .string(let name)? = nodes.resolved(term)["name"] else {
                        omit(entry, at: entryPlace, because: "a keyword is text or a DefinedTerm with a name")
                        continue
                    }
                    text = name
                default:
                    omit(entry, at: entryPlace, because: "a keyword is text")
                    continue
                }
                text = TextCleaning.line(text)
                for keyword in text.split(separator: ",") {
                    let keyword = keyword.trimmed
                    guard !keyword.isEmpty else { continue }
                    guard let name = KeywordTags.tagName(for: keyword) else {
                        omit(.string(keyword), at: entryPlace,
                             because: "makes no tag name (a letter first, then letters, digits, \"-\" or \"_\", at most \(RecipeLimits.maxTagNameLength))")
                        continue
                    }
                    if !names.contains(name) { names.append(name) }
                }
            }
        }
        guard names.count <= RecipeLimits.maxTags else {
            throw .tooMany(path: path.description, what: "different tags from keywords, recipeCategory and recipeCuisine",
                           count: names.count, limit: RecipeLimits.maxTags)
        }
        return names
    }

    // MARK: - Ingredients

    /// `recipeIngredient`, else the older `ingredients`: texts (a text with several lines is
    /// several ingredients). A line ending in ":" with no quantity ("For the sauce:") is the
    /// heading of the lines after it.
    private func ingredients(of node: [String: JSONValue], at path: JSONPath) throws(SchemaOrgImportError) -> [DocumentIngredient] {
        let member = node["recipeIngredient"] != nil ? "recipeIngredient" : "ingredients"
        let place = path.key(member)
        let entries: [(JSONValue, JSONPath)]
        switch node[member] {
        case nil, .null?: return []
        case .array(let items)?: entries = items.enumerated().map { ($1, place.index($0)) }
        case let value?: entries = [(value, place)]
        }
        var lines: [DocumentIngredient] = []
        var section: String?
        // A heading counts only once a line stands under it, so a trailing heading is dropped.
        for (entry, entryPlace) in entries {
            let text: String
            switch entry {
            case .null: continue
            case .string(let string): text = string
            case let other: throw .wrongType(path: entryPlace.description, expected: "an ingredient line as text", found: other.kindDescription)
            }
            for line in TextCleaning.paragraphs(text).split(whereSeparator: \.isNewline) {
                let line = TextCleaning.line(String(line))
                if let heading = Self.heading(line) {
                    try TextCleaning.check(heading, at: entryPlace, what: "the ingredient heading", limit: RecipeLimits.maxTitleLength)
                    section = heading
                    continue
                }
                guard !line.isEmpty else { continue }
                let parsed = IngredientLineParser.parse(line)
                try TextCleaning.check(parsed.name, at: entryPlace, what: "the ingredient name", limit: RecipeLimits.maxIngredientNameLength)
                lines.append(DocumentIngredient(text: line, section: section))
            }
        }
        guard lines.count <= RecipeLimits.maxIngredients else {
            throw .tooMany(path: place.description, what: "ingredients", count: lines.count, limit: RecipeLimits.maxIngredients)
        }
        return lines
    }

    /// The heading a line is, without its one final ":", or nil when it is an ingredient.
    static func heading(_ line: String) -> String? {
        guard line.hasSuffix(":"), IngredientLineParser.parse(line).amount == nil else { return nil }
        let heading = String(line.dropLast()).trimmed
        return heading.isEmpty ? nil : heading
    }

    // MARK: - Instructions

    /// `recipeInstructions`: a text (one step per line), a list of texts, `HowToStep`s (their
    /// `text`, else their `name`), `HowToSection`s (`name` the heading of the steps in their
    /// `itemListElement`), or lists of these, nested as deep as the JSON goes.
    private func instructions(of node: [String: JSONValue], at path: JSONPath) throws(SchemaOrgImportError) -> [DocumentStep] {
        guard let value = node["recipeInstructions"] else { return [] }
        let place = path.key("recipeInstructions")
        var steps: [DocumentStep] = []
        try collectSteps(from: value, at: place, section: nil, into: &steps)
        guard steps.count <= RecipeLimits.maxInstructions else {
            throw .tooMany(path: place.description, what: "steps", count: steps.count, limit: RecipeLimits.maxInstructions)
        }
        return steps
    }

    private func collectSteps(from value: JSONValue, at place: JSONPath, section: String?,
                              into steps: inout [DocumentStep]) throws(SchemaOrgImportError) {
        switch value {
        case .null:
            return
        case .string(let text):
            for line in TextCleaning.paragraphs(text).split(whereSeparator: \.isNewline) {
                try appendStep(String(line).trimmed, at: place, section: section, to: &steps)
            }
        case .array(let items):
            for (index, item) in items.enumerated() {
                try collectSteps(from: item, at: place.index(index), section: section, into: &steps)
            }
        case .object(let members):
            let step = nodes.resolved(members)
            let text: String? = if case .string(let text)? = step["text"] { text } else { nil }
            let name: String? = if case .string(let name)? = step["name"] { name } else { nil }
            let isSection = NodeIndex.types(of: step).contains("howtosection")
            if let elements = step["itemListElement"], isSection || text == nil {
                // A section's name heads its steps; a step or list made of parts keeps the heading it is under.
                var heading = section
                if isSection, let name, case let cleaned = TextCleaning.line(name), !cleaned.isEmpty {
                    try TextCleaning.check(cleaned, at: place.key("name"), what: "the section heading", limit: RecipeLimits.maxTitleLength)
                    heading = cleaned
                }
                try collectSteps(from: elements, at: place.key("itemListElement"), section: heading, into: &steps)
            } else if let text {
                try appendStep(TextCleaning.paragraphs(text), at: place.key("text"), section: section, to: &steps)
            } else if let name {
                try appendStep(TextCleaning.paragraphs(name), at: place.key("name"), section: section, to: &steps)
            } else {
                throw .wrongType(path: place.description, expected: "a step with text or name, or a section with itemListElement",
                                 found: "an object with neither")
            }
        case let other:
            throw .wrongType(path: place.description, expected: "a step as text, HowToStep or HowToSection", found: other.kindDescription)
        }
    }

    private func appendStep(_ text: String, at place: JSONPath, section: String?,
                            to steps: inout [DocumentStep]) throws(SchemaOrgImportError) {
        guard !text.isEmpty else { return }
        try TextCleaning.check(text, at: place, what: "the step", limit: RecipeLimits.maxDescriptionLength)
        steps.append(DocumentStep(text: text, section: section))
    }

    // MARK: - Omissions

    private mutating func omit(_ value: JSONValue, at place: JSONPath, because reason: String) {
        omissions.append(ImportOmission(path: place.description, value: value.shortText, reason: reason))
    }
}

// MARK: - Text

enum TextCleaning {
    /// A text for one line (a name, a heading, an ingredient): HTML taken out when it holds
    /// some, every run of whitespace one space, none at the ends.
    static func line(_ text: String) -> String {
        HTMLText.collapsingWhitespace(HTMLText.looksLikeHTML(text) ? HTMLText.plainText(fromHTML: text) : text)
    }

    /// A text that may have several lines (a description, a step): HTML taken out when it
    /// holds some (block ends become line breaks); plain text only trimmed.
    static func paragraphs(_ text: String) -> String {
        HTMLText.looksLikeHTML(text) ? HTMLText.plainText(fromHTML: text) : text.trimmed
    }

    static func check(_ text: String, at place: JSONPath, what: String, limit: Int) throws(SchemaOrgImportError) {
        let length = text.unicodeScalars.count
        guard length <= limit else { throw .tooLong(path: place.description, what: what, length: length, limit: limit) }
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

    /// The value as short text for an omission.
    var shortText: String {
        let text: String
        switch self {
        case .string(let string): text = string
        default:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            text = (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? kindDescription
        }
        return text.unicodeScalars.count <= 80 ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(79))) + "…"
    }
}
