import Foundation
import Kafka
import RecipeCLI
import RecipeDecisions
import RecipeHTTP
import RecipeProcess
import RecipeProjection

/// `recipes serve`: the HTTP API, a decider of the group's share of partitions and a projector against a real cluster.
enum ServeCommand {
    static let spec = CommandSpec(
        name: "recipes serve",
        summary: "Decide commands, keep a store current from the decisions and serve the HTTP API over it, until SIGTERM or Ctrl-C.",
        abstract: "HTTP API, decider and projector against a Kafka cluster.",
        options: KafkaOptions.specs + [
            .value("db", "FILE", "The read-model store (SQLite); created when missing.", required: true),
            .value("port", "PORT", "HTTP port.", default: "8080"),
            .flag("loopback", "Listen on 127.0.0.1 only (the default without --tokens)."),
            .flag("open", "Without --tokens, listen on every address all the same: anyone who reaches the port may write."),
            .value("decider-group", "NAME", "The consumer group of the decider this process runs (recipes decide): the replicas given the same NAME divide the partitions.",
                   default: "recipes-deciders", alternatives: "decider"),
            .flag("no-decider", "Run no decider here: deciders elsewhere (recipes decide) decide the commands this process appends.",
                  alternatives: "decider"),
            .value("decider-snapshots", "DIR", "Where the decider keeps a snapshot of each partition it lets go, so that taking it again reads only the decisions appended since (recipes decide --snapshots). Private to the user serve runs as: made 0700, its files 0600; one another user owns is refused."),
            .value("wait", "SECONDS", "Longest wait of `after=` and `?wait=true`.", default: "5"),
        ] + ServerFlags.specs + ServerFlags.appendRateSpecs(rate: "100", burst: "1000"),
        discussion: """
            Commands are appended to recipes.edits; the decider decides them into recipes.decisions, which the
            projector folds into the store. /healthz is liveness, /readyz turns 200 once the store has caught up with the log's end at start and the decider has started,
            /metrics is Prometheus text. With --tokens it listens on every address; without, on 127.0.0.1
            only, unless --open says that anyone who reaches the port may write.
            """)

    static func run(_ arguments: [String]) throws {
        // Caught from here on: a Ctrl-C before the service is up stops it cleanly as well.
        let signals = TerminationSignals()
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let storePath = try args.required("db")
        let port = try args.int("port", in: 0...65535)!
        let wait = try args.seconds("wait", in: 0.01...300)!
        let topics = try KafkaOptions.topics(args)
        let config = try KafkaOptions.config(args)
        let tokens = try ServerFlags.tokens(args)
        if args.flag("open") && tokens != nil { throw UsageError("--open is for a server without --tokens") }
        if args.flag("open") && args.flag("loopback") { throw UsageError("give one of --open or --loopback, not both") }
        if args.flag("no-decider") && args.string("decider-snapshots") != nil {
            throw UsageError("--decider-snapshots is for the decider that --no-decider leaves out")
        }
        // Without tokens anyone may write: only this machine may, unless --open says otherwise.
        let loopbackOnly = args.flag("loopback") || (tokens == nil && !args.flag("open"))

        var options = RecipeService.Options(kafka: config, topics: topics, storePath: storePath)
        options.decider = args.flag("no-decider") ? nil : .group(args.string("decider-group")!)
        options.deciderSnapshots = args.string("decider-snapshots")
        options.port = UInt16(port)
        options.loopbackOnly = loopbackOnly
        options.api = try ServerFlags.api(args, tokens: tokens, wait: wait)
        options.server = try ServerFlags.limits(args)
        let service = try RecipeService(options: options)
        do {
            try service.start()
        } catch let error as HTTPServerError {
            throw UsageError(error.message)
        }
        say("serving \(topics.decisions) from \(config.bootstrapServers) with store \(storePath)")
        let scheme = options.server.tlsKeyPEM == nil ? "http" : "https"
        let listening = "\(loopbackOnly ? "127.0.0.1" : "0.0.0.0"):\(service.port)"
        say("http: \(scheme)://\(listening)")
        say(ServerFlags.accessLine(tokens, args, listening: listening))
        signals.wait()
        say("stopping")
        let clean = service.shutdown()
        say(clean ? "stopped" : "stopped (the projector did not finish in time; its committed work is kept)")
    }
}
