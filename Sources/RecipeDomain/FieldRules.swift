// MARK: - Field rules
//
// One check per field, each returning the rejection it causes or nil. Messages
// are built only on the rejecting path so accepted commands pay for no strings.
// Public, so that whoever prepares content outside the fold (the schema.org import)
// judges each field by the very rule the fold will apply, not by a copy of it.

public enum FieldRules {
    public static func title(_ title: String) -> Rejection? {
        guard title.exceedsLength(RecipeLimits.maxTitleLength) else { return nil }
        return Rejection(.invalid, "Title is longer than \(RecipeLimits.maxTitleLength) characters.")
    }

    public static func servings(_ servings: Int) -> Rejection? {
        guard !RecipeLimits.servings.contains(servings) else { return nil }
        return Rejection(.invalid, "Servings must be from \(RecipeLimits.servings.lowerBound) to \(RecipeLimits.servings.upperBound), not \(servings).")
    }

    /// http or https (scheme case-insensitive), a non-empty host, no whitespace or
    /// control characters anywhere, at most `maxImageURLLength`.
    public static func imageURL(_ url: String) -> Rejection? {
        webURL(url, "Image URL", limit: RecipeLimits.maxImageURLLength)
    }

    /// The same rule as `imageURL`, for where a recipe comes from.
    public static func sourceURL(_ url: String) -> Rejection? {
        webURL(url, "Source URL", limit: RecipeLimits.maxSourceURLLength)
    }

