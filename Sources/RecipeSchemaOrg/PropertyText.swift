// MARK: - The text of microdata and RDFa properties

/// The text inside a page's open text properties, cleaned as it is appended, the way a browser
/// lays it out: entities decoded, a run of spaces one space, line breaks (block elements,
/// entities) kept, blank lines and the spaces around a line break dropped. Each byte of the page
/// is cleaned once however many nested properties hold it, and a property's value is the part
/// of this text it spans (`value(from:maxBytes:)`): reading stays linear in the page.
struct PropertyText {
    /// The cleaned text, UTF-8. Whitespace in it is only ever one separator between two characters.
    private var bytes: [UInt8] = []
    private enum Separator { case none, space, lineBreak }
    /// Whitespace seen since the last character that is none: written before the next one, so
    /// the text never ends in a separator.
    private var pending = Separator.none

    /// Where a property that starts now starts.
    var end: Int { bytes.count }

    /// Appends raw text of the page: its own line breaks and tabs are spaces, as in a browser;
    /// entities decoded (`&amp;`, `&#10;`, the names `HTMLText.namedEntities` knows).
    mutating func append(_ raw: ArraySlice<UInt8>) {
        let text = String(decoding: raw, as: UTF8.self)
        guard raw.contains(UInt8(ascii: "&")) else {
            for scalar in text.unicodeScalars { add(scalar) }
            return
        }
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", let (decoded, length) = HTMLText.entity(in: scalars, at: index) {
                for scalar in decoded.unicodeScalars { add(scalar, decoded: true) }
                index += length
            } else {
                add(scalars[index])
                index += 1
            }
        }
    }

    /// The start or end of a block element.
    mutating func lineBreak() {
        pending = .lineBreak
    }

    /// Empties it, once no property is open.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        pending = .none
    }

    /// The bytes a value from `start` holds, before any cut.
    func length(from start: Int) -> Int { bytes.count - start }

    /// The value of a property whose text starts at `start`: its lines, each without spaces at its
    /// ends, no blank ones; at most `maxBytes` bytes of it, cut at a character's start.
    func value(from start: Int, maxBytes: Int) -> String {
        var from = start
        if from < bytes.count, bytes[from] == 0x20 || bytes[from] == 0x0A { from += 1 }
        var to = min(bytes.count, from + maxBytes)
        if to < bytes.count {
            while to > from, bytes[to] & 0xC0 == 0x80 { to -= 1 }
            while to > from, bytes[to - 1] == 0x20 || bytes[to - 1] == 0x0A { to -= 1 }
        }
        return String(decoding: bytes[from..<to], as: UTF8.self)
    }

    /// `decoded`: from an entity, where a line break or tab is one.
    private mutating func add(_ scalar: Unicode.Scalar, decoded: Bool = false) {
        switch scalar.value {
        case 0x09, 0x20:
            if pending == .none { pending = .space }
            return
        case 0x0A where !decoded, 0x0D where !decoded:
            if pending == .none { pending = .space }
            return
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029:
            // What `Character.isNewline` calls a line break: LF, VT, FF, CR, NEL, LS, PS.
            pending = .lineBreak
            return
        case 0x21..<0x80:
            break
        default:
            // A control character (a NUL, U+001E) is a space too: no record may hold one.
            if scalar.properties.isWhitespace || scalar.value < 0x20 {
                if pending == .none { pending = .space }
                return
            }
        }
        switch pending {
        case .none: break
        case .space: bytes.append(0x20)
        case .lineBreak: bytes.append(0x0A)
        }
        pending = .none
        UTF8.encode(scalar) { bytes.append($0) }
    }
}
