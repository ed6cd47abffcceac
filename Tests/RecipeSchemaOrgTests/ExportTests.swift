import Foundation
import RecipeDomain
import RecipeJSON
import RecipeWire
@testable import RecipeSchemaOrg
import RecipeTestSupport
import Testing

@Suite("Export and the round trip")
struct ExportTests {
    typealias Support = SchemaOrgTestSupport

    static let sample = RecipeDocument(
        name: "Lentil Soup", description: "Warming.", image: "https://img.example.org/soup.jpg",
        recipeYield: "2 bowls", servings: 2, prepTime: "PT10M", cookTime: "PT30M", totalTime: "PT40M",
        sourceUrl: "https://kitchen.example.org/lentil-soup", tags: ["soup", "vegan"],
        ingredients: [DocumentIngredient(text: "1 onion"), DocumentIngredient(text: "200 g red lentils", section: "Pot"),
                      DocumentIngredient(text: "1 l stock", section: "Pot")],
        instructions: [DocumentStep(text: "Soften the onion."),
                       DocumentStep(text: "Add lentils and stock.", section: "Simmer"),
                       DocumentStep(text: "Cook for 30 minutes.", section: "Simmer"),
                       DocumentStep(text: "Blend.")])

    @Test func theExportIsTheSchemaOrgRecipeWithSortedKeys() {
        let json = String(decoding: SchemaOrgExport.jsonLD(Self.sample, version: 3,
                                                           updated: Timestamp(millisecondsSinceEpoch: 1_796_119_200_000)), as: UTF8.self)
        let expected = #"{"@context":"https://schema.org","@type":"Recipe","cookTime":"PT30M","dateModified":"2026-12-01T10:00:00Z","#
            + #""description":"Warming.","image":"https://img.example.org/soup.jpg","keywords":"soup, vegan","name":"Lentil Soup","#
            + #""prepTime":"PT10M","recipeIngredient":["1 onion","Pot:","200 g red lentils","1 l stock"],"#
            + #""recipeInstructions":[{"@type":"HowToStep","text":"Soften the onion."},"#
            + #"{"@type":"HowToSection","itemListElement":[{"@type":"HowToStep","text":"Add lentils and stock."},"#
            + #"{"@type":"HowToStep","text":"Cook for 30 minutes."}],"name":"Simmer"},{"@type":"HowToStep","text":"Blend."}],"#
            + #""recipeYield":["2 bowls","2"],"totalTime":"PT40M","url":"https://kitchen.example.org/lentil-soup","version":3}"#
        #expect(json == expected)
    }

    @Test func aMinimalDocumentWritesOnlyWhatItHas() {
        let json = String(decoding: SchemaOrgExport.jsonLD(RecipeDocument(name: "Tea")), as: UTF8.self)
        #expect(json == #"{"@context":"https://schema.org","@type":"Recipe","name":"Tea"}"#)
    }

    @Test(arguments: [
        ("12 cookies", nil, JSONValue.string("12 cookies")), (nil, 4, .string("4")),
        ("12 cookies", 6, .array([.string("12 cookies"), .string("6")])),
    ] as [(String?, Int?, JSONValue)])
    func theYieldIsTheTextTheServingsOrBoth(text: String?, servings: Int?, written: JSONValue) {
        let value = SchemaOrgExport.jsonValue(RecipeDocument(name: "Yield", recipeYield: text, servings: servings))
        guard case .object(let node) = value else {
            Issue.record("not an object")
            return
        }
        #expect(node["recipeYield"] == written)
    }

