import Foundation
import RecipeCLI
import RecipeDomain
import RecipeProjection
import RecipeWire

/// `recipes list | show | drafts | history | rejections`: read a store.
///
/// Their bounds are the HTTP API's for the same query, so the CLI and the API
/// accept the same requests.
enum QueryCommands {
    static let list = CommandSpec(
        name: "recipes list", summary: "List committed recipes in title order.",
        abstract: "List committed recipes from a store.",
        options: [StoreOptions.db, .value("tag", "NAME", "Only recipes with this tag (`@` and case ignored)."),
                  .value("q", "TEXT", "Only titles containing this text (case ignored)."),
                  .value("limit", "N", "Page size, 1…\(listLimits.upperBound).", default: "50"),
                  .value("cursor", "C", "Continue after a previous page (its nextCursor)."), StoreOptions.json])

    static let show = CommandSpec(
        name: "recipes show", summary: "Show a recipe: its latest committed version, or another, scaled for guests.",
        abstract: "Show a recipe, any version, scaled for guests.",
        arguments: "ID",
        options: [StoreOptions.db, .value("version", "V", "A committed version (default: the latest)."),
                  .value("guests", "N", "Scale the amounts for this many guests."),
                  .value("units", "SYSTEM", "Show amounts in metric or us units (display only)."), StoreOptions.json])

    static let drafts = CommandSpec(
        name: "recipes drafts", summary: "List open drafts, most recently edited first.", abstract: "List open drafts.", options: [StoreOptions.db, StoreOptions.json])

    static let history = CommandSpec(
        name: "recipes history", summary: "Every record of a recipe in log order, with its outcome (from the store).",
        abstract: "A recipe's records and their outcomes.", arguments: "ID", options: [StoreOptions.db, StoreOptions.json])

    static let rejections = CommandSpec(
        name: "recipes rejections", summary: "The most recent rejected or undecodable records.",
        abstract: "Rejected and undecodable records.",
        options: [StoreOptions.db, .value("limit", "N", "How many, 1…\(rejectionLimits.upperBound).", default: "50"), StoreOptions.json])

    /// `GET /v1/recipes?limit=` and `GET /v1/rejections?limit=` accept these.
    static let listLimits = 1...500
    static let rejectionLimits = 1...1000

