import Kafka
import RecipeDomain
import RecipeJSON
import RecipeWire
import RecipeWriteSide

/// `POST /v1/commands`: many commands in one request, as NDJSON
/// (`application/x-ndjson`, one command per line) or a JSON array
/// (`application/json`). Each is validated like a single POST's
/// (`CommandBuilder`, i.e. the record decoder); the valid ones are appended in
/// input order, so each recipe's keep their order; the answer has one item per
/// command, in input order: where it landed, or its error with its index (and
/// line). 202 when at least one was appended; 422 `noValidCommand`, with the
/// items, when none was valid (nothing to append).
struct BatchRoutes<Log: CommandLog>: Sendable {
    /// At most this many commands per request (413 `tooManyCommands` beyond).
    static var maxCommands: Int { 1_000 }
    /// At most this many bytes of body (413 `tooLarge` beyond, from the server as the
    /// body passes it, or before when its length is declared).
    static var maxBodySize: Int { 1 << 20 }
    static var path: String { "/v1/commands" }

    let log: Log
    let access: Access
    let builder: CommandBuilder

    func register(in router: inout Router<RouteHandler>) {
        router.add("POST", Self.path, takes: RouteIntake(writes: true, mediaTypes: BatchForm.mediaTypes, maxBodySize: Self.maxBodySize), batch)
    }

    func batch(_ request: HTTPRequest) throws -> HTTPResponse {
        let caller = try access.author(request)
        let form = try BatchForm(contentType: request.header("content-type"))
        let items = try request.body.withUnsafeBytes { body in try Self.split(body, form: form) }
        guard items.count <= Self.maxCommands else {
            throw HTTPError(413, "tooManyCommands", "the batch has \(items.count) commands; at most \(Self.maxCommands) are taken per request")
        }
        guard !items.isEmpty else { throw HTTPError(400, "emptyBatch", "the batch has no command") }
        // Each command counts against the rate, valid or not, before any is validated.
        try access.takeAppends(items.count, by: caller)

        var chunk = CommandBuilder.Chunk(time: .now, commands: items.count)
        var results: [BatchItem] = []
        results.reserveCapacity(items.count)
        var commands: [CommandBuilder.Command] = []
        var appendedIndices: [Int] = []
        request.body.withUnsafeBytes { body in
            for (index, item) in items.enumerated() {
                let line = form == .ndjson ? item.line : nil
                do throws(CommandInputError) {
                    let command = try builder.command(batchItem: UnsafeRawBufferPointer(rebasing: body[item.range]),
                                                      actor: caller.actor, actorRole: caller.role, chunk: &chunk)
                    commands.append(command)
                    appendedIndices.append(index)
                    let envelope = command.decoded.envelope
                    results.append(BatchItem(index: index, line: line, commandId: envelope.commandID, recipeId: envelope.recipeID.text))
                } catch {
                    results.append(BatchItem(index: index, line: line, error: BatchItem.ItemError(error)))
                }
            }
        }
        guard !commands.isEmpty else {
            let error = BatchItem.ItemError(code: "noValidCommand", message: "no command of the batch is valid; each item says why")
            return .json(BatchRejected(error: error, items: results), status: 422)
        }
        let reports = log.append(commands, source: builder.source)
        for (index, report) in zip(appendedIndices, reports) {
            switch report {
            case .success(let report):
                results[index].partition = report.partition
                results[index].offset = report.offset
                results[index].position = report.description
            case .failure(let refusal as HTTPResponseError):
                results[index].error = BatchItem.ItemError(code: refusal.code, message: refusal.message)
                results[index].commandId = nil
                results[index].recipeId = nil
            case .failure(let error):
                results[index].error = BatchItem.ItemError(code: "unavailable",
                                                           message: "the command could not be appended to the log: \(error)")
                results[index].commandId = nil
                results[index].recipeId = nil
            }
        }
        let failed = results.count { $0.error != nil }
        guard failed < results.count else {
            throw HTTPError(503, "unavailable", "no command of the batch could be appended to the log: \(results[0].error!.message)")
        }
        return BatchReceipt(appended: results.count - failed, failed: failed, items: results).accepted
    }

    enum BatchForm {
        case ndjson, array

        static var mediaTypes: [String] { ["application/x-ndjson", "application/json"] }

