import Foundation
@testable import RecipeHTTP
@testable import RecipeProjection
import RecipeWire
import Testing

/// The list of recipes is written by hand (`RecipeList.json`, for speed): the same JSON
/// `DocumentJSON.encoder` writes, byte for byte, with every optional member present and absent.
@Suite("List JSON")
struct ListJSONTests {
    func encoded(_ list: RecipeList) throws -> String {
        String(decoding: try JSONCoding.encoder.encode(list), as: UTF8.self)
    }

    @Test func theListIsWhatTheEncoderWrites() throws {
        let full = RecipeSummary(id: "r-1", title: "Crêpes \"fines\"\t/ à la\nminute \u{1}", version: 3, servings: 4,
                                 tags: [TagView(name: "@owner", payload: "ann\\bob"), TagView(name: "dessert", payload: nil)],
                                 ingredientCount: 12, image: "https://example.com/a/b.jpg", updatedAt: "2026-12-06T17:00:00.123Z")
        let bare = RecipeSummary(id: "r-2", title: "", version: 1, servings: nil, tags: [], ingredientCount: 0, image: nil,
                                 updatedAt: "2026-12-06T17:00:00Z")
        for list in [RecipeList(items: [full, bare], nextCursor: "eyJ0IjoiMjAyNi0xMi0wNiJ9/+="),
                     RecipeList(items: [bare], nextCursor: nil),
                     RecipeList(items: [], nextCursor: nil)] {
            let response = HTTPResponse.json(list)
            #expect(response.status == 200)
            #expect(response.headers.contains { $0 == ("Content-Type", "application/json") })
            #expect(response.body == list.json())
            #expect(String(decoding: list.json(), as: UTF8.self) == (try encoded(list)))
        }
    }
}
