import RecipeCLI

/// `recipes-bench`: throughput figures, each next to a raw baseline measured in the same run.
enum RecipesBench {
    static let program = Command.group(
        "recipes-bench",
        summary: "Measure Recipe Ledger's throughput against raw baselines in the same run. Build with -c release first.",
        discussion: "Figures and how they were measured: docs/benchmarks.md.",
        [
            .run(KafkaBenchmark.spec, KafkaBenchmark.run),
            .run(FoldBenchmarkCommand.spec, FoldBenchmarkCommand.run),
            .run(WireBenchmarkCommand.spec, WireBenchmarkCommand.run),
            .run(ProjectBenchmark.spec, ProjectBenchmark.run),
            .run(DecideBenchmark.spec, DecideBenchmark.run),
            .run(ReplayBenchmark.spec, ReplayBenchmark.run),
            .run(HTTPBenchmark.spec, HTTPBenchmark.run),
            .run(AppendBenchmark.spec, AppendBenchmark.run),
            .run(ImportBenchmark.spec, ImportBenchmark.run),
            .run(StreamBenchmark.spec, StreamBenchmark.run),
            .run(IdleBenchmark.spec, IdleBenchmark.run),
            .run(HopsBenchmark.spec, HopsBenchmark.run),
        ])
}

/// A benchmark that could not measure: printed as one line, exit status 1.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
