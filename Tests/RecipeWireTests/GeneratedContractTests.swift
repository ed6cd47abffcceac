import Foundation
@testable import RecipeWire
import Testing

/// The files and regions `ContractGenerator` makes from the kinds' descriptions are the
/// ones checked in. Set RECIPES_UPDATE_CONTRACT=1 (scripts/generate-contract does) to write
/// them after changing a description, and review the diff.
@Suite struct GeneratedContractTests {
    static let updating = ProcessInfo.processInfo.environment["RECIPES_UPDATE_CONTRACT"] == "1"

    static func read(_ path: String) throws -> String {
        try String(contentsOf: WireTestSupport.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    static func write(_ text: String, to path: String) throws {
        let url = WireTestSupport.repositoryRoot.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    @Test func everyGeneratedFileIsUpToDate() throws {
        for file in ContractGenerator.files {
            let current = try? Self.read(file.path)
            if current != file.text, Self.updating { try Self.write(file.text, to: file.path) }
            #expect(Self.updating || current == file.text,
                    "\(file.path) is stale or missing: run scripts/generate-contract and review the diff")
        }
    }

    @Test func everyGeneratedRegionIsUpToDate() throws {
        for path in Set(ContractGenerator.regions.map(\.path)).sorted() {
            let current = try Self.read(path)
            let regions = ContractGenerator.regions.filter { $0.path == path }
            let generated = try #require(ContractGenerator.replacingRegions(in: current, regions),
                                         "\(path) lost a `generated: … begin/end` marker")
            if current != generated, Self.updating { try Self.write(generated, to: path) }
            #expect(Self.updating || current == generated, "\(path) is stale: run scripts/generate-contract and review the diff")
        }
    }

    @Test func theEnvelopeListsEveryTypeAndDataBranch() throws {
        let path = "Schemas/envelope.schema.json"
        let current = try Self.read(path)
        let generated = try #require(ContractGenerator.envelope(updating: current), "\(path): its type enum or allOf moved")
        if current != generated, Self.updating { try Self.write(generated, to: path) }
        #expect(Self.updating || current == generated, "\(path) is stale: run scripts/generate-contract and review the diff")
    }

    /// A region replaced twice is replaced once: the markers stay where they were.
    @Test func replacingARegionKeepsItsMarkers() throws {
        let text = "a\n# generated: x begin\nold\n# generated: x end\nb\n"
        let region = ContractGenerator.Region(path: "f", name: "x", text: "new\nlines\n")
        let once = try #require(ContractGenerator.replacingRegions(in: text, [region]))
        #expect(once == "a\n# generated: x begin\nnew\nlines\n# generated: x end\nb\n")
        #expect(ContractGenerator.replacingRegions(in: once, [region]) == once)
        #expect(ContractGenerator.replacingRegions(in: "no markers\n", [region]) == nil)
    }
}
