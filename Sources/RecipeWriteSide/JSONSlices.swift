/// Finds where the members of a JSON object, or the elements of a JSON array,
/// sit in a byte buffer, without converting or fully checking them.
///
/// This is the fast path of `CommandBuilder` and of the batch route: the
/// slices are spliced into the CloudEvent that `RecordDecoder` then reads with
/// its strict grammar, so whatever the slicer lets through is checked there.
/// Splicing is safe because a slice is delimited the way a JSON parser
/// delimits a value (brackets counted outside strings): if the event parses at
/// all, each spliced slice is exactly one of its values. Anything unusual — an
/// escape in a key, a repeated key, bytes after the value — answers nil, and
/// the caller takes the slow path, which gives the precise error.
public enum JSONSlices {
    struct Member {
        /// The key's bytes (it has no escapes: a key with one answers nil).
        var key: Range<Int>
        /// The value, from its first to one past its last byte (quotes included for a string).
        var value: Range<Int>
        /// A string value (first byte `"`) holding a backslash escape.
        var escaped: Bool
        var isString: Bool
    }

    /// The members of the object that is the whole of `bytes` (whitespace around
    /// it allowed); nil when it is not simply one, or a key repeats.
    static func members(_ bytes: UnsafeRawBufferPointer) -> [Member]? {
        var index = skipWhitespace(bytes, 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index = skipWhitespace(bytes, index + 1)
        var members: [Member] = []
        // A command's object has six members at most: room for them at once, not grown twice.
        members.reserveCapacity(6)
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            return skipWhitespace(bytes, index + 1) == bytes.count ? members : nil
        }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""),
                  let keyEnd = stringEnd(bytes, index), !keyEnd.escaped else { return nil }
            let key = (index + 1)..<(keyEnd.end - 1)
            index = skipWhitespace(bytes, keyEnd.end)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index = skipWhitespace(bytes, index + 1)
            guard let value = valueEnd(bytes, index) else { return nil }
            for other in members where equal(bytes, other.key, key) { return nil }
            members.append(Member(key: key, value: index..<value.end, escaped: value.escaped,
                                  isString: bytes[index] == UInt8(ascii: "\"")))
            index = skipWhitespace(bytes, value.end)
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "}") {
                return skipWhitespace(bytes, index + 1) == bytes.count ? members : nil
            }
            guard bytes[index] == UInt8(ascii: ",") else { return nil }
            index = skipWhitespace(bytes, index + 1)
        }
    }

    /// The elements of the array that is the whole of `bytes`; nil when it is not
    /// one (the slices themselves are not checked: each is read on its own later).
    public static func elements(_ bytes: UnsafeRawBufferPointer) -> [Range<Int>]? {
        var index = skipWhitespace(bytes, 0)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
        index = skipWhitespace(bytes, index + 1)
        var elements: [Range<Int>] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            return skipWhitespace(bytes, index + 1) == bytes.count ? elements : nil
        }
        while true {
            guard let value = valueEnd(bytes, index) else { return nil }
            elements.append(index..<value.end)
            index = skipWhitespace(bytes, value.end)
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "]") {
                return skipWhitespace(bytes, index + 1) == bytes.count ? elements : nil
            }
            guard bytes[index] == UInt8(ascii: ",") else { return nil }
            index = skipWhitespace(bytes, index + 1)
        }
    }

    static func equal(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        let start = literal.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != start[offset] { return false }
        return true
    }

    private static func equal(_ bytes: UnsafeRawBufferPointer, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for offset in 0..<a.count where bytes[a.lowerBound + offset] != bytes[b.lowerBound + offset] { return false }
        return true
    }

    private static func skipWhitespace(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> Int {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return index
            }
        }
        return index
    }

    /// One past the closing quote of the string opening at `start`.
    private static func stringEnd(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> (end: Int, escaped: Bool)? {
        var index = start + 1
        var escaped = false
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return (index + 1, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// One past the value starting at `start`: a string, a container (brackets
    /// counted outside strings), or a scalar (up to a delimiter).
    private static func valueEnd(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> (end: Int, escaped: Bool)? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(bytes, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(bytes, index) else { return nil }
                    index = end.end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return (index + 1, false) }
                default: break
                }
                index += 1
            }
            return nil
        default:
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09:
                    return index > start ? (index, false) : nil
                default: index += 1
                }
            }
            return index > start ? (index, false) : nil
        }
    }
}
