import Foundation
import RecipeDomain
import RecipeWire
import Testing

/// Schemas/openapi.yaml is the API's contract: it names every route the server has (and no
/// other), and the server serves it, with the command schemas it refers to, from its binary.
@Suite("OpenAPI")
struct OpenAPITests {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Schemas").standardizedFileURL

    static func documentText() throws -> String {
        try String(contentsOf: schemas.appendingPathComponent("openapi.yaml"), encoding: .utf8)
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedRouteServed() throws {
        let documented = Set(try Self.operations(inYAML: Self.documentText()))
        let served = Set(shared.service.api.routes.map { "\($0.method.lowercased()) \($0.pattern)" })
        #expect(served.count >= 13)
        #expect(served.subtracting(documented).isEmpty, "routes missing from Schemas/openapi.yaml")
        #expect(documented.subtracting(served).isEmpty, "routes in Schemas/openapi.yaml the server does not have")
    }

    @Test func servesTheDocumentAsItIsInTheRepository() throws {
        let response = try shared.get("/openapi.yaml")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/yaml")
        #expect(response.text == (try Self.documentText()))
    }

    @Test func servesEveryCommandSchemaWhereTheDocumentRefersToIt() throws {
        let folder = Self.schemas.appendingPathComponent("commands")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".schema.json") }
        #expect(files.count >= 17)
        for file in files {
            let response = try shared.get("/commands/\(file)")
            #expect(response.status == 200, "\(file)")
            #expect(response.headers["content-type"] == "application/schema+json")
            #expect(response.body == Array(try Data(contentsOf: folder.appendingPathComponent(file))), "\(file)")
        }
        // Every relative $ref of the document names one of those files: each command's
        // current version once (older versions are served, as records on the log use them).
        let references = try Self.documentText().matches(of: /\$ref: '(commands\/[^']+)'/).map { String($0.1) }
        let current = RecipeCommand.Kind.allCases.map {
            String(WireFormat.dataSchema($0, version: WireFormat.currentVersion(of: $0)).dropFirst("Schemas/".count))
        }
        #expect(references.sorted() == current.sorted())
        for reference in references {
            #expect(files.contains(String(reference.dropFirst("commands/".count))), "\(reference)")
        }
        let missing = try shared.get("/commands/Teleported.v1.schema.json")
        #expect(missing.status == 404)
        #expect(missing.errorCode == "notFound")
    }

    /// `method path` of every operation under `paths:`, read by indentation as the document's
    /// header comment promises: a path at two spaces, its methods at four.
    static func operations(inYAML text: String) -> [String] {
        var operations: [String] = []
        var inPaths = false
        var path: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.hasPrefix("#") && !line.isEmpty {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths else { continue }
            if let match = line.wholeMatch(of: /\ \ (\/\S*):\s*/) {
                path = String(match.1)
            } else if let match = line.wholeMatch(of: /\ {4}(get|put|post|delete|patch|head|options|trace):\s*/), let path {
                operations.append("\(match.1) \(path)")
            }
        }
        return operations
    }

    @Test func readsOperationsByIndentation() {
        let yaml = """
            openapi: 3.1.0
            paths:
              /a/{id}:
                get:
                  summary: x
                post:
                  parameters:
                    get:
              /b:
                # a comment
                delete:
            components:
              /c:
                get:
            """
        #expect(Self.operations(inYAML: yaml) == ["get /a/{id}", "post /a/{id}", "delete /b"])
    }
}
