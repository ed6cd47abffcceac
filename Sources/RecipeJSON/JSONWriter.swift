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
public struct JSONWriter: ~Copyable, @unchecked Sendable {
    // Storage of its own, not an array: each append to an array checks that the array is
    // unique and has room, and a decision is about 150 appends. Noncopyable, the writer
    // is the one owner of its bytes: an append
    // is a bounds check and a store. (Sendable: nothing else holds `start`.)
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int

    public init(capacity: Int) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// What has been written so far (a copy).
    @inlinable
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    /// The bytes written so far, in place, for as long as `body` runs.
    @inlinable
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: start, count: count))
    }

    /// The last byte written.
    @inlinable
    public var last: UInt8? { count == 0 ? nil : start[count &- 1] }

    /// Makes room for `more` bytes after those written.
    @inlinable @inline(__always)
    mutating func reserve(_ more: Int) {
        if count &+ more > capacity { grow(count + more) }
    }

    @usableFromInline
    mutating func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.initialize(from: start, count: count)
        start.deallocate()
        (start, capacity) = (newStart, newCapacity)
    }

    /// One byte, written as is.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count &+= 1
    }

    /// Bytes written as they are.
    @inlinable
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (start + count).initialize(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count &+= bytes.count
    }

    /// Bytes written as they are.
    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(bytes))
    }

    /// Bytes written as they are.
    @inlinable
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// A string's UTF-8 bytes written as they are, unescaped: for text known to need no escape.
    @inlinable
    public mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// ASCII written as is (punctuation, literals); nothing is escaped.
    @inlinable @inline(__always)
    public mutating func raw(_ text: StaticString) {
        // Inlined, a one-byte literal (most of them) is one append.
        if text.utf8CodeUnitCount == 1 {
            append(text.utf8Start.pointee)
        } else {
            append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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
        if last == UInt8(ascii: "{") {
            appendKey(nil, name)
        } else {
            appendKey(UInt8(ascii: ","), name)
        }
    }

    /// `lead` (if any), then `"name":`, in place.
    @inlinable
    mutating func appendKey(_ lead: UInt8?, _ name: StaticString) {
        let length = name.utf8CodeUnitCount
        reserve(length &+ 4)
        if let lead {
            start[count] = lead
            count &+= 1
        }
        start[count] = UInt8(ascii: "\"")
        (start + (count &+ 1)).initialize(from: name.utf8Start, count: length)
        start[count &+ length &+ 1] = UInt8(ascii: "\"")
        start[count &+ length &+ 2] = UInt8(ascii: ":")
        count &+= length &+ 3
    }

    /// `,` between the elements of an array: nothing directly after its `[`.
    @inlinable
    public mutating func element() {
        if last != UInt8(ascii: "[") { append(UInt8(ascii: ",")) }
    }

    // MARK: - Strings

    /// A JSON string. Escaped: `"` and `\` with a backslash; U+0008, U+0009, U+000A,
    /// U+000C and U+000D as `\b \t \n \f \r`; every other control character below
    /// U+0020 as `\u00xx` (lowercase hex). Everything else, `/`, DEL and all
    /// non-ASCII included, is written as its UTF-8 bytes.
    @inlinable
    public mutating func string(_ text: String) {
        append(UInt8(ascii: "\""))
        escaped(text)
        append(UInt8(ascii: "\""))
    }

    /// `text` escaped as `string(_:)` escapes it, without the quotes: for a JSON string
    /// written in parts (`raw("\"")`, parts, `raw("\"")`) rather than built first.
    @inlinable
    public mutating func escaped(_ text: String) {
        // In place when the string is native (always, but for bridged ones): no copy, no retain.
        if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
            var copy = text
            copy.withUTF8 { appendEscaped($0) }
        }
    }

    @inlinable
    mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
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
            append(UnsafeBufferPointer(rebasing: utf8[runStart..<(index &- 1)]))
            runStart = index
            appendEscape(byte)
        }
        append(UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
    }

    @usableFromInline
    mutating func appendEscape(_ byte: UInt8) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
        case 0x08: append(UInt8(ascii: "b"))
        case 0x09: append(UInt8(ascii: "t"))
        case 0x0A: append(UInt8(ascii: "n"))
        case 0x0C: append(UInt8(ascii: "f"))
        case 0x0D: append(UInt8(ascii: "r"))
        default:
            let hex: StaticString = "0123456789abcdef"
            raw("u00")
            append(hex.utf8Start[Int(byte >> 4)])
            append(hex.utf8Start[Int(byte & 0xF)])
        }
    }

    // MARK: - Numbers

    /// Decimal digits, with a minus when negative.
    @inlinable
    public mutating func integer(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // One digit (counts, revisions, orders) is the usual case.
        if magnitude < 10 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
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
            append(UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// A finite double in its shortest round-trip form: integers below 2^53 without
    /// a fraction (`250`, `-0` for negative zero), others as Swift prints them,
    /// which is the shortest text that reads back as the same double and is valid
    /// JSON (`0.3333333333333333`, `1e-07`, `1e+300`). JSON cannot write NaN or
    /// infinity: they become `null`, which no reader accepts as an amount, so a
    /// producer that skipped `RecordLimits` learns at once.
    @inlinable
    public mutating func number(_ value: Double) {
        guard value.isFinite else {
            raw("null")
            return
        }
        if value.magnitude < 9_007_199_254_740_992, Double(Int(value)) == value {
            if value == 0, value.sign == .minus { append(UInt8(ascii: "-")) }
            integer(Int(value))
            return
        }
        // Swift prints 2^53 itself as "9007199254740992.0": integers keep no ".0".
        let text = value.description
        append(utf8: text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    }
}
