// MARK: - JSON numbers
//
// Converting number tokens the scanner has already checked against the JSON
// grammar. Correctness first: doubles are always the correctly rounded nearest
// value, taken from an exact fast path when it applies and from the standard
// library's conversion otherwise.

public enum JSONNumber {
    /// Integers whose magnitude is at most this are exact in a `Double`, in
    /// JavaScript and in every JSON reader; integer fields stay within it.
    @inlinable public static var maxSafeInteger: Int { 9_007_199_254_740_991 } // 2^53 - 1

    /// The `Double` nearest to the number's decimal value; ±infinity when its
    /// magnitude is too large (`1e999`), ±0 when too small.
    public static func double(_ raw: UnsafeRawBufferPointer) -> Double {
        if let exact = exactDouble(raw) { return exact }
        // Rare: many digits or a large exponent. The standard library rounds
        // correctly; the text is already known to be a valid JSON number.
        return Double(String(decoding: raw, as: UTF8.self)) ?? .nan
    }

    /// An integer-valued number as `Int`. Like JSON Schema's `integer`, `4.0` and
    /// `4e0` count as integers.
    public enum IntegerValue: Equatable {
        case value(Int)
        case notInteger
        case outOfRange
    }

    @inlinable
    public static func integer(_ raw: UnsafeRawBufferPointer, isPlainInteger: Bool) -> IntegerValue {
        if isPlainInteger, raw.count <= 17 {
            // At most 16 digits after an optional minus: no overflow possible.
            var index = 0, negative = false
            if raw[0] == UInt8(ascii: "-") { negative = true; index = 1 }
            var magnitude = 0
            while index < raw.count {
                magnitude = magnitude &* 10 &+ Int(raw[index] &- UInt8(ascii: "0"))
                index &+= 1
            }
            guard magnitude <= maxSafeInteger else { return .outOfRange }
            return .value(negative ? -magnitude : magnitude)
        }
        let value = double(raw)
        // Every double of this magnitude or more is an integer, but not a safe one.
        guard value.magnitude <= Double(maxSafeInteger) else { return .outOfRange }
        // Truncating and comparing needs no libm (rounded() would).
        let truncated = Int(value)
        guard Double(truncated) == value else { return .notInteger }
        return .value(truncated)
    }

    // MARK: - Exact fast path

    /// Powers of ten that are exact doubles.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Clinger's fast path: when the digits form an integer below 2^53 and the
    /// decimal exponent is within ±22, both operands are exact doubles and one
    /// IEEE multiplication or division rounds correctly. Typical amounts (250,
    /// 0.5, 1.2345) all take it. nil when it does not apply.
    private static func exactDouble(_ raw: UnsafeRawBufferPointer) -> Double? {
        var index = 0
        var negative = false
        if raw[0] == UInt8(ascii: "-") { negative = true; index = 1 }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var inFraction = false
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte | 0x20 == UInt8(ascii: "e") {
                break
            } else {
                let digit = UInt64(byte &- UInt8(ascii: "0"))
                if mantissa != 0 || digit != 0 { significantDigits &+= 1 }
                guard significantDigits <= 16 else { return nil }
                mantissa = mantissa &* 10 &+ digit
                if inFraction { exponent &-= 1 }
            }
            index &+= 1
        }
        if index < raw.count {
            // Exponent: e, optional sign, digits. Four digits cover every case the
            // fast path can take; longer ones go the slow way.
            index &+= 1
            var exponentNegative = false
            if raw[index] == UInt8(ascii: "+") || raw[index] == UInt8(ascii: "-") {
                exponentNegative = raw[index] == UInt8(ascii: "-")
                index &+= 1
            }
            guard raw.count &- index <= 4 else { return nil }
            var written = 0
            while index < raw.count {
                written = written &* 10 &+ Int(raw[index] &- UInt8(ascii: "0"))
                index &+= 1
            }
            exponent &+= exponentNegative ? -written : written
        }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        let value = exponent >= 0 ? Double(mantissa) * powersOfTen[exponent] : Double(mantissa) / powersOfTen[-exponent]
        return negative ? -value : value
    }
}
