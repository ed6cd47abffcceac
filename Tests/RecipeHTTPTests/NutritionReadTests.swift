import Foundation
import RecipeTestSupport
import RecipeWire
import Testing

/// Nutrition as readers get it: stated per serving by `NutritionChanged`, shown per serving
/// and in total for the recipe's servings or the guests asked for, by the detail, the draft
/// view and `recipes.committed`, through the real service and broker.
@Suite("Nutrition in the documents")
struct NutritionReadTests {
    /// The nutrition member of `document`, or nil when absent.
    private func nutrition(_ document: [String: Any]) -> [String: Any]? { document["nutrition"] as? [String: Any] }

    /// `{"calories": 240, …}` from a `perServing` or `total` object.
    private func amounts(_ member: Any?) -> [String: Double] {
        ((member as? [String: [String: Any]]) ?? [:]).compactMapValues { $0["amount"] as? Double }
    }

    private func units(_ member: Any?) -> [String: String] {
        ((member as? [String: [String: Any]]) ?? [:]).compactMapValues { $0["unit"] as? String }
    }

    /// Saves the recipe's draft and returns the save's position.
    private func save(_ id: String) throws -> String {
        let saved = try shared.command(id, #"{"type":"RecipeSaved","data":{}}"#, wait: true)
        return try #require(saved["position"] as? String)
    }

    @Test("stated per serving, shown per serving and in total for the servings, or for ?guests=; ?units= leaves it alone")
    func perServingAndTotal() throws {
        let (id, _) = try shared.savedRecipe(title: "Nutritious loaf")  // 4 servings
        try shared.command(id, #"{"type":"NutritionChanged","data":{"calories":240,"fat":9.5,"sodium":410,"servingSize":"1 slice"}}"#)
        let detail = try shared.get("/v1/recipes/\(id)?after=\(try save(id))")
        #expect(detail.status == 200, "\(detail.text)")
        let stated = try #require(nutrition(detail.object), "\(detail.text)")
        #expect(amounts(stated["perServing"]) == ["calories": 240, "fat": 9.5, "sodium": 410])
        #expect(units(stated["perServing"]) == ["calories": "kcal", "fat": "g", "sodium": "mg"])
        #expect(stated["servingSize"] as? String == "1 slice")
        #expect(stated["forServings"] as? Int == 4)
        #expect(amounts(stated["total"]) == ["calories": 960, "fat": 38, "sodium": 1640])
        #expect(units(stated["total"]) == units(stated["perServing"]))

        let scaled = try shared.get("/v1/recipes/\(id)?guests=6")
        #expect(scaled.status == 200, "\(scaled.text)")
        let forSix = try #require(nutrition(scaled.object))
        #expect(amounts(forSix["perServing"]) == ["calories": 240, "fat": 9.5, "sodium": 410], "per serving never scales")
        #expect(forSix["forServings"] as? Int == 6)
        #expect(amounts(forSix["total"]) == ["calories": 1440, "fat": 57, "sodium": 2460])

        let converted = try shared.get("/v1/recipes/\(id)?units=us")
        #expect(converted.status == 200, "\(converted.text)")
        #expect(NSDictionary(dictionary: try #require(nutrition(converted.object))).isEqual(to: stated))
    }

    @Test("a nutrient cleared leaves the others; all cleared, the member is gone; older versions read as they were")
    func clearing() throws {
        let (id, _) = try shared.savedRecipe(title: "Soup to clear")
        try shared.command(id, #"{"type":"NutritionChanged","data":{"calories":120,"protein":7,"fiber":3.5}}"#)
        // The draft shows it before any save, for the draft's servings.
        let draft = try shared.get("/v1/recipes/\(id)/draft?after=\(try #require(shared.command(id, #"{"type":"NutritionChanged","data":{"servingSize":"1 bowl"}}"#)["position"] as? String))")
        #expect(draft.status == 200, "\(draft.text)")
        let drafted = try #require(nutrition(draft.object), "\(draft.text)")
        #expect(amounts(drafted["perServing"]) == ["calories": 120, "protein": 7, "fiber": 3.5])
        #expect(drafted["servingSize"] as? String == "1 bowl" && drafted["forServings"] as? Int == 4)
        #expect(amounts(drafted["total"]) == ["calories": 480, "protein": 28, "fiber": 14])
        _ = try save(id)  // version 2

        try shared.command(id, #"{"type":"NutritionChanged","data":{"protein":null}}"#)
        _ = try save(id)  // version 3
        let cleared = try #require(nutrition(try shared.get("/v1/recipes/\(id)").object))
        #expect(amounts(cleared["perServing"]) == ["calories": 120, "fiber": 3.5])
        #expect(amounts(cleared["total"]) == ["calories": 480, "fiber": 14])

        try shared.command(id, #"{"type":"NutritionChanged","data":{"calories":null,"fiber":null,"servingSize":null}}"#)
        _ = try save(id)  // version 4
        let none = try shared.get("/v1/recipes/\(id)")
        #expect(none.status == 200 && none.object["version"] as? Int == 4, "\(none.text)")
        #expect(none.object["nutrition"] == nil, "nothing stated, no member: \(none.text)")

        // Version 1, saved before any nutrition, reads as it did: no member, nothing else changed.
        let first = try shared.get("/v1/recipes/\(id)?version=1")
        #expect(first.status == 200 && first.object["nutrition"] == nil, "\(first.text)")
        #expect(first.object["title"] as? String == "Soup to clear" && first.object["servings"] as? Int == 4)
        let second = try #require(nutrition(try shared.get("/v1/recipes/\(id)?version=2").object))
        #expect(amounts(second["perServing"]) == ["calories": 120, "protein": 7, "fiber": 3.5])
    }

    @Test("a recipe without servings shows per serving only, unless guests are asked")
    func withoutServings() throws {
        let id = try shared.newRecipe()
        try shared.command(id, #"{"type":"TitleChanged","data":{"title":"Unserved"}}"#)
        try shared.command(id, #"{"type":"IngredientAdded","data":{"name":"Oats","amount":50,"unit":"g"}}"#)
        try shared.command(id, #"{"type":"NutritionChanged","data":{"carbohydrate":30}}"#)
        let detail = try shared.get("/v1/recipes/\(id)?after=\(try save(id))")
        let stated = try #require(nutrition(detail.object), "\(detail.text)")
        #expect(amounts(stated["perServing"]) == ["carbohydrate": 30])
        #expect(stated["forServings"] == nil && stated["total"] == nil && stated["servingSize"] == nil, "\(stated)")
    }

    @Test("recipes.committed carries the nutrition as the detail shows it")
    func committedCarriesIt() throws {
        let (id, _) = try shared.savedRecipe(title: "Committed nutrition")
        try shared.command(id, #"{"type":"NutritionChanged","data":{"calories":300,"sugar":12,"cholesterol":45}}"#)
        let position = try save(id)
        let served = try #require(nutrition(try shared.get("/v1/recipes/\(id)?after=\(position)").object))
        var carried: [String: Any]?
        try waitFor("recipes.committed to carry the save at \(position)", deadline: .seconds(30)) {
            let line = try committedReadByKcat(bootstrap: shared.kafka.bootstrapServers)
                .last { $0.key == id && $0.headers["position"] == position }
            carried = line?.value.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            return carried != nil
        }
        let document = try #require(carried)
        let member = try #require(nutrition(document), "\(document)")
        #expect(NSDictionary(dictionary: member).isEqual(to: served))
        #expect(amounts(member["total"]) == ["calories": 1200, "sugar": 48, "cholesterol": 180])
    }
}
