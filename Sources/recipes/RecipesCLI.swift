import Foundation

/// `recipes`: dispatches to one subcommand, turns errors into one line and an exit status.
enum RecipesCLI {
    static let spec = CommandSpec(
        name: "recipes",
        summary: "Recipe Ledger: an event-sourced recipe service on Apache Kafka.",
        usage: "recipes <command> [options]",
        discussion: """
            Commands:
              dev          Embedded Kafka, projector and HTTP API in one process (--seed for samples).
              serve        Projector and HTTP API against a Kafka cluster.
              send         Append commands: one from flags, or JSON lines from stdin.
              broker       Run the embedded Kafka broker with the recipes topic.
              project      Keep a store's read models current from the log.
              list         List committed recipes from a store.
              show         Show a recipe, any version, scaled for guests.
              drafts       List open drafts.
              history      A recipe's records and their outcomes.
              rejections   Rejected and undecodable records.
              replay       Rebuild every read model from the log into a store (resumable).
              audit        Ask the log: history, as-of, diff, export; verify a store against a replay.
              topics       Create the edits topic on a real cluster with the settings the log needs.
              bench        Measure throughput against raw baselines (kafka, fold, wire, project, replay, http).

            Run `recipes <command> --help` for a command's options.
            Running on a real Kafka cluster: deploy/README.md and docs/operations.md.
            """)

    static let commands: [String: @Sendable ([String]) async throws -> Void] = [
        "dev": DevCommand.run,
        "serve": ServeCommand.run,
        "send": SendCommand.run,
        "broker": BrokerCommand.run,
        "project": ProjectCommand.run,
        "list": QueryCommands.runList,
        "show": QueryCommands.runShow,
        "drafts": QueryCommands.runDrafts,
        "history": QueryCommands.runHistory,
        "rejections": QueryCommands.runRejections,
        "replay": ReplayCommand.run,
        "audit": AuditCommand.run,
        "topics": TopicsCommand.run,
        "bench": BenchCommand.run,
    ]

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, name != "--help", name != "help" else {
            print(spec.help, terminator: "")
            exit(arguments.isEmpty ? 2 : 0)
        }
        guard let command = commands[name] else {
            fail("unknown command \"\(name)\" (see recipes --help)", status: 2)
        }
        do {
            try await command(Array(arguments.dropFirst()))
        } catch let help as HelpRequested {
            print(help.spec.help, terminator: "")
        } catch let error as UsageError {
            fail("recipes \(name): \(error)", status: 2)
        } catch {
            fail("recipes \(name): \(error)", status: 1)
        }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(status)
    }
}

/// Writes a line unbuffered, so it reaches a pipe while the process runs on.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
