import Foundation
import RecipeDomain
@testable import RecipeSchemaOrg
import Testing

@Suite("Field values: durations, tag names, HTML text, script blocks")
struct FieldValueTests {
    // MARK: - Durations

    @Test(arguments: [
        ("PT1H30M", "PT1H30M"), ("P0DT20M", "P0DT20M"), ("pt90m", "PT90M"), (" PT15M ", "PT15M"), ("P1D", "P1D"),
        ("PT1.5H", "PT1.5H"), ("PT0,5H", "PT0,5H"), ("P1Y2M3W4DT5H6M7S", "P1Y2M3W4DT5H6M7S"), ("PT0S", "PT0S"),
    ])
    func iso8601DurationsAreKeptInUpperCase(text: String, normalized: String) {
        #expect(ISO8601Duration.normalized(text) == normalized)
    }

    @Test(arguments: ["", "P", "PT", "P1DT", "20 minutes", "PT20", "PTM", "PT1M1H", "P1H", "PT1D", "T1H", "PT1.H", "PT-5M",
                      "PT5M5M", "1H30M", "P1DT2HT3M"])
    func otherTextIsNoDuration(text: String) {
        #expect(ISO8601Duration.normalized(text) == nil)
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
        #expect(blocks == ["[1]", "[2]", "[3]", "[4]"])
    }
}
