import RecipeDomain

/// What a yield written as text says: a number of people ("Serves 4", "4 serving(s)",
/// "4 personnes", "2 Portionen", "3 to 4 servings"), a number of things ("24 cookies",
/// "1 loaf"), or neither. A range counts its lower bound, so that scaling never promises
/// more than the page does; the text itself is kept as the yield.
enum YieldText: Equatable {
    case people(Int)
    case things
    case unknown

    /// Reads `text` in the languages recipe pages are written in. A number alone, or a range
    /// of numbers alone ("4-6"), counts people, as a yield of only a number does.
    init(_ text: String) {
        let words = Self.words(of: text)
        guard let first = words.firstIndex(where: { $0.number != nil }), let count = words[first].number else {
            self = .unknown
            return
        }
        // What a parenthesis adds ("6 (as a side dish)") says nothing of what is counted.
        let named = words.filter { $0.number == nil && !$0.inParentheses && !Self.joiners.contains($0.text) }
        if named.contains(where: { Self.peopleWords.contains($0.text) }) || named.isEmpty {
            guard count == count.rounded(), let people = Int(exactly: count), RecipeLimits.servings.contains(people) else {
                self = .unknown
                return
            }
            self = .people(people)
        } else {
            self = .things
        }
    }

    private struct Word {
        var text: String
        var number: Double?
        var inParentheses = false
    }

    /// The text's words in lower case and its numbers ("4", "4.0", "4,5"), in order.
    private static func words(of text: String) -> [Word] {
        var words: [Word] = []
        var current = ""
        var isNumber = false
        var depth = 0
        func finish() {
            guard !current.isEmpty else { return }
            defer { words[words.count - 1].inParentheses = depth > 0 }
            // "4," before a space is the number 4; "4,5" is four and a half.
            let digits = isNumber ? String(current.reversed().drop(while: { $0 == "." || $0 == "," }).reversed()) : current
            words.append(Word(text: digits, number: isNumber ? Double(digits.replacingOccurrences(of: ",", with: ".")) : nil))
            current = ""
        }
        for character in text.lowercased().replacingOccurrences(of: "(s)", with: "s") {
            if character.isASCII, character.isNumber || ((character == "." || character == ",") && isNumber && !current.isEmpty) {
                if !isNumber { finish() }
                isNumber = true
                current.append(character)
            } else if character.isLetter {
                if isNumber { finish() }
                isNumber = false
                current.append(character)
            } else {
                finish()
                isNumber = false
                if character == "(" { depth += 1 } else if character == ")" { depth = max(0, depth - 1) }
            }
        }
        finish()
        return words
    }

    /// Words that join or introduce the numbers of a yield, and say nothing of what is counted.
    private static let joiners: Set<String> = [
        "to", "or", "about", "approx", "approximately", "makes", "yield", "yields", "for", "up", "a", "an",
        "à", "ou", "pour", "environ", "bis", "oder", "für", "ca", "etwa", "per", "o", "circa", "para", "unos", "cerca",
        "de", "tot", "voor", "till", "för", "til", "eller", "ok", "dla", "na", "undefined", "null",
    ]

    /// Words that count people, in English, French, German, Italian, Spanish, Portuguese, Dutch,
    /// the Scandinavian languages, Polish, Czech, Slovak, Finnish, Hungarian, Turkish, Japanese,
    /// Chinese and Korean.
    static let peopleWords: Set<String> = [
        "serving", "servings", "serves", "serve", "person", "persons", "people", "portion", "portions", "pax", "guests", "adults",
        "personne", "personnes", "pers", "parts", "couverts",
        "personen", "portionen",
        "persona", "persone", "porzione", "porzioni",
        "personas", "porción", "porcion", "porciones", "ración", "racion", "raciones", "comensales",
        "pessoa", "pessoas", "porção", "porções", "porcao", "porcoes", "doses",
        "persoon", "portie", "porties",
        "portioner", "personer", "porsjon", "porsjoner",
        "osoba", "osoby", "osób", "porcja", "porcje", "porcji",
        "porce", "porcí",
        "annos", "annosta", "hengelle", "henkilölle", "port", "porcia", "porcie", "porcií", "porcii", "fő", "főre", "adag",
        "kişilik", "kişi", "porsiyon", "人分", "人前", "人份", "인분",
    ]
}
