// MARK: - Actor names

/// The one spelling of an actor's name (a record's `actor`, a grant's `grantee`, a
/// transfer's `newOwner`, a line of the tokens file), so that the fold, which compares
/// names with `String ==` (canonical equivalence), and the store, which compares bytes,
/// always agree on who is who. The form (`ActorName.form`):
///
/// - 1 to 128 Unicode scalars (`RecipeLimits.maxIdentifierLength`);
/// - in Unicode Normalization Form C, as the standard library computes it: two NFC
///   texts are canonically equivalent exactly when their bytes are equal, so `jos\u{E9}`
///   is the only spelling of José and `jose\u{301}` is refused, naming it;
/// - no control character (C0, DEL, C1), no whitespace and no `#`: C APIs end text at a
///   NUL, and the tokens file splits its lines at spaces and comments at `#`.
///
/// Case, compatibility forms (`ﬁ`) and look-alikes are not folded: every layer keeps
/// them apart alike, so they are different names, not aliases. Code points this build's
/// Unicode leaves unassigned are taken as they are (NFC leaves them alone).
public enum ActorName {
    /// The form, for messages.
    public static let form = "1 to \(RecipeLimits.maxIdentifierLength) characters in Unicode NFC, "
        + "without spaces, control characters or '#'"

    /// Nil when `name` is an actor's name in its one spelling, else why not: the message
    /// names the canonical spelling when only the normalization differs.
    public static func problem(_ name: String) -> String? {
        // The ASCII names nearly every record carries: one pass over the contiguous bytes
        // (every command and decision read checks one).
        var name = name
        let plainASCII = name.withUTF8 { bytes in
            !bytes.isEmpty && bytes.count <= RecipeLimits.maxIdentifierLength
                && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") }
        }
        if plainASCII || isLatinAndAllowed(name) { return nil }
        let isASCII = name.utf8.allSatisfy { $0 < 0x80 }
        let quotedName = RecipeID.quoted(name)
        if name.isEmpty || name.unicodeScalars.count > RecipeLimits.maxIdentifierLength {
            return "\(quotedName) is not an actor name (\(form))"
        }
        if let scalar = name.unicodeScalars.first(where: { !isAllowed($0) }) {
            return "\(quotedName) is not an actor name: it holds \(codePoint(scalar.value)) (\(form))"
        }
        if !isASCII {
            let canonical = self.canonical(name)
            if !canonical.utf8.elementsEqual(name.utf8) {
                return "\(quotedName) is not an actor name in its canonical spelling (Unicode NFC): write it \(RecipeID.quoted(canonical))"
            }
        }
        return nil
    }

    /// `name` in Unicode NFC, as the standard library normalizes when it compares strings
    /// (its own tables, so this spelling and `==` can never disagree).
    public static func canonical(_ name: String) -> String {
        var name = name
        // ASCII is NFC; checked over the contiguous bytes (every older decision read asks).
        if name.withUTF8({ $0.allSatisfy { $0 < 0x80 } }) { return name }
        return String(decoding: name._nfcCodeUnits, as: UTF8.self)
    }

    /// `U+0000`: how messages name a character that cannot be shown.
    public static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// True for a name of 1 to 128 allowed scalars all below U+0300 (Latin-1, Latin Extended,
    /// IPA, spacing modifiers): no scalar there composes with another or changes under NFC (the
    /// first that may is U+0300), and none is whitespace or a control but those of C0, DEL, C1
    /// and U+00A0. `chloé` is decided here without normalizing (ActorNameTests checks the range).
    static func isLatinAndAllowed(_ name: String) -> Bool {
        var count = 0
        for scalar in name.unicodeScalars {
            let value = scalar.value
            guard value < 0x300, value > 0xA0 || (value > 0x20 && value < 0x7F && value != 0x23) else { return false }
            count += 1
        }
        return count > 0 && count <= RecipeLimits.maxIdentifierLength
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "#" || scalar.properties.isWhitespace { return false }
        switch scalar.properties.generalCategory {
        case .control, .surrogate, .lineSeparator, .paragraphSeparator, .spaceSeparator: return false
        default: return true
        }
    }
}
