import Kafka
import RecipeDomain
import RecipeGenerators

// MARK: - Fold benchmark
//
// `recipes-bench fold`: how many commands per second one core folds into
// recipe states. The log is built before the clock starts, so only the fold
// (decide + evolve + the per-recipe state dictionary) is timed.

/// What one benchmark run measured.
struct FoldBenchmarkResult: Sendable {
    /// Commands folded.
    var commands: Int
    /// Wall time of the fold alone.
    var seconds: Double
    var commandsPerSecond: Double
    var accepted: Int
    var rejected: Int
    var duplicates: Int
}

enum FoldBenchmark {
    /// Builds a realistic log of `commandCount` commands from `seed`, then folds
    /// it once on the calling thread and times that.
    static func run(commandCount: Int, seed: UInt64) -> FoldBenchmarkResult {
        let log = makeLog(commandCount: commandCount, seed: seed)

        var states: [RecipeID: Recipe] = [:]
        states.reserveCapacity(log.count / 50)
        var accepted = 0, rejected = 0, duplicates = 0
        let clock = ContinuousClock()
        let start = clock.now
        log.withUnsafeBufferPointer { envelopes in
            // Lending each envelope from the buffer instead of copying it out of
            // the array, and the default-value subscript that mutates the stored
            // state in place, keep the loop from copying anything per command.
            for envelope in envelopes.indices {
                let recipeID = envelopes[envelope].recipeID
                switch RecipeJudge.decide(envelopes[envelope], recipe: &states[recipeID, default: Recipe(id: recipeID)]) {
                case .accepted: accepted += 1
                case .rejected: rejected += 1
                case .duplicate: duplicates += 1
                }
            }
        }
        let elapsed = start.duration(to: clock.now)
        // Freeing the states is not folding: keep them until the clock is read.
        withExtendedLifetime(states) {}

        let seconds = elapsed.seconds
        return FoldBenchmarkResult(
            commands: log.count,
            seconds: seconds,
            commandsPerSecond: seconds > 0 ? Double(log.count) / seconds : 0,
            accepted: accepted,
            rejected: rejected,
            duplicates: duplicates)
    }

    // MARK: - The log

    /// Someone working on one recipe: sessions of 10–30 edits, each ending in a
    /// save (sometimes a discard); after the last session the writer leaves, and
    /// now and then deletes the recipe.
    private struct Writer {
        var recipe: Recipe
        var editsLeft: Int
        var sessionsLeft: Int
        var last: CommandEnvelope?
    }

    /// Many recipes edited at once, their commands interleaved as on a shared
    /// partition; about 1 % resends (duplicates) and a few percent rejections.
    static func makeLog(commandCount: Int, seed: UInt64) -> [CommandEnvelope] {
        var generator = RandomCommandGenerator(seed: seed, invalidRate: 0.02, duplicateRate: 0, expectedRevisionRate: 0.1)
        var writers: [Writer] = []
        var log: [CommandEnvelope] = []
        log.reserveCapacity(commandCount)
        let concurrentWriters = 256

        while log.count < commandCount {
            if writers.count < concurrentWriters {
                let recipe = Recipe(id: generator.recipeID())
                writers.append(Writer(
                    recipe: recipe,
                    editsLeft: generator.random.int(in: 10...30),
                    sessionsLeft: generator.random.int(in: 1...6)))
            }
            let index = generator.random.int(below: writers.count)

            if let last = writers[index].last, generator.random.chance(0.01) {
                log.append(last) // a producer retry: the same command again
                RecipeJudge.decide(last, recipe: &writers[index].recipe)
                continue
            }

            let command: RecipeCommand
            if writers[index].editsLeft > 0 {
                command = generator.plausibleEdit(for: writers[index].recipe.currentContent ?? .empty)
                writers[index].editsLeft -= 1
            } else if writers[index].sessionsLeft > 0 {
                command = generator.random.chance(0.9) ? .recipeSaved : .draftDiscarded
            } else {
                command = .recipeDeleted
            }
            let envelope = generator.envelope(for: writers[index].recipe, command: command)
            log.append(envelope)
            writers[index].last = envelope
            let decision = RecipeJudge.decide(envelope, recipe: &writers[index].recipe)

            guard case .accepted = decision else {
                // A save turned down (no title or no ingredient yet): a few more
                // edits before trying again, as a person would.
                if case .recipeSaved = command { writers[index].editsLeft = 3 }
                continue
            }
            switch command {
            case .recipeSaved, .draftDiscarded:
                writers[index].sessionsLeft -= 1
                writers[index].editsLeft = generator.random.int(in: 10...30)
                if writers[index].sessionsLeft == 0, !generator.random.chance(0.05) {
                    writers.remove(at: index) // leaves the recipe as it is
                }
            case .recipeDeleted:
                writers.remove(at: index)
            default:
                break
            }
        }
        return log
    }
}
