import Foundation
@testable import RecipeSchemaOrg
import Testing

enum SchemaOrgTestSupport {
    static let testsDirectory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()

    /// The one recipe of a JSON-LD text.
    static func importJSON(_ json: String) throws(SchemaOrgImportError) -> ImportedRecipe {
        try SchemaOrgImport.recipe(from: Data(json.utf8), contentType: "application/ld+json")
    }

    static func importHTML(_ html: String) throws(SchemaOrgImportError) -> ImportedRecipe {
        try SchemaOrgImport.recipe(from: Data(html.utf8), contentType: "text/html; charset=utf-8")
    }

    /// The error a JSON-LD text is refused with.
    static func refusal(ofJSON json: String, sourceLocation: SourceLocation = #_sourceLocation) -> SchemaOrgImportError? {
        #expect(throws: SchemaOrgImportError.self, sourceLocation: sourceLocation) { try importJSON(json) }
    }

    /// A Recipe node with the given members after `@type`, and a name unless the members start with one.
    static func recipe(_ members: String) -> String {
        let name = members.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("\"name\"") ? nil : #""name": "Test Loaf""#
        let parts = [#""@context": "https://schema.org""#, #""@type": "Recipe""#, name, members.isEmpty ? nil : members]
        return "{" + parts.compactMap { $0 }.joined(separator: ", ") + "}"
    }

    /// Members as JSON text, for building large documents.
    static func jsonList(_ items: [String]) -> String {
        "[" + items.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }
}
