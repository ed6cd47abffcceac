import Foundation
import Kafka
import RecipeCLI
import RecipeDomain
import RecipeGenerators
import RecipeHTTP
import RecipeProcess
import RecipeSchemaOrg
import RecipeWire
import Threads

/// `recipes-bench import`: how fast recipes as the web publishes them come in.
enum ImportBenchmark {
    static let spec = CommandSpec(
        name: "recipes-bench import",
        summary: "Import generated schema.org recipes and print recipes/s and lines/s through the import itself (JSON-LD, pages with JSON-LD, pages with microdata, against Foundation merely parsing the JSON) and through POST /v1/import, and ingredient lines/s through the parser.",
        abstract: "Recipes and pages/s imported, and ingredient lines/s parsed.",
        options: [
            .value("recipes", "N", "Generated JSON-LD documents.", default: "2000"),
            .value("connections", "C", "Connections posting them.", default: "8"),
            .value("seed", "S", "Seed of the documents.", default: "7"),
        ])

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let count = try args.int("recipes", in: 1...1_000_000)!
        let connections = try args.int("connections", in: 1...256)!
        var random = SplitMix64(seed: UInt64(try args.int("seed", in: 0...Int.max)!))
        let documents = (0..<count).map { SchemaOrgExport.jsonLD(document($0, &random)) }
        let lines = documents.count * 12
        say("bench import: \(count) JSON-LD documents of 12 ingredient lines and 6 steps, \(documents.reduce(0) { $0 + $1.count } / count) bytes each")

        // The parser alone, on every line of every document.
        var parserLines: [String] = []
        parserLines.reserveCapacity(lines)
        for index in 0..<count { parserLines += ingredientLines(index) }
        var start = ContinuousClock.now
        var names = 0
        for line in parserLines { names &+= IngredientLineParser.parse(line).name.utf8.count }
        let parseSeconds = (ContinuousClock.now - start).seconds
        say(String(format: "  parser               %10.0f lines/s   (%d lines, %.2f s)", Double(parserLines.count) / parseSeconds,
                   parserLines.count, parseSeconds))

        // The raw baseline: Foundation merely parsing the same JSON, reading nothing of it.
        start = ContinuousClock.now
        for data in documents { names &+= (try JSONSerialization.jsonObject(with: data) as? [String: Any])?.count ?? 0 }
        let rawSeconds = (ContinuousClock.now - start).seconds
        say(String(format: "  JSONSerialization    %10.0f documents/s (the raw baseline: parsing alone, %.2f s)", Double(count) / rawSeconds, rawSeconds))

        // The import in process: bytes to the commands it appends, decided by the fold's rules and
        // checked as the gateway checks them; as JSON-LD, and as pages holding it.
        let pages = documents.indices.map { page(jsonLD: documents[$0], index: $0) }
        let microdataPages = (0..<count).map { microdataPage($0, &random) }
        for (label, inputs, contentType) in [("import (in process)", documents, "application/ld+json"),
                                             ("page with JSON-LD", pages, "text/html"), ("page with microdata", microdataPages, "text/html")] {
            start = ContinuousClock.now
            var lineCount = 0
            for data in inputs {
                let imported = try SchemaOrgImport.recipe(from: data, contentType: contentType)
                let commands = try imported.commands(recipeID: "r", actor: "bench", actorRole: nil, time: .now, save: true, newCommandID: { "c" })
                try ImportCheck.check(commands.content)
                lineCount += imported.document.ingredients.count
            }
            let seconds = (ContinuousClock.now - start).seconds
            let bytes = inputs.reduce(0) { $0 + $1.count } / inputs.count
            say("  " + label.padding(toLength: 20, withPad: " ", startingAt: 0)
                + String(format: " %10.0f recipes/s %9.0f lines/s (%d B each, %.2f s)", Double(count) / seconds, Double(lineCount) / seconds,
                         bytes, seconds))
        }

