import Foundation
import Kafka
import RecipeCLI
import RecipeDomain
import RecipeHTTP
import RecipeProjection
import RecipeSchemaOrg
import RecipeWire
import RecipeWriteSide

/// `recipes parse | import | export`: recipes as cooks and the web write them.
enum RecipeFileCommands {
    static let parse = CommandSpec(
        name: "recipes parse", summary: "Read ingredient lines from stdin, as the import does, and print what each says.",
        abstract: "Parse ingredient lines (stdin).",
        options: [StoreOptions.json],
        discussion: """
            One line in, one out: amount, range, unit, name and note ("1 ½ cups flour, sifted" →
            1.5 cup flour, note "sifted"). The rules: docs/ingredients.md.
            Example:
              printf '2–3 cloves garlic, crushed\\nSalt, to taste\\n' | recipes parse
            """)

    static let importSpec = CommandSpec(
        name: "recipes import", summary: "Import schema.org recipes (JSON-LD files, or HTML pages holding them) as new recipes.",
        abstract: "Import schema.org recipes from files.",
        arguments: "FILE…",
        options: KafkaOptions.specs + [
            .flag("save", "Commit each imported draft as version 1 (RecipeSaved), when the rules allow it."),
            .flag("all", "Import every recipe of a file, each a recipe of its own, rather than its main one."),
            .value("actor", "NAME", "Who the commands are from.", default: "recipes-cli"),
        ],
        discussion: """
            Each file is read as POST /v1/import reads it (docs/schema-org.md): its main recipe, with what was cut
            or left out listed under it, the same list the API and the console give. Each recipe is one
            DraftContentSet record of a new recipe, so nothing is half-imported; a save the rules would refuse (no
            ingredients) is not appended, and the line says why. A file that cannot be read is reported with its
            name and the others go on (exit 1 if any failed). A file ending in .html or .htm is read as a page;
            anything else as JSON-LD.
            """)

    static let export = CommandSpec(
        name: "recipes export", summary: "Write recipes of a store as schema.org Recipe JSON-LD, one per line.",
        abstract: "Export recipes as schema.org JSON-LD.",
        arguments: "[ID…]",
        options: [StoreOptions.db],
        discussion: "Without IDs, every committed recipe of the store (in title order).")

    static func runParse(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: parse)
        try args.expectNoPositionals()
        var rows: [[String]] = []
        var items: [ParsedLineView] = []
        while let line = readLine() {
            let item = IngredientLineParser.parse(line)
            items.append(ParsedLineView(item))
            rows.append([item.text, item.quantity.text ?? "", item.name, item.note ?? ""])
        }
        if args.flag("json") { return try printJSON(items) }
        printTable(["LINE", "QUANTITY", "NAME", "NOTE"], rows)
    }

    static func runImport(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: importSpec)
        let files = args.positionals
        guard !files.isEmpty else { throw UsageError("give one or more FILEs to import (see recipes import --help)") }
        let actor = args.string("actor")!
        if let problem = ActorName.problem(actor) { throw UsageError("--actor: \(problem)") }
        let topic = try KafkaOptions.topics(args).edits
        var config = try KafkaOptions.config(args)
        config.setDefaults(EditsTopicSettings.producerProperties)
        let producer = try KafkaProducer(config: config)
        let appender = CommandAppender(producer: producer, topic: topic)
        var failures = 0
        for file in files {
            do {
                guard let data = FileManager.default.contents(atPath: file) else { throw UsageError("cannot read \(file)") }
                let html = file.hasSuffix(".html") || file.hasSuffix(".htm")
                let contentType = html ? "text/html" : "application/ld+json"
                let recipes = args.flag("all")
                    ? try SchemaOrgImport.recipes(from: data, contentType: contentType)
                    : [.success(try SchemaOrgImport.recipe(from: data, contentType: contentType))]
                for result in recipes {
                    let imported: ImportedRecipe
                    switch result {
                    case .success(let recipe): imported = recipe
                    case .failure(let error):
                        failures += 1
                        FileHandle.standardError.write(Data("\(file): \(error)\n".utf8))
                        continue
                    }
                    let commands = try imported.commands(recipeID: RecipeID(made: UUID().uuidString.lowercased()), actor: actor, actorRole: nil, time: .now,
                                                         save: args.flag("save"), newCommandID: { UUID().uuidString.lowercased() })
                    try ImportCheck.check(commands.content)
                    if let nutrition = commands.nutrition { try ImportCheck.check(nutrition) }
                    var line = "\(file): \(imported.document.name) recipe \(commands.content.recipeID) at "
                        + (try appender.append(commands.content, source: "recipes-cli")).description
                    if let nutrition = commands.nutrition {
                        line += ", nutrition at \(try appender.append(nutrition, source: "recipes-cli"))"
                    }
                    if let save = commands.save {
                        line += ", saved at \(try appender.append(save, source: "recipes-cli"))"
                    } else if let refusal = commands.saveRefused {
                        line += ", not saved (\(refusal.code.rawValue)): \(refusal.message)"
                    }
                    say(line)
                    let guessed = [("title", imported.sources.title), ("ingredients", imported.sources.ingredients),
                                   ("steps", imported.sources.instructions)].filter { $0.1 == .markup }.map(\.0)
                    if !guessed.isEmpty { say("  read from the page's markup, check them: \(guessed.joined(separator: ", "))") }
                    for omission in imported.omissions { say("  \(omission)") }
                }
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("\(file): \(error)\n".utf8))
            }
        }
        try producer.shutdown()
        if failures > 0 { throw CommandFailed(status: 1, "\(failures) not imported (each named above)") }
    }

    static func runExport(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: export)
        var ids = try args.positionals.map(QueryCommands.recipeID)
        let model = try ReadModel(path: args.string("db")!)
        if ids.isEmpty {
            var cursor: String?
            repeat {
                let page = try model.list(limit: 500, cursor: cursor)
                // A store built before ids had one form may list others: they name no recipe now.
                ids += page.items.compactMap { try? RecipeID($0.id) }
                cursor = page.nextCursor
            } while cursor != nil
        }
        for id in ids {
            let detail = try model.detail(id)
            FileHandle.standardOutput.write(SchemaOrgExport.jsonLD(RecipeDocument(detail), version: detail.version) + Data("\n".utf8))
        }
    }
}
