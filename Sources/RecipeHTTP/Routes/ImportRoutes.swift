import Foundation
import Kafka
import RecipeDecisions
import RecipeDomain
import RecipeProjection
import RecipeSchemaOrg
import RecipeWire
import RecipeWriteSide

/// Recipes as the web publishes them: `POST /v1/import` takes a schema.org
/// Recipe (JSON-LD, or an HTML page holding one as JSON-LD, microdata or RDFa) and
/// appends it as one `DraftContentSet` of a new recipe (then `NutritionChanged` when it states nutrition, and `RecipeSaved` with
/// `?save=true`), each decided first by the fold's own rules; with `?save=true` or
/// `?wait=true` it answers what became of them once the read side has folded them.
/// `POST /v1/parse/ingredients` reads ingredient lines as the import does. The export is
/// the detail's (`RecipeRoutes`, `?format=jsonld`).
struct ImportRoutes<Reads: RecipeReads, Log: CommandLog>: Sendable {
    let log: Log
    let reads: Reads
    let access: Access
    let source: String
    /// How long `?save=true` and `?wait=true` wait for the outcome; then 202 without it.
    let waitTimeout: Duration
    /// The slots of requests that wait for the read model, shared with `after=` and the commands' `?wait=true`.
    let waiters: WaiterLimit
    /// What the decider of this process does (nil: none here): records it has not decided are
    /// answered without outcomes (202), as a command's `?wait=true` is.
    let decider: @Sendable () -> DeciderState?
    static var importPath: String { "/v1/import" }
    /// What an import reads: JSON-LD, or an HTML (or XHTML) page holding it (`SchemaOrgImport.Format`).
    static var mediaTypes: [String] { ["application/ld+json", "application/json", "text/json", "text/html", "application/xhtml+xml"] }
    /// At most this many lines per parse request (413 beyond).
    static var maxParsedLines: Int { 1_000 }

    func register(in router: inout Router<RouteHandler>) {
        // A recipe page is mostly markup: the import reads up to a page's limit (a JSON document's is smaller).
        router.add("POST", Self.importPath, takes: RouteIntake(writes: true, mediaTypes: Self.mediaTypes, maxBodySize: SchemaOrgImport.maxHTMLBytes),
                   importRecipe)
        router.add("POST", "/v1/parse/ingredients", takes: RouteIntake(writes: false, mediaTypes: ["application/json"], maxBodySize: HTTPServer.defaultMaxBodySize),
                   parseIngredients)
    }

    /// What became of an import: where its records landed and, once folded, their outcomes.
    struct ImportReceipt: Encodable {
        var recipeId: String
        var commandId: String
        var position: String
        /// The `DraftContentSet`'s outcome, once the read side has folded it.
        var outcome: RecordOutcome?
        var revision: Int?
        var reason: Reason?
        /// The `NutritionChanged` appended after the content when the document states nutrition, and its position.
        var nutritionCommandId: String?
        var nutritionPosition: String?
        /// The position of `RecipeSaved`, when it was appended.
        var savedPosition: String?
        /// With `?save=true`: the save's outcome, or why it was not appended.
        var save: SaveOutcome?
        /// What the import cut or left out of the document, and why.
        var omissions: [String]
        /// Where the title, ingredients and steps were read from (`markup`: a guess to check).
        var sources: ImportedRecipe.Sources
    }

    struct SaveOutcome: Encodable {
        /// Nil when the save was not appended: the fold's rules refuse it (`reason`).
        var commandId: String?
        /// `accepted` (the recipe is saved as a version), `rejected`, `duplicate`; nil while not folded yet.
        var outcome: RecordOutcome?
        var revision: Int?
        var reason: Reason?
    }

    struct Reason: Encodable {
        var code: String
        var message: String
    }

