import RecipeDomain
import Testing

@Suite("Tag grammar: exactly one @name or @name(payload) in free text")
struct TagGrammarTests {
    @Test(arguments: [
        ("@vegan", "vegan", nil),
        ("@Vegan", "Vegan", nil),
        ("@vegan()", "vegan", nil),
        ("@vegan(   )", "vegan", nil),
        ("@source(grand-mère)", "source", "grand-mère"),
        ("@origin(日本)", "origin", "日本"),
        ("@日本", "日本", nil),
        ("@grand-mère", "grand-mère", nil),
        ("@cre\u{300}me", "cre\u{300}me", nil), // a combining mark stays in the name
        ("@low_carb2", "low_carb2", nil),
        ("@spicy( 3 )", "spicy", "3"),
        ("@oven(180 °C)", "oven", "180 °C"),
        ("@x(\u{3000}padded\u{00A0})", "x", "padded"), // Unicode spaces are trimmed too
        ("@note(see (p. 3))", "note", "see (p. 3)"),
        ("@note(ask @anna)", "note", "ask @anna"), // no tags inside a payload
        ("@note(a)b", "note", "a"),
        ("mark as @quick please", "quick", nil),
        ("mail me@example.com about @vegan", "vegan", nil), // an @ inside a word starts no tag
        ("@a@b", "a", nil),
        ("@@vegan", "vegan", nil),
        ("@vegan!", "vegan", nil),
        ("(@vegan)", "vegan", nil),
        ("@source(line one\nline two)", "source", "line one\nline two"),
    ] as [(String, String, String?)])
    func textsHoldingOneTagParse(text: String, name: String, payload: String?) throws {
        let tag = try Tag.parseSingle(from: text).get()
        #expect(tag == Tag(name: name, payload: payload))
    }

    @Test(arguments: [
        "", "no tag here", "@", "@ vegan", "@1st", "@-x", "@_x", "me@example.com",
        "@vegan @quick", "@vegan @vegan", "@a(b) @c", "@note(unclosed", "@note(a (b)",
        // A ")" that closes nothing: the payload was meant to run on, and was cut silently.
        "@x(payload with ) paren)", "@budget) extra )", "@vegan :)", ") @vegan",
    ])
    func textsWithoutExactlyOneTagAreInvalid(text: String) {
        #expect(throws: Rejection.self) { try Tag.parseSingle(from: text).get() }
        if case .failure(let rejection) = Tag.parseSingle(from: text) {
            #expect(rejection.code == .invalidTag)
        }
    }

    // MARK: - Limits

    @Test func namesAndPayloadsUpToTheirLimitsParse() throws {
        let name = String(repeating: "n", count: RecipeLimits.maxTagNameLength)
        let payload = String(repeating: "é", count: RecipeLimits.maxTagPayloadLength)
        let tag = try Tag.parseSingle(from: "@\(name)(\(payload))").get()
        #expect(tag == Tag(name: name, payload: payload))
    }

    @Test(arguments: [
        "@" + String(repeating: "n", count: RecipeLimits.maxTagNameLength + 1),
        "@x(" + String(repeating: "日", count: RecipeLimits.maxTagPayloadLength + 1) + ")",
        "@x " + String(repeating: " ", count: RecipeLimits.maxTagTextLength),
    ])
    func namesPayloadsAndTextsOverTheirLimitsAreInvalid(text: String) {
        guard case .failure(let rejection) = Tag.parseSingle(from: text) else {
            Issue.record("accepted a text over a limit")
            return
        }
        #expect(rejection.code == .invalidTag)
    }

    // MARK: - Helpers

    @Test func aTagIsWrittenBackInItsOwnSyntax() {
        #expect(Tag(name: "vegan").text == "@vegan")
        #expect(Tag(name: "source", payload: "grand-mère").text == "@source(grand-mère)")
    }

    @Test(arguments: [("vegan", true), ("日本", true), ("low-carb_2", true), ("1st", false), ("", false), ("a b", false), ("@a", false)])
    func validNames(name: String, valid: Bool) {
        #expect(Tag.isValidName(name) == valid)
    }

    @Test func namesCompareIgnoringCaseAndALeadingAt() {
        let tag = Tag(name: "Vegan")
        #expect(tag.hasName("vegan"))
        #expect(tag.hasName("@VEGAN"))
        #expect(!tag.hasName("vegans"))
        #expect(Tag(name: "CRÈME").hasName("crème"))
    }
}
