import Foundation
import RecipeCLI

/// `recipes-bench fold`.
enum FoldBenchmarkCommand {
    static let spec = CommandSpec(
        name: "recipes-bench fold",
        summary: "Fold a realistic mix of recipe commands on one core and print commands/s.",
        abstract: "Commands/s folded by the recipe domain on one core.",
        options: [
            .value("commands", "N", "Commands to fold.", default: "2000000"),
            .value("seed", "S", "Seed of the generated mix.", default: "42"),
        ])

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let commands = try args.int("commands", in: 1...100_000_000)!
        let seed = try args.int("seed", in: 0...Int.max)!
        let result = FoldBenchmark.run(commandCount: commands, seed: UInt64(seed))
        say(String(format: "bench fold: %d commands in %.3f s = %.0f commands/s (accepted %d, rejected %d, duplicates %d)",
                   result.commands, result.seconds, result.commandsPerSecond,
                   result.accepted, result.rejected, result.duplicates))
    }
}
