import Foundation
import Kafka
import RecipeDomain
import RecipeWire

// MARK: - Decisions in `recipes-bench wire`

/// Decision records measured beside the commands they decide: the wire mix decided
/// as a decider would (each recipe from its decisions before), then its decisions
/// decoded and encoded on the calling thread, the best of `rounds`.
struct DecisionBenchmarkResult: Sendable {
    var decisions: Int
    var averageBytes: Double
    var decodedPerSecond: Double
    var encodedPerSecond: Double
}

enum DecisionBenchmark {
    static func run(_ envelopes: [CommandEnvelope], rounds: Int) -> DecisionBenchmarkResult {
        var recipes: [RecipeID: Recipe] = [:]
        var decisions: [DecisionRecord] = []
        decisions.reserveCapacity(envelopes.count)
        for (offset, envelope) in envelopes.enumerated() {
            var recipe = recipes.removeValue(forKey: envelope.recipeID) ?? Recipe(id: envelope.recipeID)
            let decision = RecipeJudge.decide(envelope, recipe: &recipe)
            decisions.append(DecisionRecord(decision, of: envelope, revision: recipe.revision, partition: 0, offset: Int64(offset)))
            recipes[envelope.recipeID] = recipe
        }
        let encoder = DecisionEncoder(source: "recipes-bench")
        let values = decisions.map { encoder.encode($0) }
        let keys = decisions.map { $0.recipeID.map { Array($0.utf8) } }
        var best = (decode: 0.0, encode: 0.0)
        for _ in 0..<rounds {
            best.decode = max(best.decode, timeDecoding(keys: keys, values: values))
            best.encode = max(best.encode, timeEncoding(decisions, encoder))
        }
        let bytes = values.reduce(0) { $0 + $1.count }
        return DecisionBenchmarkResult(
            decisions: values.count, averageBytes: values.isEmpty ? 0 : Double(bytes) / Double(values.count),
            decodedPerSecond: best.decode, encodedPerSecond: best.encode)
    }

    private static func timeDecoding(keys: [[UInt8]?], values: [[UInt8]]) -> Double {
        let decoder = DecisionDecoder()
        var revisions = 0
        let start = ContinuousClock.now
        for index in values.indices {
            guard case .success(let decision) = decoder.decode(key: keys[index], value: values[index]) else {
                preconditionFailure("a decision the encoder wrote did not decode")
            }
            revisions &+= decision.outcome.revision ?? 0
        }
        let seconds = start.duration(to: .now).seconds
        precondition(revisions >= 0) // uses the results
        return Double(values.count) / seconds
    }

    private static func timeEncoding(_ decisions: [DecisionRecord], _ encoder: DecisionEncoder) -> Double {
        var bytes = 0
        let start = ContinuousClock.now
        for decision in decisions { bytes &+= encoder.encode(decision).count }
        let seconds = start.duration(to: .now).seconds
        precondition(bytes > 0)
        return Double(decisions.count) / seconds
    }
}
