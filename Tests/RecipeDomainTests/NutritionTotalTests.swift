import Testing
@testable import RecipeDomain

/// A document scaled to its servings shows nutrition in total: per serving times the servings,
/// reading as the decimal a cook would write, never a binary product's tail.
@Suite("Nutrition in total")
struct NutritionTotalTests {
    @Test("a stated decimal times the servings reads as that decimal's product",
          arguments: [(0.1, 3, 0.3), (0.7, 3, 2.1), (1.15, 3, 3.45), (0.01, 7, 0.07), (240, 4, 960), (12.5, 3, 37.5),
                      (0.123456789, 3, 0.370370367), (0, 5, 0), (9999.99, 1000, 9999990)])
    func decimalTimesServings(perServing: Double, servings: Int, total: Double) {
        let nutrition = Nutrition(amounts: [.fat: perServing])
        #expect(nutrition.amounts(forServings: servings)[.fat] == total)
        #expect(String(describing: nutrition.amounts(forServings: servings)[.fat]!) == String(describing: total))
    }

    @Test("an amount with more places than the rule carries keeps its plain product")
    func manyPlaces() {
        let amount = 1.0 / 3.0
        #expect(Nutrition(amounts: [.sugar: amount]).amounts(forServings: 3)[.sugar] == amount * 3)
    }
}
