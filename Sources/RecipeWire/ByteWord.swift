/// Eight bytes of a string, tested together for the bytes that `JSONWriter`
/// escapes and `JSONScanner` must look at one by one. A test is exact when it
/// says no; a yes may come from a byte after a special one, so the caller then
/// looks at the bytes one by one.
struct ByteWord {
    private let word: UInt64

    init(_ buffer: UnsafeRawBufferPointer, at offset: Int) {
        word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// High bit of each byte that is below `limit` (at most 0x80), or above such a byte.
    private func below(_ limit: UInt8) -> UInt64 {
        (word &- Self.ones &* UInt64(limit)) & ~word & Self.highBits
    }

    private func equal(_ byte: UInt8) -> UInt64 {
        ByteWord(word ^ (Self.ones &* UInt64(byte))).below(1)
    }

    private init(_ word: UInt64) { self.word = word }

    /// How many bytes come before the first `"`, `\` or control character
    /// (below 0x20): 8 when there is none. Exact, since the test is exact up to
    /// the first such byte (the loaded word is little-endian).
    var unescapedPrefix: Int {
        (below(0x20) | equal(UInt8(ascii: "\"")) | equal(UInt8(ascii: "\\"))).trailingZeroBitCount >> 3
    }

    /// How many bytes come before the first `"`, `\`, control character or
    /// non-ASCII byte: 8 when there is none. Exact, since the test is exact up
    /// to the first such byte (the loaded word is little-endian).
    var plainASCIIPrefix: Int {
        let special = below(0x20) | equal(UInt8(ascii: "\"")) | equal(UInt8(ascii: "\\")) | (word & Self.highBits)
        return special.trailingZeroBitCount >> 3
    }
}
