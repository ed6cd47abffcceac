import RecipeJSON
import RecipeWire

// MARK: - Microdata and RDFa items of an HTML page
//
// Some pages carry their Recipe not as JSON-LD but in the markup itself: microdata
// (`itemscope itemtype="https://schema.org/Recipe"`, `itemprop="name"`) or RDFa
// (`typeof="Recipe"`, `property="name"`). This reads both into the nodes JSON-LD would
// have given (`{"@type": "Recipe", "name": …, "recipeIngredient": […]}`), so one reader
// (`RecipeNodeReader`) reads every recipe by the same rules.
//
// Not an HTML parser: one pass over the tags, keeping the open elements and the items
// and properties they start. A property's value is what HTML gives it (`content`, a URL
// attribute, `datetime`, else its text); `itemscope` or `typeof` makes it an item. A few
// start tags close an open element as HTML does (`<li>` an `<li>`). Linear: each element
// is pushed and popped once, the text cleaned once (`PropertyText`), and each byte scanned
// or copied is a step of the budget, so repeated nested text is refused, not read for minutes.

enum HTMLItems {
    /// Whether the page may hold items at all: a cheap look before the full read.
    static func mayHoldItems(_ page: [UInt8]) -> Bool {
        JSONLDScripts.find(page, "itemscope", from: 0) != nil || JSONLDScripts.find(page, "typeof", from: 0) != nil
    }

    /// The page's top-level items (those that are no other item's property), as JSON-LD nodes,
    /// in page order; counted against `budget` (one value per item and property value, a step
    /// per byte read and per byte of text copied into a value).
    static func items(in page: [UInt8], budget: inout LenientJSONReader.Budget) -> Result<[JSONValue], LenientJSONReader.Failure> {
        var reader = ItemReader(page: page, budget: budget)
        defer { budget = reader.budget }
        do {
            try reader.read()
        } catch {
            return .failure(error)
        }
        return .success(reader.topLevel.map { reader.node(of: $0) })
    }
}

private struct ItemReader: HTMLTagVisitor {
    struct Item {
        var types: [String]
        var id: String?
        var properties: [(name: String, value: PropertyValue)] = []
    }

    enum PropertyValue {
        case text(String)
        case item(Int)
    }

    struct OpenElement {
        var name: String
        /// The item this element starts, an index into `items`.
        var item: Int?
        /// The property whose value is this element's text: its names and the item it belongs to.
        var textProperty: (names: [String], owner: Int, start: Int)?
    }

    let page: [UInt8]
    var budget: LenientJSONReader.Budget
    var items: [Item] = []
    var topLevel: [Int] = []
    private var open: [OpenElement] = []
    /// How many elements of each name are open, so an end tag with none open is skipped at once.
    private var openCounts: [String: Int] = [:]
    /// The items of the open elements, innermost last.
    private var itemStack: [Int] = []
    /// The text of the page inside open text properties, line breaks for block elements.
    private var text = PropertyText()
    private var capturing = 0

    init(page: [UInt8], budget: LenientJSONReader.Budget) {
        self.page = page
        self.budget = budget
    }

    mutating func read() throws(LenientJSONReader.Failure) {
        try HTMLTags.scan(page, into: &self)
        while !open.isEmpty { try pop() }
    }

    mutating func step(_ count: Int) throws(LenientJSONReader.Failure) { try budget.step(count) }

    mutating func text(_ bytes: ArraySlice<UInt8>) throws(LenientJSONReader.Failure) {
        if capturing > 0 { text.append(bytes) }
    }

    /// Outside every item only a tag that starts one matters: its attributes are read then, or
    /// inside an item, and the rest of the page is only scanned.
    mutating func startTag(_ name: String, nameEnd: Int) throws(LenientJSONReader.Failure) -> Int {
        let tagEnd = HTMLTags.endOfTag(in: page, from: nameEnd)
        guard !itemStack.isEmpty || mayStartItem(page[nameEnd..<tagEnd]) else { return tagEnd }
        let (attributes, contentStart) = JSONLDScripts.readAttributes(page, from: nameEnd)
        try startTag(name, attributes)
        return contentStart
    }

    /// A title's or a text area's text is text; a script's or a style's is not.
    mutating func rawText(_ name: String, _ content: ArraySlice<UInt8>) throws(LenientJSONReader.Failure) {
        if capturing > 0, name == "textarea" || name == "title" { text.append(content) }
    }

    /// Whether a tag's attributes hold `itemscope` or `typeof`, ignoring case.
    private func mayStartItem(_ attributes: ArraySlice<UInt8>) -> Bool {
        func holds(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard attributes.count >= count else { return false }
            let first = word.utf8Start[0]
            for index in attributes.startIndex...(attributes.endIndex - count)
            where JSONLDScripts.lowercased(attributes[index]) == first && JSONLDScripts.hasPrefix(page, at: index, word) {
                return true
            }
            return false
        }
        return holds("itemscope") || holds("typeof")
    }

    // MARK: - Tags

