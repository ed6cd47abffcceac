import Foundation
import Kafka
import RecipeDomain
import RecipeProjection
import RecipeSchemaOrg
import RecipeWire

/// Recipes as the web publishes them: `POST /v1/import` takes a schema.org
/// Recipe (JSON-LD, or an HTML page holding one) and appends it as one
/// `DraftContentSet` of a new recipe (and `RecipeSaved` with `?save=true`);
/// `POST /v1/parse/ingredients` reads ingredient lines as the import does. The
/// export is the detail's (`RecipeRoutes`, `?format=jsonld`).
struct ImportRoutes<Reads: RecipeReads, Log: CommandLog>: Sendable {
    let log: Log
    let access: Access
    let source: String
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

    struct ImportReceipt: Encodable {
        var recipeId: String
        var commandId: String
        var position: String
        /// The position of `RecipeSaved`, with `?save=true`.
        var savedPosition: String?
        /// What the document said that the recipe could not hold, and why.
        var omissions: [String]
    }

    func importRecipe(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.author(request)
        let save = try request.bool("save")
        try access.takeAppends(save ? 2 : 1, by: caller)
        let imported: ImportedRecipe
        do {
            imported = try SchemaOrgImport.recipe(from: Data(request.body), contentType: request.header("content-type"))
        } catch {
            throw ImportRefused(error)
        }
        let recipeID = CommandBuilder.newCommandID()
        let envelope = CommandEnvelope(commandID: CommandBuilder.newCommandID(), recipeID: recipeID, actor: caller.actor,
                                       time: .now, actorRole: caller.role, command: .draftContentSet(imported.document.draftContent))
        try ImportCheck.check(envelope, source: source)
        let report = try appended { try log.appendWaiting(envelope, source: source) }
        var receipt = ImportReceipt(recipeId: recipeID, commandId: envelope.commandID, position: report.description,
                                    omissions: imported.omissions.map(\.description))
        if save {
            let saving = CommandEnvelope(commandID: CommandBuilder.newCommandID(), recipeID: recipeID, actor: caller.actor,
                                         time: .now, actorRole: caller.role, command: .recipeSaved)
            receipt.savedPosition = try appended { try log.appendWaiting(saving, source: source) }.description
        }
        return .json(receipt, status: 202)
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

/// Why a document was not imported: 413 for one too large, 415 for a type that is no
/// recipe's, else 422 naming what is wrong (and where, as a JSON path).
struct ImportRefused: HTTPResponseError {
    let error: any Error
    init(_ error: any Error) { self.error = error }

    var status: Int {
        switch error as? SchemaOrgImportError {
        case .documentTooLarge?: 413
        case .unsupportedContentType?: 415
        default: 422
        }
    }
    var code: String { status == 413 ? "tooLarge" : status == 415 ? "unsupportedMediaType" : "badRecipeDocument" }
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
                  instructions: detail.instructions.map { ($0.description, $0.section) })
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
