// MARK: - HTML in text fields
//
// Sites put markup into JSON-LD strings: `<p>` around instructions, `&amp;` for "&",
// `&#39;` for an apostrophe. A text is treated as HTML only when it holds something
// that reads as markup — a tag (`<` then a letter, `/` or `!`) or a known entity —
// so "Salt & pepper" and "ready in < 5 min" stay as written.

enum HTMLText {
    /// Whether `text` holds a tag or an entity, and so is cleaned as HTML.
    static func looksLikeHTML(_ text: String) -> Bool {
        guard text.utf8.contains(UInt8(ascii: "<")) || text.utf8.contains(UInt8(ascii: "&")) else { return false }
        let scalars = Array(text.unicodeScalars)
        for index in scalars.indices {
            switch scalars[index] {
            case "<":
                if index + 1 < scalars.count, startsTag(scalars[index + 1]) { return true }
            case "&":
                if entity(in: scalars, at: index) != nil { return true }
            default:
                continue
            }
        }
        return false
    }

    /// The text of an HTML fragment: tags removed (the content of `<script>` and
    /// `<style>` with them), entities decoded, block ends (`<br>`, `</p>`, `</li>`,
    /// `</div>`, headings) as line breaks, spaces collapsed within each line, blank lines dropped.
    ///
    /// With tags, the text's own line breaks are spaces, as in a browser. With entities only,
    /// it is text whose characters were escaped, and its line breaks stay.
    static func plainText(fromHTML html: String) -> String {
        let scalars = Array(html.unicodeScalars)
        let hasTags = scalars.indices.contains { scalars[$0] == "<" && $0 + 1 < scalars.count && startsTag(scalars[$0 + 1]) }
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<", index + 1 < scalars.count, startsTag(scalars[index + 1]) {
                let tag = readTag(in: scalars, at: index)
                if tag.breaksLine { output.append("\n") }
                index = tag.end
                if let skipped = tag.rawTextElement {
                    index = endOfRawText(named: skipped, in: scalars, from: index)
                }
                continue
            }
            if scalar == "&", let (decoded, length) = entity(in: scalars, at: index) {
                // A scalar at a time: `append(contentsOf:)` of a scalar view copies the whole output.
                for decodedScalar in decoded.unicodeScalars { output.append(decodedScalar) }
                index += length
                continue
            }
            output.append(hasTags && scalar.properties.isWhitespace ? " " : scalar)
            index += 1
        }
        return String(output).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { collapsingWhitespace(String($0)) }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

    /// Only the entities decoded, for URLs (`?a=1&amp;b=2`), where tags cannot be.
    static func decodingEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", let (decoded, length) = entity(in: scalars, at: index) {
                for decodedScalar in decoded.unicodeScalars { output.append(decodedScalar) }
                index += length
            } else {
                output.append(scalars[index])
                index += 1
            }
        }
        return String(output)
    }

    /// Every run of whitespace (newlines included) as one space, and none at the ends.
    static func collapsingWhitespace(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            // A control character of a page (U+001E, a NUL) is a space too: no record may hold one.
            if isWhitespace(scalar) || scalar.value < 0x20 {
                pendingSpace = !output.isEmpty
            } else {
                if pendingSpace { output.append(" ") }
                pendingSpace = false
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// Unicode's White_Space, with ASCII answered without a look-up in the property tables.
    @inline(__always)
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }

    // MARK: - Tags

    private static func startsTag(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "/" || scalar == "!" || (scalar.isASCII && scalar.properties.isAlphabetic)
    }

    private struct Tag {
        var end: Int
        var breaksLine: Bool
        /// `script` or `style`, whose content is not text.
        var rawTextElement: String?
    }

    /// Elements whose start or end ends a line of text.
    static let lineBreakingElements: Set<String> = [
        "br", "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "section", "article",
        "blockquote", "hr",
    ]

    /// The tag starting with the `<` at `start`: up to its `>` outside quotes, or to the
    /// end of the text when it is never closed. A comment runs to `-->`.
    private static func readTag(in scalars: [Unicode.Scalar], at start: Int) -> Tag {
        if start + 3 < scalars.count, scalars[start + 1] == "!", scalars[start + 2] == "-", scalars[start + 3] == "-" {
            var index = start + 4
            while index + 2 < scalars.count {
                if scalars[index] == "-", scalars[index + 1] == "-", scalars[index + 2] == ">" { return Tag(end: index + 3, breaksLine: false) }
                index += 1
            }
            return Tag(end: scalars.count, breaksLine: false)
        }
        var index = start + 1
        let closing = scalars[index] == "/"
        if closing { index += 1 }
        var name = ""
        while index < scalars.count, scalars[index].isASCII, scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]) {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        name = name.lowercased()
        var quote: Unicode.Scalar?
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == ">" {
                break
            }
        }
        let raw = !closing && (name == "script" || name == "style") ? name : nil
        return Tag(end: index, breaksLine: lineBreakingElements.contains(name), rawTextElement: raw)
    }

    /// The index after `</name…>`, or the end of the text.
    private static func endOfRawText(named name: String, in scalars: [Unicode.Scalar], from start: Int) -> Int {
        let closing = Array(("</" + name).unicodeScalars)
        var index = start
        while index + closing.count <= scalars.count {
            if zip(closing, scalars[index...]).allSatisfy({ $0 == asciiLowercased($1) }) {
                return readTag(in: scalars, at: index).end
            }
            index += 1
        }
        return scalars.count
    }

    private static func asciiLowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 0x20)! : scalar
    }

    // MARK: - Entities

    /// The entity starting with the `&` at `start` and its length in scalars:
    /// `&#39;`, `&#x27;`, or a named one from `namedEntities`. The `;` is required,
    /// so "R&D" and "AT&T" are left alone.
    static func entity(in scalars: [Unicode.Scalar], at start: Int) -> (String, Int)? {
        var index = start + 1
        guard index < scalars.count else { return nil }
        if scalars[index] == "#" {
            index += 1
            var radix: UInt32 = 10
            if index < scalars.count, scalars[index] == "x" || scalars[index] == "X" {
                radix = 16
                index += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while index < scalars.count, let digit = Self.digit(scalars[index], radix: radix), digits < 8 {
                value = value * radix + digit
                digits += 1
                index += 1
            }
            guard digits > 0, index < scalars.count, scalars[index] == ";" else { return nil }
            // NUL, surrogates and values past Unicode read as the replacement character, as browsers do.
            let scalar = value == 0 ? nil : Unicode.Scalar(value)
            return (String(Character(scalar ?? "\u{FFFD}")), index + 1 - start)
        }
        var name = ""
        while index < scalars.count, ("a"..."z").contains(scalars[index]) || ("A"..."Z").contains(scalars[index]) || ("0"..."9").contains(scalars[index]),
              name.unicodeScalars.count < 10 {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard index < scalars.count, scalars[index] == ";", let decoded = namedEntities[name] else { return nil }
        return (decoded, index + 1 - start)
    }

    private static func digit(_ scalar: Unicode.Scalar, radix: UInt32) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 0x30
        case "a"..."f" where radix == 16: return scalar.value - 0x61 + 10
        case "A"..."F" where radix == 16: return scalar.value - 0x41 + 10
        default: return nil
        }
    }

    /// The named entities recipe pages use: markup, quotes and dashes, fractions,
    /// degrees and the accented letters of European cuisines. An unknown name is left as written.
    static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        "ndash": "–", "mdash": "—", "hellip": "…", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "laquo": "«", "raquo": "»", "bull": "•", "middot": "·", "deg": "°", "times": "×", "frasl": "⁄",
        "frac12": "½", "frac14": "¼", "frac34": "¾", "frac13": "⅓", "frac23": "⅔", "frac18": "⅛",
        "copy": "©", "reg": "®", "trade": "™", "iexcl": "¡", "iquest": "¿", "szlig": "ß",
        "aacute": "á", "agrave": "à", "acirc": "â", "auml": "ä", "atilde": "ã", "aring": "å", "aelig": "æ",
        "ccedil": "ç", "eacute": "é", "egrave": "è", "ecirc": "ê", "euml": "ë",
        "iacute": "í", "igrave": "ì", "icirc": "î", "iuml": "ï", "ntilde": "ñ",
        "oacute": "ó", "ograve": "ò", "ocirc": "ô", "ouml": "ö", "otilde": "õ", "oslash": "ø", "oelig": "œ",
        "uacute": "ú", "ugrave": "ù", "ucirc": "û", "uuml": "ü", "yacute": "ý", "yuml": "ÿ",
        "Aacute": "Á", "Agrave": "À", "Acirc": "Â", "Auml": "Ä", "Aring": "Å", "AElig": "Æ", "Ccedil": "Ç",
        "Eacute": "É", "Egrave": "È", "Ecirc": "Ê", "Iacute": "Í", "Ntilde": "Ñ", "Oacute": "Ó", "Ouml": "Ö",
        "Oslash": "Ø", "OElig": "Œ", "Uacute": "Ú", "Uuml": "Ü",
    ]
}
