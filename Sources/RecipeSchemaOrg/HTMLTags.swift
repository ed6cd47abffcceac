// MARK: - One pass over an HTML page's tags

/// What a reader of a page's markup is told, in page order, by `HTMLTags.scan`.
protocol HTMLTagVisitor {
    /// Counts `count` bytes of the page scanned against the reader's budget.
    mutating func step(_ count: Int) throws(LenientJSONReader.Failure)
    /// Text between tags, as written (entities not decoded).
    mutating func text(_ bytes: ArraySlice<UInt8>) throws(LenientJSONReader.Failure)
    /// A start tag whose name ends at `nameEnd`: answers where its content starts, after its
    /// attributes (read, or skipped when the reader has no use for them).
    mutating func startTag(_ name: String, nameEnd: Int) throws(LenientJSONReader.Failure) -> Int
    mutating func endTag(_ name: String) throws(LenientJSONReader.Failure)
    /// The content of an element whose content is no markup (`HTMLTags.rawTextElements`),
    /// between its start tag and its end tag (which `endTag` is told of after it).
    mutating func rawText(_ name: String, _ content: ArraySlice<UInt8>) throws(LenientJSONReader.Failure)
}

/// Not an HTML parser: one pass over the tags, each byte looked at a bounded number of times.
/// Comments and declarations are skipped; the content of `script`, `style` and the other
/// elements whose content is no markup runs to their end tag; the rules for elements an HTML
/// parser closes without an end tag are here, for the readers that keep open elements.
enum HTMLTags {
    /// Elements that never have content, so never an end tag.
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]
    /// Elements whose content is no markup: what browsers show of none of them is a page's items or text.
    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "noscript", "template"]
    /// Start tags that close an open `<p>`.
    private static let closesParagraph: Set<String> = [
        "p", "div", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "section", "article", "blockquote", "dl", "pre",
    ]
    /// Start tags that close an open element of the same name: list items, rows, cells.
    private static let closesItsSibling: Set<String> = ["li", "dt", "dd", "tr", "td", "th", "option"]

    /// Whether a start tag `name` closes the innermost open element `open`, as HTML does:
    /// `<li>` an `<li>`, a block a `<p>`, so lists written without end tags read right.
    static func closes(_ name: String, open: String) -> Bool {
        (open == "p" && closesParagraph.contains(name)) || (open == name && closesItsSibling.contains(name))
    }

    static func scan<Visitor: HTMLTagVisitor>(_ page: [UInt8], into visitor: inout Visitor) throws(LenientJSONReader.Failure) {
        var index = 0
        var stepped = 0
        let count = page.count
        while index < count {
            try visitor.step(index - stepped)
            stepped = index
            guard page[index] == UInt8(ascii: "<") else {
                let next = page[index...].firstIndex(of: UInt8(ascii: "<")) ?? count
                try visitor.text(page[index..<next])
                index = next
                continue
            }
            if JSONLDScripts.hasPrefix(page, at: index, "<!--") {
                index = JSONLDScripts.find(page, "-->", from: index + 4).map { $0 + 3 } ?? count
            } else if index + 1 < count, page[index + 1] == UInt8(ascii: "!") || page[index + 1] == UInt8(ascii: "?") {
                index = page[index...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? count
            } else if index + 2 < count, page[index + 1] == UInt8(ascii: "/"), isLetter(page[index + 2]) {
                let (name, nameEnd) = tagName(in: page, from: index + 2)
                index = page[nameEnd...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? count
                try visitor.endTag(name)
            } else if index + 1 < count, isLetter(page[index + 1]) {
                let (name, nameEnd) = tagName(in: page, from: index + 1)
                index = try visitor.startTag(name, nameEnd: nameEnd)
                if rawTextElements.contains(name) {
                    // Its content is no markup: up to its end tag, read as an end tag.
                    let closing = findEndTag(name, in: page, from: index) ?? count
                    try visitor.rawText(name, page[index..<closing])
                    index = closing < count ? (page[closing...].firstIndex(of: UInt8(ascii: ">")).map { $0 + 1 } ?? count) : count
                    try visitor.endTag(name)
                }
            } else {
                try visitor.text(page[index...index])
                index += 1
            }
        }
        try visitor.step(index - stepped)
    }

    /// The index after the `>` that ends a start tag whose name ends at `start`: the first `>`
    /// outside an attribute's quoted value (as `JSONLDScripts.readAttributes` reads it), or the page's end.
    static func endOfTag(in page: [UInt8], from start: Int) -> Int {
        var index = start
        var afterEquals = false
        while index < page.count {
            let byte = page[index]
            if byte == UInt8(ascii: ">") { return index + 1 }
            if afterEquals, byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                index = (page[(index + 1)...].firstIndex(of: byte) ?? page.count - 1) + 1
                afterEquals = false
                continue
            }
            if byte == UInt8(ascii: "=") { afterEquals = true } else if !JSONLDScripts.isSpace(byte) { afterEquals = false }
            index += 1
        }
        return page.count
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// The tag name starting at `start`, in lower case, and the index after it.
    private static func tagName(in page: [UInt8], from start: Int) -> (String, Int) {
        var end = start
        while end < page.count, isLetter(page[end]) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(page[end]) || page[end] == UInt8(ascii: "-") {
            end += 1
        }
        let name = String(unsafeUninitializedCapacity: end - start) { buffer in
            for offset in 0..<(end - start) { buffer[offset] = JSONLDScripts.lowercased(page[start + offset]) }
            return end - start
        }
        return (name, end)
    }

    private static func findEndTag(_ name: String, in page: [UInt8], from start: Int) -> Int? {
        var index = start
        while let found = JSONLDScripts.find(page, "</", from: index) {
            if tagName(in: page, from: found + 2).0 == name { return found }
            index = found + 2
        }
        return nil
    }
}
