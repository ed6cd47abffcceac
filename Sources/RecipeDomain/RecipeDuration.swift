// MARK: - Durations

/// The ISO 8601 durations a recipe's times are written in, as schema.org has them:
/// `PT30M`, `PT1H30M`, `P1D`, `P1DT2H`, `PT90S`.
///
/// Accepted: `P`, then days (`nD`, or weeks `nW`), then optionally `T` and at least
/// one of hours `nH`, minutes `nM`, seconds `nS`, in that order; each number whole,
/// at most 6 digits; at least one part; upper-case letters. Years and months are
/// refused (their length varies), and so are fractions (`PT1.5H`: write `PT1H30M`).
/// The text is stored as written; this only judges it.
public enum RecipeDuration {
    /// The duration in seconds, or nil when `text` is not one the rules above accept.
    public static func seconds(_ text: String) -> Int? {
        var bytes = text.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "P") else { return nil }
        var total = 0
        var parts = 0
        var inTime = false
        var digits = 0
        var number = 0
        // Each designator may follow only those before it: W D | T H M S.
        var lastRank = 0
        while let byte = bytes.next() {
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
                guard digits <= 6 else { return nil }
                number = number * 10 + Int(byte - UInt8(ascii: "0"))
                continue
            }
            if byte == UInt8(ascii: "T") {
                guard !inTime, digits == 0 else { return nil }
                inTime = true
                lastRank = 2
                continue
            }
            let rank: Int
            let seconds: Int
            switch (byte, inTime) {
            case (UInt8(ascii: "W"), false): (rank, seconds) = (1, 604_800)
            case (UInt8(ascii: "D"), false): (rank, seconds) = (2, 86_400)
            case (UInt8(ascii: "H"), true): (rank, seconds) = (3, 3600)
            case (UInt8(ascii: "M"), true): (rank, seconds) = (4, 60)
            case (UInt8(ascii: "S"), true): (rank, seconds) = (5, 1)
            default: return nil
            }
            guard digits > 0, rank > lastRank else { return nil }
            total += number * seconds
            parts += 1
            lastRank = rank
            digits = 0
            number = 0
        }
        // A number without its designator, nothing at all, or a `T` with nothing after it.
        guard digits == 0, parts > 0, !(inTime && lastRank == 2) else { return nil }
        return total
    }
}