    private static func webURL(_ url: String, _ what: String, limit: Int) -> Rejection? {
        if url.exceedsLength(limit) {
            return Rejection(.invalid, "\(what) is longer than \(limit) characters.")
        }
        let bytes = Array(url.utf8)
        let rest: ArraySlice<UInt8>
        if hasPrefixIgnoringCase(bytes, "http://") {
            rest = bytes.dropFirst(7)
        } else if hasPrefixIgnoringCase(bytes, "https://") {
            rest = bytes.dropFirst(8)
        } else {
            return Rejection(.invalid, "\(what) must start with http:// or https://.")
        }
        let host = rest.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        if host.isEmpty {
            return Rejection(.invalid, "\(what) has no host.")
        }
        // Bytes up to 0x20 and DEL are spaces and controls; non-ASCII whitespace is
        // rare enough to check on the scalar view only when non-ASCII is present.
        if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F })
            || (bytes.contains { $0 >= 0x80 } && url.unicodeScalars.contains { $0.properties.isWhitespace }) {
            return Rejection(.invalid, "\(what) must not contain spaces or control characters.")
        }
        return nil
    }

    static func ingredientName(_ name: String) -> Rejection? {
        if name.isBlank { return Rejection(.invalid, "Ingredient name must not be empty.") }
        if name.exceedsLength(RecipeLimits.maxIngredientNameLength) {
            return Rejection(.invalid, "Ingredient name is longer than \(RecipeLimits.maxIngredientNameLength) characters.")
        }
        return nil
    }

    static func metric(_ metric: String) -> Rejection? {
        if metric.isBlank { return Rejection(.invalid, "Ingredient unit must not be empty.") }
        if metric.exceedsLength(RecipeLimits.maxMetricLength) {
            return Rejection(.invalid, "Ingredient unit is longer than \(RecipeLimits.maxMetricLength) characters.")
        }
        return nil
    }

    /// An optional text of content v2 (note, section, yield, a line's text…): when
    /// given, not blank (leave it out, or clear it, instead) and at most `limit`.
    public static func optionalText(_ text: String, _ what: String, limit: Int) -> Rejection? {
        if text.isBlank { return Rejection(.invalid, "\(what) must not be empty; leave it out instead.") }
        if text.exceedsLength(limit) { return Rejection(.invalid, "\(what) is longer than \(limit) characters.") }
        return nil
    }

    /// The fields of one ingredient line, each by its rule, then the range:
    /// `amountMax` needs an `amount` and is not below it. `place` says which line
    /// ("Ingredient", "Ingredient 3") in messages.
    public static func ingredientLine(_ line: IngredientLine, _ place: String = "Ingredient") -> Rejection? {
        if let rejection = named(ingredientName(line.name), place) { return rejection }
        if let amount = line.amount, let rejection = named(self.amount(amount), place) { return rejection }
        if let amountMax = line.amountMax {
            if !RecipeLimits.isAllowedAmount(amountMax) {
                return Rejection(.invalid, "\(place) amountMax must be \(RecipeLimits.amountRange).")
            }
            guard let amount = line.amount else {
                return Rejection(.invalid, "\(place) amountMax needs an amount: a range has a lower end.")
            }
            if amountMax < amount {
                return Rejection(.invalid, "\(place) amountMax (\(amountMax)) is below its amount (\(amount)).")
            }
        }
        if let unit = line.unit, let rejection = named(metric(unit), place) { return rejection }
        if let note = line.note, let rejection = optionalText(note, "\(place) note", limit: RecipeLimits.maxIngredientNoteLength) {
            return rejection
        }
        if let section = line.section,
           let rejection = optionalText(section, "\(place) section", limit: RecipeLimits.maxSectionLength) {
            return rejection
        }
        if let text = line.text, let rejection = optionalText(text, "\(place) text", limit: RecipeLimits.maxIngredientTextLength) {
            return rejection
        }
        return nil
    }

    /// An ISO 8601 duration as `RecipeDuration` accepts it, at most `maxDurationLength`.
    public static func duration(_ text: String, _ what: String) -> Rejection? {
        if text.exceedsLength(RecipeLimits.maxDurationLength) {
            return Rejection(.invalid, "\(what) is longer than \(RecipeLimits.maxDurationLength) characters.")
        }
        guard RecipeDuration.seconds(text) != nil else {
            return Rejection(.invalid, "\(what) \(text.debugDescription) is not an ISO 8601 duration such as PT1H30M.")
        }
        return nil
    }

    /// Puts `place` in front of an "Ingredient …" message of a line that is not the only one.
    private static func named(_ rejection: Rejection?, _ place: String) -> Rejection? {
        guard var rejection else { return nil }
        if place != "Ingredient", rejection.message.hasPrefix("Ingredient ") {
            rejection.message = place + " " + rejection.message.dropFirst("Ingredient ".count)
        }
        return rejection
    }

    static func amount(_ amount: Double) -> Rejection? {
        guard RecipeLimits.isAllowedAmount(amount) else {
            return Rejection(.invalid, "Ingredient amount must be \(RecipeLimits.amountRange).")
        }
        return nil
    }

    public static func description(_ description: String) -> Rejection? {
        if description.isBlank { return Rejection(.invalid, "Instruction must not be empty.") }
        if description.exceedsLength(RecipeLimits.maxDescriptionLength) {
            return Rejection(.invalid, "Instruction is longer than \(RecipeLimits.maxDescriptionLength) characters.")
        }
        return nil
    }

    /// Ids given by clients (command ids, explicit ingredient and instruction ids).
    static func identifier(_ id: String, _ what: String) -> Rejection? {
        if id.isBlank { return Rejection(.invalid, "\(what) must not be empty.") }
        if id.exceedsLength(RecipeLimits.maxIdentifierLength) {
            return Rejection(.invalid, "\(what) is longer than \(RecipeLimits.maxIdentifierLength) characters.")
        }
        return nil
    }

    /// An actor named by a command (a grantee, a new owner): its one spelling (`ActorName`).
    static func actorName(_ name: String, _ what: String) -> Rejection? {
        guard let problem = ActorName.problem(name) else { return nil }
        return Rejection(.invalid, "\(what): \(problem).")
    }

    private static func hasPrefixIgnoringCase(_ bytes: [UInt8], _ prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        for (byte, want) in zip(bytes, expected) where byte | 0x20 != want {
            return false
        }
        return true
    }
}
