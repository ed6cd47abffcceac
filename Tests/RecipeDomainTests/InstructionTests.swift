import RecipeDomain
import Testing

@Suite("Instructions keep their orders 1…n")
struct InstructionTests {
    /// A draft with steps a, b, c in that order.
    private func threeSteps() -> RecipeScenario {
        var scenario = RecipeScenario()
        scenario.given(.addInstruction("A", id: "a"), .addInstruction("B", id: "b"), .addInstruction("C", id: "c"))
        return scenario
    }

    // MARK: - Adding

    @Test func stepsAreAppendedAsOrderNPlusOne() {
        let scenario = threeSteps()
        #expect(scenario.draft?.instructionIDs == ["a", "b", "c"])
        #expect(scenario.draft?.instructionOrders == [1, 2, 3])
    }

    @Test func aStepWithoutAnIDGetsTheCommandID() {
        var scenario = RecipeScenario()
        let outcome = scenario.when(.addInstruction("Stir."), id: "step-cmd")
        #expect(outcome.events.last == .instructionAdded(Instruction(id: "step-cmd", description: "Stir.", order: 1)))
    }

    @Test(arguments: [(1, ["d", "a", "b", "c"]), (2, ["a", "d", "b", "c"]), (4, ["a", "b", "c", "d"])])
    func aStepAddedAtAPositionShiftsTheOthers(position: Int, expected: [String]) {
        var scenario = threeSteps()
        scenario.given(.addInstruction("D", at: position, id: "d"))
        #expect(scenario.draft?.instructionIDs == expected)
        #expect(scenario.draft?.instructionOrders == [1, 2, 3, 4])
    }

    @Test(arguments: [0, -1, 5])
    func aPositionOutsideOneToNPlusOneIsInvalid(position: Int) {
        var scenario = threeSteps()
        #expect(scenario.when(.addInstruction("D", at: position)).rejectionCode == .invalid)
    }

    @Test(arguments: ["", "   \n", String(repeating: "x", count: RecipeLimits.maxDescriptionLength + 1)])
    func aBlankOrOverlongDescriptionIsInvalid(description: String) {
        var scenario = RecipeScenario()
        #expect(scenario.when(.addInstruction(description)).rejectionCode == .invalid)
    }

    @Test func aDescriptionOfTheLongestAllowedLengthIsAccepted() {
        var scenario = RecipeScenario()
        #expect(scenario.when(.addInstruction(String(repeating: "ß", count: RecipeLimits.maxDescriptionLength))).isAccepted)
    }

    @Test func anExplicitIDAlreadyInTheDraftIsInvalid() {
        var scenario = threeSteps()
        #expect(scenario.when(.addInstruction("D", id: "b")).rejectionCode == .invalid)
    }

    @Test func theTwoHundredAndFirstStepExceedsTheLimit() {
        var scenario = RecipeScenario()
        for index in 0..<RecipeLimits.maxInstructions {
            scenario.given(.addInstruction("Step \(index)"))
        }
        #expect(scenario.when(.addInstruction("One more")).rejectionCode == .limitExceeded)
    }

    // MARK: - Updating

    @Test func updatingRewritesTheDescriptionInPlace() {
        var scenario = threeSteps()
        #expect(scenario.when(.instructionUpdated(instructionID: "b", description: "B!")).events
            == [.instructionUpdated(id: "b", description: "B!", section: nil)])
        #expect(scenario.draft?.instructions[1] == Instruction(id: "b", description: "B!", order: 2))
    }

    @Test func updatingAnUnknownStepIsRejected() {
        var scenario = threeSteps()
        #expect(scenario.when(.instructionUpdated(instructionID: "z", description: "Z")).rejectionCode == .unknownInstruction)
    }

    @Test func updatingToABlankDescriptionIsInvalid() {
        var scenario = threeSteps()
        #expect(scenario.when(.instructionUpdated(instructionID: "b", description: " ")).rejectionCode == .invalid)
        #expect(scenario.draft?.instructions[1].description == "B")
    }

    // MARK: - Removing

    @Test func removingAStepMovesTheLaterOnesUp() {
        var scenario = threeSteps()
        scenario.given(.instructionRemoved(instructionID: "a"))
        #expect(scenario.draft?.instructionIDs == ["b", "c"])
        #expect(scenario.draft?.instructionOrders == [1, 2])
    }

    @Test func removingAnUnknownStepIsRejected() {
        var scenario = threeSteps()
        #expect(scenario.when(.instructionRemoved(instructionID: "z")).rejectionCode == .unknownInstruction)
    }

    // MARK: - Moving

    @Test(arguments: [
        ("a", 3, ["b", "c", "a"]), ("c", 1, ["c", "a", "b"]), ("b", 2, ["a", "b", "c"]), ("a", 2, ["b", "a", "c"]),
    ])
    func movingAStepShiftsTheOnesBetween(id: String, position: Int, expected: [String]) {
        var scenario = threeSteps()
        #expect(scenario.when(.instructionMoved(instructionID: id, position: position)).events
            == [.instructionMoved(id: id, position: position)])
        #expect(scenario.draft?.instructionIDs == expected)
        #expect(scenario.draft?.instructionOrders == [1, 2, 3])
    }

    @Test(arguments: [0, 4])
    func movingOutsideOneToNIsInvalid(position: Int) {
        var scenario = threeSteps()
        #expect(scenario.when(.instructionMoved(instructionID: "a", position: position)).rejectionCode == .invalid)
        #expect(scenario.draft?.instructionIDs == ["a", "b", "c"])
    }

    @Test func movingAnUnknownStepIsRejected() {
        var scenario = threeSteps()
        #expect(scenario.when(.instructionMoved(instructionID: "z", position: 1)).rejectionCode == .unknownInstruction)
    }
}
