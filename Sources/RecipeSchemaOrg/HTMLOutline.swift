// MARK: - The elements of an HTML page and where their text lies

/// A page's elements in document order, each with its name, class and id, the elements inside
/// it (`inside`), and the span of the page's text it holds, for reading a recipe from the
/// markup of the page itself (`PageMarkup`) when it publishes no structured data.
///
/// Not an HTML parser: one pass over the tags, as `HTMLItems` reads them (end tags close what
/// they close; `<li>` closes an open `<li>`, a block an open `<p>`; script and style hold no
/// text). The page's text is gathered once, into one buffer, entities decoded and block
/// elements as line breaks; an element holds a span of it, so reading the text of nested
/// elements copies only what is asked for, and each copy is counted against the budget.
struct HTMLOutline {
    struct Element {
        /// The tag name, in lower case.
        var name: String
        /// The `class` attribute's words.
        var classes: [Substring]
        var id: String?
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
        var reader = OutlineReader(page: page)
        try reader.read(budget: &budget)
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
private struct OutlineReader {
    let page: [UInt8]
    var elements: [HTMLOutline.Element] = []
    var text: [UInt8] = []
    var title: String?
    /// The open elements, innermost last.
    private var open: [Int] = []
    /// How many elements of each name are open, so an end tag with none open is skipped at once.
    private var openCounts: [String: Int] = [:]

    init(page: [UInt8]) { self.page = page }

    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]
    /// Elements whose content is no markup; only `title`'s is kept (as the page's title).
    private static let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "noscript", "template"]
    private static let closesParagraph: Set<String> = [
        "p", "div", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "section", "article", "blockquote", "dl", "pre",
    ]
    private static let closesItsSibling: Set<String> = ["li", "dt", "dd", "tr", "td", "th", "option"]

    mutating func read(budget: inout LenientJSONReader.Budget) throws(LenientJSONReader.Failure) {
        try budget.step(page.count)
        var index = 0
        let count = page.count
        while index < count {
            guard page[index] == UInt8(ascii: "<") else {
                let next = page[index...].firstIndex(of: UInt8(ascii: "<")) ?? count
                appendText(page[index..<next])
                index = next
                continue
            }
            if JSONLDScripts.hasPrefix(page, at: index, "<!--") {
                index = JSONLDScripts.find(page, "-->", from: index + 4).map { $0 + 3 } ?? count
            } else if index + 1 < count, page[index + 1] == UInt8(ascii: "!") || page[index + 1] == UInt8(ascii: "?") {
                index = page[index...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? count
            } else if index + 2 < count, page[index + 1] == UInt8(ascii: "/"), Self.isLetter(page[index + 2]) {
                let (name, nameEnd) = tagName(from: index + 2)
                index = page[nameEnd...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? count
                endTag(name)
            } else if index + 1 < count, Self.isLetter(page[index + 1]) {
                let (name, nameEnd) = tagName(from: index + 1)
                let (attributes, contentStart) = JSONLDScripts.readAttributes(page, from: nameEnd)
                index = contentStart
                if Self.rawTextElements.contains(name) {
                    let closing = findEndTag(name, from: index) ?? count
                    if name == "title", title == nil {
                        title = HTMLText.collapsingWhitespace(HTMLText.decodingEntities(String(decoding: page[index..<closing], as: UTF8.self)))
                    }
                    index = closing < count ? (page[closing...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? count) : count
                    continue
                }
                try budget.take()
                startTag(name, attributes)
            } else {
                appendText(page[index...index])
                index += 1
            }
        }
        while !open.isEmpty { pop() }
    }

    private mutating func startTag(_ name: String, _ attributes: [String: String]) {
        if let top = open.last.map({ elements[$0].name }),
           (top == "p" && Self.closesParagraph.contains(name)) || (top == name && Self.closesItsSibling.contains(name)) {
            pop()
        }
        if HTMLText.lineBreakingElements.contains(name) { text.append(0x0A) }
        let classes = (attributes["class"] ?? "").lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        elements.append(HTMLOutline.Element(name: name, classes: classes, id: attributes["id"]?.lowercased(),
                                            end: elements.count + 1, textStart: text.count, textEnd: text.count))
        guard !Self.voidElements.contains(name) else { return }
        open.append(elements.count - 1)
        openCounts[name, default: 0] += 1
    }

    /// Closes the innermost open element of that name and every element opened inside it.
    private mutating func endTag(_ name: String) {
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

    /// Text as a browser lays it out: its own line breaks and tabs are spaces; entities decoded.
    private mutating func appendText(_ bytes: ArraySlice<UInt8>) {
        if bytes.contains(UInt8(ascii: "&")) {
            for byte in HTMLText.decodingEntities(String(decoding: bytes, as: UTF8.self)).utf8 { text.append(Self.spaced(byte)) }
        } else {
            for byte in bytes { text.append(Self.spaced(byte)) }
        }
    }

    private static func spaced(_ byte: UInt8) -> UInt8 { byte == 0x0A || byte == 0x0D || byte == 0x09 ? 0x20 : byte }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private func tagName(from start: Int) -> (String, Int) {
        var end = start
        while end < page.count, Self.isLetter(page[end]) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(page[end]) || page[end] == UInt8(ascii: "-") {
            end += 1
        }
        return (String(decoding: page[start..<end].map(JSONLDScripts.lowercased), as: UTF8.self), end)
    }

    private func findEndTag(_ name: String, from start: Int) -> Int? {
        var index = start
        while let found = JSONLDScripts.find(page, "</", from: index) {
            if tagName(from: found + 2).0 == name { return found }
            index = found + 2
        }
        return nil
    }
}
