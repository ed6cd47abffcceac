import RecipeDomain
import RecipeJSON

// MARK: - RFC 3339 times
//
// The `time` attribute. Written in UTC with `Z`, with milliseconds only when they
// are not zero (`2026-12-01T10:15:00Z`, `2026-12-01T10:15:00.123Z`): the domain's
// `Timestamp` is whole milliseconds, so that is exact and canonical. Read in any
// RFC 3339 form: `T` or `t`, `Z`, `z` or a numeric offset, any number of
// fractional digits (beyond milliseconds they are cut off, as a clock reading is
// floored), seconds up to 60 for a leap second. No Foundation: the conversion is
// plain calendar arithmetic (Howard Hinnant's days-from-civil algorithms).

/// RFC 3339 times as the records write and read them.
///
/// ```swift
/// RFC3339.string(Timestamp(millisecondsSinceEpoch: 1_796_120_100_123)) // "2026-12-01T10:15:00.123Z"
/// RFC3339.parse("2026-12-01T11:15:00+01:00")                          // 1_796_120_100_000 ms
/// ```
public enum RFC3339 {
    /// The earliest and latest instants the four-digit year of RFC 3339 can write.
    public static let earliest = Timestamp(millisecondsSinceEpoch: -62_167_219_200_000) // 0000-01-01T00:00:00Z
    public static let latest = Timestamp(millisecondsSinceEpoch: 253_402_300_799_999) // 9999-12-31T23:59:59.999Z

    private static let millisecondsPerDay: Int64 = 86_400_000

    // MARK: - Writing

    /// Appends the time in UTC. Times outside years 0000…9999 are clamped to that
    /// range, the only one RFC 3339 can write.
    public static func write(_ time: Timestamp, to bytes: inout [UInt8]) {
        layOut(time) { bytes.append(contentsOf: $0) }
    }

    /// Writes the time in UTC, as `write(_:to:)` appends it.
    public static func write(_ time: Timestamp, to writer: inout JSONWriter) {
        layOut(time) { writer.append($0) }
    }

    private static func layOut(_ time: Timestamp, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let milliseconds = min(max(time.millisecondsSinceEpoch, earliest.millisecondsSinceEpoch), latest.millisecondsSinceEpoch)
        let days = floorDivide(milliseconds, millisecondsPerDay)
        let ofDay = milliseconds - days * millisecondsPerDay
        let (year, month, day) = civil(fromDays: days)
        let seconds = ofDay / 1000
        // Laid out in place at fixed places, then appended at once, not a byte at a time
        // with the array's checks each time.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            put(year, width: 4, in: text, at: 0)
            text[4] = UInt8(ascii: "-")
            put(month, width: 2, in: text, at: 5)
            text[7] = UInt8(ascii: "-")
            put(day, width: 2, in: text, at: 8)
            text[10] = UInt8(ascii: "T")
            put(seconds / 3600, width: 2, in: text, at: 11)
            text[13] = UInt8(ascii: ":")
            put(seconds / 60 % 60, width: 2, in: text, at: 14)
            text[16] = UInt8(ascii: ":")
            put(seconds % 60, width: 2, in: text, at: 17)
            var count = 19
            if ofDay % 1000 != 0 {
                text[19] = UInt8(ascii: ".")
                put(ofDay % 1000, width: 3, in: text, at: 20)
                count = 23
            }
            text[count] = UInt8(ascii: "Z")
            body(UnsafeBufferPointer(rebasing: text[...count]))
        }
    }

    /// `value` in `width` decimal digits, zeros in front, at `offset` of `text`.
    @inline(__always)
    private static func put(_ value: Int64, width: Int, in text: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        var rest = value
        var position = offset + width
        while position > offset {
            position -= 1
            text[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
    }

    /// The time as text, e.g. for messages and tests.
    public static func string(_ time: Timestamp) -> String {
        var bytes: [UInt8] = []
        write(time, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Reading

    /// The instant an RFC 3339 `date-time` names, or nil when the text is not one
    /// (wrong form, or a date or time that does not exist, such as February 30).
    public static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// The same, from UTF-8 bytes.
    public static func parse(_ text: UnsafeRawBufferPointer) -> Timestamp? {
        var reader = DigitReader(bytes: text)
        guard let year = reader.number(4), reader.skip("-"),
              let month = reader.number(2), reader.skip("-"),
              let day = reader.number(2), reader.skipEither("T", "t"),
              let hour = reader.number(2), reader.skip(":"),
              let minute = reader.number(2), reader.skip(":"),
              let second = reader.number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }

        var milliseconds: Int64 = 0
        if reader.skip(".") {
            var digits = 0
            while let digit = reader.number(1) {
                if digits < 3 { milliseconds = milliseconds * 10 + digit }
                digits += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }

        var offsetMinutes: Int64 = 0
        if !reader.skipEither("Z", "z") {
            let sign: Int64
            if reader.skip("+") { sign = 1 } else if reader.skip("-") { sign = -1 } else { return nil }
            guard let offsetHours = reader.number(2), reader.skip(":"), let offsetMinute = reader.number(2),
                  offsetHours <= 23, offsetMinute <= 59
            else { return nil }
            offsetMinutes = sign * (offsetHours * 60 + offsetMinute)
        }
        guard reader.isAtEnd else { return nil }

        let days = days(fromCivil: year, month, day)
        let secondsOfDay = hour * 3600 + minute * 60 + second - offsetMinutes * 60
        return Timestamp(millisecondsSinceEpoch: days * millisecondsPerDay + secondsOfDay * 1000 + milliseconds)
    }

    /// Fixed-width ASCII digits and separators, front to back.
    private struct DigitReader {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        // Inlined, with its width a constant at each call: a call per field was half of
        // reading a time, which every command and decision holds.
        @inline(__always)
        mutating func number(_ width: Int) -> Int64? {
            guard bytes.count - index >= width else { return nil }
            var value: Int64 = 0
            for position in index..<(index + width) {
                let digit = bytes[position] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            index += width
            return value
        }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func skipEither(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> Bool {
            skip(first) || skip(second)
        }
    }

    // MARK: - Calendar

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