    func importRecipe(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.author(request)
        let save = try request.bool("save")
        let wait = try request.bool("wait")
        // Counted before any of the document is read, as the commands it may append (as a batch
        // is): an actor over its rate costs no parsing, and a refused document counts too.
        try access.takeAppends(save ? 2 : 1, by: caller)
        let imported: ImportedRecipe
        let commands: ImportCommands
        let cancellation = request.cancellation
        do {
            imported = try SchemaOrgImport.recipe(from: Data(request.body), contentType: request.header("content-type"),
                                                  shouldStop: { cancellation?.reason != nil })
            commands = try imported.commands(recipeID: CommandBuilder.newRecipeID(), actor: caller.actor, actorRole: caller.role,
                                             time: .now, save: save, newCommandID: CommandBuilder.newCommandID)
        } catch SchemaOrgImportError.interrupted {
            throw Self.interrupted(cancellation?.reason)
        } catch {
            throw ImportRefused(error)
        }
        try ImportCheck.check(commands.content, source: source)
        if let nutrition = commands.nutrition {
            // A page that states nutrition appends one record more.
            try access.takeAppends(1, by: caller)
            try ImportCheck.check(nutrition, source: source)
        }
        // The slot is taken before the append: an import refused as `busy` is not on the log.
        guard save || wait else { return .json(try appended(commands, imported).receipt, status: 202) }
        return try waiters.holding { try appendedAndFolded(commands, imported) }
    }

    /// An import stopped in the middle: 503 when the server is stopping; 499 `clientGone` when its
    /// client went away, an answer no one reads, counted in `/metrics` as such.
    private static func interrupted(_ reason: RequestCancellation.Reason?) -> HTTPError {
        reason == .clientGone
            ? HTTPError(499, "clientGone", "the client closed its connection before the import was read")
            : HTTPError(503, "unavailable", "the server is stopping; the import was not read")
    }

    /// Where an import's records landed.
    private struct Appended {
        var receipt: ImportReceipt
        var content: KafkaDeliveryReport
        var nutrition: KafkaDeliveryReport?
        var saved: KafkaDeliveryReport?
    }

    /// Appends the import's records, the content first; the receipt says where they landed.
    private func appended(_ commands: ImportCommands, _ imported: ImportedRecipe) throws -> Appended {
        let content = try appended { try log.append(commands.content, source: source) }
        var done = Appended(receipt: ImportReceipt(recipeId: commands.content.recipeID.text, commandId: commands.content.commandID,
                                                   position: content.description, omissions: imported.omissions.map(\.description),
                                                   sources: imported.sources),
                            content: content)
        if let nutrition = commands.nutrition {
            let stated = try appended { try log.append(nutrition, source: source) }
            done.nutrition = stated
            done.receipt.nutritionCommandId = nutrition.commandID
            done.receipt.nutritionPosition = stated.description
        }
        if let saving = commands.save {
            let saved = try appended { try log.append(saving, source: source) }
            done.saved = saved
            done.receipt.savedPosition = saved.description
            done.receipt.save = SaveOutcome(commandId: saving.commandID)
        } else if let refusal = commands.saveRefused {
            done.receipt.save = SaveOutcome(outcome: .rejected, reason: Reason(code: refusal.code.rawValue, message: refusal.message))
        }
        return done
    }

    /// Appends, then waits until the read side has folded the last record (both land on the
    /// recipe's partition, in order) and answers every outcome: 200, or 202 when the wait runs
    /// out (the records are on the log either way).
    private func appendedAndFolded(_ commands: ImportCommands, _ imported: ImportedRecipe) throws -> HTTPResponse {
        var done = try appended(commands, imported)
        let last = done.saved ?? done.nutrition ?? done.content
        // On a partition the decider stopped deciding, no outcome comes; one it has not decided is not its.
        if decider()?.undecided([last.partition: last.offset]).contains(where: { $0.why != nil }) == true {
            return .json(done.receipt, status: 202)
        }
        guard try reads.waitUntilReached([last.partition: last.offset], deadline: .now + waitTimeout),
              decider()?.undecided([last.partition: last.offset]).isEmpty != false,
              let content = try reads.outcome(of: commands.content.commandID, at: done.content) else {
            return .json(done.receipt, status: 202)
        }
        done.receipt.outcome = content.outcome
        done.receipt.revision = content.revision
        done.receipt.reason = content.reason.map { Reason(code: $0.code, message: $0.message) }
        if let saving = commands.save, let report = done.saved {
            guard let saved = try reads.outcome(of: saving.commandID, at: report) else { return .json(done.receipt, status: 202) }
            done.receipt.save = SaveOutcome(commandId: saving.commandID, outcome: saved.outcome, revision: saved.revision,
                                            reason: saved.reason.map { Reason(code: $0.code, message: $0.message) })
        }
        return .json(done.receipt, status: 200)
    }

    /// Appends from the handler thread, which waits for the log's answer (no task: the
    /// server's threads never wait on the Swift concurrency pool).
    private func appended(_ append: () throws -> KafkaDeliveryReport) throws -> KafkaDeliveryReport {
        do {
            return try append()
        } catch let refusal as HTTPResponseError {
            throw refusal
        } catch {
            throw HTTPError(503, "unavailable", "the import could not be appended to the log: \(error)")
        }
    }

