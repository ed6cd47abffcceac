// MARK: - JSON-LD blocks of an HTML page
//
// Not an HTML parser: a single pass over the bytes that finds each
// `<script … type="application/ld+json" …>` and the text up to its `</script>`, which is
// all a page's JSON-LD needs (its microdata and RDFa: `HTMLItems`). It skips HTML comments
// (a commented-out script is not data), takes attributes in any order, quoted with " or '
// or not at all, in any case and spacing. The `<!-- … -->` and `<![CDATA[ … ]]>` wrappers some sites put
// inside the script are the JSON reader's to skip (`LenientJSONReader`).

enum JSONLDScripts {
    /// The content of every JSON-LD script, in page order.
    static func blocks(in page: [UInt8]) -> [ArraySlice<UInt8>] {
        var blocks: [ArraySlice<UInt8>] = []
        var index = 0
        let count = page.count
        while index < count {
            guard page[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if hasPrefix(page, at: index, "<!--") {
                index = find(page, "-->", from: index + 4).map { $0 + 3 } ?? count
                continue
            }
            guard hasPrefix(page, at: index, "<script"), index + 7 < count,
                  isSpace(page[index + 7]) || page[index + 7] == UInt8(ascii: ">") || page[index + 7] == UInt8(ascii: "/")
            else {
                index += 1
                continue
            }
            let (attributes, contentStart) = readAttributes(page, from: index + 7)
            let closing = find(page, "</script", from: contentStart) ?? count
            if let type = attributes["type"], isJSONLD(type) {
                blocks.append(trimmed(page[contentStart..<closing]))
            }
            index = closing < count ? (find(page, ">", from: closing).map { $0 + 1 } ?? count) : count
        }
        return blocks
    }

    /// `application/ld+json`, ignoring case, spaces and parameters (`; charset=utf-8`).
    private static func isJSONLD(_ type: String) -> Bool {
        let mediaType = type.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return HTMLText.collapsingWhitespace(String(mediaType)).lowercased() == "application/ld+json"
    }

    /// The attributes of a start tag (names in lower case, entities in values decoded)
    /// and the index after its `>`.
    static func readAttributes(_ page: [UInt8], from start: Int) -> ([String: String], Int) {
        var attributes: [String: String] = [:]
        var index = start
        let count = page.count
        while index < count {
            while index < count, isSpace(page[index]) || page[index] == UInt8(ascii: "/") { index += 1 }
            guard index < count, page[index] != UInt8(ascii: ">") else { break }
            let nameStart = index
            while index < count, !isSpace(page[index]), page[index] != UInt8(ascii: "="), page[index] != UInt8(ascii: ">") {
                index += 1
            }
            let name = String(decoding: page[nameStart..<index], as: UTF8.self).lowercased()
            while index < count, isSpace(page[index]) { index += 1 }
            var value = ""
            if index < count, page[index] == UInt8(ascii: "=") {
                index += 1
                while index < count, isSpace(page[index]) { index += 1 }
                if index < count, page[index] == UInt8(ascii: "\"") || page[index] == UInt8(ascii: "'") {
                    let quote = page[index]
                    let valueStart = index + 1
                    let valueEnd = page[valueStart...].firstIndex(of: quote) ?? count
                    value = String(decoding: page[valueStart..<valueEnd], as: UTF8.self)
                    index = min(valueEnd + 1, count)
                } else {
                    let valueStart = index
                    while index < count, !isSpace(page[index]), page[index] != UInt8(ascii: ">") { index += 1 }
                    value = String(decoding: page[valueStart..<index], as: UTF8.self)
                }
            }
            if attributes[name] == nil { attributes[name] = HTMLText.decodingEntities(value) }
        }
        return (attributes, min(index + 1, count))
    }

    // MARK: - Bytes

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    /// Whether `text` (ASCII, lower case) starts at `index`, ignoring the case of letters.
    static func hasPrefix(_ bytes: [UInt8], at index: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let wanted = text.utf8Start
        for offset in 0..<count where lowercased(bytes[index + offset]) != wanted[offset] { return false }
        return true
    }

    /// The first index of `text` (ASCII, lower case) at or after `start`, ignoring case.
    static func find(_ bytes: [UInt8], _ text: StaticString, from start: Int) -> Int? {
        let first = text.utf8Start[0]
        var index = start
        let last = bytes.count - text.utf8CodeUnitCount
        while index <= last {
            if lowercased(bytes[index]) == first, hasPrefix(bytes, at: index, text) { return index }
            index += 1
        }
        return nil
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
