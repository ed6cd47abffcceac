import RecipeAudit
import RecipeCLI
import RecipeProjection

/// `recipes`: the command table. Registering a command here is what makes
/// `recipes NAME` run it and `recipes --help` list it.
enum RecipesCLI {
    static let program = Command.group(
        "recipes",
        summary: "Recipe Ledger: an event-sourced recipe service on Apache Kafka.",
        discussion: """
            Running on a real Kafka cluster: deploy/README.md and docs/operations.md.
            Benchmarks are a program of their own, recipes-bench (docs/benchmarks.md).
            """,
        [
            .run(DevCommand.spec, DevCommand.run),
            .run(ServeCommand.spec, ServeCommand.run),
            .run(SendCommand.spec, SendCommand.run),
            .run(BrokerCommand.spec, BrokerCommand.run),
            .run(DecideCommand.spec, DecideCommand.run),
            .run(ProjectCommand.spec, ProjectCommand.run),
            .run(QueryCommands.list, QueryCommands.runList),
            .run(QueryCommands.show, QueryCommands.runShow),
            .run(QueryCommands.drafts, QueryCommands.runDrafts),
            .run(QueryCommands.history, QueryCommands.runHistory),
            .run(QueryCommands.rejections, QueryCommands.runRejections),
            .run(FollowCommand.spec, FollowCommand.run),
            .run(ReplayCommand.spec, ReplayCommand.run),
            .run(RecipeFileCommands.parse, RecipeFileCommands.runParse),
            .run(RecipeFileCommands.importSpec, RecipeFileCommands.runImport),
            .run(RecipeFileCommands.export, RecipeFileCommands.runExport),
            AuditCommand.group,
            TopicsCommand.group,
            TokensCommand.group,
        ])

    /// Exit status 3: the store and the log disagree (another log, a missing head), so nothing was
    /// folded; scripts and orchestrators can tell it from a failure that may pass (status 1).
    static let logMismatchStatus: Int32 = 3

    @Sendable static func exitStatus(_ error: any Error) -> Int32? {
        switch error {
        case is LogMismatch, is MissingHead: logMismatchStatus
        default: nil
        }
    }
}
