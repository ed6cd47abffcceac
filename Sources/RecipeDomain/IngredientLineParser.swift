// MARK: - Ingredient lines as cooks write them

/// What `IngredientLineParser` read from one line.
public struct ParsedIngredient: Sendable, Hashable {
    /// The line as written, without surrounding whitespace.
    public var text: String
    /// How much; nil when the line has no quantity ("Salt, to taste").
    public var amount: Double?
    /// The upper end of a range ("2–3 cloves"); nil for a single amount.
    public var amountMax: Double?
    /// The canonical symbol of a known unit ("tbsp"), or a cook's own unit word as
    /// written ("knobs" in "2 knobs of butter"); nil when there is none.
    public var unit: String?
    /// What the ingredient is, words as written ("medium onion").
    public var name: String
    /// Everything else the line says: preparation, sizes, "to taste"; pieces joined by "; ".
    public var note: String?

    public init(text: String, amount: Double? = nil, amountMax: Double? = nil, unit: String? = nil,
                name: String, note: String? = nil) {
        self.text = text
        self.amount = amount
        self.amountMax = amountMax
        self.unit = unit
        self.name = name
        self.note = note
    }

    /// The amount, range and unit together, for display, scaling and conversion.
    public var quantity: IngredientQuantity {
        IngredientQuantity(amount: amount, amountMax: amountMax, unit: unit)
    }
}

/// Reads an ingredient line into amount, range, unit, name and note, by seven rules in
/// order (each with examples: docs/architecture.md, "Ingredient lines"): a note after the
/// first comma outside parentheses; notes in parentheses; approximations ("about") to the
/// note; the quantity first (a number, fraction or range the rules take,
/// `RecipeLimits.isAllowedAmount`); the unit after it (`CookingUnit.named`, stored by its
/// symbol), size words to the note; else a quantity after "of" or at the end; notes at
/// the end of the name ("for frying", "to taste").
///
/// Notes keep the order they have in the line. Letters are never changed: words keep
/// the case they were written in. A line left without a name ("2 cups") cannot be read:
/// it gets no amount, unit or note, and the whole text as its name. Parsing never fails.
public enum IngredientLineParser {
    public static func parse(_ line: String) -> ParsedIngredient {
        let text = line.trimmingWhitespace
        var reader = LineReader(text)
        guard let read = reader.read(), !read.name.isEmpty else { return ParsedIngredient(text: text, name: text) }
        return ParsedIngredient(text: text, amount: read.amount, amountMax: read.amountMax, unit: read.unit,
                                name: read.name, note: read.note)
    }

    /// Words before a quantity that say it is not exact.
    static let approximations: [[String]] = [
        ["about"], ["approximately"], ["approx"], ["approx."], ["around"], ["roughly"], ["nearly"], ["almost"],
        ["up", "to"], ["at", "least"],
    ]

    /// Words between a quantity and its unit that say how full or big it is.
    static let sizeWords: Set<String> = [
        "heaping", "heaped", "level", "scant", "generous", "rounded", "good", "large", "small", "medium", "big",
    ]

    /// Phrases that close a name and belong to the note.
    static let closingPhrases: [[String]] = [
        ["to", "taste"], ["as", "needed"], ["as", "required"], ["optional"], ["if", "desired"], ["to", "serve"],
        ["to", "garnish"],
    ]

    /// The values of the vulgar fraction characters.
    static let vulgarFractions: [Character: Double] = [
        "½": 1.0 / 2, "⅓": 1.0 / 3, "⅔": 2.0 / 3, "¼": 1.0 / 4, "¾": 3.0 / 4,
        "⅕": 1.0 / 5, "⅖": 2.0 / 5, "⅗": 3.0 / 5, "⅘": 4.0 / 5, "⅙": 1.0 / 6, "⅚": 5.0 / 6,
        "⅐": 1.0 / 7, "⅛": 1.0 / 8, "⅜": 3.0 / 8, "⅝": 5.0 / 8, "⅞": 7.0 / 8, "⅑": 1.0 / 9, "⅒": 1.0 / 10,
    ]
}

// MARK: - Reading one line

/// One pass over a line. Character offsets index `characters`; parentheses are
/// blanked to spaces in place, so every offset still points into the line as written.
private struct LineReader {
    struct Word {
        let text: String
        let start: Int
        let end: Int
        var key: String { text.lowercased() }
    }

    struct Read {
        var amount: Double?
        var amountMax: Double?
        var unit: String?
        var name: String
        var note: String?
    }

    /// A quantity found at some offset: the amounts, a glued unit, and where it ends.
    struct Quantity {
        var amount: Double
        var amountMax: Double?
        var gluedUnit: String?
        var end: Int
    }

