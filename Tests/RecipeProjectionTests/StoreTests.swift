import Foundation
@testable import RecipeProjection
import Testing

@Suite("The store's schema")
struct StoreTests {
    @Test("a store of schema version 1 is migrated to the current version and keeps answering")
    func migratesOlderStores() async throws {
        let fixture = try ProjectionFixture(partitions: 2)
        let id = newRecipeID()
        try await fixture.send(id, [.draftStarted, .titleChanged(title: "Soup")])
        do {
            // A store as version 1 of the code left it, with one record applied.
            let db = try SQLiteConnection(path: fixture.storePath)
            try db.execute(StoreSchema.migrations[0])
            try db.execute("INSERT INTO store_meta(key, value) VALUES('schema_version', '1')")
        }
        try await fixture.project()
        let db = try SQLiteConnection(path: fixture.storePath)
        #expect(try StoreSchema.installedVersion(db) == StoreSchema.version)
        let index = try db.statement("SELECT sql FROM sqlite_master WHERE name = 'history_recipe'").rows { $0.text(0) }
        #expect(index.first?.contains("substr(recipe_id, 1, 8)") == true)
        #expect(try fixture.readModel().history(id).items.map(\.type) == ["DraftStarted", "TitleChanged"])
    }
}
