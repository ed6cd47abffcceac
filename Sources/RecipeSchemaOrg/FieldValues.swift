import Foundation
import RecipeDomain

// MARK: - Times

/// Reads a recipe's time (`prepTime`, `cookTime`, `totalTime`) into the form the domain
/// keeps: a duration `RecipeDuration` accepts, checked by `FieldRules.duration`, the rule
/// the fold applies. What pages write, and what it becomes:
///
/// - a duration the domain takes as it is: kept as written, in upper case (`pt1h5m` → `PT1H5M`);
/// - an ISO 8601 duration written loosely, whose every part says one thing: its total,
///   written again (`PT0D4H45M` → `PT4H45M`, `PTH30MS` → `PT30M` (empty parts are 0),
///   `PT1.5H` → `PT1H30M`, `PT1H90M` stays);
/// - hours and minutes in words: `45 minutes` → `PT45M`, `1 hr 30 mins` → `PT1H30M`,
///   `1h30` → `PT1H30M`, `2 days` → `P2D`.
///
/// Nil for what is ambiguous or no time at all: `P30M` (30 months, or a missing `T`?),
/// years, a bare number, a range ("4–6 hours"), "overnight".
public enum ImportedDuration {
    public static func read(_ text: String) -> String? {
        let trimmed = text.trimmed
        let upper = trimmed.uppercased()
        if RecipeDuration.seconds(upper) != nil { return FieldRules.duration(upper, "time") == nil ? upper : nil }
        let seconds = upper.hasPrefix("P") ? looseISOSeconds(upper.utf8.dropFirst()) : wordsSeconds(trimmed.lowercased())
        guard let seconds else { return nil }
        let written = iso(seconds: seconds)
        return FieldRules.duration(written, "time") == nil ? written : nil
    }

    /// The duration in the domain's form: days, then hours, minutes and seconds after a `T`.
    static func iso(seconds total: Int) -> String {
        let (days, hours, minutes, seconds) = (total / 86_400, total % 86_400 / 3600, total % 3600 / 60, total % 60)
        var time = ""
        if hours > 0 { time += "\(hours)H" }
        if minutes > 0 { time += "\(minutes)M" }
        if seconds > 0 || (days == 0 && time.isEmpty) { time += "\(seconds)S" }
        return "P" + (days > 0 ? "\(days)D" : "") + (time.isEmpty ? "" : "T" + time)
    }

    /// `P…` after the `P`: parts in the order W D H M S, a `T` anywhere before the time parts
    /// or missing (`P1H30M`), a part without digits 0, a fraction allowed. An `M` before any
    /// hour and without a `T` before it is months, and years are refused: no fixed length.
    private static func looseISOSeconds(_ rest: Substring.UTF8View) -> Int? {
        var total = 0.0
        var number = ""
        var seenTime = false
        var lastRank = 0
        var parts = 0
        for byte in rest {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: ","):
                number.append(Character(Unicode.Scalar(byte == UInt8(ascii: ",") ? UInt8(ascii: ".") : byte)))
                continue
            case UInt8(ascii: "T"):
                guard !seenTime, number.isEmpty else { return nil }
                seenTime = true
                continue
            default:
                break
            }
            let (rank, unit): (Int, Double)
            switch byte {
            case UInt8(ascii: "W"): (rank, unit) = (1, 604_800)
            case UInt8(ascii: "D"): (rank, unit) = (2, 86_400)
            case UInt8(ascii: "H"): (rank, unit) = (3, 3600)
            case UInt8(ascii: "M") where seenTime || lastRank == 3: (rank, unit) = (4, 60)
            case UInt8(ascii: "S"): (rank, unit) = (5, 1)
            default: return nil
            }
            guard rank > lastRank, number.count <= 9, let value = number.isEmpty ? 0 : Double(number) else { return nil }
            total += value * unit
            lastRank = rank
            parts += 1
            number = ""
        }
        guard number.isEmpty, parts > 0 else { return nil }
        return Int(total.rounded())
    }

    /// Numbers each followed by a unit word, with "and", commas or "+" between: "1 hour 30
    /// minutes", "1h30" (minutes after hours), "1½ hours". Any other word makes it no time.
    private static func wordsSeconds(_ text: String) -> Int? {
        var total = 0.0
        var parts = 0
        var lastUnit = 0.0
        var scalars = text.unicodeScalars[...]
        func skipSpace() {
            while let first = scalars.first, first.properties.isWhitespace || first == "," || first == "+" { scalars.removeFirst() }
        }
        while true {
            skipSpace()
            if scalars.starts(with: "and".unicodeScalars) { scalars.removeFirst(3); skipSpace() }
            guard !scalars.isEmpty else { break }
            var digits = ""
            while let first = scalars.first, ("0"..."9").contains(first) || first == "." || first == "," {
                digits.unicodeScalars.append(first == "," ? "." : first)
                scalars.removeFirst()
            }
            var value = digits.isEmpty ? nil : Double(digits)
            if let fraction = scalars.first.flatMap({ vulgarFractions[$0] }) {
                value = (value ?? 0) + fraction
                scalars.removeFirst()
            }
            guard let value else { return nil }
            skipSpace()
            var word = ""
            while let first = scalars.first, first.properties.isAlphabetic {
                word.unicodeScalars.append(first)
                scalars.removeFirst()
            }
            if !word.isEmpty, scalars.first == "." { scalars.removeFirst() }  // "mins."
            // "1h30": minutes after hours, without a word.
            let unit = word.isEmpty && lastUnit == 3600 && scalars.isEmpty ? 60 : unitSeconds(word)
            guard let unit, unit != lastUnit else { return nil }
            total += value * unit
            lastUnit = unit
            parts += 1
        }
        guard parts > 0 else { return nil }
        return Int(total.rounded())
    }

    private static func unitSeconds(_ word: String) -> Double? {
        switch word {
        case "d", "day", "days": 86_400
        case "h", "hr", "hrs", "hour", "hours": 3600
        case "m", "min", "mins", "minute", "minutes": 60
        case "s", "sec", "secs", "second", "seconds": 1
        default: nil
        }
    }

    private static let vulgarFractions: [Unicode.Scalar: Double] = ["½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1.0 / 3, "⅔": 2.0 / 3]
}

// MARK: - Tag names from keywords

/// Makes tag names from schema.org keywords, categories and cuisines.
public enum KeywordTags {
    /// The tag name for `keyword`, or nil when none can be made (`Tag.isValidName` refuses
    /// it: no letter to start with, or longer than `RecipeLimits.maxTagNameLength`).
    ///
    /// Lower case; apostrophes dropped ("Mom's" → `moms`); every other run of characters a
    /// name cannot hold (spaces, punctuation, "-") becomes one "-", none at the ends:
    /// "Main Course" → `main-course`, "Soups & Stews" → `soups-stews`, "Crème brûlée" →
    /// `crème-brûlée`, "日本料理" stays as it is; "30-minute meals" gives nil (starts with a digit).
    public static func tagName(for keyword: String) -> String? {
        var name = String.UnicodeScalarView()
        var pendingHyphen = false
        for scalar in keyword.lowercased().unicodeScalars {
            if scalar == "'" || scalar == "’" { continue }
            if keepsInName(scalar) {
                if pendingHyphen, !name.isEmpty { name.append("-") }
                pendingHyphen = false
                name.append(scalar)
            } else {
                pendingHyphen = true
            }
        }
        let text = String(name)
        return Tag.isValidName(text) ? text : nil
    }

    /// What a tag name holds besides "-", which is the separator made here.
    private static func keepsInName(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "-" && Tag.isNameScalar(scalar)
    }
}
