import Foundation
import RecipeWire
@testable import RecipeSchemaOrg
import Testing

/// An import's cost is its document's size, and bounded: work is counted (values parsed,
/// nodes collected, values visited reading recipes), never timed.
@Suite("Import: work linear in the document, bounded per document")
struct BoundedWorkTests {
    /// A `@graph` of `count` nodes of one shape, with one real recipe among them.
    static func graph(_ count: Int, shape: String) -> Data {
        var nodes: [String] = []
        switch shape {
        case "pages":
            nodes = (0..<count).map { #"{"@type":"WebPage","@id":"https://x.example/p\#($0)","name":"Page \#($0)"}"# }
        case "recipes":
            // Many different recipes: each is read, and each but the main one named.
            nodes = (0..<count).map { #"{"@type":"Recipe","name":"Soup \#($0)","recipeIngredient":["\#($0 % 7 + 1) eggs"]}"# }
        case "steps":
            nodes = (0..<count).map { ##"{"@type":"HowToStep","@id":"#s\##($0)","text":"Step \##($0)."}"## }
            let references = (0..<count).map { ##"{"@id":"#s\##($0)"}"## }.joined(separator: ",")
            nodes.append(#"{"@type":"Recipe","name":"Long method","recipeIngredient":["1 egg"],"recipeInstructions":[\#(references)]}"#)
        default:
            Issue.record("no shape \(shape)")
        }
        nodes.append(#"{"@type":"Recipe","name":"The recipe","recipeIngredient":["1 egg","2 cups flour","1 cup milk","1 pinch salt","1 tbsp butter","1 tsp sugar","1 lemon","2 apples"]}"#)
        return Data((#"{"@context":"https://schema.org","@graph":["# + nodes.joined(separator: ",") + "]}").utf8)
    }

    @Test("a graph twice as large costs at most about twice the work, whatever its nodes are", arguments: ["pages", "recipes", "steps"])
    func workGrowsLinearly(shape: String) throws {
        var works: [Int] = []
        for count in [2_000, 4_000, 8_000] {
            var reading = try SchemaOrgImport.read(Self.graph(count, shape: shape), contentType: "application/ld+json")
            #expect((try? reading.main())?.document.name == (shape == "steps" ? "Long method" : "The recipe"), "\(shape) \(count)")
            works.append(reading.work)
        }
        for (smaller, larger) in zip(works, works.dropFirst()) {
            #expect(Double(larger) <= 2.1 * Double(smaller), "\(shape): \(works)")
        }
    }

    @Test("of many recipes, a few are named one by one and the rest counted: the answer stays small")
    func manyRecipesAreCountedNotListed() throws {
        let imported = try SchemaOrgImport.recipe(from: Self.graph(5_000, shape: "recipes"), contentType: "application/ld+json")
        #expect(imported.document.name == "The recipe")
        #expect(imported.omissions.count == SchemaOrgImport.maxNamedOthers + 1)
        #expect(imported.omissions.last?.reason == "\(5_000 - SchemaOrgImport.maxNamedOthers) more recipes of the document")
    }

    /// A graph of small nodes with more values than the bound, in far fewer bytes than the size limit.
    static let pastTheBound = #"{"@graph":["# + Array(repeating: #"{"@type":"Thing"}"#, count: 60_000).joined(separator: ",") + "]}"

    @Test("a graph past the bound is refused by name")
    func aGraphPastTheBoundIsRefused() {
        #expect(Self.pastTheBound.utf8.count < SchemaOrgImport.maxJSONBytes)
        let error = #expect(throws: SchemaOrgImportError.self) {
            try SchemaOrgImport.recipe(from: Data(Self.pastTheBound.utf8), contentType: "application/ld+json")
        }
        #expect(error == .tooComplex(where: "The document", what: "more than \(SchemaOrgImport.maxValues) values"))
    }

    @Test("in a page, a block past the bound is named as unreadable and another block's recipe is still read")
    func aBlockPastTheBoundInAPage() throws {
        let page = #"<script type="application/ld+json">\#(Self.pastTheBound)</script><script type="application/ld+json">{"@type":"Recipe","name":"Small"}</script>"#
        var reading = try SchemaOrgImport.read(Data(page.utf8), contentType: "text/html")
        #expect(reading.unreadable == ["script 1: more than \(SchemaOrgImport.maxValues) values"])
        #expect(try reading.main().document.name == "Small")
    }

    @Test("references that fan out (every step a large section) are bounded as the values are")
    func referencesThatFanOutAreBounded() {
        let steps = (0..<2_000).map { #"{"@type":"HowToStep","text":"Step \#($0)."}"# }.joined(separator: ",")
        let references = Array(repeating: ##"{"@id":"#big"}"##, count: 200).joined(separator: ",")
        let json = ##"{"@graph":[{"@type":"HowToSection","@id":"#big","name":"Big","itemListElement":[\##(steps)]},"##
            + #"{"@type":"Recipe","name":"Fan","recipeInstructions":[\#(references)]}]}"#
        let error = #expect(throws: SchemaOrgImportError.self) {
            try SchemaOrgImport.recipe(from: Data(json.utf8), contentType: "application/ld+json")
        }
        guard case .tooComplex(let place, let what)? = error else {
            Issue.record("expected tooComplex, got \(String(describing: error))")
            return
        }
        #expect(place.hasPrefix(#"$["@graph"][1].recipeInstructions"#) && what.contains("\(SchemaOrgImport.maxValues)"), "\(place) \(what)")
    }

    @Test("a step or section that refers to itself is left out, not followed forever")
    func referencesThatLoopAreLeftOut() throws {
        let json = ##"""
        {"@graph":[
          {"@type":"HowToSection","@id":"#loop","name":"Loop","itemListElement":[{"@type":"HowToStep","text":"Stir."},{"@id":"#loop"}]},
          {"@type":"Recipe","name":"Loopy","recipeIngredient":["1 egg"],"recipeInstructions":[{"@id":"#loop"}]}
        ]}
        """##
        let imported = try SchemaOrgImport.recipe(from: Data(json.utf8), contentType: "application/ld+json")
        #expect(imported.document.instructions == [DocumentStep(text: "Stir.", section: "Loop")])
        #expect(imported.omissions.map(\.path) == [#"$["@graph"][1].recipeInstructions[0].itemListElement[1]"#])
    }

    @Test("a chain of sections each referring to the next is followed as deep as JSON may nest, not as deep as the chain")
    func aChainOfReferencesIsBounded() throws {
        let sections = (0..<5_000).map { ##"{"@type":"HowToSection","@id":"#c\##($0)","name":"Part \##($0)","itemListElement":[{"@type":"HowToStep","text":"Step \##($0)."},{"@id":"#c\##($0 + 1)"}]}"## }
        let json = ##"{"@graph":["## + sections.joined(separator: ",") + ##",{"@type":"Recipe","name":"Chain","recipeInstructions":[{"@id":"#c0"}]}]}"##
        let imported = try SchemaOrgImport.recipe(from: Data(json.utf8), contentType: "application/ld+json")
        #expect(imported.document.instructions.count == SchemaOrgImport.maxDepth)
        #expect(imported.omissions.map(\.reason) == ["references followed deeper than \(SchemaOrgImport.maxDepth) levels"])
    }

    @Test("a page of unclosed tags, or deeply nested items, is read in one pass and bounded")
    func markupIsBoundedToo() throws {
        let unclosed = #"<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Deep</h1>"#
            + String(repeating: "<div><span>", count: 50_000) + String(repeating: "</p>", count: 50_000)
        #expect(try SchemaOrgImport.recipe(from: Data(unclosed.utf8), contentType: "text/html").document.name == "Deep")
        let nested = String(repeating: #"<div itemprop="hasPart" itemscope itemtype="https://schema.org/Recipe">"#, count: 200)
        let reading = try SchemaOrgImport.read(Data((#"<div itemscope itemtype="https://schema.org/Recipe"><b itemprop="name">Top</b>"# + nested).utf8),
                                               contentType: "text/html")
        #expect(reading.unreadable == ["markup: items nested deeper than \(SchemaOrgImport.maxDepth) levels"])
    }
}
