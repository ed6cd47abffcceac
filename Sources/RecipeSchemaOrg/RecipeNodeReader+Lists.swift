import RecipeDomain
import RecipeJSON
import RecipeWire

// MARK: - Tags, ingredients and steps

extension RecipeNodeReader {
    // MARK: - Tags

    /// Tag names from `keywords`, `recipeCategory` and `recipeCuisine` (texts, comma-separated
    /// texts, lists of them, or `DefinedTerm`s with a `name`), first seen first, no two the
    /// same; the first `RecipeLimits.maxTags` are kept.
    mutating func tags(of node: NodeIndex.Node, at path: JSONPath) throws(SchemaOrgImportError) -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        var over: [String] = []
        for member in ["keywords", "recipeCategory", "recipeCuisine"] {
            guard let (name, value) = node.member(member) else { continue }
            let place = path.key(name)
            for (entry, entryPlace) in try flattened(value, at: place) {
                var text: String
                switch entry {
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
                    guard let tag = KeywordTags.tagName(for: keyword), case .success = Tag.parseSingle(from: "@" + tag) else {
                        omit(.string(keyword), at: entryPlace,
                             because: "makes no tag name (a letter first, then letters, digits, \"-\" or \"_\", at most \(RecipeLimits.maxTagNameLength))")
                        continue
                    }
                    guard seen.insert(tag).inserted else { continue }
                    if names.count < RecipeLimits.maxTags { names.append(tag) } else { over.append(tag) }
                }
            }
        }
        if !over.isEmpty {
            omit(.string(over.joined(separator: ", ")), at: path,
                 because: "\(over.count) more tags from keywords, recipeCategory and recipeCuisine: a recipe holds at most \(RecipeLimits.maxTags)")
        }
        return names
    }

    // MARK: - Ingredients

    /// `recipeIngredient`, else the older `ingredients`. One text stands for all the lines (a line
    /// each); a list holds one line per entry (its line breaks are spaces), lists in it are read
    /// in order. A line ending in ":" with no quantity ("For the sauce:") heads the lines after it.
    /// Each line is kept as the domain's `FieldRules.ingredientLine` takes it; the first
    /// `RecipeLimits.maxIngredients` lines are kept.
    mutating func ingredients(of node: NodeIndex.Node, at path: JSONPath) throws(SchemaOrgImportError) -> [DocumentIngredient] {
        // `recipeIngredients`, plural, as some pages misspell it, is read as well.
        guard let (member, value) = node.member("recipeIngredient") ?? node.member("recipeIngredients") ?? node.member("ingredients") else { return [] }
        let place = path.key(member)
        // Each line with its place, in document order; nil for an entry that is no line.
        var written: [(line: String?, entry: JSONValue, place: JSONPath)] = []
        if case .string(let text) = value {
            written = TextCleaning.lines(text).map { ($0, value, place) }
        } else {
            for (entry, entryPlace) in try flattened(value, at: place) {
                switch entry {
                case .string(let text):
                    // Markup with block ends is several lines; a raw line break inside one entry is a space.
                    let lines = HTMLText.looksLikeHTML(text) ? TextCleaning.lines(text) : [HTMLText.collapsingWhitespace(text)]
                    written += lines.map { ($0, entry, entryPlace) }
                case .object(let item):
                    // A HowToSupply or PropertyValue: its text, else its name.
                    let supply = nodes.resolved(item)
                    let line: String? = if case .string(let text)? = (supply.member("text") ?? supply.member("name"))?.value {
                        TextCleaning.line(text)
                    } else {
                        nil
                    }
                    written.append((line, entry, entryPlace))
                default:
                    written.append((nil, entry, entryPlace))
                }
            }
        }
        var lines: [DocumentIngredient] = []
        var section: String?
        var over = 0
        // A heading counts only once a line stands under it, so a trailing heading is dropped.
        for (candidate, entry, linePlace) in written {
            guard let written = candidate else {
                omit(entry, at: linePlace, because: "an ingredient is a line of text")
                continue
            }
            guard TextCleaning.saysSomething(written) else { continue }
            let line = Self.readable(written)
            if let heading = Self.heading(line) {
                section = fitted(heading, at: linePlace, what: "a heading", limit: RecipeLimits.maxSectionLength) {
                    FieldRules.optionalText($0, "Section", limit: RecipeLimits.maxSectionLength)
                }
                continue
            }
            guard lines.count < RecipeLimits.maxIngredients else {
                over += 1
                continue
            }
            if let ingredient = acceptedLine(line, section: section, at: linePlace) { lines.append(ingredient) }
        }
        if over > 0 {
            omit(.string("\(over) lines"), at: place, because: "a recipe holds at most \(RecipeLimits.maxIngredients) ingredients; the first are kept")
        }
        return lines
    }

    /// The line as the fold will take it (`FieldRules.ingredientLine` on what the parser reads):
    /// as written, or cut at its end until its parts fit (a name, a note or the line over its
    /// length), or nil, left out, when no cut helps (an amount past the largest).
    private mutating func acceptedLine(_ text: String, section: String?, at place: JSONPath) -> DocumentIngredient? {
        var line = DocumentIngredient(text: text, section: section)
        var rejection = FieldRules.ingredientLine(line.ingredientLine)
        var cuts = 0
        while rejection != nil, cuts < 3 {
            let parsed = line.parsed
            let over = max(line.text.unicodeScalars.count - RecipeLimits.maxIngredientTextLength,
                           parsed.name.unicodeScalars.count - RecipeLimits.maxIngredientNameLength,
                           (parsed.note?.unicodeScalars.count ?? 0) - RecipeLimits.maxIngredientNoteLength)
            guard over > 0 else { break }
            line.text = TextCleaning.cut(line.text, to: line.text.unicodeScalars.count - over - 1).kept
            rejection = FieldRules.ingredientLine(line.ingredientLine)
            cuts += 1
        }
        if let rejection {
            omit(.string(text), at: place, because: rejection.message)
            return nil
        }
        if cuts > 0 {
            omit(.string(text), at: place,
                 because: "cut to \(line.text.unicodeScalars.count) characters, so that its name and note fit the recipe's limits")
        }
        return line
    }

    /// The most characters of a line parsed: an ingredient keeps at most
    /// `RecipeLimits.maxIngredientTextLength`, so a longer line is cut to this first, and a page's
    /// lines cost the parser what they can keep, not what they hold.
    static let longestLineParsed = 4 * RecipeLimits.maxIngredientTextLength

    /// `line`, or its first `longestLineParsed` characters (a final ":" kept: it makes a heading).
    static func readable(_ line: String) -> String {
        guard line.utf8.count > longestLineParsed, line.unicodeScalars.count > longestLineParsed else { return line }
        guard line.hasSuffix(":") else { return String(String.UnicodeScalarView(line.unicodeScalars.prefix(longestLineParsed))) }
        return String(String.UnicodeScalarView(line.unicodeScalars.prefix(longestLineParsed - 1))) + ":"
    }

    /// The heading a line is, without its one final ":", or nil when it is an ingredient.
    static func heading(_ line: String) -> String? {
        guard line.hasSuffix(":"), IngredientLineParser.parse(line).amount == nil else { return nil }
        let heading = String(line.dropLast()).trimmed
        return heading.isEmpty ? nil : heading
    }

    // MARK: - Instructions

    /// `recipeInstructions` (in any case): one text stands for all the steps (a step per line or
    /// paragraph); a list holds steps: texts (one step each, its lines kept), `HowToStep`s
    /// (their `name`, when it says more than the start of the text, then their `text`),
    /// `HowToSection`s (`name` the heading of the steps in their `itemListElement`),
    /// `ListItem`s (their `item`), or lists of these. What says nothing (",") is no step;
    /// the first `RecipeLimits.maxInstructions` steps are kept. Consecutive steps outside any
    /// section that share a `name` ("Make the sauce", twice) are a section of that heading.
    mutating func instructions(of node: NodeIndex.Node, at path: JSONPath) throws(SchemaOrgImportError) -> [DocumentStep] {
        guard let (member, value) = node.member("recipeInstructions") ?? node.member("instructions") else { return [] }
        let place = path.key(member)
        var steps: [DocumentStep] = []
        var over = 0
        stepTitles = []
        defer { stepTitles = [] }
        if case .string(let text) = value {
            for line in TextCleaning.lines(text) { appendStep(line, at: place, section: nil, to: &steps, over: &over) }
        } else {
            var following: [String] = []
            try collectSteps(from: value, at: place, section: nil, into: &steps, over: &over, following: &following)
        }
        if over > 0 {
            omit(.string("\(over) steps"), at: place, because: "a recipe holds at most \(RecipeLimits.maxInstructions) steps; the first are kept")
        }
        return Self.sectionsOfSharedTitles(steps, titles: stepTitles)
    }

    /// Runs of two or more steps outside any section that carry the same title: the title becomes
    /// their section's heading instead of the first line of each.
    static func sectionsOfSharedTitles(_ steps: [DocumentStep], titles: [String?]) -> [DocumentStep] {
        var steps = steps
        var start = 0
        while start < steps.count {
            var end = start + 1
            while end < steps.count, titles[end] != nil, titles[end] == titles[start], steps[end].section == steps[start].section { end += 1 }
            if end - start > 1, let title = titles[start], steps[start].section == nil,
               FieldRules.optionalText(title, "Section", limit: RecipeLimits.maxSectionLength) == nil {
                for index in start..<end where steps[index].text.hasPrefix(title + "\n") {
                    steps[index] = DocumentStep(text: String(steps[index].text.dropFirst(title.count + 1)), section: title)
                }
            }
            start = end
        }
        return steps
    }

    /// `following`: the `@id`s of the nodes being read, innermost last, so a node that refers
    /// back to itself is left out rather than read forever, and a chain of references no deeper
    /// than the JSON itself may nest.
    private mutating func collectSteps(from value: JSONValue, at place: JSONPath, section: String?, into steps: inout [DocumentStep],
                                       over: inout Int, following: inout [String]) throws(SchemaOrgImportError) {
        try visit(place)
        switch value {
        case .null:
            return
        case .string(let text):
            appendStep(TextCleaning.paragraphs(text), at: place, section: section, to: &steps, over: &over)
        case .array(let items):
            for (index, item) in items.enumerated() {
                try collectSteps(from: item, at: place.index(index), section: section, into: &steps, over: &over, following: &following)
            }
        case .object(let members):
            var isReference = false
            if members.count == 1, case .string(let id)? = members["@id"] {
                guard !following.contains(id) else {
                    omit(value, at: place, because: "it refers to a step or section that holds it")
                    return
                }
                guard following.count < SchemaOrgImport.maxDepth else {
                    omit(value, at: place, because: "references followed deeper than \(SchemaOrgImport.maxDepth) levels")
                    return
                }
                following.append(id)
                isReference = true
            }
            defer { if isReference { following.removeLast() } }
            let step = nodes.resolved(members)
            let text: String? = if case .string(let text)? = step.member("text")?.value { text } else { nil }
            let name: String? = if case .string(let name)? = step.member("name")?.value { name } else { nil }
            let isSection = NodeIndex.types(of: step).contains("howtosection")
            if let (member, elements) = step.member("itemListElement"), isSection || text == nil {
                // A section's name heads its steps; a step or list made of parts keeps the heading it is under.
                var heading = section
                if isSection, let name, case let cleaned = TextCleaning.line(name), !cleaned.isEmpty {
                    heading = fitted(cleaned, at: place.key("name"), what: "a heading", limit: RecipeLimits.maxSectionLength) {
                        FieldRules.optionalText($0, "Section", limit: RecipeLimits.maxSectionLength)
                    }
                }
                try collectSteps(from: elements, at: place.key(member), section: heading, into: &steps, over: &over, following: &following)
            } else if let text {
                let body = TextCleaning.paragraphs(text)
                let title = name.map(TextCleaning.line)
                let stepText = Self.stepText(name: title, body: body)
                appendStep(stepText, at: place.key("text"), section: section, to: &steps, over: &over, title: stepText == body ? nil : title)
            } else if let name {
                appendStep(TextCleaning.paragraphs(name), at: place.key("name"), section: section, to: &steps, over: &over)
            } else if let (member, item) = step.member("item") {
                // A ListItem holding its step.
                try collectSteps(from: item, at: place.key(member), section: section, into: &steps, over: &over, following: &following)
            } else {
                omit(value, at: place, because: "a step has a text or a name, a section an itemListElement")
            }
        case let other:
            omit(other, at: place, because: "a step is text, a HowToStep or a HowToSection")
        }
    }

    /// A `HowToStep`'s text, after its name on a line of its own when the name says something
    /// the text does not start with (pages that give each step a short title). A name that
    /// only numbers the step ("Step 2") or repeats the text's start is not kept.
    static func stepText(name: String?, body: String) -> String {
        guard let name, !name.isEmpty, !body.isEmpty else { return body }
        let title = name.trimmingCharacters(in: .punctuationCharacters.union(.whitespaces)).lowercased()
        if title.isEmpty || body.lowercased().hasPrefix(title) { return body }
        let words = title.split(separator: " ")
        if words.count <= 2, words.first == "step", words.dropFirst().allSatisfy({ $0.allSatisfy(\.isNumber) }) { return body }
        return name + "\n" + body
    }

    private mutating func appendStep(_ text: String, at place: JSONPath, section: String?, to steps: inout [DocumentStep], over: inout Int,
                                     title: String? = nil) {
        guard TextCleaning.saysSomething(text) else { return }
        guard steps.count < RecipeLimits.maxInstructions else {
            over += 1
            return
        }
        let step = fitted(text, at: place, what: "a step", limit: RecipeLimits.maxDescriptionLength) { FieldRules.description($0) }
        steps.append(DocumentStep(text: step, section: section))
        stepTitles.append(title)
    }

    // MARK: - Lists

    /// The entries of a value that may be one entry or a list of them, lists in lists read
    /// in order (`[["1 egg"], "2 cups flour"]`), nulls skipped.
    mutating func flattened(_ value: JSONValue, at place: JSONPath) throws(SchemaOrgImportError) -> [(JSONValue, JSONPath)] {
        var entries: [(JSONValue, JSONPath)] = []
        var pending: [(JSONValue, JSONPath)] = [(value, place)]
        while let (next, nextPlace) = pending.popLast() {
            try visit(nextPlace)
            switch next {
            case .null: continue
            case .array(let items): pending += items.enumerated().reversed().map { ($1, nextPlace.index($0)) }
            default: entries.append((next, nextPlace))
            }
        }
        return entries
    }
}
