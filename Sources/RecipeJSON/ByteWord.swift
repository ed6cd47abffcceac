/// Eight bytes of a string, tested together for the bytes that `JSONWriter`
/// escapes and `JSONScanner` must look at one by one. The tests flag every
/// such byte, and may also flag bytes after one (a borrow carries upwards),
/// never before: so the first flag is exact, and that is all the callers read.
public struct ByteWord {
    @usableFromInline let word: UInt64

    @inlinable
    public init(_ buffer: UnsafeRawBufferPointer, at offset: Int) {
        word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// High bit of each byte that is below `limit` (at most 0x80), or above such a byte.
    @inlinable
    func below(_ limit: UInt8) -> UInt64 {
        (word &- Self.ones &* UInt64(limit)) & ~word & Self.highBits
    }

    @inlinable
    func equal(_ byte: UInt8) -> UInt64 {
        ByteWord(word ^ (Self.ones &* UInt64(byte))).below(1)
    }

    @inlinable
    init(_ word: UInt64) { self.word = word }

    /// Flags of the bytes a JSON string must escape: `"`, `\` and control characters.
    @inlinable
    var needsEscape: UInt64 {
        below(0x20) | equal(UInt8(ascii: "\"")) | equal(UInt8(ascii: "\\"))
    }

    /// How many bytes come before the first one that needs an escape: 8 when
    /// none does (the word is little-endian, so the lowest flag is the first byte).
    @inlinable
    public var unescapedPrefix: Int { needsEscape.trailingZeroBitCount >> 3 }

    /// How many bytes come before the first one that needs an escape or is not ASCII: 8 when none.
    @inlinable
    public var plainASCIIPrefix: Int { (needsEscape | (word & Self.highBits)).trailingZeroBitCount >> 3 }
}
