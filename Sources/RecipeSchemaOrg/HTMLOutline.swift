// MARK: - The elements of an HTML page and where their text lies

/// A page's elements in document order, each with its name, class and id, the elements inside
/// it (`inside`), and the span of the page's text it holds, for reading a recipe from the
/// markup of the page itself (`PageMarkup`) when it publishes no structured data.
///
/// Not an HTML parser: one pass over the tags (`HTMLTags`, as `HTMLItems` reads them: end tags
/// close what they close; `<li>` closes an open `<li>`, a block an open `<p>`; script and style
/// hold no text). The page's text is gathered once, into one buffer, entities decoded and block
/// elements as line breaks; an element holds a span of it, so reading the text of nested
/// elements copies only what is asked for, and each copy is counted against the budget.
struct HTMLOutline {
    struct Element {
        /// The tag name, in lower case.
        var name: String
        /// The `class` attribute's words.
        var classes: [Substring]
        var id: String?
        /// The element it is in, nil at the top.
        var parent: Int?
        /// An `<input type="checkbox">`: pages list ingredients as rows to tick.
        var isCheckbox = false
        /// The elements inside this one: the indices after it, up to this.
        var end: Int
        /// Its span of `text`.
        var textStart: Int
        var textEnd: Int

        func hasClass(_ name: String) -> Bool { classes.contains { $0 == name } }
        func hasClass(prefix: String) -> Bool { classes.contains { $0.hasPrefix(prefix) } }
        var isHeading: Bool { name.count == 2 && name.first == "h" && ("1"..."6").contains(name.last!) }
    }

    private(set) var elements: [Element] = []
    /// The page's text: entities decoded, its own line breaks as spaces, block elements as line breaks.
    private var text: [UInt8] = []
    /// The `<title>` element's text.
    private(set) var title: String?

    /// Reads the page, one value of the budget per element and one step per byte.
    init(page: [UInt8], budget: inout LenientJSONReader.Budget) throws(LenientJSONReader.Failure) {
        var reader = OutlineReader(page: page, budget: budget)
        try reader.read()
        budget = reader.budget
        elements = reader.elements
        text = reader.text
        title = reader.title
    }

    /// The indices of the elements inside `index`, in document order.
    func inside(_ index: Int) -> Range<Int> { (index + 1)..<elements[index].end }

    /// The text of an element: each line's spaces made single, blank lines dropped, cut at
    /// `SchemaOrgImport.maxPropertyBytes`; each byte copied counted as `SchemaOrgImport.stepsPerValueByte`
    /// steps (a value is read again later), or as one when `looking` (a heading's text compared with words).
    func text(of index: Int, looking: Bool = false, budget: inout LenientJSONReader.Budget) throws(LenientJSONReader.Failure) -> String {
        let element = elements[index]
        let end = min(element.textEnd, element.textStart + SchemaOrgImport.maxPropertyBytes)
        try budget.step((end - element.textStart) * (looking ? 1 : SchemaOrgImport.stepsPerValueByte))
        return String(decoding: text[element.textStart..<end], as: UTF8.self)
            .split(whereSeparator: \.isNewline).map { HTMLText.collapsingWhitespace(String($0)) }.filter { !$0.isEmpty }
            .joined(separator: "\n")
    }
}

/// The one pass that makes an `HTMLOutline`.
private struct OutlineReader: HTMLTagVisitor {
    let page: [UInt8]
    var budget: LenientJSONReader.Budget
    var elements: [HTMLOutline.Element] = []
    var text: [UInt8] = []
    var title: String?
    /// The open elements, innermost last.
    private var open: [Int] = []
    /// How many elements of each name are open, so an end tag with none open is skipped at once.
    private var openCounts: [String: Int] = [:]

    init(page: [UInt8], budget: LenientJSONReader.Budget) {
        self.page = page
        self.budget = budget
    }

    mutating func read() throws(LenientJSONReader.Failure) {
        try HTMLTags.scan(page, into: &self)
        while !open.isEmpty { pop() }
    }

    mutating func step(_ count: Int) throws(LenientJSONReader.Failure) { try budget.step(count) }

    /// Text as a browser lays it out: its own line breaks and tabs are spaces; entities decoded.
    mutating func text(_ bytes: ArraySlice<UInt8>) throws(LenientJSONReader.Failure) {
        if bytes.contains(UInt8(ascii: "&")) {
            for byte in HTMLText.decodingEntities(String(decoding: bytes, as: UTF8.self)).utf8 { text.append(Self.spaced(byte)) }
        } else {
            for byte in bytes { text.append(Self.spaced(byte)) }
        }
    }

    /// An element is kept unless its content is no markup (a script, the title).
    mutating func startTag(_ name: String, nameEnd: Int) throws(LenientJSONReader.Failure) -> Int {
        let (attributes, contentStart) = JSONLDScripts.readAttributes(page, from: nameEnd)
        guard !HTMLTags.rawTextElements.contains(name) else { return contentStart }
        try budget.take()
        if let top = open.last.map({ elements[$0].name }), HTMLTags.closes(name, open: top) { pop() }
        if HTMLText.lineBreakingElements.contains(name) { text.append(0x0A) }
        let classes = (attributes["class"] ?? "").lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        elements.append(HTMLOutline.Element(name: name, classes: classes, id: attributes["id"]?.lowercased(), parent: open.last,
                                            isCheckbox: name == "input" && attributes["type"]?.lowercased() == "checkbox",
                                            end: elements.count + 1, textStart: text.count, textEnd: text.count))
        guard !HTMLTags.voidElements.contains(name) else { return contentStart }
        open.append(elements.count - 1)
        openCounts[name, default: 0] += 1
        return contentStart
    }

    /// The page's title is its `<title>`'s text; a script's or a style's is no one's.
    mutating func rawText(_ name: String, _ content: ArraySlice<UInt8>) throws(LenientJSONReader.Failure) {
        guard name == "title", title == nil else { return }
        title = HTMLText.collapsingWhitespace(HTMLText.decodingEntities(String(decoding: content, as: UTF8.self)))
    }

    /// Closes the innermost open element of that name and every element opened inside it.
    mutating func endTag(_ name: String) throws(LenientJSONReader.Failure) {
        if HTMLText.lineBreakingElements.contains(name) { text.append(0x0A) }
        guard openCounts[name, default: 0] > 0 else { return }
        while let top = open.last {
            pop()
            if elements[top].name == name { return }
        }
    }

    private mutating func pop() {
        guard let index = open.popLast() else { return }
        openCounts[elements[index].name, default: 1] -= 1
        elements[index].end = elements.count
        elements[index].textEnd = text.count
    }

    private static func spaced(_ byte: UInt8) -> UInt8 { byte == 0x0A || byte == 0x0D || byte == 0x09 ? 0x20 : byte }
}
