import RecipeDomain
import Testing

// MARK: - Given / when / then

/// One recipe and the commands sent to it, for given/when/then tests.
///
/// Every command goes through both `RecipeDecider.fold` and the in-place
/// `Recipe.apply`, and the two must agree, so each test also checks that the
/// fast path and the functional path are the same fold.
struct RecipeScenario {
    private(set) var recipe: Recipe
    private(set) var sent = 0
    var actor = "alice"
    private var clock: Int64 = 1_700_000_000_000

    init(recipeID: RecipeID = "recipe-1") {
        recipe = Recipe(id: recipeID)
    }

    /// The content of the open draft, or nil when none is open.
    var draft: RecipeContent? { recipe.draft?.content }

    /// Given: commands that must all be accepted.
    mutating func given(_ commands: RecipeCommand..., sourceLocation: SourceLocation = #_sourceLocation) {
        for command in commands {
            let outcome = when(command)
            if !outcome.isAccepted {
                Issue.record("given \(command.name) was not accepted: \(outcome)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Given: facts, the events of one command accepted before (id "cmd-N", as `when`
    /// names commands), folded with no rule, as every reader of decisions folds them.
    /// A rule's test starts from the state it is about, whichever commands made it,
    /// even one today's rules would not make (an older build's decision).
    mutating func given(events: RecipeEvent...) {
        sent += 1
        clock += 60_000
        recipe.record(events, ofCommand: "cmd-\(sent)")
    }

    /// When: sends one command with id "cmd-N" (N counts the commands sent),
    /// unless `id` is given. The recipe moves on only if it is accepted.
    @discardableResult
    mutating func when(
        _ command: RecipeCommand, id: String? = nil, expectedRevision: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> RecipeOutcome {
        send(envelope(command, id: id, expectedRevision: expectedRevision), sourceLocation: sourceLocation)
    }

    /// The envelope `when` would send next.
    mutating func envelope(_ command: RecipeCommand, id: String? = nil, expectedRevision: Int? = nil) -> CommandEnvelope {
        sent += 1
        clock += 60_000
        return CommandEnvelope(
            commandID: id ?? "cmd-\(sent)", recipeID: recipe.id, actor: actor,
            time: Timestamp(millisecondsSinceEpoch: clock), expectedRevision: expectedRevision, command: command)
    }

    @discardableResult
    mutating func send(_ envelope: CommandEnvelope, sourceLocation: SourceLocation = #_sourceLocation) -> RecipeOutcome {
        let outcome = RecipeDecider.fold(recipe, envelope)
        var inPlace = recipe
        let decision = inPlace.apply(envelope)
        switch (outcome, decision) {
        case (.accepted(let next, let events), .accepted(let appliedEvents)):
            #expect(events == appliedEvents, sourceLocation: sourceLocation)
            #expect(next == inPlace, "fold and apply disagree", sourceLocation: sourceLocation)
            recipe = next
        case (.rejected(let rejection), .rejected(let appliedRejection)):
            #expect(rejection == appliedRejection, sourceLocation: sourceLocation)
            #expect(inPlace == recipe, "a rejected command changed the recipe", sourceLocation: sourceLocation)
        case (.duplicate, .duplicate):
            #expect(inPlace == recipe, "a duplicate changed the recipe", sourceLocation: sourceLocation)
        default:
            Issue.record("fold gave \(outcome) but apply gave \(decision)", sourceLocation: sourceLocation)
        }
        return outcome
    }
}

// MARK: - Reading outcomes

extension RecipeOutcome {
    var isAccepted: Bool {
        if case .accepted = self { true } else { false }
    }

    var isDuplicate: Bool {
        if case .duplicate = self { true } else { false }
    }

    /// The rejection code, or nil when the command was not rejected.
    var rejectionCode: RejectionCode? {
        if case .rejected(let rejection) = self { rejection.code } else { nil }
    }

    /// The events, empty unless accepted.
    var events: [RecipeEvent] {
        if case .accepted(_, let events) = self { events } else { [] }
    }
}

// MARK: - Shorthands

extension RecipeCommand {
    static func addIngredient(_ name: String, _ amount: Double, _ metric: String, id: String? = nil) -> RecipeCommand {
        .ingredientAdded(name: name, amount: amount, metric: metric, ingredientID: id)
    }

    static func addInstruction(_ description: String, at position: Int? = nil, id: String? = nil) -> RecipeCommand {
        .instructionAdded(description: description, position: position, instructionID: id)
    }

    static func title(_ title: String) -> RecipeCommand { .titleChanged(title: title) }
}

extension RecipeContent {
    var instructionIDs: [String] { instructions.map(\.id) }
    var instructionOrders: [Int] { instructions.map(\.order) }
    var tagTexts: [String] { tags.map(\.text) }
}