    private mutating func startTag(_ name: String, _ attributes: [String: String]) throws(LenientJSONReader.Failure) {
        if let top = open.last?.name, HTMLTags.closes(name, open: top) { try pop() }
        if capturing > 0, HTMLText.lineBreakingElements.contains(name) { text.lineBreak() }
        let startsItem = attributes["itemscope"] != nil || attributes["typeof"] != nil
        let properties = Self.propertyNames(attributes["itemprop"] ?? attributes["property"] ?? "")
        let owner = itemStack.last
        var element = OpenElement(name: name)
        if startsItem {
            try count()
            guard itemStack.count < budget.depth else { throw .overBudget("items nested deeper than \(budget.depth) levels") }
            let types = HTMLText.collapsingWhitespace(attributes["itemtype"] ?? attributes["typeof"] ?? "").split(separator: " ").map(String.init)
            items.append(Item(types: types, id: attributes["itemid"] ?? attributes["resource"] ?? attributes["about"]))
            let item = items.count - 1
            if let owner, !properties.isEmpty {
                for property in properties { items[owner].properties.append((property, .item(item))) }
            } else {
                topLevel.append(item)
            }
            element.item = item
        } else if let owner, !properties.isEmpty {
            if let value = Self.attributeValue(of: name, attributes) {
                try count()
                for property in properties { items[owner].properties.append((property, .text(value))) }
            } else if !HTMLTags.voidElements.contains(name) {
                element.textProperty = (properties, owner, text.end)
                capturing += 1
            }
        }
        // Elements are kept only inside an item: only an item's end, or its properties', matters.
        guard !HTMLTags.voidElements.contains(name), element.item != nil || !itemStack.isEmpty else { return }
        open.append(element)
        openCounts[name, default: 0] += 1
        if let item = element.item { itemStack.append(item) }
    }

    /// Closes the innermost open element of that name and every element opened inside it.
    mutating func endTag(_ name: String) throws(LenientJSONReader.Failure) {
        guard !open.isEmpty else { return }
        if capturing > 0, HTMLText.lineBreakingElements.contains(name) { text.lineBreak() }
        guard openCounts[name, default: 0] > 0 else { return }
        while let top = open.last {
            try pop()
            if top.name == name { return }
        }
    }

    private mutating func pop() throws(LenientJSONReader.Failure) {
        guard let element = open.popLast() else { return }
        openCounts[element.name, default: 1] -= 1
        if element.item != nil { itemStack.removeLast() }
        guard let (names, owner, start) = element.textProperty else { return }
        capturing -= 1
        try budget.step(min(text.length(from: start), SchemaOrgImport.maxPropertyBytes) * SchemaOrgImport.stepsPerValueByte)
        let value = text.value(from: start, maxBytes: SchemaOrgImport.maxPropertyBytes)
        if capturing == 0 { text.removeAll() }
        guard !value.isEmpty else { return }
        try count()
        for name in names { items[owner].properties.append((name, .text(value))) }
    }

    private mutating func count() throws(LenientJSONReader.Failure) {
        try budget.take()
    }

    // MARK: - Values

    /// The value a property takes from its element's attributes, as the HTML specification
    /// (and RDFa) give it: `content` on any element, else the URL of a link or media element,
    /// the `datetime` of a `<time>`, the `value` of `<data>`; nil when it is the element's text.
    private static func attributeValue(of element: String, _ attributes: [String: String]) -> String? {
        if let content = attributes["content"] { return content }
        switch element {
        case "a", "area", "link": return attributes["href"]
        case "img", "audio", "video", "source", "embed", "iframe", "track": return attributes["src"]
        case "object": return attributes["data"]
        case "data", "meter": return attributes["value"]
        case "time": return attributes["datetime"]
        default: return attributes["resource"]
        }
    }

    /// `itemprop="name description"` or `property="schema:name"`: the schema.org names, other
    /// vocabularies (`og:title`) left out.
    private static func propertyNames(_ attribute: String) -> [String] {
        attribute.split(separator: " ").compactMap { word in
            // Most are plain names: no look for a prefix then.
            guard word.contains(":") || word.contains("/") else { return String(word) }
            let word = String(word)
            let lower = word.lowercased()
            if lower.hasPrefix("schema:") { return String(word.dropFirst("schema:".count)) }
            if lower.contains("schema.org/"), let slash = word.lastIndex(of: "/") { return String(word[word.index(after: slash)...]) }
            return word.contains(":") ? nil : word
        }
    }

    // MARK: - Nodes

    /// An item as a JSON-LD node: `@type`, `@id`, and each property's value, a list when it has several.
    func node(of index: Int) -> JSONValue {
        let item = items[index]
        var node: [String: JSONValue] = [:]
        if !item.types.isEmpty { node["@type"] = item.types.count == 1 ? .string(item.types[0]) : .array(item.types.map(JSONValue.string)) }
        if let id = item.id { node["@id"] = .string(id) }
        var values: [String: [JSONValue]] = [:]
        var order: [String] = []
        for (name, value) in item.properties {
            if values[name] == nil { order.append(name) }
            switch value {
            case .text(let text): values[name, default: []].append(.string(text))
            case .item(let nested): values[name, default: []].append(self.node(of: nested))
            }
        }
        for name in order where node[name] == nil {
            let list = values[name]!
            node[name] = list.count == 1 ? list[0] : .array(list)
        }
        return .object(node)
    }
}
