import Foundation
import RecipeDomain
import RecipeWire
@testable import RecipeSchemaOrg
import Testing

/// Reading microdata and RDFa costs steps (bytes scanned, text copied into values) linear in
/// the page, each byte's text cleaned once; past `SchemaOrgImport.maxSteps` a page is refused
/// as `tooComplex`, and an import asked to stop stops. Counted, never timed.
@Suite("Import: microdata and RDFa read in steps linear in the page, bounded, and stoppable")
struct MarkupWorkTests {
    static let microdataRecipe = #"<div itemscope itemtype="https://schema.org/Recipe"><span itemprop="name">x</span>"#
    static let rdfaRecipe = #"<div vocab="https://schema.org/" typeof="Recipe"><span property="name">x</span>"#

    /// `count` text properties, each opened inside the one before and none closed: each holds the
    /// text of all those after it.
    static func nested(_ count: Int, rdfa: Bool = false) -> Data {
        let property = rdfa ? #"<div property="recipeIngredient">a"# : #"<div itemprop="recipeIngredient">a"#
        return Data(((rdfa ? rdfaRecipe : microdataRecipe) + String(repeating: property, count: count)).utf8)
    }

    /// `count` ingredients as recipe pages write them, each closed.
    static func flat(_ count: Int) -> Data {
        let items = (0..<count).map { #"<li itemprop="recipeIngredient">\#($0 % 9 + 1) cups flour &amp; water</li>"# }.joined()
        return Data((microdataRecipe + "<ul>" + items + "</ul></div>").utf8)
    }

    /// One property holding `count` escaped ampersands.
    static func ampersands(_ count: Int) -> Data {
        Data((microdataRecipe + #"<p itemprop="description">"# + String(repeating: "&amp;", count: count) + "</p></div>").utf8)
    }

    static func steps(_ page: Data) throws -> Int {
        try SchemaOrgImport.read(page, contentType: "text/html").steps
    }

    @Test("nested properties that are never closed are refused as too complex once their text passes the bound, microdata and RDFa alike",
          arguments: [false, true])
    func nestedPropertiesAreRefused(rdfa: Bool) {
        // 256 KiB of markup whose values would hold about 60 MB of text.
        let page = Self.nested(7_700, rdfa: rdfa)
        let error = #expect(throws: SchemaOrgImportError.self) { try SchemaOrgImport.recipe(from: page, contentType: "text/html") }
        guard case .tooComplex(let place, let what)? = error else {
            Issue.record("expected tooComplex, got \(String(describing: error))")
            return
        }
        #expect(place == "The page's markup" && what.contains("\(SchemaOrgImport.maxSteps) steps"), "\(place): \(what)")
    }

    @Test("nested properties whose text fits are read, each with the text of those inside it")
    func nestedPropertiesThatFitAreRead() throws {
        var reading = try SchemaOrgImport.read(Self.nested(300), contentType: "text/html")
        let imported = try reading.main()
        // The innermost ends first, so comes first; each line of a list's entry read as a space.
        #expect(imported.document.ingredients.count == RecipeLimits.maxIngredients)
        #expect(imported.document.ingredients.first?.text == "a")
        #expect(imported.document.ingredients[99].text == Array(repeating: "a", count: 100).joined(separator: " "))
        // Each byte scanned three times (scripts, items, outline) and looked at once more for
        // headings, plus the text of each value (300 · 300 bytes in all, a separator before each,
        // and the name), a few steps a byte.
        #expect(reading.steps <= 4 * Self.nested(300).count + SchemaOrgImport.stepsPerValueByte * (300 * 300 + 302), "\(reading.steps)")
    }

    @Test("a page of ingredients twice as long costs at most about twice the steps", arguments: ["flat", "ampersands"])
    func stepsGrowLinearly(shape: String) throws {
        var counts: [Int] = []
        for size in [5_000, 10_000, 20_000] {
            counts.append(try Self.steps(shape == "flat" ? Self.flat(size) : Self.ampersands(size * 20)))
        }
        for (smaller, larger) in zip(counts, counts.dropFirst()) {
            #expect(Double(larger) <= 2.1 * Double(smaller), "\(shape): \(counts)")
        }
    }

    @Test("a property full of entities is decoded once: its text is the characters they stand for")
    func entitiesAreDecodedOnce() throws {
        let imported = try SchemaOrgImport.recipe(from: Self.ampersands(100_000), contentType: "text/html")
        #expect(imported.document.description?.hasPrefix("&&&&") == true)
        #expect(imported.document.description?.unicodeScalars.count == 5_000)
    }

    @Test("a property's text is read up to what one record can hold")
    func aPropertyIsCutAtARecord() throws {
        let words = String(repeating: "word ", count: (WireFormat.maxRecordSize / 5) + 1_000)
        let page = Data((Self.microdataRecipe + #"<p itemprop="recipeInstructions">"# + words + "</p></div>").utf8)
        var reading = try SchemaOrgImport.read(page, contentType: "text/html")
        // Scanned three times and looked at for headings, the property's text copied up to its cap, and the name's.
        #expect(reading.steps <= 4 * page.count + SchemaOrgImport.stepsPerValueByte * (SchemaOrgImport.maxPropertyBytes + 1), "\(reading.steps)")
        #expect(try reading.main().document.instructions.count == 1)
    }

    @Test("a line far longer than an ingredient keeps is cut as before, and a long heading still heads the lines after it")
    func longLinesAreCutAsBefore() throws {
        let line = "2 cups flour, " + String(repeating: "sifted twice ", count: 20_000)
        let heading = String(repeating: "For the sauce ", count: 2_000) + ":"
        let json = #"{"@type":"Recipe","name":"Long","recipeIngredient":[""# + line + #"",""# + heading + #"","1 egg"]}"#
        let imported = try SchemaOrgImport.recipe(from: Data(json.utf8), contentType: "application/ld+json")
        let lines = imported.document.ingredients
        #expect(lines.count == 2)
        #expect(lines[0].text.hasPrefix("2 cups flour, sifted") && lines[0].text.hasSuffix("…"))
        #expect(lines[0].text.unicodeScalars.count <= RecipeLimits.maxIngredientTextLength && lines[0].parsed.amount == 2)
        #expect(lines[1].text == "1 egg" && lines[1].section?.hasPrefix("For the sauce") == true)
        #expect(lines[1].section.map { $0.unicodeScalars.count <= RecipeLimits.maxSectionLength } == true)
    }

    @Test("an import asked to stop stops, within a bounded number of steps, and says so")
    func anImportAskedToStopStops() {
        var asked = 0
        let error = #expect(throws: SchemaOrgImportError.self) {
            try SchemaOrgImport.recipe(from: Self.nested(7_700), contentType: "text/html") {
                asked += 1
                return asked == 3
            }
        }
        #expect(error == .interrupted)
        #expect(asked == 3)
    }

    @Test("an import asked once at its start, and told to go on, reads as before")
    func anImportToldToGoOnReads() throws {
        var asked = 0
        let imported = try SchemaOrgImport.recipe(from: Self.flat(10), contentType: "text/html") {
            asked += 1
            return false
        }
        #expect(imported.document.ingredients.count == 10)
        #expect(asked >= 1)
    }
}
