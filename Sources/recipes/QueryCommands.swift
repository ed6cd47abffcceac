import Foundation
import RecipeProjection

/// `recipes list | show | drafts | history | rejections`: read a store.
enum QueryCommands {
    static let list = CommandSpec(
        name: "recipes list", summary: "List committed recipes in title order.",
        usage: "recipes list [--db FILE] [--tag NAME] [--q TEXT] [--limit N] [--cursor C] [--json]",
        options: [StoreOptions.db, .value("tag", "NAME", "Only recipes with this tag (`@` and case ignored)."),
                  .value("q", "TEXT", "Only titles containing this text (case ignored)."),
                  .value("limit", "N", "Page size.", default: "50"),
                  .value("cursor", "C", "Continue after a previous page (its nextCursor)."), StoreOptions.json])

    static let show = CommandSpec(
        name: "recipes show", summary: "Show a recipe: its latest committed version, or another, scaled for guests.",
        usage: "recipes show ID [--db FILE] [--version V] [--guests N] [--json]",
        options: [StoreOptions.db, .value("version", "V", "A committed version (default: the latest)."),
                  .value("guests", "N", "Scale the amounts for this many guests."), StoreOptions.json])

    static let drafts = CommandSpec(
        name: "recipes drafts", summary: "List open drafts, most recently edited first.",
        usage: "recipes drafts [--db FILE] [--json]", options: [StoreOptions.db, StoreOptions.json])

    static let history = CommandSpec(
        name: "recipes history", summary: "Every record of a recipe in log order, with its outcome (from the store).",
        usage: "recipes history ID [--db FILE] [--json]", options: [StoreOptions.db, StoreOptions.json])

    static let rejections = CommandSpec(
        name: "recipes rejections", summary: "The most recent rejected or undecodable records.",
        usage: "recipes rejections [--db FILE] [--limit N] [--json]",
        options: [StoreOptions.db, .value("limit", "N", "How many.", default: "50"), StoreOptions.json])

    static func runList(_ arguments: [String]) async throws {
        let args = try ParsedArguments(arguments, spec: list)
        try args.expectNoPositionals()
        let page = try ReadModel(path: args.string("db")!).list(
            tag: args.string("tag"), query: args.string("q"), limit: try args.int("limit", in: 1...1000)!,
            cursor: args.string("cursor"))
        if args.flag("json") { return try printJSON(page) }
        printTable(["ID", "TITLE", "VERSION", "INGREDIENTS", "TAGS", "UPDATED"], page.items.map {
            [$0.id, $0.title, "\($0.version)", "\($0.ingredientCount)", $0.tags.map(tagText).joined(separator: " "), $0.updatedAt]
        })
        if let next = page.nextCursor { say("more: --cursor \(next)") }
    }

    static func runShow(_ arguments: [String]) async throws {
        let args = try ParsedArguments(arguments, spec: show)
        let id = try singleID(args)
        let detail = try ReadModel(path: args.string("db")!).detail(
            id, version: try args.int("version", in: 1...Int.max), guests: try args.int("guests", in: 1...1000))
        if args.flag("json") { return try printJSON(detail) }
        printDetail(detail)
    }

    static func printDetail(_ detail: RecipeDetail) {
        say("\(detail.title)  (version \(detail.version), saved \(detail.updatedAt) by \(detail.savedBy)\(detail.hasDraft ? ", draft open" : ""))")
        if let servings = detail.servings { say("serves \(detail.guests ?? servings)") }
        printContent(tags: detail.tags, ingredients: detail.ingredients, instructions: detail.instructions)
    }

    static func printContent(tags: [TagView], ingredients: [IngredientView], instructions: [InstructionView]) {
        if !tags.isEmpty { say(tags.map(tagText).joined(separator: " ")) }
        say("")
        for ingredient in ingredients { say("  \(ingredient.display)  \(ingredient.name)") }
        say("")
        for step in instructions { say("  \(step.order). \(step.description)") }
    }

    static func runDrafts(_ arguments: [String]) async throws {
        let args = try ParsedArguments(arguments, spec: drafts)
        try args.expectNoPositionals()
        let open = try ReadModel(path: args.string("db")!).drafts()
        if args.flag("json") { return try printJSON(open) }
        printTable(["ID", "TITLE", "REVISION", "BASE", "MISSING", "LAST REJECTION"], open.map {
            [$0.id, $0.title, "\($0.revision)", "\($0.baseVersion)", $0.missing.joined(separator: ","),
             $0.lastRejection.map { "\($0.code): \($0.message)" } ?? ""]
        })
    }

    static func runHistory(_ arguments: [String]) async throws {
        let args = try ParsedArguments(arguments, spec: history)
        let id = try singleID(args)
        let trail = try ReadModel(path: args.string("db")!).history(id)
        if args.flag("json") { return try printJSON(trail) }
        printTable(["POSITION", "TIME", "ACTOR", "TYPE", "OUTCOME", "REASON"], trail.items.map {
            [$0.position, $0.time ?? "", $0.actor ?? "", $0.type, $0.outcome.rawValue, $0.reason.map { "\($0.code): \($0.message)" } ?? ""]
        })
    }

    static func runRejections(_ arguments: [String]) async throws {
        let args = try ParsedArguments(arguments, spec: rejections)
        try args.expectNoPositionals()
        let items = try ReadModel(path: args.string("db")!).rejections(limit: try args.int("limit", in: 1...100_000)!)
        if args.flag("json") { return try printJSON(items) }
        printTable(["POSITION", "KEY", "TYPE", "REASON"], items.map {
            [$0.position, $0.key ?? "", $0.type, "\($0.reason.code): \($0.reason.message)"]
        })
    }

    static func singleID(_ args: ParsedArguments) throws -> String {
        guard args.positionals.count == 1 else {
            throw UsageError("expected one recipe ID (see \(args.spec.name) --help)")
        }
        return args.positionals[0]
    }

    private static func tagText(_ tag: TagView) -> String {
        tag.payload.map { "@\(tag.name)(\($0))" } ?? "@\(tag.name)"
    }
}
