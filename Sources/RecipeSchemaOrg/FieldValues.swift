import Foundation
import RecipeDomain

// MARK: - ISO 8601 durations

/// schema.org's `Duration` is an ISO 8601 duration: `P[nY][nM][nW][nD][T[nH][nM][nS]]`,
/// at least one part, at least one after a `T`, parts in that order, each a number
/// with an optional fraction (`PT1.5H`, `PT1,5H`). `PT1H30M`, `P0DT20M`, `PT90M`, `P1D`.
public enum ISO8601Duration {
    /// The duration in upper case when `text` (trimmed) is one; nil otherwise.
    public static func normalized(_ text: String) -> String? {
        let upper = text.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        var scalars = upper.unicodeScalars[...]
        guard scalars.popFirst() == "P", !scalars.isEmpty else { return nil }
        var designators: [Unicode.Scalar] = ["Y", "M", "W", "D"]
        var parts = 0
        var inTime = false
        var timeParts = 0
        while let next = scalars.first {
            if next == "T" {
                guard !inTime else { return nil }
                inTime = true
                designators = ["H", "M", "S"]
                scalars = scalars.dropFirst()
                continue
            }
            guard let (afterNumber, designator) = number(in: scalars),
                  let position = designators.firstIndex(of: designator) else { return nil }
            designators.removeFirst(position + 1)
            parts += 1
            if inTime { timeParts += 1 }
            scalars = afterNumber
        }
        guard parts > 0, !inTime || timeParts > 0 else { return nil }
        return upper
    }

    /// Digits, an optional fraction after `.` or `,`, then the designator that follows.
    private static func number(in scalars: Substring.UnicodeScalarView) -> (Substring.UnicodeScalarView, Unicode.Scalar)? {
        var rest = scalars
        var digits = 0
        while let scalar = rest.first, ("0"..."9").contains(scalar) {
            digits += 1
            rest = rest.dropFirst()
        }
        guard digits > 0 else { return nil }
        if let separator = rest.first, separator == "." || separator == "," {
            rest = rest.dropFirst()
            var fraction = 0
            while let scalar = rest.first, ("0"..."9").contains(scalar) {
                fraction += 1
                rest = rest.dropFirst()
            }
            guard fraction > 0 else { return nil }
        }
        guard let designator = rest.popFirst() else { return nil }
        return (rest, designator)
    }
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

// MARK: - URLs

enum WebURL {
    /// Whether `text` is an absolute http or https URL with a host, no spaces or control
    /// characters, at most `RecipeLimits.maxImageURLLength` long: what the domain takes as
    /// an image (its rule, restated here because the domain keeps it internal).
    static func isAcceptable(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard scalars.count <= RecipeLimits.maxImageURLLength,
              !scalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { return false }
        let lower = text.lowercased()
        let rest: Substring
        if lower.hasPrefix("http://") {
            rest = text.dropFirst(7)
        } else if lower.hasPrefix("https://") {
            rest = text.dropFirst(8)
        } else {
            return false
        }
        return !rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.isEmpty
    }
}
