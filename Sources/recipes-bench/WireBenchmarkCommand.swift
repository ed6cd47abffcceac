import Foundation
import Kafka
import RecipeCLI
import RecipeDomain
import RecipeGenerators
import RecipeWire

/// `recipes-bench wire`.
enum WireBenchmarkCommand {
    static let spec = CommandSpec(
        name: "recipes-bench wire",
        summary: "Decode and encode recipe records (commands, then their decisions) on one core and print records/s, next to Foundation's JSONSerialization parsing the same bytes.",
        abstract: "Records/s decoded and encoded vs a JSONSerialization parse.",
        options: [
            .value("records", "N", "Records in the mix.", default: "200000"),
            .value("rounds", "R", "Timed passes over the mix; the best of each measure is shown.", default: "3"),
            .value("seed", "S", "Seed of the generated commands.", default: "42"),
        ],
        discussion: """
            The mix is what recipes being edited produce (every edit and lifecycle type, a few percent
            breaking a limit, which the decoder rejects as it would on the log). Every measure
            runs on the calling thread over records encoded before the clock starts. The same
            mix, decided, gives the decisions measured after the commands.
            """)

    static func run(_ arguments: [String]) throws {
        let args = try ParsedArguments(arguments, spec: spec)
        try args.expectNoPositionals()
        let records = try args.int("records", in: 1...50_000_000)!
        let rounds = try args.int("rounds", in: 1...100)!
        let seed = try args.int("seed", in: 0...Int.max)!
        let result = WireBenchmark.run(recordCount: records, rounds: rounds, seed: UInt64(seed))
        say(String(format: "bench wire: %d records, %d command types, %.0f bytes on average; best of %d rounds on one core",
                   result.records, result.commandTypes, result.averageBytes, rounds))
        say(String(format: "  decode  RecordDecoder                %10.0f records/s  (%d rejected by limits; %.0f per CPU second)",
                   result.decodedPerSecond, result.rejected, result.decodedPerCPUSecond))
        say(String(format: "  encode  RecordEncoder                %10.0f records/s", result.encodedPerSecond))
        say(String(format: "  parse   JSONSerialization (baseline) %10.0f records/s", result.baselinePerSecond))
        say(String(format: "  decode  IngredientAdded only         %10.0f records/s  (%.0f bytes on average)",
                   result.ingredientAddedDecodedPerSecond, result.ingredientAddedAverageBytes))
        // The same mix decided, as the decisions topic would hold it.
        let decisions = DecisionBenchmark.run(WireBenchmark.makeMix(count: records, seed: UInt64(seed)), rounds: rounds)
        say(String(format: "  decode  DecisionDecoder              %10.0f decisions/s  (%.0f bytes on average)",
                   decisions.decodedPerSecond, decisions.averageBytes))
        say(String(format: "  encode  DecisionEncoder              %10.0f decisions/s", decisions.encodedPerSecond))
        say(String(format: "decode: %.1fx JSONSerialization", result.decodedPerSecond / result.baselinePerSecond))
    }
}

// MARK: - Measurement

/// What one `bench wire` run measured; rates are the best round's.
struct WireBenchmarkResult: Sendable {
    var records: Int
    var commandTypes: Int
    var averageBytes: Double
    var decodedPerSecond: Double
    /// The same per second of the decoding thread's CPU time: on a shared machine
    /// it leaves out the time the thread waited for a core.
    var decodedPerCPUSecond: Double
    /// Records of the mix the decoder turned down (limits broken on purpose).
    var rejected: Int
    var encodedPerSecond: Double
    /// `JSONSerialization.jsonObject` over the same bytes: a parse into Foundation
    /// objects only, no field checks, no command built.
    var baselinePerSecond: Double
    var ingredientAddedDecodedPerSecond: Double
    var ingredientAddedAverageBytes: Double
}