    var characters: [Character]
    /// The end of the part before the note comma.
    var headEnd: Int
    var words: [Word] = []
    /// Note pieces with the offset they start at, sorted at the end.
    var notes: [(start: Int, text: String)] = []

    init(_ text: String) {
        characters = Array(text)
        headEnd = characters.count
    }

    mutating func read() -> Read? {
        splitAtNoteComma()
        blankParentheses()
        words = splitWords()

        var read = Read(name: "")
        var next = 0
        if let found = quantityPhrase(at: 0) {
            next = found.nextWord
            read.amount = found.amount
            read.amountMax = found.amountMax
            read.unit = found.unit
        } else if let (ofIndex, found) = quantityAfterOf() {
            addNote(fromWord: 0, toWord: ofIndex)
            next = found.nextWord
            read.amount = found.amount
            read.amountMax = found.amountMax
            read.unit = found.unit
        } else if let (nameEnd, found) = quantityAtEnd() {
            read.amount = found.amount
            read.amountMax = found.amountMax
            read.unit = found.unit
            read.name = nameWithClosingNotes(words[0..<nameEnd])
            return finish(read)
        }
        read.name = nameWithClosingNotes(words[next...])
        return finish(read)
    }

    private func finish(_ read: Read) -> Read {
        var read = read
        let pieces = notes.sorted { $0.start < $1.start }.map(\.text).filter { !$0.isEmpty }
        read.note = pieces.isEmpty ? nil : pieces.joined(separator: "; ")
        return read
    }

    // MARK: Notes

    /// Rule 1: everything after the first comma outside parentheses, unless digits surround it.
    private mutating func splitAtNoteComma() {
        var depth = 0
        for index in characters.indices {
            switch characters[index] {
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            case "," where depth == 0:
                if index > 0, index + 1 < characters.count,
                   characters[index - 1].isASCIIDigit, characters[index + 1].isASCIIDigit { continue }
                headEnd = index
                notes.append((index, collapsed(characters[(index + 1)...])))
                return
            default: continue
            }
        }
    }

    /// Rule 2: each top-level "(…)" before the comma becomes a note and turns into spaces.
    private mutating func blankParentheses() {
        var index = 0
        while index < headEnd {
            guard characters[index] == "(", let close = matchingParenthesis(from: index) else {
                index += 1
                continue
            }
            notes.append((index, collapsed(characters[(index + 1)..<close])))
            for blank in index...close { characters[blank] = " " }
            index = close + 1
        }
    }

