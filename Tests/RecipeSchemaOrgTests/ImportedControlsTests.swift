import Foundation
import RecipeDomain
@testable import RecipeSchemaOrg
import RecipeWire
import Testing

/// A page's text may hold control characters; no record may (rules version 2). The import
/// reads them as spaces, so the page imports rather than being refused as `invalid`.
@Suite("Control characters in imported pages")
struct ImportedControlsTests {
    @Test func controlCharactersOfAPageAreSpacesAndItsRecordDecodes() throws {
        let imported = try SchemaOrgTestSupport.importJSON(SchemaOrgTestSupport.recipe(
            #""name": "So\u001eup\u0000", "description": "Line one\r\nLine\u0007two", "recipeIngredient": ["2 cups\u0000milk"], "recipeInstructions": "Stir\u000bwell""#))
        #expect(imported.document.name == "So up")
        #expect(imported.document.description == "Line one\nLine two")
        #expect(imported.document.ingredients.map(\.parsed.name) == ["milk"])
        let commands = try imported.commands(recipeID: "r1", actor: "alice", actorRole: nil, time: Timestamp(millisecondsSinceEpoch: 0),
                                             save: false, newCommandID: { "c1" })
        let record = RecordEncoder(source: "tests").encode(commands.content)
        #expect(try RecordDecoder().decode(value: record).get().envelope == commands.content)
    }
}