        // What one document may cost at most: a graph of Recipe nodes just under the value bound
        // (read, the main one chosen, the others counted), a list past it (refused at the bound),
        // and a page at the size limit whose recipe is microdata at its end.
        let recipeNode = { (index: Int) in #"{"@type":"Recipe","name":"Soup \#(index)","recipeIngredient":["\#(index % 9 + 1) eggs"]}"# }
        let graph = { (count: Int) in Data((#"{"@graph":["# + (0..<count).map(recipeNode).joined(separator: ",") + "]}").utf8) }
        let filler = String(repeating: #"<div class="c"><p>filler <b>text</b> &amp; more</p></div>"# + "\n", count: SchemaOrgImport.maxHTMLBytes / 60 - 60)
        let largestPage = Data((filler + #"<div itemscope itemtype="https://schema.org/Recipe"><h1 itemprop="name">Last</h1></div>"#).utf8)
        for (label, data, contentType) in [("graph, 19,000 recipes", graph(19_000), "application/ld+json"),
                                           ("list of 150,000 numbers", Data(("[" + Array(repeating: "1", count: 150_000).joined(separator: ",") + "]").utf8),
                                            "application/ld+json"),
                                           ("5 MiB page, microdata", largestPage, "text/html")] {
            start = ContinuousClock.now
            let rounds = 5
            var outcome = ""
            for _ in 0..<rounds {
                do { outcome = "\(try SchemaOrgImport.recipe(from: data, contentType: contentType).omissions.count) omissions" } catch {
                    outcome = "refused: \(error)"
                }
            }
            let seconds = (ContinuousClock.now - start).seconds / Double(rounds)
            say("  " + label.padding(toLength: 24, withPad: " ", startingAt: 0)
                + String(format: " %8.1f ms a document (%d KiB; ", seconds * 1000, data.count >> 10) + outcome.prefix(70) + ")")
        }

        // Through HTTP, appended to an embedded broker and projected.
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = RecipeTopics().edits
        try kafka.createTopic(topic, partitions: 6)
        for decided in [RecipeTopics().decisions, RecipeTopics().committed] { try kafka.createTopic(decided, partitions: 6) }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("bench-import-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        var options = RecipeService.Options(kafka: KafkaConfig(bootstrapServers: kafka.bootstrapServers), topics: RecipeTopics(), storePath: store)
        options.port = 0
        options.fetchWaitMilliseconds = EmbeddedKafka.fetchWaitMilliseconds
        options.api.appendRate = nil
        let service = try RecipeService(options: options)
        try service.start()
        let port = service.port
        let next = Counter(), refused = Counter()
        start = ContinuousClock.now
        let posting = (0..<connections).map { _ in
            OwnedThread(name: "bench-import") {
                guard let client = try? KeepAliveClient(port: port) else { return refused.add() }
                while case let index = next.take(), index < documents.count {
                    let answer = try? client.request("POST", "/v1/import", body: Array(documents[index]), contentType: "application/ld+json")
                    if answer?.status != 202 { refused.add() }
                }
            }
        }
        for thread in posting { thread.join() }
        let failures = refused.value
        let httpSeconds = (ContinuousClock.now - start).seconds
        say(String(format: "  POST /v1/import      %10.0f recipes/s (%d connections, %.2f s, %d refused)", Double(count) / httpSeconds,
                   connections, httpSeconds, failures))
        service.shutdown()
        withExtendedLifetime(names) {}
    }

    private static let units = ["g", "kg", "ml", "cups", "tbsp", "tsp", "cloves", ""]
    private static let foods = ["flour", "red lentils", "garlic", "olive oil", "tomatoes", "onion", "butter", "sugar", "milk", "eggs"]

    private static func ingredientLines(_ index: Int) -> [String] {
        (0..<12).map { line in
            let food = foods[(index + line) % foods.count], unit = units[(index * 3 + line) % units.count]
            switch line % 4 {
            case 0: return "\(line + 1) \(unit) \(food)"
            case 1: return "\(line)–\(line + 2) \(unit) \(food), chopped"
            case 2: return "1 ½ \(unit) \(food) (about 200 g)"
            default: return "\(food.capitalized), to taste"
            }
        }
    }

    private static func document(_ index: Int, _ random: inout SplitMix64) -> RecipeDocument {
        RecipeDocument(name: "Recipe \(index) \(random.next() % 1000)", description: "Generated for the import benchmark.",
                       recipeYield: "4", servings: 4, prepTime: "PT15M", cookTime: "PT40M", tags: ["bench", "generated"],
                       ingredients: ingredientLines(index).map { DocumentIngredient(text: $0, section: nil) },
                       instructions: (0..<6).map { DocumentStep(text: "Step \($0 + 1) of recipe \(index).", section: $0 < 3 ? "First" : nil) })
    }

    /// A page as recipe sites write one: a head of meta tags, styles and scripts, navigation,
    /// ad slots, the article, and the JSON-LD block among other scripts.
    private static func page(jsonLD: Data, index: Int) -> Data {
        Data((pageHead(index) + #"<script type="application/ld+json">"# + String(decoding: jsonLD, as: UTF8.self) + "</script>\n"
            + #"<article class="post"><h1>Recipe \#(index)</h1><p>A few words about it.</p></article>"# + pageFoot).utf8)
    }

    /// The same kind of recipe as microdata in the article's markup, as older sites write it.
    private static func microdataPage(_ index: Int, _ random: inout SplitMix64) -> Data {
        let ingredients = ingredientLines(index).map { #"<li itemprop="recipeIngredient">\#($0)</li>"# }.joined(separator: "\n")
        let steps = (0..<6).map { #"<li itemprop="recipeInstructions" itemscope itemtype="https://schema.org/HowToStep"><p itemprop="text">Step \#($0 + 1) of recipe \#(index).</p></li>"# }
            .joined(separator: "\n")
        let article = """
            <article itemscope itemtype="https://schema.org/Recipe">
            <h1 itemprop="name">Recipe \(index) \(random.next() % 1000)</h1>
            <p itemprop="description">Generated for the import benchmark.</p>
            <meta itemprop="prepTime" content="PT15M"><meta itemprop="cookTime" content="PT40M">
            <p>Serves <span itemprop="recipeYield">4</span>. Tags: <span itemprop="keywords">bench, generated</span></p>
            <div class="ad-slot" data-slot="mid"></div>
            <ul class="ingredients">\(ingredients)</ul>
            <ol class="steps">\(steps)</ol>
            </article>
            """
        return Data((pageHead(index) + article + pageFoot).utf8)
    }

    private static func pageHead(_ index: Int) -> String {
        """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Recipe \(index) | A kitchen</title>
        <meta name="viewport" content="width=device-width"><link rel="stylesheet" href="/theme.css">
        <style>body{font-family:serif}.ad-slot{min-height:250px}</style>
        <script async src="https://ads.example.net/tag.js"></script>
        <script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());</script>
        </head><body><nav><ul><li><a href="/">Home</a></li><li><a href="/soups">Soups</a></li><li><a href="/bakes">Bakes</a></li></ul></nav>
        <div class="ad-slot" data-slot="top"><!-- ad --></div>

        """
    }

    private static let pageFoot = """
        <footer><p>&copy; A kitchen</p><script>document.querySelectorAll('.ad-slot').forEach(function(s){s.dataset.ready='1'})</script></footer>
        </body></html>
        """
}

/// A count shared by the posting threads.
private final class Counter: Sendable {
    private let count = Locked(0)
    /// The count before this call, and one more after it.
    func take() -> Int {
        count.withLock { value in
            defer { value += 1 }
            return value
        }
    }
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
