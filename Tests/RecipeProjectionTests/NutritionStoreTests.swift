import Foundation
import RecipeAudit
import RecipeDomain
@testable import RecipeProjection
import RecipeWire
import Testing

/// Nutrition in the store and in `audit diff`: kept only when stated, read strictly, and
/// each change of a nutrient or the serving size a line of its own.
@Suite("Nutrition in the store and the audit diff")
struct NutritionStoreTests {
    private let content = RecipeContent(title: "Loaf", servings: 4, ingredients: [Ingredient(id: "i", name: "flour", amount: 500, unit: "g")])

    @Test("stored content keeps nutrition; content without it is the text stored before, and reads as none")
    func storedNutrition() throws {
        let plain = String(decoding: ContentCoding.utf8(content), as: UTF8.self)
        #expect(!plain.contains("nutrition"), "\(plain)")
        #expect(try ContentCoding.content(fromJSON: plain).nutrition == nil)

        var stated = content
        stated.nutrition = Nutrition(amounts: [.calories: 240, .fat: 9.5, .sodium: 410], servingSize: "1 slice")
        let text = String(decoding: ContentCoding.utf8(stated), as: UTF8.self)
        #expect(text.hasSuffix(#","nutrition":{"calories":240,"fat":9.5,"sodium":410,"servingSize":"1 slice"}}"#), "\(text)")
        #expect(try ContentCoding.content(fromJSON: text) == stated)
        stated.nutrition = Nutrition(servingSize: "1 bowl")
        #expect(try ContentCoding.content(fromJSON: String(decoding: ContentCoding.utf8(stated), as: UTF8.self)) == stated)
    }

    @Test("nutrition stored in another shape is a corrupted store, never read with defaults")
    func strictNutrition() throws {
        let plain = String(String(decoding: ContentCoding.utf8(content), as: UTF8.self).dropLast())
        for (member, complaint) in [(#"{"calories":"240"}"#, "nutrition.calories"), (#"{"energy":240}"#, "nutrition.energy"),
                                    (#"{}"#, "nutrition"), (#"{"servingSize":1}"#, "nutrition.servingSize"), (#"[240]"#, "nutrition")] {
            #expect {
                try ContentCoding.content(fromJSON: plain + #","nutrition":"# + member + "}")
            } throws: { error in
                guard case StoreError.corrupted(let message) = error else { return false }
                return message.contains(complaint)
            }
        }
    }

    @Test("audit diff shows each nutrient and the serving size that changed, per serving")
    func diffShowsNutrition() throws {
        func version(_ number: Int, _ nutrition: Nutrition?) -> RecipeVersion {
            var content = content
            content.nutrition = nutrition
            return RecipeVersion(number: number, content: content, savedAt: Timestamp(millisecondsSinceEpoch: 0), savedBy: "ana")
        }
        let none = version(1, nil)
        let stated = version(2, Nutrition(amounts: [.calories: 240, .fat: 9.5], servingSize: "1 slice"))
        let changed = version(3, Nutrition(amounts: [.calories: 260, .protein: 8], servingSize: "1 slice"))

        let added = VersionDiff(id: "r", from: none, to: stated)
        #expect(!added.isEmpty)
        #expect(added.lines == ["~ nutrition calories: none → 240 kcal", "~ nutrition fat: none → 9.5 g",
                                "~ nutrition servingSize: none → \"1 slice\""])
        let diff = VersionDiff(id: "r", from: stated, to: changed)
        #expect(diff.lines == ["~ nutrition calories: 240 kcal → 260 kcal", "~ nutrition fat: 9.5 g → none",
                               "~ nutrition protein: none → 8 g"])
        let decoded = try JSONDecoder().decode(VersionDiff.self, from: JSONEncoder().encode(diff))
        #expect(decoded == diff && decoded.nutrition?.to?.perServing["protein"] == NutritionView.Amount(amount: 8, unit: "g"))
        #expect(VersionDiff(id: "r", from: changed, to: version(4, changed.content.nutrition)).isEmpty)
        #expect(VersionDiff(id: "r", from: changed, to: none).lines.count == 3)
    }
}
