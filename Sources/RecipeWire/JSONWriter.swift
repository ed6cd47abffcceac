// MARK: - JSON writer

/// Appends canonical JSON to a byte buffer: no whitespace, strings escaped the one
/// way below, numbers in one fixed form. Same input, same bytes, on every machine.
/// The record encoder's writer, public for other canonical JSON (read models, HTTP).
///
/// ```swift
/// var writer = JSONWriter(capacity: 64)
/// writer.key("name", first: true); writer.string("Flour")
/// writer.key("amount"); writer.number(250)
/// writer.raw("}")
/// String(decoding: writer.bytes, as: UTF8.self) // {"name":"Flour","amount":250}
/// ```
public struct JSONWriter: Sendable {
    /// What has been written so far.
    public var bytes: [UInt8]

    public init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// ASCII written as is (punctuation, literals); nothing is escaped.
    @inlinable
    public mutating func raw(_ text: StaticString) {
        // Inlined, a one-byte literal (most of them) is one append.
        if text.utf8CodeUnitCount == 1 {
            bytes.append(text.utf8Start.pointee)
        } else {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
    }

    /// `,"name":`, or `{"name":` for the first member of an object.
    @inlinable
    public mutating func key(_ name: StaticString, first: Bool = false) {
        appendKey(first ? UInt8(ascii: "{") : UInt8(ascii: ","), name)
    }

    /// `,"name":`, or `{"name":` directly after the object's `{`: for objects whose
    /// first member may be absent. (No value ends in `{`, so a `{` last means no member yet.)
    @inlinable
    public mutating func member(_ name: StaticString) {
        if bytes.last == UInt8(ascii: "{") {
            appendKey(nil, name)
        } else {
            appendKey(UInt8(ascii: ","), name)
        }
    }

    /// `lead` (if any), then `"name":`, laid out on the stack and appended in one go: appended
    /// byte by byte, each append checking the array's uniqueness and capacity, a key cost about
    /// 210 instructions, and keys were a fifth of encoding a decision.
    @usableFromInline
    mutating func appendKey(_ lead: UInt8?, _ name: StaticString) {
        let count = name.utf8CodeUnitCount
        let start = lead == nil ? 0 : 1
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 4) { buffer in
            if let lead { buffer[0] = lead }
            buffer[start] = UInt8(ascii: "\"")
            (buffer.baseAddress! + start + 1).initialize(from: name.utf8Start, count: count)
            buffer[start + count + 1] = UInt8(ascii: "\"")
            buffer[start + count + 2] = UInt8(ascii: ":")
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<(start + count + 3)]))
        }
    }

    /// `,` between the elements of an array: nothing directly after its `[`.
    @inlinable
    public mutating func element() {
        if bytes.last != UInt8(ascii: "[") { bytes.append(UInt8(ascii: ",")) }
    }

    // MARK: - Strings

    /// A JSON string. Escaped: `"` and `\` with a backslash; U+0008, U+0009, U+000A,
    /// U+000C and U+000D as `\b \t \n \f \r`; every other control character below
    /// U+0020 as `\u00xx` (lowercase hex). Everything else, `/`, DEL and all
    /// non-ASCII included, is written as its UTF-8 bytes.
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        escaped(text)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `text` escaped as `string(_:)` escapes it, without the quotes: for a JSON string
    /// written in parts (`raw("\"")`, parts, `raw("\"")`) rather than built first.
    public mutating func escaped(_ text: String) {
        // In place when the string is native (always, but for bridged ones): no copy, no retain.
        if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var copy = text
            copy.withUTF8 { appendEscaped($0) }
        }
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let count = utf8.count
        var runStart = 0
        var index = 0
        while index < count {
            // Eight bytes at a time while none of them needs an escape (the usual case),
            // then straight to the first that does.
            if index &+ 8 <= count {
                let plain = ByteWord(UnsafeRawBufferPointer(utf8), at: index).unescapedPrefix
                index &+= plain
                if plain == 8 { continue }
            }
            let byte = utf8[index]
            index &+= 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            // Copy the run of plain bytes in one go, then the escape.
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<(index &- 1)]))
            runStart = index
            appendEscape(byte)
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
    }

    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            let hex: StaticString = "0123456789abcdef"
            raw("u00")
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0xF)])
        }
    }

    // MARK: - Numbers

    /// Decimal digits, with a minus when negative.
    public mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // One digit (counts, revisions, orders) is the usual case.
        if magnitude < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// A finite double in its shortest round-trip form: integers below 2^53 without
    /// a fraction (`250`, `-0` for negative zero), others as Swift prints them,
    /// which is the shortest text that reads back as the same double and is valid
    /// JSON (`0.3333333333333333`, `1e-07`, `1e+300`). JSON cannot write NaN or
    /// infinity: they become `null`, which no reader accepts as an amount, so a
    /// producer that skipped `RecordLimits` learns at once.
    public mutating func number(_ value: Double) {
        guard value.isFinite else {
            raw("null")
            return
        }
        if value.magnitude < 9_007_199_254_740_992, Double(Int(value)) == value {
            if value == 0, value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
            integer(Int(value))
            return
        }
        // Swift prints 2^53 itself as "9007199254740992.0": integers keep no ".0".
        let text = value.description.utf8
        bytes.append(contentsOf: text.reversed().starts(with: ".0".utf8.reversed()) ? text.dropLast(2) : text[...])
    }
}
