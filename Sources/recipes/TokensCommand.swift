import Foundation
import RecipeCLI
import RecipeDomain
import RecipeHTTP

/// `recipes tokens`: the bearer tokens file of `serve --tokens`.
enum TokensCommand {
    static let group = Command.group(
        "recipes tokens",
        summary: "Manage the bearer tokens file of recipes serve --tokens.",
        abstract: "Make bearer tokens with roles; the file keeps only their hashes.",
        [.run(addSpec, add)])

    static let addSpec = CommandSpec(
        name: "recipes tokens add",
        summary: "Make a new random token for ACTOR, print it once, and append its SHA-256 hash to the tokens file.",
        abstract: "Make a token for an actor and append its hash to the file.",
        arguments: "ACTOR",
        options: [
            .value("role", "ROLE", "admin (any recipe), writer (its own and those shared with it) or reader (no writes).",
                   default: "writer"),
            .value("file", "FILE", "The tokens file; created with mode 600 when missing.", default: "tokens"),
            .flag("if-empty", "Add nothing when the file holds a line already (a setup job that runs at every start)."),
        ],
        discussion: """
            The token is printed on standard output and nowhere else: the file holds only
            `sha256:<hex> actor role`. A server reads the file when it starts.
            Example:
              recipes tokens add alice --role writer --file /etc/recipes/tokens
            """)

    static func add(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: addSpec)
        guard args.positionals.count == 1, let actor = args.positionals.first else {
            throw UsageError("recipes tokens add takes one ACTOR (see recipes tokens add --help)")
        }
        if let problem = ActorName.problem(actor) { throw UsageError("ACTOR: \(problem)") }
        let roleName = args.string("role")!
        guard let role = ActorRole(rawValue: roleName) else {
            throw UsageError("--role must be admin, writer or reader, got \"\(roleName)\"")
        }
        let path = args.string("file")!
        if args.flag("if-empty"), let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 {
            FileHandle.standardError.write(Data("\(path) holds tokens already; none added\n".utf8))
            return
        }
        let token = AccessTokens.newToken()
        let line = AccessTokens.line(token: token, actor: actor, role: role) + "\n"
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailed(status: 1, "cannot open the tokens file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & 0o077 != 0 {
            throw CommandFailed(status: 1, String(format: "the tokens file %@ may be read or written by group or others (mode %03o); run chmod 600 %@ first",
                                                  path, info.st_mode & 0o777, path))
        }
        let written = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
        guard written == line.utf8.count else {
            throw CommandFailed(status: 1, "cannot write the tokens file \(path)")
        }
        FileHandle.standardError.write(Data("added \(actor) (\(role.rawValue)) to \(path); the token, shown only now:\n".utf8))
        print(token)
    }
}
