import Foundation
import RecipeDomain
import RecipeProjection
import Testing

@Suite("Read your writes")
struct ConsistencyTests {
    @Test func aSavedRecipeIsInTheListAtOnceEveryTime() throws {
        for round in 0..<100 {
            let title = "Ryw \(round) \(UUID().uuidString.prefix(8))"
            let (id, position) = try shared.savedRecipe(title: title)
            let query = title.replacingOccurrences(of: " ", with: "%20")
            let list = try shared.get("/v1/recipes?q=\(query)&after=\(position)")
            #expect(list.status == 200)
            #expect(try list.items.map { $0["id"] as? String } == [id], "round \(round): \(list.text)")
        }
    }

    @Test("a reader of a store another process writes (no commit signal) sees the writes land")
    func aReaderWithoutTheProjectorsSignalSeesItsCommits() throws {
        let reader = try ReadModel(path: shared.storePath)
        let id = try shared.newRecipe()
        let receipt = try shared.command(id, #"{"type":"TitleChanged","data":{"title":"Elsewhere"}}"#)
        let partition = try #require(receipt["partition"] as? Int)
        let offset = try #require(receipt["offset"] as? Int)
        #expect(try reader.waitUntilReached([Int32(partition): Int64(offset)], deadline: .now + .seconds(10)))
        #expect(try reader.draft(RecipeID(id)).title == "Elsewhere")
    }
}