    @Test func anIngredientIsWrittenAsALineTheImportReadsAsItsFields() {
        let lines: [(line: IngredientLine, quantity: String?)] = [
            // Imported and not edited since: the text as written.
            (IngredientLine(name: "flour", amount: 250, unit: "g", note: "sifted", text: "250g flour (sifted)"), "250 g"),
            // Its amount edited since: the text would still say 250 g.
            (IngredientLine(name: "flour", amount: 300, unit: "g", text: "250 g flour"), "300 g"),
            // Amounts that the quantity as people read it rounds.
            (IngredientLine(name: "eggs", amount: 1.2345, unit: "piece"), "1.23 pieces"),
            (IngredientLine(name: "milk", amount: 2.0 / 3, amountMax: 1, unit: "l", note: "warm"), "0.67–1 l"),
            // Amounts it reads back exactly.
            (IngredientLine(name: "sugar", amount: 1.0 / 3, unit: "cup"), "⅓ cup"),
            (IngredientLine(name: "salt", note: "to taste"), nil),
        ]
        func exported(_ lines: [(line: IngredientLine, quantity: String?)]) -> [DocumentIngredient] {
            RecipeDocument(title: "Bread", servings: nil, image: nil, description: nil, yield: nil, prepTime: nil, cookTime: nil,
                           totalTime: nil, sourceUrl: nil, tags: [], ingredients: lines, instructions: []).ingredients
        }
        let written = exported(lines)
        #expect(written.map(\.text) == ["250g flour (sifted)", "300 g flour", "1.2345 piece eggs",
                                        "0.6666666666666666–1 l milk, warm", "⅓ cup sugar", "salt, to taste"])
        for (ingredient, (line, _)) in zip(written, lines) {
            let parsed = ingredient.parsed
            let readBack = (parsed.name, parsed.amount, parsed.amountMax, parsed.unit, parsed.note)
                == (line.name, line.amount, line.amountMax, line.unit, line.note)
            #expect(readBack, "\(ingredient.text) reads as \(parsed)")
        }
        // An amount the rules no longer take (below 0.01, kept from rules version 1) is written as
        // it is, not as "0 kg"; the import reads that line as one without a quantity.
        let tiny = exported([(IngredientLine(name: "yeast", amount: 0.004, unit: "kg"), "0 kg")])
        #expect(tiny.map(\.text) == ["0.004 kg yeast"] && tiny[0].parsed.amount == nil)
        // What no line can say: a range whose ends are equal is one amount, written and read so.
        let equalEnds = exported([(IngredientLine(name: "eggs", amount: 2, amountMax: 2), "2")])
        #expect(equalEnds.map(\.text) == ["2 eggs"] && equalEnds[0].parsed.amountMax == nil)
    }

    @Test func theScriptElementCannotBeClosedByItsText() throws {
        let document = RecipeDocument(name: "Tricky </script><b> & more")
        let element = SchemaOrgExport.scriptElement(document)
        #expect(element.hasPrefix(#"<script type="application/ld+json">"#))
        #expect(element.hasSuffix("</script>"))
        let inner = element.dropFirst(#"<script type="application/ld+json">"#.count).dropLast("</script>".count)
        #expect(!inner.contains("<") && !inner.contains(">") && !inner.contains("&"))
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(inner.utf8))
        #expect(decoded == SchemaOrgExport.jsonValue(document))
    }

    // MARK: - Round trip

    @Test(arguments: 0..<8)
    func importReadsBackEveryExportedDocument(batch: UInt64) throws {
        var generator = DocumentGenerator(seed: 0x5C4E_A000 + batch)
        var seen = Set<String>()
        for _ in 0..<100 {
            let document = generator.document()
            if document.ingredients.contains(where: { $0.section != nil }) { seen.insert("ingredient sections") }
            if document.instructions.contains(where: { $0.section != nil }) { seen.insert("step sections") }
            if document.instructions.contains(where: { $0.text.contains("\n") }) { seen.insert("multi-line steps") }
            if document.recipeYield != nil, document.servings != nil { seen.insert("yield and servings") }
            if document.nutrition != nil { seen.insert("nutrition") }
            let json = SchemaOrgExport.jsonLD(document)
            let imported = try SchemaOrgImport.recipe(from: json, contentType: "application/ld+json")
            #expect(imported.document == document, "\(String(decoding: json, as: UTF8.self))")
            // A yield of things without servings is said to leave the recipe unscalable; nothing else is left out.
            let countsThings = document.servings == nil && document.recipeYield.map { YieldText($0) == .things } == true
            #expect(imported.omissions.map(\.reason) == (countsThings ? [RecipeNodeReader.noServings(yield: document.recipeYield!)] : []))
            // The same recipe embedded in a page, as a site would serve it.
            let page = "<html><head><title>x</title>\(SchemaOrgExport.scriptElement(document))</head><body></body></html>"
            #expect(try SchemaOrgImport.recipe(from: Data(page.utf8), contentType: "text/html").document == document)
        }
        // What the generator is for: each batch has the hard cases in it.
        #expect(seen == ["ingredient sections", "step sections", "multi-line steps", "yield and servings", "nutrition"])
    }

    @Test func theExportIsDeterministic() {
        var generator = DocumentGenerator(seed: 7)
        for _ in 0..<50 {
            let document = generator.document()
            #expect(SchemaOrgExport.jsonLD(document) == SchemaOrgExport.jsonLD(document))
        }
    }

    // MARK: - schema.org's shape

    @Test func everyExportValidatesAgainstTheRecipeSchema() throws {
        var generator = DocumentGenerator(seed: 0xD0C)
        var documents = [Self.sample, RecipeDocument(name: "Tea")]
        for _ in 0..<200 { documents.append(generator.document()) }
        let exports = documents.enumerated().map { index, document in
            SchemaOrgExport.jsonLD(document, version: index % 2 == 0 ? index : nil,
                                   updated: index % 3 == 0 ? Timestamp(millisecondsSinceEpoch: Int64(index) * 86_400_000) : nil)
        }
        let verdicts = try RecipeSchemaCheck.validate(exports)
        for (verdict, json) in zip(verdicts, exports) where verdict != "ok" {
            Issue.record("\(verdict): \(String(decoding: json, as: UTF8.self))")
        }
    }

    @Test func theSchemaRefusesWhatSchemaOrgWouldNot() throws {
        // The check is only worth something if it can fail: each of these breaks one property.
        let wrong = [
            #"{"@context":"https://schema.org","@type":"Recipe"}"#,
            #"{"@context":"https://schema.org","@type":"Recipe","name":"x","prepTime":"20 min"}"#,
            #"{"@context":"https://schema.org","@type":"Recipe","name":"x","recipeIngredient":"1 egg"}"#,
            #"{"@context":"https://schema.org","@type":"Recipe","name":"x","recipeInstructions":[{"@type":"HowToStep"}]}"#,
            #"{"@context":"https://schema.org","@type":"Recipe","name":"x","image":"/relative.jpg"}"#,
            #"{"@context":"https://schema.org","@type":"Recipe","name":"x","keywords":["a"]}"#,
            #"{"@context":"https://schema.org","@type":"Recipe","name":"x","nutrition":{"@type":"NutritionInformation","calories":"240"}}"#,
            #"{"@context":"https://schema.org","@type":"Recipe","name":"x","nutrition":{"@type":"NutritionInformation","fatContent":"9 kcal"}}"#,
        ]
        let verdicts = try RecipeSchemaCheck.validate(wrong.map { Data($0.utf8) })
        for (verdict, json) in zip(verdicts, wrong) {
            #expect(verdict != "ok", "\(json)")
        }
    }
}

