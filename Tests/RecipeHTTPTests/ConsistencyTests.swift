import Foundation
import Testing

@Suite("Read your writes")
struct ConsistencyTests {
    @Test func aSavedRecipeIsInTheListAtOnceEveryTime() async throws {
        for round in 0..<100 {
            let title = "Ryw \(round) \(UUID().uuidString.prefix(8))"
            let (id, position) = try await shared.savedRecipe(title: title)
            let query = title.replacingOccurrences(of: " ", with: "%20")
            let list = try await shared.get("/v1/recipes?q=\(query)&after=\(position)")
            #expect(list.status == 200)
            #expect(list.items.map { $0["id"] as? String } == [id], "round \(round): \(list.text)")
        }
    }
}
