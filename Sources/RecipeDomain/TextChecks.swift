// MARK: - Text checks
//
// Small string predicates shared by the rules. They avoid Foundation and take the
// ASCII fast path first, because the fold runs them on every accepted edit.

extension String {
    /// Whether the text has more than `limit` Unicode scalars.
    func exceedsLength(_ limit: Int) -> Bool {
        // UTF-8 takes 1...4 bytes per scalar, so the byte count (O(1) for native
        // strings) settles most cases without walking the text.
        let bytes = utf8.count
        if bytes <= limit { return false }
        if bytes > limit &* 4 { return true }
        var count = 0
        for _ in unicodeScalars {
            count &+= 1
            if count > limit { return true }
        }
        return false
    }

    /// Whether the text is empty or only whitespace.
    var isBlank: Bool {
        for byte in utf8 {
            switch byte {
            case 0x20, 0x09...0x0D: continue
            case 0x80...: return !unicodeScalars.contains { !$0.properties.isWhitespace }
            default: return false
            }
        }
        return true
    }

    /// The text without leading and trailing whitespace (Unicode-aware).
    var trimmingWhitespace: String {
        // Most texts begin and end with a visible ASCII character: nothing to trim, nothing to copy.
        if let first = utf8.first, let last = utf8.last, (0x21 ... 0x7E).contains(first), (0x21 ... 0x7E).contains(last) { return self }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    /// Case-insensitive equality, used for tag names. ASCII is folded byte by
    /// byte; any other text is compared by its Unicode lowercase form.
    func equalsIgnoringCase(_ other: String) -> Bool {
        let lhs = utf8, rhs = other.utf8
        var left = lhs.makeIterator(), right = rhs.makeIterator()
        while let a = left.next() {
            guard let b = right.next() else { return false }
            if a >= 0x80 || b >= 0x80 { return lowercased() == other.lowercased() }
            if a != b, a | 0x20 != b | 0x20 || !(0x61...0x7A).contains(a | 0x20) { return false }
        }
        if let b = right.next() { return b >= 0x80 && lowercased() == other.lowercased() }
        return true
    }

    /// Whether two ids are the same: their exact UTF-8 bytes, with no Unicode
    /// normalisation, since ids are opaque tokens. Checking the byte count first
    /// and stopping at the first differing byte makes the usual "different" answer
    /// far cheaper than `==`.
    func isSameID(as other: String) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        let same = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in
                Self.sameBytes(UnsafeRawBufferPointer(lhs), UnsafeRawBufferPointer(rhs))
            }
        }
        return (same ?? nil) ?? utf8.elementsEqual(other.utf8)
    }

    /// Equal-length buffers compared eight bytes at a time.
    private static func sameBytes(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset &+ 8 <= lhs.count {
            if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset &+= 8
        }
        while offset < lhs.count {
            if lhs[offset] != rhs[offset] { return false }
            offset &+= 1
        }
        return true
    }
}
