import Foundation
import RecipeDomain
import RecipeJSON
@testable import RecipeSchemaOrg
import RecipeWire
import Testing

/// schema.org `nutrition` read as pages write it, turned into a `NutritionChanged` after the
/// content, and written back by the export.
@Suite("Nutrition: import and export")
struct NutritionImportTests {
    typealias Support = SchemaOrgTestSupport

    // MARK: - Values as pages write them

    @Test(arguments: [
        ("240 kcal", Nutrition.Nutrient.calories, 240.0),
        ("240 calories", .calories, 240),
        ("240 Calories", .calories, 240),
        ("186Kcal", .calories, 186),
        ("240 kcal/1004 kJ", .calories, 240),
        ("300 cal", .calories, 300),
        ("240", .calories, 240),
        ("1000 kJ", .calories, 239),
        ("9 g", .fat, 9),
        ("9g", .fat, 9),
        ("9 grams", .fat, 9),
        ("18 grams fat", .fat, 18),
        ("9.5 g (14% DV)", .fat, 9.5),
        ("0,5 g", .fat, 0.5),
        ("14", .protein, 14),
        ("1,200 mg", .sodium, 1200),
        ("1,200", .sodium, 1200),
        ("900mg", .sodium, 900),
        ("350 milligrams", .sodium, 350),
        ("0.5 g", .sodium, 500),
        ("1.2 g", .sodium, 1200),
        ("75 mg", .cholesterol, 75),
        ("500 mg", .fiber, 0.5),
    ])
    func anAmountIsReadInItsNutrientsUnit(text: String, nutrient: Nutrition.Nutrient, amount: Double) {
        #expect(NutritionValues.amount(text, of: nutrient) == amount)
    }

    @Test(arguments: [
        ("N/A", Nutrition.Nutrient.calories), ("", .fat), ("-", .fat), ("9 g", .calories), ("240 kcal", .fat),
        ("1/2 cup", .sugar), ("some", .protein), ("9 oz", .fat), ("9g2", .fat),
    ])
    func aTextThatStatesNoAmountReadsAsNone(text: String, nutrient: Nutrition.Nutrient) {
        #expect(NutritionValues.amount(text, of: nutrient) == nil)
    }

    @Test func eachAmountIsWrittenAsItIsReadBack() {
        for (amount, nutrient, written) in [(240.0, Nutrition.Nutrient.calories, "240 kcal"), (9.5, .fat, "9.5 g"),
                                            (500, .sodium, "500 mg"), (0.00001, .fiber, "0.00001 g")] {
            #expect(NutritionValues.written(amount, of: nutrient) == written)
            #expect(NutritionValues.amount(written, of: nutrient) == amount)
        }
    }

    // MARK: - A node's nutrition

