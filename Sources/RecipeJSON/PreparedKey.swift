// MARK: - Prepared key

/// A member's `"name":` made once, for writers that write the same keys over and over
/// from a table rather than from literals (`ContentJSON`): the bytes are stored as three
/// words and written with one store, where a key of unknown length is a copy of its length.
public struct PreparedKey: Sendable {
    @usableFromInline let words: (UInt64, UInt64, UInt64)
    /// The bytes of `"name":` (of `words`' 24).
    @usableFromInline let length: Int

    /// `name` of at most 21 bytes (so that `"name":` fits the words).
    public init(_ name: StaticString) {
        let count = name.utf8CodeUnitCount
        precondition(count <= 21, "a prepared key holds at most 21 bytes: \(name)")
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &words) { bytes in
            bytes[0] = UInt8(ascii: "\"")
            for index in 0..<count { bytes[index + 1] = name.utf8Start[index] }
            bytes[count + 1] = UInt8(ascii: "\"")
            bytes[count + 2] = UInt8(ascii: ":")
        }
        self.words = words
        length = count + 3
    }
}

extension JSONWriter {
    /// `,"name":`, or `"name":` directly after the object's `{` (as `member(_:)` with a literal).
    @inlinable
    public mutating func member(_ key: PreparedKey) {
        // Room for the comma and all three words: the bytes past the key are overwritten next.
        reserve(25)
        if count > 0, start[count &- 1] != UInt8(ascii: "{") {
            start[count] = UInt8(ascii: ",")
            count &+= 1
        }
        UnsafeMutableRawPointer(start + count).storeBytes(of: key.words, as: (UInt64, UInt64, UInt64).self)
        count &+= key.length
    }
}
