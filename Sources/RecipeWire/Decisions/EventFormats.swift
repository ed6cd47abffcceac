import RecipeDomain

// MARK: - Event formats and upcasting
//
// As `DataFormats` for commands: every (event kind, version) a decision may hold
// has one `EventFormat`, the fields of its `data` and a reader that turns them
// into *today's* `RecipeEvent`; a version the table lacks is `unsupportedVersion`.
// A new version of an event is a new `EventFormat` here (the older reader stays,
// since decisions are kept forever), a schema file in Schemas/events/, and the
// encoder's case writing the new shape (EventWriter.swift).

/// How to read one version of one event's `data`.
struct EventFormat: Sendable {
    typealias Reader = @Sendable (DataFields) throws(WireError) -> RecipeEvent

    let kind: RecipeEvent.Kind
    let version: Int
    let fields: [DataField]
    let read: Reader

    init(_ kind: RecipeEvent.Kind, version: Int, fields: [DataField], read: @escaping Reader) {
        precondition(fields.count <= DataFields.capacity, "an event format has at most \(DataFields.capacity) fields")
        precondition(version >= 1)
        self.kind = kind
        self.version = version
        self.fields = fields
        self.read = read
    }
}

/// Every data version of every event kind the decoder reads.
struct EventFormats: Sendable {
    static let standard = EventFormats(version1)

    /// Indexed by the kind's position in `allCases`, then by version - 1.
    private let table: [[EventFormat?]]

    init(_ formats: [EventFormat]) {
        precondition(RecipeEvent.Kind.allCases.indices.allSatisfy { RecipeEvent.Kind.allCases[$0].ordinal == $0 },
                     "RecipeEvent.Kind.ordinal must be the position in allCases")
        var table = [[EventFormat?]](repeating: [], count: RecipeEvent.Kind.allCases.count)
        for format in formats {
            let ordinal = format.kind.ordinal
            if table[ordinal].count < format.version {
                table[ordinal] += Array(repeating: nil, count: format.version - table[ordinal].count)
            }
            precondition(table[ordinal][format.version - 1] == nil, "\(format.kind) v\(format.version) listed twice")
            table[ordinal][format.version - 1] = format
        }
        self.table = table
    }

    func format(_ kind: RecipeEvent.Kind, version: Int) -> EventFormat? {
        let versions = table[kind.ordinal]
        guard version >= 1, version <= versions.count else { return nil }
        return versions[version - 1]
    }

    func currentVersion(of kind: RecipeEvent.Kind) -> Int { table[kind.ordinal].count }

    func versions(of kind: RecipeEvent.Kind) -> [Int] { table[kind.ordinal].compactMap { $0?.version } }

    private static let names = CaseNames<RecipeEvent.Kind>()

    /// The event kind whose name is `name` exactly (case-sensitive), if any.
    static func kind(named name: UnsafeRawBufferPointer) -> RecipeEvent.Kind? { names.value(named: name) }
}

extension RecipeEvent.Kind {
    /// Position in `allCases`, as `RecipeCommand.Kind.ordinal` finds it (the case's
    /// index, which is how Swift stores an enum without payloads; `EventFormats.init`
    /// checks it for every kind). A dictionary of ordinals hashed the kind's name at
    /// every event read: 1.5 % of decoding a decision.
    var ordinal: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}

// MARK: - Version 1 of every event's data

extension EventFormats {
    /// Every kind is listed: a new event kind does not compile until it has a format.
    static let version1: [EventFormat] = RecipeEvent.Kind.allCases.map(version1)