    struct ParseRequest: Decodable { var lines: [String] }

    func parseIngredients(_ request: HTTPRequest) throws -> HTTPResponse {
        let parsed: ParseRequest
        do {
            parsed = try JSONDecoder().decode(ParseRequest.self, from: Data(request.body))
        } catch {
            throw HTTPError(400, "malformedJSON", #"the body must be {"lines":["…", …]}: \#(error)"#)
        }
        guard parsed.lines.count <= Self.maxParsedLines else {
            throw HTTPError(413, "tooManyLines", "at most \(Self.maxParsedLines) lines a request, not \(parsed.lines.count)")
        }
        return .json(Items(items: parsed.lines.map { ParsedLineView(IngredientLineParser.parse($0)) }))
    }
}

/// Why a document was not imported: 413 for one too large or holding more than an import
/// reads, 415 for a type that is no recipe's, else 422 naming what is wrong (and where, as a JSON path).
struct ImportRefused: HTTPResponseError {
    let error: any Error
    init(_ error: any Error) { self.error = error }

    var status: Int {
        switch error as? SchemaOrgImportError {
        case .documentTooLarge?, .tooComplex?: 413
        case .unsupportedContentType?: 415
        default: 422
        }
    }
    var code: String {
        switch error as? SchemaOrgImportError {
        case .documentTooLarge?: "tooLarge"
        case .tooComplex?: "tooComplex"
        case .unsupportedContentType?: "unsupportedMediaType"
        default: "badRecipeDocument"
        }
    }
    var message: String { "\(error)" }
}

extension RecipeDocument {
    /// The document of a recipe as the detail shows it, for `?format=jsonld`.
    public init(_ detail: RecipeDetail) {
        self.init(title: detail.title, servings: detail.servings, image: detail.image, description: detail.description,
                  yield: detail.yield, prepTime: detail.prepTime, cookTime: detail.cookTime, totalTime: detail.totalTime,
                  sourceUrl: detail.sourceUrl, tags: detail.tags.map(\.name),
                  ingredients: detail.ingredients.map { item in
                      (IngredientLine(name: item.name, amount: item.amount, amountMax: item.amountMax, unit: item.unit,
                                      note: item.note, section: item.section, text: item.text),
                       item.display.isEmpty ? nil : item.display)
                  },
                  instructions: detail.instructions.map { ($0.description, $0.section) },
                  nutrition: detail.nutrition.map { view in
                      var amounts: [Nutrition.Nutrient: Double] = [:]
                      for (name, amount) in view.perServing { Nutrition.Nutrient(rawValue: name).map { amounts[$0] = amount.amount } }
                      return Nutrition(amounts: amounts, servingSize: view.servingSize)
                  })
    }
}

extension RecipeReads {
    /// The outcome of the command `commandID` where it landed, once the read side has it; nil
    /// before, and when the entry there is another command's (a store that folded another log).
    func outcome(of commandID: String, at report: KafkaDeliveryReport) throws -> HistoryItem? {
        guard let item = try outcome(partition: report.partition, offset: report.offset), item.commandId == commandID else { return nil }
        return item
    }
}

/// The record an imported recipe becomes must pass the decoder every projector runs: size and field limits.
public enum ImportCheck {
    public static func check(_ envelope: CommandEnvelope, source: String = RecipeAPI.source) throws {
        let record = RecordEncoder(source: source).encode(envelope)
        if case .failure(let error) = RecordDecoder().decode(key: RecordKey.key(forRecipe: envelope.recipeID), value: record) {
            throw HTTPError(error.code == .tooLarge ? 413 : 422, error.code.rawValue,
                            "the imported recipe cannot be one record: \(error.message)", field: error.field)
        }
    }
}

/// What an ingredient line says, as `POST /v1/parse/ingredients` and `recipes parse --json` show it.
public struct ParsedLineView: Encodable, Sendable {
    public var text: String
    public var amount: Double?
    public var amountMax: Double?
    public var unit: String?
    public var name: String
    public var note: String?

    public init(_ parsed: ParsedIngredient) {
        (text, amount, amountMax, unit, name, note) = (parsed.text, parsed.amount, parsed.amountMax, parsed.unit, parsed.name, parsed.note)
    }
}
