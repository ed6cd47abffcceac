// MARK: - Evolve
//
// Applies events in place. No rules live here: every event is applied as it
// says, and one that does not fit (an edit with no open draft, an unknown id)
// changes nothing. Content is changed in place in `workingContent`, which only
// copies an array the first time a draft changes what it shares with a version.

extension Recipe {
    /// Applies one event in place; see `RecipeDecider.evolve(_:_:)`.
    // Inlined into the loops that fold a command's events, so that each event is read where
    // its array holds it: called, every event was copied out first (its strings retained).
    @inline(__always)
    public mutating func evolve(_ event: RecipeEvent) {
        switch event {
        case .draftOpened(let base, _):
            workingContent = versions.indices.contains(base - 1) ? versions[base - 1].content : .empty
            draftBaseVersion = base
        case .versionCommitted(let number, let savedAt, let savedBy):
            guard hasOpenDraft else { return }
            versions.append(RecipeVersion(number: number, content: workingContent, savedAt: savedAt, savedBy: savedBy))
            draftBaseVersion = nil
        case .draftDiscarded:
            draftBaseVersion = nil
            workingContent = versions.last?.content ?? .empty
        case .recipeDeleted:
            isDeleted = true
        case .accessGranted(let grant):
            grants.removeAll { $0.actor == grant.actor }
            let index = grants.firstIndex { $0.actor > grant.actor } ?? grants.endIndex
            grants.insert(grant, at: index)
        case .accessRevoked(let actor):
            grants.removeAll { $0.actor == actor }
        case .ownershipTransferred(let newOwner):
            owner = newOwner
            grants.removeAll { $0.actor == newOwner }
        case .ownerAssigned(let newOwner):
            owner = newOwner
        default:
            // Every other event edits the content (`RecipeContent.apply` lists each).
            guard hasOpenDraft else { return }
            workingContent.apply(event)
        }
    }
}

// MARK: - Content edits

extension RecipeContent {
    /// Applies an edit event; lifecycle events are ignored here.
    mutating func apply(_ event: RecipeEvent) {
        switch event {
        case .titleChanged(let title):
            self.title = title
        case .servingsChanged(let servings):
            self.servings = servings
        case .imageChanged(let url):
            image = url

        case .ingredientAdded(let ingredient):
            ingredients.append(ingredient)
        case .ingredientUpdated(let ingredient):
            guard let index = ingredientIndex(id: ingredient.id) else { return }
            ingredients[index] = ingredient
        case .ingredientRemoved(let id):
            guard let index = ingredientIndex(id: id) else { return }
            ingredients.remove(at: index)

        case .instructionAdded(let instruction):
            insertInstruction(instruction, at: instruction.order - 1)
        case .instructionUpdated(let id, let description, let section):
            guard let index = instructionIndex(id: id) else { return }
            instructions[index].description = description
            instructions[index].section = section
        case .instructionRemoved(let id):
            guard let index = instructionIndex(id: id) else { return }
            instructions.remove(at: index)
            renumberInstructions(from: index)
        case .instructionMoved(let id, let position):
            guard let index = instructionIndex(id: id) else { return }
            let moving = instructions.remove(at: index)
            insertInstruction(moving, at: position - 1)
            renumberInstructions(from: min(index, position - 1))

        case .tagAdded(let tag):
            tags.append(tag)
        case .tagChanged(let previousName, let tag):
            guard let index = tagIndex(named: previousName) else { return }
            tags[index] = tag
        case .tagRemoved(let name):
            guard let index = tagIndex(named: name) else { return }
            tags.remove(at: index)

        case .descriptionChanged(let description):
            self.description = description
        case .yieldChanged(let yield):
            self.yield = yield
        case .timesChanged(let prepTime, let cookTime, let totalTime):
            self.prepTime = prepTime
            self.cookTime = cookTime
            self.totalTime = totalTime
        case .sourceChanged(let url):
            sourceUrl = url
        case .nutritionChanged(let nutrition):
            self.nutrition = nutrition
        case .contentSet(let content):
            // The fields a whole content carries; nutrition has a command of its own and stays.
            let nutrition = self.nutrition
            self = content
            self.nutrition = nutrition

        case .draftOpened, .versionCommitted, .draftDiscarded, .recipeDeleted, .accessGranted, .accessRevoked,
             .ownershipTransferred, .ownerAssigned:
            return
        }
    }

    // MARK: - Keeping instruction orders 1...n

    /// Inserts at `index` (clamped into the list) and renumbers from there.
    mutating func insertInstruction(_ instruction: Instruction, at index: Int) {
        let at = min(max(index, 0), instructions.count)
        instructions.insert(instruction, at: at)
        renumberInstructions(from: at)
    }

    /// Makes every order from `index` on equal to its position.
    mutating func renumberInstructions(from index: Int) {
        var position = max(index, 0)
        while position < instructions.count {
            instructions[position].order = position + 1
            position += 1
        }
    }
}