    private static func version1(_ kind: RecipeEvent.Kind) -> EventFormat {
        switch kind {
        case .draftOpened:
            EventFormat(kind, version: 1, fields: [.integer("baseVersion"), .boolean("implicit")]) { data throws(WireError) in
                .draftOpened(baseVersion: try data.integer("baseVersion"), implicit: try data.boolean("implicit"))
            }
        case .titleChanged:
            EventFormat(kind, version: 1, fields: [.string("title")]) { data throws(WireError) in
                .titleChanged(try data.string("title"))
            }
        case .servingsChanged:
            EventFormat(kind, version: 1, fields: [.integer("servings")]) { data throws(WireError) in
                .servingsChanged(try data.integer("servings"))
            }
        case .imageChanged:
            EventFormat(kind, version: 1, fields: [.nullableString("url")]) { data throws(WireError) in
                .imageChanged(try data.nullableString("url"))
            }
        case .ingredientAdded:
            EventFormat(kind, version: 1, fields: ingredientFields) { data throws(WireError) in
                .ingredientAdded(try readIngredient(data))
            }
        case .ingredientUpdated:
            EventFormat(kind, version: 1, fields: ingredientFields) { data throws(WireError) in
                .ingredientUpdated(try readIngredient(data))
            }
        case .ingredientRemoved:
            EventFormat(kind, version: 1, fields: [.string("ingredientId")]) { data throws(WireError) in
                .ingredientRemoved(id: try data.string("ingredientId"))
            }
        case .instructionAdded:
            EventFormat(kind, version: 1, fields: [
                .string("instructionId"), .string("description"), .integer("order"), .optionalString("section"),
            ]) { data throws(WireError) in
                .instructionAdded(Instruction(
                    id: try data.string("instructionId"), description: try data.string("description"),
                    order: try data.integer("order"), section: try data.optionalString("section")))
            }
        case .instructionUpdated:
            EventFormat(kind, version: 1, fields: [
                .string("instructionId"), .string("description"), .optionalString("section"),
            ]) { data throws(WireError) in
                .instructionUpdated(
                    id: try data.string("instructionId"), description: try data.string("description"),
                    section: try data.optionalString("section"))
            }
        case .instructionRemoved:
            EventFormat(kind, version: 1, fields: [.string("instructionId")]) { data throws(WireError) in
                .instructionRemoved(id: try data.string("instructionId"))
            }
        case .instructionMoved:
            EventFormat(kind, version: 1, fields: [.string("instructionId"), .integer("position")]) { data throws(WireError) in
                .instructionMoved(id: try data.string("instructionId"), position: try data.integer("position"))
            }
        case .tagAdded:
            EventFormat(kind, version: 1, fields: tagFields) { data throws(WireError) in
                .tagAdded(try readTag(data))
            }
        case .tagChanged:
            EventFormat(kind, version: 1, fields: [.string("previousName")] + tagFields) { data throws(WireError) in
                .tagChanged(previousName: try data.string("previousName"), tag: try readTag(data))
            }
        case .tagRemoved:
            EventFormat(kind, version: 1, fields: [.string("name")]) { data throws(WireError) in
                .tagRemoved(name: try data.string("name"))
            }
        case .descriptionChanged:
            EventFormat(kind, version: 1, fields: [.nullableString("description")]) { data throws(WireError) in
                .descriptionChanged(try data.nullableString("description"))
            }
        case .yieldChanged:
            EventFormat(kind, version: 1, fields: [.nullableString("yield")]) { data throws(WireError) in
                .yieldChanged(try data.nullableString("yield"))
            }
        case .timesChanged:
            EventFormat(kind, version: 1, fields: [
                .nullableString("prepTime"), .nullableString("cookTime"), .nullableString("totalTime"),
            ]) { data throws(WireError) in
                .timesChanged(
                    prepTime: try data.nullableString("prepTime"), cookTime: try data.nullableString("cookTime"),
                    totalTime: try data.nullableString("totalTime"))
            }
        case .sourceChanged:
            EventFormat(kind, version: 1, fields: [.nullableString("url")]) { data throws(WireError) in
                .sourceChanged(try data.nullableString("url"))
            }
        case .nutritionChanged:
            EventFormat(kind, version: 1, fields: nutritionFields.map(\.field)) { data throws(WireError) in
                var nutrition = Nutrition(servingSize: try data.optionalString("servingSize"))
                for nutrient in Nutrition.Nutrient.allCases { nutrition.amounts[nutrient] = try data.optionalFiniteNumber(nutrient.key) }
                return .nutritionChanged(nutrition.isEmpty ? nil : nutrition)
            }
        case .contentSet:
            EventFormat(kind, version: 1, fields: contentFields) { data throws(WireError) in
                .contentSet(try readContent(data))
            }
        case .versionCommitted:
            EventFormat(kind, version: 1, fields: [.integer("number"), .string("savedAt"), .string("savedBy")]) { data throws(WireError) in
                .versionCommitted(number: try data.integer("number"), savedAt: try data.time("savedAt"), savedBy: try data.string("savedBy"))
            }
        case .draftDiscarded:
            EventFormat(kind, version: 1, fields: []) { _ throws(WireError) in .draftDiscarded }
        case .recipeDeleted:
            EventFormat(kind, version: 1, fields: []) { _ throws(WireError) in .recipeDeleted }
        case .accessGranted:
            EventFormat(kind, version: 1, fields: [.string("actor"), .string("role")]) { data throws(WireError) in
                let role = try data.string("role")
                guard let accessRole = AccessRole(rawValue: role) else {
                    throw data.error(.invalid, "role", "must be editor or viewer, not \(quoted(role))")
                }
                return .accessGranted(AccessGrant(actor: try data.string("actor"), role: accessRole))
            }
        case .accessRevoked:
            EventFormat(kind, version: 1, fields: [.string("actor")]) { data throws(WireError) in
                .accessRevoked(actor: try data.string("actor"))
            }
        case .ownershipTransferred:
            EventFormat(kind, version: 1, fields: [.string("newOwner")]) { data throws(WireError) in
                .ownershipTransferred(newOwner: try data.string("newOwner"))
            }
        case .ownerAssigned:
            EventFormat(kind, version: 1, fields: [.string("owner")]) { data throws(WireError) in
                .ownerAssigned(owner: try data.string("owner"))
            }
        }
    }