/// Validates JSON against `recipe-export.schema.json` with Debian's python3-jsonschema
/// (Draft 2020-12), one process for a batch. Missing Python or jsonschema is a failure, not a skip.
enum RecipeSchemaCheck {
    static let schema = SchemaOrgTestSupport.testsDirectory.appendingPathComponent("recipe-export.schema.json")

    /// "ok" or the first error, per document.
    static func validate(_ documents: [Data]) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("schemaorg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [String] = []
        for (index, document) in documents.enumerated() {
            let file = folder.appendingPathComponent("\(index).json")
            try document.write(to: file)
            files.append(file.path)
        }
        let data = try runSystemPython(script, [schema.path] + files)
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == documents.count else {
            throw ValidatorFailed(description: "\(documents.count) documents, \(lines.count) verdicts")
        }
        return lines
    }

    struct ValidatorFailed: Error, CustomStringConvertible {
        var description: String
    }

    static let script = #"""
    import json, sys
    try:
        import jsonschema
    except ImportError:
        sys.exit("python3-jsonschema is not installed (apt-get install python3-jsonschema)")
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    for path in sys.argv[2:]:
        instance = json.load(open(path, encoding="utf-8"))
        errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
        print("ok" if not errors else ("/".join(map(str, errors[0].absolute_path)) or "(root)") + ": " + errors[0].message.replace("\n", " ")[:300])
    """#
}