        init(contentType: String?) throws {
            let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            switch mediaType {
            case "application/x-ndjson"?: self = .ndjson
            case "application/json"?: self = .array
            default:
                throw HTTPError(415, "unsupportedMediaType",
                                 "a batch is application/x-ndjson (one command per line) or application/json (an array of commands), not \(contentType ?? "untyped")")
            }
        }
    }

    struct Item {
        var range: Range<Int>
        /// 1-based, in the NDJSON form.
        var line: Int
    }

    /// The commands' byte ranges: non-blank lines, or the array's elements.
    static func split(_ body: UnsafeRawBufferPointer, form: BatchForm) throws -> [Item] {
        guard String(validating: body, as: UTF8.self) != nil else {
            throw CommandInputError.notJSON("not valid UTF-8")
        }
        switch form {
        case .array:
            guard let elements = JSONSlices.elements(body) else {
                throw HTTPError(400, "malformedJSON", "the body is not a JSON array of commands")
            }
            return elements.map { Item(range: $0, line: 0) }
        case .ndjson:
            var items: [Item] = []
            var start = 0, line = 1
            while start <= body.count {
                var end = start
                while end < body.count, body[end] != UInt8(ascii: "\n") { end += 1 }
                var range = start..<end
                while let last = range.last, body[last] == UInt8(ascii: "\r") { range = range.dropLast() }
                if body[range].contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) }) {
                    items.append(Item(range: range, line: line))
                }
                start = end + 1
                line += 1
            }
            return items
        }
    }
}

/// The answer to a batch: counts, and one item per command in input order.
struct BatchReceipt: Encodable {
    var appended: Int
    var failed: Int
    var items: [BatchItem]
}

extension BatchReceipt {
    /// The 202 answer, the JSON `HTTPResponse.json` would write (sorted keys, no nil members)
    /// but without `JSONEncoder`, whose reflection would cost as much as validating the items.
    var accepted: HTTPResponse {
        var writer = JSONWriter(capacity: 64 + items.count * 160)
        writer.key("appended", first: true); writer.integer(appended)
        writer.key("failed"); writer.integer(failed)
        writer.key("items"); writer.raw("[")
        for (position, item) in items.enumerated() {
            if position > 0 { writer.raw(",") }
            item.write(to: &writer)
        }
        writer.raw("]}")
        return HTTPResponse(status: 202, headers: [("Content-Type", "application/json")], body: writer.bytes)
    }
}

extension BatchItem {
    /// Members in sorted order, as `JSONCoding.encoder` writes them; nil members left out
    /// (`index` is always there, so the object is never empty).
    func write(to writer: inout JSONWriter) {
        var first = true
        func key(_ name: StaticString) {
            writer.key(name, first: first) // the first opens the object
            first = false
        }
        if let commandId { key("commandId"); writer.string(commandId) }
        if let error {
            key("error")
            writer.key("code", first: true); writer.string(error.code)
            if let field = error.field { writer.key("field"); writer.string(field) }
            writer.key("message"); writer.string(error.message)
            writer.raw("}")
        }
        key("index"); writer.integer(index)
        if let line { key("line"); writer.integer(line) }
        if let offset { key("offset"); writer.integer(Int(offset)) }
        if let partition { key("partition"); writer.integer(Int(partition)) }
        if let position { key("position"); writer.string(position) }
        if let recipeId { key("recipeId"); writer.string(recipeId) }
        writer.raw("}")
    }
}

/// The answer when no command was valid: an error, with each command's.
struct BatchRejected: Encodable {
    var error: BatchItem.ItemError
    var items: [BatchItem]
}

struct BatchItem: Encodable {
    /// 0-based, in both forms.
    var index: Int
    /// 1-based line of the NDJSON form.
    var line: Int?
    var commandId: String?
    var recipeId: String?
    var partition: Int32?
    var offset: Int64?
    var position: String?
    var error: ItemError?

    init(index: Int, line: Int?, commandId: String? = nil, recipeId: String? = nil, error: ItemError? = nil) {
        self.index = index
        self.line = line
        self.commandId = commandId
        self.recipeId = recipeId
        self.error = error
    }

    /// The single POST's error, for this command.
    struct ItemError: Encodable {
        var code: String
        var message: String
        var field: String?

        init(code: String, message: String, field: String? = nil) {
            self.code = code
            self.message = message
            self.field = field
        }

        init(_ error: CommandInputError) {
            self.init(code: error.code, message: error.message, field: error.field)
        }
    }
}