enum WireBenchmark {
    /// Builds the mix from `seed`, encodes it, then times decoding, encoding and the
    /// baseline in turn, `rounds` times each.
    static func run(recordCount: Int, rounds: Int, seed: UInt64) -> WireBenchmarkResult {
        let envelopes = makeMix(count: recordCount, seed: seed)
        let encoder = RecordEncoder(source: "recipes-bench")
        let values = envelopes.map { encoder.encode($0) }
        let keys = envelopes.map { RecordKey.key(forRecipe: $0.recipeID) }
        let data = values.map { Data($0) }
        let ingredientAdded = envelopes.indices.filter { envelopes[$0].command.kind == .ingredientAdded }
        let ingredientValues = ingredientAdded.map { values[$0] }
        let ingredientKeys = ingredientAdded.map { keys[$0] }

        var best = (decode: 0.0, decodeCPU: 0.0, encode: 0.0, baseline: 0.0, ingredient: 0.0)
        var rejected = 0
        for _ in 0..<rounds {
            let decode = timeDecoding(keys: keys, values: values)
            rejected = decode.rejected
            best.decode = max(best.decode, decode.rate)
            best.decodeCPU = max(best.decodeCPU, decode.cpuRate)
            best.encode = max(best.encode, timeEncoding(envelopes, encoder))
            best.baseline = max(best.baseline, timeBaseline(data))
            if !ingredientValues.isEmpty {
                best.ingredient = max(best.ingredient, timeDecoding(keys: ingredientKeys, values: ingredientValues).rate)
            }
        }
        return WireBenchmarkResult(
            records: values.count,
            commandTypes: Set(envelopes.map(\.command.kind)).count,
            averageBytes: average(values),
            decodedPerSecond: best.decode,
            decodedPerCPUSecond: best.decodeCPU,
            rejected: rejected,
            encodedPerSecond: best.encode,
            baselinePerSecond: best.baseline,
            ingredientAddedDecodedPerSecond: best.ingredient,
            ingredientAddedAverageBytes: average(ingredientValues))
    }

    // MARK: - Timed loops

    private static func timeDecoding(keys: [[UInt8]], values: [[UInt8]]) -> (rate: Double, cpuRate: Double, rejected: Int) {
        let decoder = RecordDecoder()
        var rejected = 0, versions = 0
        let startCPU = threadCPUSeconds()
        let start = ContinuousClock.now
        for index in values.indices {
            switch decoder.decode(key: keys[index], value: values[index]) {
            case .success(let record): versions &+= record.typeVersion
            case .failure: rejected += 1
            }
        }
        let seconds = secondsSince(start)
        let cpuSeconds = threadCPUSeconds() - startCPU
        precondition(versions + rejected >= values.count) // uses the results
        return (Double(values.count) / seconds, Double(values.count) / cpuSeconds, rejected)
    }

    private static func timeEncoding(_ envelopes: [CommandEnvelope], _ encoder: RecordEncoder) -> Double {
        var bytes = 0
        let start = ContinuousClock.now
        // A new array per record, as a producer handing values to Kafka needs.
        for envelope in envelopes { bytes &+= encoder.encode(envelope).count }
        let seconds = secondsSince(start)
        precondition(bytes > 0)
        return Double(envelopes.count) / seconds
    }

    private static func timeBaseline(_ values: [Data]) -> Double {
        var members = 0
        let start = ContinuousClock.now
        for value in values {
            if let object = try? JSONSerialization.jsonObject(with: value) as? NSDictionary { members &+= object.count }
        }
        let seconds = secondsSince(start)
        precondition(members > 0)
        return Double(values.count) / seconds
    }

    // MARK: - The mix

    /// Plausible commands from 256 recipes edited at once, saved now and then,
    /// with a new recipe taking the place of a deleted one.
    static func makeMix(count: Int, seed: UInt64) -> [CommandEnvelope] {
        var generator = RandomCommandGenerator(seed: seed, invalidRate: 0.02, duplicateRate: 0, expectedRevisionRate: 0.1)
        var recipes = (0..<256).map { _ in Recipe(id: generator.recipeID()) }
        var envelopes: [CommandEnvelope] = []
        envelopes.reserveCapacity(count)
        while envelopes.count < count {
            let index = generator.random.int(below: recipes.count)
            if recipes[index].isDeleted { recipes[index] = Recipe(id: generator.recipeID()) }
            let envelope = generator.nextEnvelope(for: recipes[index])
            RecipeJudge.decide(envelope, recipe: &recipes[index])
            envelopes.append(envelope)
        }
        return envelopes
    }

    private static func average(_ values: [[UInt8]]) -> Double {
        values.isEmpty ? 0 : Double(values.reduce(0) { $0 + $1.count }) / Double(values.count)
    }

    /// CPU time of the calling thread.
    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func secondsSince(_ start: ContinuousClock.Instant) -> Double {
        start.duration(to: .now).seconds
    }
}
