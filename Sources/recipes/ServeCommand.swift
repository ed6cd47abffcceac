import Foundation
import Kafka
import RecipeCLI
import RecipeHTTP
import RecipeProjection

/// `recipes serve`: a projector and the HTTP API against a real cluster.
enum ServeCommand {
    static let spec = CommandSpec(
        name: "recipes serve",
        summary: "Keep a store current from the log and serve the HTTP API over it, until SIGTERM or Ctrl-C.",
        abstract: "Projector and HTTP API against a Kafka cluster.",
        options: KafkaOptions.specs + [
            .value("db", "FILE", "The read-model store (SQLite); created when missing.", required: true),
            .value("port", "PORT", "HTTP port, on every address.", default: "8080"),
            .flag("loopback", "Listen on 127.0.0.1 only."),
            .value("tokens", "FILE", "Bearer tokens, one `token actor` per line; with it every POST needs a token."),
            .flag("private", "With --tokens: reading needs a token too."),
            .value("group", "NAME", "Share the store with other workers in this consumer group (default: replica mode)."),
            .value("wait", "SECONDS", "Longest wait of `after=` and `?wait=true`.", default: "5"),
        ],
        discussion: """
            /healthz is liveness, /readyz turns 200 once the store has caught up with the log's end at start,
            /metrics is Prometheus text. Without --tokens anyone who reaches the port may write.
            """)

    static func run(_ arguments: [String]) async throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let storePath = try args.required("db")
        let port = try args.int("port", in: 0...65535)!
        let wait = try args.seconds("wait", in: 0.01...300)!
        if args.flag("private") && args.string("tokens") == nil { throw UsageError("--private needs --tokens FILE") }
        let topic = try KafkaOptions.topics(args).edits
        let config = try KafkaOptions.config(args)
        let tokens = try tokens(args)

        var options = RecipeService.Options(kafka: config, topic: topic, storePath: storePath)
        options.mode = args.string("group").map { .group($0) } ?? .replica
        options.port = UInt16(port)
        options.loopbackOnly = args.flag("loopback")
        options.api = RecipeAPI.Options(tokens: tokens, privateReads: args.flag("private"), waitTimeout: wait)
        let service: RecipeService
        do {
            service = try RecipeService(options: options)
        } catch let error as HTTPServerError {
            throw UsageError(error.message)
        }
        say("serving \(topic) from \(config.bootstrapServers) with store \(storePath) (\(args.string("group").map { "group \($0)" } ?? "replica mode"))")
        say("http: http://\(args.flag("loopback") ? "127.0.0.1" : "0.0.0.0"):\(service.port)")
        say(tokens.map { "auth: \($0.actors.count) token(s)\(args.flag("private") ? ", reads need a token too" : "")" }
            ?? "open: no --tokens, anyone may write")
        await waitForTerminationSignal()
        say("stopping")
        let clean = await service.shutdown()
        say(clean ? "stopped" : "stopped (the projector did not finish in time; its committed work is kept)")
    }

    static func tokens(_ args: ParsedArguments) throws -> AccessTokens? {
        guard let path = args.string("tokens") else { return nil }
        do {
            return try AccessTokens(contentsOf: path)
        } catch let error as AccessTokensError {
            throw UsageError("--tokens: \(error.message)")
        }
    }
}
