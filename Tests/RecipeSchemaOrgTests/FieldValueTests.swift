import Foundation
import RecipeDomain
@testable import RecipeSchemaOrg
import Testing

@Suite("Field values: durations, tag names, HTML text, script blocks")
struct FieldValueTests {
    // MARK: - Times

    @Test(arguments: [
        // As the domain takes them: kept, in upper case.
        ("PT1H30M", "PT1H30M"), ("P0DT20M", "P0DT20M"), ("pt90m", "PT90M"), (" PT15M ", "PT15M"), ("P1D", "P1D"), ("PT0S", "PT0S"),
        ("P1W", "P1W"),
        // ISO 8601 written loosely: read when every part says one thing, written again.
        ("PT0D4H45M", "PT4H45M"), ("PTH30MS", "PT30M"), ("PT1.5H", "PT1H30M"), ("PT0,5H", "PT30M"), ("P1H30M", "PT1H30M"),
        ("P1DT0.5H", "P1DT30M"), ("PT", nil), ("P30M", nil), ("P1Y", nil), ("P1M2D", nil), ("PT1M1H", nil), ("PT5M5M", nil),
        ("P1DT2HT3M", nil), ("PT-5M", nil),
        // Words.
        ("45 minutes", "PT45M"), ("1 hour 30 minutes", "PT1H30M"), ("1 hr 30 mins.", "PT1H30M"), ("1h30", "PT1H30M"), ("1h 30m", "PT1H30M"),
        ("2 Hours", "PT2H"), ("1½ hours", "PT1H30M"), ("1.5 hours", "PT1H30M"), ("2 days", "P2D"), ("1 hour and 5 minutes", "PT1H5M"),
        ("90 seconds", "PT1M30S"), ("", nil), ("20", nil), ("4-6 hours", nil), ("4 to 6 hours", nil), ("overnight", nil),
        ("about 20 minutes", nil), ("20 minutes 10 minutes", nil),
    ] as [(String, String?)])
    func timesAreReadAsTheDomainKeepsThem(text: String, read: String?) {
        #expect(ImportedDuration.read(text) == read)
        if let read { #expect(RecipeDuration.seconds(read) != nil && FieldRules.duration(read, "time") == nil) }
    }

    // MARK: - Tag names

    @Test(arguments: [
        ("Vegan", "vegan"), ("Main Course", "main-course"), ("  quick   and easy ", "quick-and-easy"), ("one-pot", "one-pot"),
        ("Soups & Stews", "soups-stews"), ("Mom's", "moms"), ("Mom’s", "moms"), ("low_carb", "low_carb"),
        ("Crème brûlée", "crème-brûlée"), ("日本料理", "日本料理"), ("Top 10", "top-10"), ("--dash--", "dash"),
        ("ÉTÉ", "été"),
    ])
    func keywordsBecomeTagNames(keyword: String, name: String) {
        #expect(KeywordTags.tagName(for: keyword) == name)
        #expect(Tag.isValidName(name))
        #expect(Tag.parseSingle(from: "@" + name) == .success(Tag(name: name)))
    }

    @Test(arguments: ["30-minute meals", "", "   ", "!!!", "🍋", String(repeating: "a", count: RecipeLimits.maxTagNameLength + 1)])
    func keywordsWithoutATagName(keyword: String) {
        #expect(KeywordTags.tagName(for: keyword) == nil)
    }

    @Test func theLongestTagNameFits() {
        let keyword = String(repeating: "b", count: RecipeLimits.maxTagNameLength)
        #expect(KeywordTags.tagName(for: keyword) == keyword)
    }

    // MARK: - HTML text

    @Test(arguments: [
        ("&amp; &lt; &gt; &quot; &apos; &#39; &#x27; &#8211;", "& < > \" ' ' ' –"),
        ("1&frac12; cups, 180&deg;C", "1½ cups, 180°C"),
        ("&unknownentity; &amp", "&unknownentity; &amp"),
        ("&#0; &#xD800; &#x110000;", "\u{FFFD} \u{FFFD} \u{FFFD}"),
    ])
    func entitiesAreDecoded(html: String, text: String) {
        #expect(HTMLText.decodingEntities(html) == text)
    }

    @Test func markupBecomesLines() {
        let html = "<div class=\"intro\"><p>First <a href='/x'>line</a>.</p><br/>Second\n   line<script>var x = '<p>';</script>"
            + "<style>p { color: red }</style><!-- a note --><ul><li>Third</li></ul>"
        #expect(HTMLText.plainText(fromHTML: html) == "First line.\nSecond line\nThird")
    }

    @Test(arguments: [
        ("<p>x</p>", true), ("a <br> b", true), ("</div>", true), ("<!-- c -->", true), ("&amp;", true), ("&#39;", true),
        ("Salt & pepper", false), ("ready in < 5 min", false), ("R&D; x", false), ("1 <2", false), ("a&b", false),
    ])
    func textIsHTMLOnlyWhenItHoldsMarkup(text: String, isHTML: Bool) {
        #expect(HTMLText.looksLikeHTML(text) == isHTML)
    }

    // MARK: - Script blocks

    @Test func scriptBlocksAreFoundWhateverTheirSpelling() {
        let page = """
        <scripts type="application/ld+json">not a script</scripts>
        <script data-note="a>b" type="application/ld+json">[1]</script >
        <script type='text/javascript'>var ld = "<script type=\\"application/ld+json\\">";</script>
        <script\ttype\n=\n"APPLICATION/LD+JSON"/>[2]</SCRIPT>
        <script type="application/ld+json">
        <![CDATA[ [3] ]]>
        </script>
        <script type="application/ld+json">[4]
        """
        let blocks = JSONLDScripts.blocks(in: Array(page.utf8)).map { String(decoding: $0, as: UTF8.self) }
        #expect(blocks == ["[1]", "[2]", "<![CDATA[ [3] ]]>", "[4]"])
    }
}
