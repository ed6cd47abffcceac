import RecipeDomain
@testable import RecipeGenerators
import Testing

@Suite("Seeded random numbers and commands")
struct RandomCommandGeneratorTests {
    @Test func splitMix64MatchesTheReferenceImplementation() {
        // Outputs of Vigna's splitmix64.c for seed 1234567.
        var random = SplitMix64(seed: 1_234_567)
        let expected: [UInt64] = [
            6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
            4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
        ]
        #expect((0..<5).map { _ in random.next() } == expected)
    }

    @Test func boundedDrawsStayInTheirRangeAndCoverIt() {
        var random = SplitMix64(seed: 7)
        var seen = Set<Int>()
        for _ in 0..<2000 {
            let value = random.int(in: -3...3)
            #expect((-3...3).contains(value))
            seen.insert(value)
            let unit = random.unitInterval()
            #expect(unit >= 0 && unit < 1)
        }
        #expect(seen == Set(-3...3))
    }

    @Test func theSameSeedGivesTheSameCommands() {
        var first = RandomCommandGenerator(seed: 99)
        var second = RandomCommandGenerator(seed: 99)
        var other = RandomCommandGenerator(seed: 100)
        let recipe = Recipe(id: "r")
        let a = (0..<500).map { _ in first.nextEnvelope(for: recipe) }
        let b = (0..<500).map { _ in second.nextEnvelope(for: recipe) }
        let c = (0..<500).map { _ in other.nextEnvelope(for: recipe) }
        #expect(a == b)
        #expect(a != c)
        #expect((0..<200).map { _ in first.arbitraryEnvelope() } == (0..<200).map { _ in second.arbitraryEnvelope() })
    }

    @Test func uuidsAreVersionFourInCanonicalForm() {
        var generator = RandomCommandGenerator(seed: 1)
        for _ in 0..<200 {
            let uuid = Array(generator.uuid())
            #expect(uuid.count == 36)
            #expect([8, 13, 18, 23].allSatisfy { uuid[$0] == "-" })
            #expect(uuid[14] == "4")
            #expect("89ab".contains(uuid[19]))
            #expect(uuid.enumerated().allSatisfy { [8, 13, 18, 23].contains($0.offset) || "0123456789abcdef".contains($0.element) })
        }
    }

    @Test func arbitraryCommandsCoverEveryKindWithFiniteAmounts() {
        var generator = RandomCommandGenerator(seed: 3)
        var kinds = Set<RecipeCommand.Kind>()
        for _ in 0..<3000 {
            let command = generator.arbitraryCommand()
            kinds.insert(command.kind)
            switch command {
            case .ingredientAdded(let line, _): #expect(line.amount?.isFinite ?? true && line.amountMax?.isFinite ?? true)
            case .ingredientUpdated(_, let changes): #expect(changes.amount.newValue?.isFinite ?? true)
            default: break
            }
        }
        #expect(kinds == Set(RecipeCommand.Kind.allCases))
    }

    @Test func everyEditKindHasAnEditWeightAndNoOtherKindHasOne() {
        for kind in RecipeCommand.Kind.allCases {
            let weight = RandomCommandGenerator.editWeight(of: kind)
            #expect(kind.isEdit ? weight > 0 : weight == 0,
                    "\(kind): RandomCommandGenerator.editWeight(of:) is \(weight); edits need a share of plausibleEdit, other kinds none")
        }
        #expect(RecipeCommand.Kind.allCases.map(RandomCommandGenerator.editWeight).reduce(0, +) == 100, "edit weights are percent")
    }

    @Test func everyKindThatIsNotAnEditHasAShareWithAndWithoutADraft() {
        let lifecycle = RecipeCommand.Kind.allCases.filter { !$0.isEdit }
        for (name, shares) in [("lifecycleSharesWithoutDraft", RandomCommandGenerator.lifecycleSharesWithoutDraft),
                               ("lifecycleSharesWithDraft", RandomCommandGenerator.lifecycleSharesWithDraft)] {
            #expect(shares.map(\.kind).sorted { $0.rawValue < $1.rawValue } == lifecycle.sorted { $0.rawValue < $1.rawValue },
                    "RandomCommandGenerator.\(name) must list each of \(lifecycle) once")
            #expect(shares.allSatisfy { $0.perMille > 0 } && shares.map(\.perMille).reduce(0, +) < 1000, "\(name): edits need the rest")
        }
    }

    @Test func plausibleCommandsAreOfEveryKind() {
        var generator = RandomCommandGenerator(seed: 5, duplicateRate: 0)
        var recipe = Recipe(id: "r")
        var kinds = Set<RecipeCommand.Kind>()
        for _ in 0..<20_000 {
            if recipe.isDeleted { recipe = Recipe(id: generator.recipeID()) }
            let envelope = generator.nextEnvelope(for: recipe)
            kinds.insert(envelope.command.kind)
            recipe.apply(envelope)
        }
        #expect(kinds == Set(RecipeCommand.Kind.allCases), "never drawn: \(Set(RecipeCommand.Kind.allCases).subtracting(kinds))")
    }

    @Test func plausibleCommandsAreMostlyAccepted() {
        var generator = RandomCommandGenerator(seed: 11, invalidRate: 0.03, duplicateRate: 0)
        var recipe = Recipe(id: "r")
        var accepted = 0
        for _ in 0..<3000 {
            if recipe.isDeleted { recipe = Recipe(id: generator.recipeID()) }
            if case .accepted = recipe.apply(generator.nextEnvelope(for: recipe)) { accepted += 1 }
        }
        #expect(accepted > 2400, "only \(accepted) of 3000 accepted")
    }
}
