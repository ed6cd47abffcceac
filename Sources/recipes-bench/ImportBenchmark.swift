import Foundation
import Kafka
import RecipeCLI
import RecipeDomain
import RecipeHTTP
import RecipeSchemaOrg
import RecipeWire
import Synchronization

/// `recipes-bench import`: how fast recipes as the web publishes them come in.
enum ImportBenchmark {
    static let spec = CommandSpec(
        name: "recipes-bench import",
        summary: "Import generated schema.org recipes and print recipes/s through the import itself and through POST /v1/import, and ingredient lines/s through the parser.",
        abstract: "Recipes/s imported, and ingredient lines/s parsed.",
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

        // The import in process: bytes to the one command it appends, checked as the gateway checks it.
        start = ContinuousClock.now
        for data in documents {
            let imported = try SchemaOrgImport.recipe(from: data, contentType: "application/ld+json")
            let envelope = CommandEnvelope(commandID: "c", recipeID: "r", actor: "bench", time: .now,
                                           command: .draftContentSet(imported.document.draftContent))
            try ImportCheck.check(envelope)
        }
        let importSeconds = (ContinuousClock.now - start).seconds
        say(String(format: "  import (in process)  %10.0f recipes/s (%.2f s)", Double(count) / importSeconds, importSeconds))

        // Through HTTP, appended to an embedded broker and projected.
        let kafka = try EmbeddedKafka(brokers: 1)
        let topic = RecipeTopics().edits
        try kafka.createTopic(topic, partitions: 6)
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("bench-import-\(UUID().uuidString).db").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) } }
        var options = RecipeService.Options(kafka: KafkaConfig(bootstrapServers: kafka.bootstrapServers), topic: topic, storePath: store)
        options.port = 0
        options.fetchWaitMilliseconds = 10
        options.api.appendRate = nil
        let service = try RecipeService(options: options)
        try service.start()
        let port = service.port
        let next = Counter(), refused = Counter()
        start = ContinuousClock.now
        let posted = DispatchGroup()
        for _ in 0..<connections {
            posted.enter()
            Thread.detachNewThread {
                defer { posted.leave() }
                guard let client = try? KeepAliveClient(port: port) else { return refused.add() }
                while case let index = next.take(), index < documents.count {
                    let answer = try? client.request("POST", "/v1/import", body: Array(documents[index]), contentType: "application/ld+json")
                    if answer?.status != 202 { refused.add() }
                }
            }
        }
        posted.wait()
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
}

/// A count shared by the posting threads.
private final class Counter: Sendable {
    private let count = Mutex(0)
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
