import Foundation
import RecipeCLI
import RecipeDomain

/// `recipes follow [RECIPE]`: the event stream of a recipe (`GET /v1/recipes/{id}/events`) or of
/// the list (`GET /v1/events`) from a running server, each event one JSON line.
enum FollowCommand {
    static let spec = CommandSpec(
        name: "recipes follow", summary: "Follow a recipe's decisions, or the list's changes, from the server, as JSON lines.",
        abstract: "Follow the event stream of a recipe or of the list.",
        arguments: "[RECIPE]",
        options: [.value("server", "URL", "The HTTP API, http://HOST:PORT.", default: "http://127.0.0.1:8080"),
                  .value("after", "P:O[,P:O…]", "Start after this position (a receipt's position, or an event's id)."),
                  .value("tag", "NAME", "The list only: committed recipes with this tag."),
                  .value("q", "TEXT", "The list only: committed recipes whose title contains this text."),
                  .flag("until-caught-up", "Exit once the history is printed (after `caught-up`)."),
                  .value("token-file", "FILE", "A file holding the bearer token (else RECIPES_TOKEN, if set).")],
        discussion: """
            Each event is a line {"id","event","data"}: `accepted` and `rejected` decisions (their `id` is
            the position to resume after), `caught-up` once the history is out, `overflow` and `reset`.
            A dropped connection or an overflow is resumed after the last id, after the server's retry
            pause. A reset (the position cannot be resumed after) exits 1; a recipe's deletion exits 0.
            The token is read from --token-file or RECIPES_TOKEN, never from an argument (it would
            show in the process list). Plain HTTP only; docs/api.md, "Event streams".
            """)

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        guard args.positionals.count <= 1 else { throw UsageError("at most one RECIPE (see recipes follow --help)") }
        let recipe = try args.positionals.first.map(QueryCommands.recipeID)
        if recipe != nil, args.string("tag") != nil || args.string("q") != nil {
            throw UsageError("--tag and --q filter the list: give them without a RECIPE")
        }
        guard let server = URL(string: args.string("server")!), server.scheme == "http", server.host != nil else {
            throw UsageError("--server: an http://HOST:PORT URL, not \(args.string("server")!)")
        }
        var query: [String] = []
        for name in ["tag", "q"] {
            if let value = args.string(name) { query.append("\(name)=\(percentEncoded(value))") }
        }
        let path = (recipe.map { "/v1/recipes/\(percentEncoded($0.text))/events" } ?? "/v1/events")
            + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let token = try args.string("token-file").map { file in
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw UsageError("--token-file: cannot read \(file)") }
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        } ?? ProcessInfo.processInfo.environment["RECIPES_TOKEN"]
        try follow(server: server, path: path, token: token, after: args.string("after"), untilCaughtUp: args.flag("until-caught-up"))
    }

    private static func follow(server: URL, path: String, token: String?, after: String?, untilCaughtUp: Bool) throws {
        var lastID = after
        var retry = 2000
        var connected = false
        while true {
            var headers: [(String, String)] = []
            if let token { headers.append(("Authorization", "Bearer \(token)")) }
            if let lastID { headers.append(("Last-Event-ID", lastID)) }
            let reader: EventStreamReader
            do {
                reader = try EventStreamReader(server: server, path: path, headers: headers)
            } catch let refused as EventStreamReader.Refused {
                throw CommandFailed(status: 1, "the server answered \(refused.status): \(refused.body)")
            } catch let error as CommandFailed where connected {
                // Once followed, a server away for a while is waited for, as EventSource does.
                FileHandle.standardError.write(Data("recipes follow: \(error.description); again in \(retry) ms\n".utf8))
                Thread.sleep(forTimeInterval: Double(retry) / 1000)
                continue
            }
            connected = true
            var ended = false
            while let event = reader.next() {
                say(line(event))
                if let id = event.id { lastID = id }
                switch event.name {
                case "caught-up" where untilCaughtUp: return
                case "reset": throw CommandFailed(status: 1, "the server cannot resume after \(lastID ?? "the start"): \(event.data)")
                case "accepted" where path.hasPrefix("/v1/recipes/") && event.data.contains(#""type":"RecipeDeleted""#): ended = true
                default: break
                }
            }
            if ended { return }
            retry = reader.retry ?? retry
            Thread.sleep(forTimeInterval: Double(retry) / 1000)
        }
    }

    /// `{"id":…,"event":…,"data":…}`: the data as the JSON it is (as a string if it is not JSON).
    static func line(_ event: EventStreamReader.Event) -> String {
        let data = (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) != nil ? event.data : quoted(event.data)
        return #"{"id":\#(event.id.map(quoted) ?? "null"),"event":\#(quoted(event.name)),"data":\#(data)}"#
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }

    private static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