    @Test func aNutritionNodeIsReadWithItsOmissions() throws {
        let imported = try Support.importJSON(Support.recipe(#"""
            "nutrition": {"@type": "NutritionInformation", "calories": "240 calories", "fatContent": 9.5,
                          "saturatedFatContent": "N/A", "carbohydrateContent": "", "sugarContent": "12 g",
                          "sodiumContent": "0.5 g", "proteinContent": "20000 g", "cholesterolContent": null,
                          "servingSize": " 1   slice "}
            """#))
        #expect(imported.document.nutrition == Nutrition(amounts: [.calories: 240, .fat: 9.5, .sugar: 12, .sodium: 500],
                                                         servingSize: "1 slice"))
        #expect(imported.omissions.map(\.path) == ["$.nutrition.saturatedFatContent", "$.nutrition.carbohydrateContent",
                                                    "$.nutrition.proteinContent"])
        #expect(imported.omissions.last?.reason == "protein is from 0 to 10000 g per serving")
        #expect(imported.sources.nutrition == .jsonLD)
    }

    @Test func aRecipeWithoutNutritionHasNone() throws {
        let imported = try Support.importJSON(Support.recipe(#""nutrition": {"@type": "NutritionInformation", "calories": "N/A"}"#))
        #expect(imported.document.nutrition == nil)
        #expect(imported.sources.nutrition == nil)
        #expect(imported.omissions.count == 1)
        #expect(try Support.importJSON(Support.recipe("")).document.nutrition == nil)
    }

    @Test func aNutritionThatIsNoNodeIsLeftOut() throws {
        let imported = try Support.importJSON(Support.recipe(#""nutrition": "240 kcal""#))
        #expect(imported.document.nutrition == nil)
        #expect(imported.omissions.map(\.path) == ["$.nutrition"])
    }

    @Test func microdataNutritionIsReadAsJSONLDIs() throws {
        let imported = try Support.importHTML(#"""
            <html><body><div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Crumble</h1>
            <div itemprop="nutrition" itemscope itemtype="https://schema.org/NutritionInformation">
            <span itemprop="servingSize">1 bowl</span>: <span itemprop="calories">320 calories</span>,
            <span itemprop="fatContent">12 grams</span>, <span itemprop="sodiumContent">0.2 g</span></div></div></body></html>
            """#)
        #expect(imported.document.nutrition == Nutrition(amounts: [.calories: 320, .fat: 12, .sodium: 200], servingSize: "1 bowl"))
        #expect(imported.sources.nutrition == .microdata)
    }

    // MARK: - Commands

    @Test func theImportStatesTheNutritionAfterTheContent() throws {
        let imported = try Support.importJSON(Support.recipe(#"""
            "recipeIngredient": ["2 eggs"], "nutrition": {"calories": "240 kcal", "servingSize": "1 slice"}
            """#))
        var ids = (1...3).map { "c\($0)" }.makeIterator()
        let commands = try imported.commands(recipeID: "r1", actor: "alice", actorRole: nil, time: Timestamp(millisecondsSinceEpoch: 0),
                                             save: true, newCommandID: { ids.next()! })
        #expect(commands.all.map(\.commandID) == ["c1", "c2", "c3"])
        #expect(commands.nutrition?.command == .nutritionChanged(NutritionChanges(amounts: [.calories: .set(240)], servingSize: .set("1 slice"))))
        #expect(commands.saveRefused == nil)
        // Each record decodes as every projector decodes it.
        for envelope in commands.all {
            #expect(try RecordDecoder().decode(value: RecordEncoder(source: "tests").encode(envelope)).get().envelope == envelope)
        }
    }

    @Test func anImportWithoutNutritionAppendsNoNutritionChanged() throws {
        let imported = try Support.importJSON(Support.recipe(#""recipeIngredient": ["2 eggs"]"#))
        let commands = try imported.commands(recipeID: "r1", actor: "alice", actorRole: nil, time: Timestamp(millisecondsSinceEpoch: 0),
                                             save: false, newCommandID: { "c1" })
        #expect(commands.nutrition == nil)
        #expect(commands.all == [commands.content])
    }

    // MARK: - Export

    @Test func theExportWritesNutritionInformation() throws {
        let document = RecipeDocument(name: "Tea", nutrition: Nutrition(amounts: [.calories: 240, .fat: 9.5, .sodium: 500], servingSize: "1 slice"))
        let json = String(decoding: SchemaOrgExport.jsonLD(document), as: UTF8.self)
        #expect(json == #"{"@context":"https://schema.org","@type":"Recipe","name":"Tea","#
            + #""nutrition":{"@type":"NutritionInformation","calories":"240 kcal","fatContent":"9.5 g","servingSize":"1 slice","sodiumContent":"500 mg"}}"#)
    }

    // MARK: - Real pages

    /// Pages as their sites served them (`RealPages/README.md`), each spelling its nutrition its own way.
    @Test(arguments: [
        ("realfood-tesco.html", Nutrition(amounts: [.calories: 247, .fat: 18, .saturatedFat: 3, .carbohydrate: 14.3, .sugar: 9,
                                                    .fiber: 5.6, .protein: 8.5])),
        ("sunbasket.html", Nutrition(amounts: [.calories: 760, .fat: 34, .saturatedFat: 6, .sugar: 15, .fiber: 7, .protein: 31,
                                               .sodium: 900, .cholesterol: 75])),
        ("petitchef.html", Nutrition(amounts: [.calories: 186, .fat: 6.5, .saturatedFat: 3, .carbohydrate: 22.2, .sugar: 13.6,
                                               .fiber: 1, .protein: 9.3, .sodium: 100], servingSize: "108g")),
    ])
    func aRealPagesNutritionImportsAndExportsBack(file: String, nutrition: Nutrition) throws {
        let page = try Data(contentsOf: Support.testsDirectory.appendingPathComponent("RealPages").appendingPathComponent(file))
        let imported = try SchemaOrgImport.recipe(from: page, contentType: "text/html; charset=utf-8")
        #expect(imported.document.nutrition == nutrition)
        #expect(!imported.omissions.contains { $0.path.contains("nutrition") }, "\(imported.omissions)")
        var ids = (1...2).map { "c\($0)" }.makeIterator()
        let commands = try imported.commands(recipeID: "r1", actor: "alice", actorRole: nil, time: Timestamp(millisecondsSinceEpoch: 0),
                                             save: false, newCommandID: { ids.next()! })
        var recipe = Recipe(id: "r1")
        for envelope in commands.all {
            guard case .accepted = RecipeJudge.decide(envelope, recipe: &recipe) else {
                Issue.record("refused: \(envelope.command)")
                continue
            }
        }
        #expect(recipe.draft?.content.nutrition == nutrition)
        // Exported, then imported again: the same nutrition, now in the export's own spelling.
        let exported = SchemaOrgExport.jsonLD(imported.document)
        let again = try SchemaOrgImport.recipe(from: exported, contentType: "application/ld+json")
        #expect(again.document.nutrition == nutrition)
        #expect(again.omissions.isEmpty)
    }
}