    // MARK: - Parts

    /// An ingredient as it is: its id, then the fields of an ingredient line (v2 of the commands).
    static let ingredientFields: [DataField] = [
        .string("ingredientId"), .string("name"), .optionalNumber("amount"), .optionalNumber("amountMax"),
        .optionalString("unit"), .optionalString("note"), .optionalString("section"), .optionalString("text"),
    ]

    /// What one serving holds after a change: each nutrient stated, the serving size; none when cleared.
    static let nutritionFields: [FieldSpec] = Nutrition.Nutrient.allCases.map { nutrient in
        .optionalNumber(nutrient.key, "\(nutrient.words) per serving, in \(nutrient.unit); absent when not stated.")
    } + [.optionalString("servingSize", "The serving the amounts are for, in words; absent when not stated.")]

    static let tagFields: [DataField] = [.string("name"), .optionalString("payload")]

    /// A recipe's whole content; a step's order is its place in `instructions`.
    static let contentFields: [DataField] = [
        .string("title"), .optionalInteger("servings"), .optionalString("image"), .optionalString("description"),
        .optionalString("yield"), .optionalString("prepTime"), .optionalString("cookTime"), .optionalString("totalTime"),
        .optionalString("sourceUrl"), .array("ingredients"), .array("instructions"), .array("tags"),
    ]

    static let contentInstructionFields: [DataField] = [
        .string("instructionId"), .string("description"), .optionalString("section"),
    ]

    static func readIngredient(_ data: DataFields) throws(WireError) -> Ingredient {
        Ingredient(
            id: try data.string("ingredientId"), name: try data.string("name"),
            amount: try data.optionalFiniteNumber("amount"), amountMax: try data.optionalFiniteNumber("amountMax"),
            unit: try data.optionalString("unit"), note: try data.optionalString("note"),
            section: try data.optionalString("section"), text: try data.optionalString("text"))
    }

    static func readTag(_ data: DataFields) throws(WireError) -> Tag {
        Tag(name: try data.string("name"), payload: try data.optionalString("payload"))
    }

    static func readContent(_ data: DataFields) throws(WireError) -> RecipeContent {
        var ingredients: [Ingredient] = []
        for item in try data.objects("ingredients", fields: ingredientFields) {
            ingredients.append(try readIngredient(item))
        }
        var instructions: [Instruction] = []
        for item in try data.objects("instructions", fields: contentInstructionFields) {
            instructions.append(Instruction(
                id: try item.string("instructionId"), description: try item.string("description"),
                order: instructions.count + 1, section: try item.optionalString("section")))
        }
        var tags: [Tag] = []
        for item in try data.objects("tags", fields: tagFields) {
            tags.append(try readTag(item))
        }
        return RecipeContent(
            title: try data.string("title"), servings: try data.optionalInteger("servings"),
            image: try data.optionalString("image"), description: try data.optionalString("description"),
            yield: try data.optionalString("yield"), prepTime: try data.optionalString("prepTime"),
            cookTime: try data.optionalString("cookTime"), totalTime: try data.optionalString("totalTime"),
            sourceUrl: try data.optionalString("sourceUrl"),
            ingredients: ingredients, instructions: instructions, tags: tags)
    }
}
