// MARK: - Text of tokens
//
// Turning string tokens into text. The scanner has already checked every byte
// and escape, so these conversions cannot fail; the common case, a string
// without escapes, is its bytes as they are.

extension JSONToken {
    /// The text of a string token found in `bytes`.
    @inlinable
    public func text(in bytes: UnsafeRawBufferPointer) -> String {
        withText(in: bytes) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether a string token's text is exactly `literal`.
    @inlinable
    public func text(in bytes: UnsafeRawBufferPointer, equals literal: StaticString) -> Bool {
        let expected = UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return withText(in: bytes) { JSONScanner.same($0, expected) }
    }

    /// Calls `body` with the UTF-8 of a string token's text: its bytes where they lie,
    /// or an unescaped copy only when it holds an escape (which no producer of ours writes).
    @inlinable
    public func withText<Result>(in bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        guard flag else { return body(raw) }
        return JSONScanner.unescaped(raw).withUnsafeBytes(body)
    }
}

extension JSONScanner {
    /// Whether the two byte strings are equal.
    @inlinable
    public static func same(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var index = 0
        while index &+ 8 <= lhs.count {
            guard lhs.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                == rhs.loadUnaligned(fromByteOffset: index, as: UInt64.self) else { return false }
            index &+= 8
        }
        while index < lhs.count {
            guard lhs[index] == rhs[index] else { return false }
            index &+= 1
        }
        return true
    }

    /// Resolves the escapes of a string the scanner has already checked.
    @usableFromInline
    static func unescaped(_ raw: UnsafeRawBufferPointer) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                index &+= 1
                continue
            }
            let kind = raw[index &+ 1]
            index &+= 2
            switch kind {
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(hex4Unchecked(raw, index))
                index &+= 4
                if scalar >= 0xD800, scalar <= 0xDBFF {
                    let low = UInt32(hex4Unchecked(raw, index &+ 2))
                    index &+= 6
                    scalar = 0x10000 &+ ((scalar &- 0xD800) << 10) &+ (low &- 0xDC00)
                }
                appendUTF8(scalar, to: &result)
            default: result.append(kind) // " \ /
            }
        }
        return result
    }

    private static func hex4Unchecked(_ raw: UnsafeRawBufferPointer, _ index: Int) -> UInt16 {
        var unit: UInt16 = 0
        for position in index..<(index &+ 4) { unit = unit << 4 | UInt16(hexValue(raw[position]) ?? 0) }
        return unit
    }

    private static func appendUTF8(_ scalar: UInt32, to bytes: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            bytes.append(UInt8(scalar))
        case ..<0x800:
            bytes.append(UInt8(0xC0 | scalar >> 6))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            bytes.append(UInt8(0xE0 | scalar >> 12))
            bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | scalar >> 18))
            bytes.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