    static func runList(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: list)
        try args.expectNoPositionals()
        let limit = try args.int("limit", in: listLimits)!
        let page = try ReadModel(path: args.string("db")!).list(
            tag: args.string("tag"), query: args.string("q"), limit: limit, cursor: args.string("cursor"))
        if args.flag("json") { return try printJSON(page) }
        printTable(["ID", "TITLE", "VERSION", "INGREDIENTS", "TAGS", "UPDATED"], page.items.map {
            [$0.id, $0.title, "\($0.version)", "\($0.ingredientCount)", $0.tags.map(tagText).joined(separator: " "), $0.updatedAt]
        })
        if let next = page.nextCursor { say("more: --cursor \(next)") }
    }

    static func runShow(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: show)
        let id = try singleID(args)
        let version = try args.int("version", in: 1...Int(Int32.max))
        let guests = try args.int("guests", in: RecipeLimits.guests)
        var units: UnitSystem?
        if let text = args.string("units") {
            guard let system = UnitSystem(rawValue: text) else { throw UsageError("--units must be metric or us, not \(text)") }
            units = system
        }
        let detail = try ReadModel(path: args.string("db")!).detail(id, version: version, guests: guests, units: units)
        if args.flag("json") { return try printJSON(detail) }
        printDetail(detail)
    }

    static func printDetail(_ detail: RecipeDetail) {
        say("\(detail.title)  (version \(detail.version), saved \(detail.updatedAt) by \(detail.savedBy)\(detail.hasDraft ? ", draft open" : ""))")
        if let servings = detail.servings { say("serves \(detail.guests ?? servings)\(detail.yield.map { ", makes \($0)" } ?? "")") }
        else if let yield = detail.yield { say("makes \(yield)") }
        let times = [("prep", detail.prepTime), ("cook", detail.cookTime), ("total", detail.totalTime)]
            .compactMap { name, time in time.map { "\(name) \($0)" } }
        if !times.isEmpty { say(times.joined(separator: ", ")) }
        if let source = detail.sourceUrl { say("from \(source)") }
        if let description = detail.description { say(""); say(description) }
        printContent(tags: detail.tags, ingredients: detail.ingredients, instructions: detail.instructions)
        if let nutrition = detail.nutrition { say(""); printNutrition(nutrition) }
    }

    /// `per serving (1 slice): calories 240 kcal, fat 9.5 g`, then `for 4 servings: …` when there is a total.
    static func printNutrition(_ nutrition: NutritionView) {
        func amounts(_ amounts: [String: NutritionView.Amount]) -> String {
            Nutrition.Nutrient.allCases.compactMap { nutrient in
                amounts[nutrient.rawValue].map { stated in
                    let number = "\(stated.amount)"
                    return "\(nutrient.rawValue) \(number.hasSuffix(".0") ? String(number.dropLast(2)) : number) \(stated.unit)"
                }
            }.joined(separator: ", ")
        }
        say("per serving\(nutrition.servingSize.map { " (\($0))" } ?? ""): \(amounts(nutrition.perServing))")
        if let total = nutrition.total, let servings = nutrition.forServings { say("for \(servings) servings: \(amounts(total))") }
    }

    /// Ingredients and steps under their section headings, each heading once where it starts.
    static func printContent(tags: [TagView], ingredients: [IngredientView], instructions: [InstructionView]) {
        if !tags.isEmpty { say(tags.map(tagText).joined(separator: " ")) }
        say("")
        var section: String?
        for ingredient in ingredients {
            if ingredient.section != section, let heading = ingredient.section { say(" \(heading):") }
            section = ingredient.section
            // A line without a quantity shows its name alone; the note follows the name.
            let quantity = ingredient.display.isEmpty ? "" : "\(ingredient.display)  "
            say("  \(quantity)\(ingredient.name)\(ingredient.note.map { ", \($0)" } ?? "")")
        }
        say("")
        section = nil
        for step in instructions {
            if step.section != section, let heading = step.section { say(" \(heading):") }
            section = step.section
            say("  \(step.order). \(step.description)")
        }
    }

    static func runDrafts(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: drafts)
        try args.expectNoPositionals()
        let open = try ReadModel(path: args.string("db")!).drafts()
        if args.flag("json") { return try printJSON(open) }
        printTable(["ID", "TITLE", "REVISION", "BASE", "MISSING", "LAST REJECTION"], open.map {
            [$0.id, $0.title, "\($0.revision)", "\($0.baseVersion)", $0.missing.joined(separator: ","),
             $0.lastRejection.map { "\($0.code): \($0.message)" } ?? ""]
        })
    }

    static func runHistory(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: history)
        let id = try singleID(args)
        let trail = try ReadModel(path: args.string("db")!).history(id)
        if args.flag("json") { return try printJSON(trail) }
        printTable(["POSITION", "TIME", "ACTOR", "TYPE", "OUTCOME", "RULES", "REASON"], trail.items.map {
            [$0.position, $0.time ?? "", $0.actor ?? "", $0.type, $0.outcome.rawValue, $0.rulesVersion.map(String.init) ?? "",
             $0.reason.map { "\($0.code): \($0.message)" } ?? ""]
        })
    }

    static func runRejections(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: rejections)
        try args.expectNoPositionals()
        let limit = try args.int("limit", in: rejectionLimits)!
        let items = try ReadModel(path: args.string("db")!).rejections(limit: limit)
        if args.flag("json") { return try printJSON(items) }
        printTable(["POSITION", "KEY", "TYPE", "REASON"], items.map {
            [$0.position, $0.key ?? "", $0.type, "\($0.reason.code): \($0.reason.message)"]
        })
    }

    /// The one ID argument, a recipe id (checked before any store or broker is opened).
    static func singleID(_ args: ParsedArguments) throws -> RecipeID {
        guard args.positionals.count == 1 else {
            throw UsageError("expected one recipe ID (see \(args.spec.name) --help)")
        }
        return try recipeID(args.positionals[0])
    }

    /// An `ID` argument: a recipe id, else one line naming the form.
    static func recipeID(_ text: String) throws -> RecipeID {
        do { return try RecipeID(text) } catch { throw UsageError("ID: \(error.message)") }
    }

    private static func tagText(_ tag: TagView) -> String {
        tag.payload.map { "@\(tag.name)(\($0))" } ?? "@\(tag.name)"
    }
}
