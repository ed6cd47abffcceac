// MARK: - Tag grammar
//
// The tag editor lets people type free text; a tag inside it is written
//
//     tag     = "@" name [ "(" payload ")" ]
//     name    = letter { letter | mark | digit | "_" | "-" }      (1...64 scalars)
//     payload = any text in which "(" and ")" balance               (0...1000 scalars, trimmed)
//
// An "@" starts a tag only where a name could not go on ("me@example.com" is none);
// an unclosed "(" or a ")" that closes nothing makes the text invalid; text inside a
// payload is not scanned for tags. Exactly one tag must be found. Each case, with
// examples: docs/architecture.md, "The tag grammar".

extension Tag {
    /// Whether a tag name may hold the character after its first: letters, marks, decimal digits, "_" and "-".
    public static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool { TagScanner.isNameScalar(scalar) }

    /// Finds the single tag in `text`.
    ///
    /// - Returns: the tag, or a rejection coded `invalidTag` when the text holds
    ///   no tag, two or more, an unclosed payload, or a name or payload over its limit.
    public static func parseSingle(from text: String) -> Result<Tag, Rejection> {
        if text.exceedsLength(RecipeLimits.maxTagTextLength) {
            return .failure(Rejection(.invalidTag, "Tag text is longer than \(RecipeLimits.maxTagTextLength) characters."))
        }
        // Scanning the UTF-8 bytes in place, decoding a scalar only where a byte is
        // not ASCII, keeps tag commands about as cheap as the other edits.
        var text = text
        return text.withUTF8 { TagScanner(bytes: $0).single() }
    }

    /// Whether `name` is a valid tag name on its own (without the `@`).
    public static func isValidName(_ name: String) -> Bool {
        var scalars = name.unicodeScalars.makeIterator()
        guard let first = scalars.next(), TagScanner.isLetter(first) else { return false }
        var count = 1
        while let scalar = scalars.next() {
            guard TagScanner.isNameScalar(scalar) else { return false }
            count += 1
        }
        return count <= RecipeLimits.maxTagNameLength
    }
}

// MARK: - Scanner

/// One pass over the UTF-8 bytes of a tag text.
private struct TagScanner {
    let bytes: UnsafeBufferPointer<UInt8>

    func single() -> Result<Tag, Rejection> {
        var found: Tag?
        var index = 0
        // Whether the scalar before `index` could be part of a name; an "@" right
        // after one (as in "me@example.com") does not start a tag.
        var afterNameScalar = false
        // "(" outside any payload not yet closed: a ")" with none open closes nothing.
        var openOutside = 0
        while index < bytes.count {
            let (scalar, length) = decode(at: index)
            guard scalar == "@", !afterNameScalar, index + 1 < bytes.count,
                  case let (first, firstLength) = decode(at: index + 1), Self.isLetter(first)
            else {
                if scalar == "(" { openOutside += 1 }
                if scalar == ")" {
                    guard openOutside > 0 else {
                        return .failure(Rejection(.invalidTag, "Tag text has a \")\" that closes nothing; "
                                                  + "a payload's parentheses must pair up, as in @note(see (p. 3))."))
                    }
                    openOutside -= 1
                }
                afterNameScalar = Self.isNameScalar(scalar)
                index += length
                continue
            }
            let nameStart = index + 1
            var end = nameStart + firstLength
            var nameLength = 1
            while end < bytes.count {
                let (next, nextLength) = decode(at: end)
                guard Self.isNameScalar(next) else { break }
                end += nextLength
                nameLength += 1
            }
            if nameLength > RecipeLimits.maxTagNameLength {
                return .failure(Rejection(.invalidTag, "Tag name is longer than \(RecipeLimits.maxTagNameLength) characters."))
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<end]), as: UTF8.self)
            var payload: String?
            afterNameScalar = true
            if end < bytes.count, bytes[end] == UInt8(ascii: "(") {
                guard let close = matchingClose(openAt: end) else {
                    return .failure(Rejection(.invalidTag, "Tag payload has an unclosed \"(\"."))
                }
                let trimmed = trimmedText(from: end + 1, to: close)
                if trimmed.exceedsLength(RecipeLimits.maxTagPayloadLength) {
                    return .failure(Rejection(.invalidTag, "Tag payload is longer than \(RecipeLimits.maxTagPayloadLength) characters."))
                }
                payload = trimmed.isEmpty ? nil : trimmed
                end = close + 1
                afterNameScalar = false
            }
            if found != nil {
                return .failure(Rejection(.invalidTag, "Text holds more than one tag; write one tag at a time."))
            }
            found = Tag(name: name, payload: payload)
            index = end
        }
        guard let found else {
            return .failure(Rejection(.invalidTag, "Text holds no tag; write @name or @name(payload)."))
        }
        return .success(found)
    }

    // MARK: - Bytes

    /// The scalar starting at `index` and its length in bytes. The bytes come
    /// from a Swift string, so they are valid UTF-8.
    private func decode(at index: Int) -> (Unicode.Scalar, Int) {
        let lead = UInt32(bytes[index])
        if lead < 0x80 { return (Unicode.Scalar(UInt8(lead)), 1) }
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        var value = lead & (0x7F >> UInt32(length))
        for offset in 1..<length {
            value = (value << 6) | (UInt32(bytes[index + offset]) & 0x3F)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// Index of the ")" closing the "(" at `open`, counting nested pairs. Bytes of
    /// multi-byte scalars are never ASCII, so comparing bytes is safe.
    private func matchingClose(openAt open: Int) -> Int? {
        var depth = 0
        for index in open..<bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return index }
            default: continue
            }
        }
        return nil
    }

    /// The text between two byte offsets without surrounding whitespace.
    private func trimmedText(from start: Int, to end: Int) -> String {
        var lower = start, upper = end
        while lower < upper, Self.isASCIIWhitespace(bytes[lower]) { lower += 1 }
        while upper > lower, Self.isASCIIWhitespace(bytes[upper - 1]) { upper -= 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[lower..<upper]), as: UTF8.self)
        // Only non-ASCII edges can be Unicode whitespace (no-break space, ideographic space…).
        if lower < upper, bytes[lower] >= 0x80 || bytes[upper - 1] >= 0x80 { return text.trimmingWhitespace }
        return text
    }

    // MARK: - Classes of scalars

    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let lowered = scalar.value | 0x20
            return lowered >= 0x61 && lowered <= 0x7A
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return isLetter(scalar) || (value >= 0x30 && value <= 0x39) || value == 0x5F || value == 0x2D // digits, _ and -
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }
}