    private func matchingParenthesis(from open: Int) -> Int? {
        var depth = 0
        for index in open..<headEnd {
            if characters[index] == "(" { depth += 1 }
            if characters[index] == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    private func splitWords() -> [Word] {
        var found: [Word] = []
        var start: Int?
        for index in 0...headEnd {
            let isSpace = index == headEnd || characters[index].isWhitespace
            if isSpace, let wordStart = start {
                found.append(Word(text: String(characters[wordStart..<index]), start: wordStart, end: index))
                start = nil
            } else if !isSpace, start == nil {
                start = index
            }
        }
        return found
    }

    private mutating func addNote(fromWord first: Int, toWord last: Int) {
        notes.append((words[first].start, words[first...last].map(\.text).joined(separator: " ")))
    }

    /// Rule 7: the name's words, minus a note from "for" on and closing phrases.
    private mutating func nameWithClosingNotes(_ nameWords: ArraySlice<Word>) -> String {
        var nameWords = nameWords
        if let forIndex = nameWords.dropFirst().firstIndex(where: { $0.key == "for" }) {
            addNote(fromWord: forIndex, toWord: nameWords.endIndex - 1)
            nameWords = nameWords[..<forIndex]
        }
        var trimmed = true
        while trimmed {
            trimmed = false
            for phrase in IngredientLineParser.closingPhrases where nameWords.count > phrase.count {
                let tail = nameWords.suffix(phrase.count)
                if tail.map(\.key) == phrase {
                    addNote(fromWord: tail.startIndex, toWord: tail.endIndex - 1)
                    nameWords = nameWords.dropLast(phrase.count)
                    trimmed = true
                }
            }
        }
        return nameWords.map(\.text).joined(separator: " ")
    }

    private func collapsed(_ slice: ArraySlice<Character>) -> String {
        String(slice).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    // MARK: Quantity phrases

    /// A quantity with its unit, and the first word after them.
    struct QuantityPhrase {
        var amount: Double
        var amountMax: Double?
        var unit: String?
        var nextWord: Int
    }

    /// Rules 3–5 at word `first`: approximation, quantity, size word, unit, "of".
    private mutating func quantityPhrase(at first: Int) -> QuantityPhrase? {
        guard first < words.count else { return nil }
        var index = first
        var pendingNotes: [(Int, Int)] = []
        for phrase in IngredientLineParser.approximations where startsWith(phrase, at: index) {
            pendingNotes.append((index, index + phrase.count - 1))
            index += phrase.count
            break
        }
        guard index < words.count else { return nil }

        var phrase: QuantityPhrase
        let isArticle = ["a", "an"].contains(words[index].key)
        if isArticle {
            phrase = QuantityPhrase(amount: 1, nextWord: index + 1)
        } else if let quantity = quantity(at: words[index].start) {
            phrase = QuantityPhrase(amount: quantity.amount, amountMax: quantity.amountMax, unit: quantity.gluedUnit,
                                    nextWord: words.firstIndex { $0.start >= quantity.end } ?? words.count)
        } else {
            return nil
        }

        if phrase.unit == nil {
            var unitIndex = phrase.nextWord
            if unitIndex < words.count, IngredientLineParser.sizeWords.contains(words[unitIndex].key),
               knownUnit(at: unitIndex + 1) != nil {
                pendingNotes.append((unitIndex, unitIndex))
                unitIndex += 1
            }
            if let size = containerSize(at: unitIndex) {
                pendingNotes.append(size)
                unitIndex = size.last + 1
            }
            if let (unit, wordCount) = knownUnit(at: unitIndex) {
                phrase.unit = unit.symbol
                phrase.nextWord = unitIndex + wordCount
            } else if !isArticle, unitIndex + 2 < words.count, words[unitIndex + 1].key == "of",
                      words[unitIndex].text.allSatisfy(\.isLetter) {
                // "3 ears of corn": a word the table lacks, in the place only a unit takes.
                phrase.unit = words[unitIndex].text
                phrase.nextWord = unitIndex + 1
            }
        }
        // "a" or "an" is a quantity only before a unit: "a few threads of saffron" has none.
        if phrase.unit == nil, isArticle { return nil }
        if phrase.unit != nil, phrase.nextWord + 1 < words.count, words[phrase.nextWord].key == "of" {
            phrase.nextWord += 1
        }
        for (from, to) in pendingNotes { addNote(fromWord: from, toWord: to) }
        return phrase
    }

    /// Rule 6: "Juice of 1 lime": the index of the "of" and the quantity after it.
    private mutating func quantityAfterOf() -> (Int, QuantityPhrase)? {
        for index in words.indices.dropFirst() where words[index].key == "of" {
            if let found = quantityPhrase(at: index + 1) { return (index, found) }
        }
        return nil
    }

    /// Rule 6: "Flour 250 g": a quantity with a known unit that ends the name.
    private func quantityAtEnd() -> (Int, QuantityPhrase)? {
        for index in words.indices.dropFirst() {
            guard let quantity = quantity(at: words[index].start) else { continue }
            let next = words.firstIndex { $0.start >= quantity.end } ?? words.count
            if let glued = quantity.gluedUnit, next == words.count {
                return (index, QuantityPhrase(amount: quantity.amount, amountMax: quantity.amountMax, unit: glued,
                                              nextWord: next))
            }
            if quantity.gluedUnit == nil, let (unit, count) = knownUnit(at: next), next + count == words.count {
                return (index, QuantityPhrase(amount: quantity.amount, amountMax: quantity.amountMax,
                                              unit: unit.symbol, nextWord: words.count))
            }
        }
        return nil
    }

    /// Rule 5: the size of a container before its counted unit, "14-oz" or "14 oz" in
    /// "2 14-oz cans", "400g" in "1 x 400g tin": the words of the size ("x" left out).
    private func containerSize(at index: Int) -> (first: Int, last: Int)? {
        var first = index
        if first < words.count, ["x", "×"].contains(words[first].key) { first += 1 }
        guard first < words.count, let (_, numberEnd) = number(at: words[first].start),
              numberEnd <= words[first].end
        else { return nil }
        var container: Int
        if numberEnd < words[first].end {
            let unitStart = characters[numberEnd] == "-" ? numberEnd + 1 : numberEnd
            guard CookingUnit.named(String(characters[unitStart..<words[first].end]))?.baseAmount != nil else { return nil }
            container = first + 1
        } else {
            guard let (unit, count) = knownUnit(at: first + 1), unit.baseAmount != nil else { return nil }
            container = first + 1 + count
        }
        guard let (unit, _) = knownUnit(at: container), unit.dimension == .count else { return nil }
        return (first, container - 1)
    }

    private func startsWith(_ phrase: [String], at index: Int) -> Bool {
        index + phrase.count <= words.count && words[index..<(index + phrase.count)].map(\.key) == phrase
    }

    /// The known unit named by the two words at `index`, or the one, and how many words it took.
    private func knownUnit(at index: Int) -> (CookingUnit, Int)? {
        if index + 1 < words.count, let unit = CookingUnit.named(words[index].text + " " + words[index + 1].text) {
            return (unit, 2)
        }
        if index < words.count, let unit = CookingUnit.named(words[index].text) { return (unit, 1) }
        return nil
    }

    // MARK: Numbers

    /// Rule 4 at a character offset: a number or range, a glued unit, then a word boundary.
    private func quantity(at start: Int) -> Quantity? {
        guard let (low, lowEnd) = number(at: start) else { return nil }
        var quantity = Quantity(amount: low, end: lowEnd)
        if let (high, highEnd) = rangeEnd(after: lowEnd) {
            guard high >= low else { return nil }
            if high > low { quantity.amountMax = high }
            quantity.end = highEnd
        }
        guard RecipeLimits.isAllowedAmount(quantity.amount), RecipeLimits.isAllowedAmount(quantity.amountMax ?? quantity.amount)
        else { return nil }
        if quantity.end < headEnd, characters[quantity.end].isLetter {
            let wordEnd = characters[quantity.end..<headEnd].firstIndex(where: \.isWhitespace) ?? headEnd
            guard let unit = CookingUnit.named(String(characters[quantity.end..<wordEnd])) else { return nil }
            quantity.gluedUnit = unit.symbol
            quantity.end = wordEnd
        }
        // "1-inch", "2%", "3rd": the number is part of a word, not a quantity.
        guard quantity.end == headEnd || characters[quantity.end].isWhitespace else { return nil }
        return quantity
    }

    /// The second number of a range: "-", "–", "—", "to" or "or", then a number.
    private func rangeEnd(after end: Int) -> (Double, Int)? {
        var index = skippingSpaces(from: end)
        guard index < headEnd else { return nil }
        if "-–—".contains(characters[index]) {
            index += 1
        } else if index + 2 < headEnd, characters[index + 2].isWhitespace,
                  ["to", "or"].contains(String(characters[index..<(index + 2)]).lowercased()) {
            index += 2
        } else {
            return nil
        }
        return number(at: skippingSpaces(from: index))
    }

    /// A number at `start` and the offset after it (see rule 4 for the forms).
    private func number(at start: Int) -> (Double, Int)? {
        guard start < headEnd else { return nil }
        if let value = IngredientLineParser.vulgarFractions[characters[start]] { return (value, start + 1) }
        if characters[start] == ".", let (decimals, end) = digits(at: start + 1) {
            return Double("0." + decimals).map { ($0, end) }
        }
        guard let (whole, wholeEnd) = digits(at: start), let wholeValue = Double(whole) else { return nil }
        if wholeEnd + 1 < headEnd, ".,".contains(characters[wholeEnd]), let (decimals, end) = digits(at: wholeEnd + 1) {
            return Double(whole + "." + decimals).map { ($0, end) }
        }
        if let (fraction, end) = fraction(numerator: whole, at: wholeEnd) { return (fraction, end) }
        // A whole number with a fraction: "1½", "1 ½", "1 1/2", "1-1/2".
        if wholeEnd < headEnd, let value = IngredientLineParser.vulgarFractions[characters[wholeEnd]] {
            return (wholeValue + value, wholeEnd + 1)
        }
        let afterSpaces = skippingSpaces(from: wholeEnd)
        if afterSpaces > wholeEnd, afterSpaces < headEnd,
           let value = IngredientLineParser.vulgarFractions[characters[afterSpaces]] {
            return (wholeValue + value, afterSpaces + 1)
        }
        let fractionStart = afterSpaces > wholeEnd ? afterSpaces
            : (wholeEnd < headEnd && characters[wholeEnd] == "-" ? wholeEnd + 1 : nil)
        if let fractionStart, let (numerator, numeratorEnd) = digits(at: fractionStart),
           let (fraction, end) = fraction(numerator: numerator, at: numeratorEnd), fraction < 1 {
            return (wholeValue + fraction, end)
        }
        return (wholeValue, wholeEnd)
    }

    /// "/" or "⁄" and a denominator after `numerator`'s digits: its value and end.
    private func fraction(numerator: String, at slash: Int) -> (Double, Int)? {
        guard slash < headEnd, "/⁄".contains(characters[slash]),
              let (denominator, end) = digits(at: slash + 1),
              let top = Double(numerator), let bottom = Double(denominator), bottom > 0
        else { return nil }
        return (top / bottom, end)
    }

    private func digits(at start: Int) -> (String, Int)? {
        var end = start
        while end < headEnd, characters[end].isASCIIDigit { end += 1 }
        return end > start ? (String(characters[start..<end]), end) : nil
    }

    private func skippingSpaces(from start: Int) -> Int {
        var index = start
        while index < headEnd, characters[index].isWhitespace { index += 1 }
        return index
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && ("0"..."9").contains(self) }
}
