import RecipeDomain
import RecipeJSON

// MARK: - Command description

/// Everything the record format knows of one command kind, in one place: its data
/// version, its fields (types, presence, bounds, schema words), how its `data` is read
/// into a `RecipeCommand` and what a command of it writes. The record reader and writer,
/// `RecordLimits`, the CLI's typed flags and the generated schemas all come from these;
/// each kind's description is in Kinds/Commands/<Kind>.swift.
///
/// Older data versions keep their own readers (`DataFormats.older`): a record written
/// long ago is read into today's command, and only the newest version is written.
public struct CommandDescription: Sendable {
    public let kind: RecipeCommand.Kind
    /// The data version the encoder writes.
    public let version: Int
    /// What the schema says after "The `data` of a `recipes.<Kind>.v<N>` record".
    public let summary: String
    public let fields: [FieldSpec]
    let read: DataFormat.Reader
    /// Gives the command's members to `put` one by one, in the order of `fields` (an absent one
    /// as `.absent`); false, having given none, for a command of another kind. Given rather than
    /// returned as an array: the limits and the writer take each where it is, with no array made.
    let values: @Sendable (RecipeCommand, _ put: (DataValue) -> Void) -> Bool

    init(_ kind: RecipeCommand.Kind, version: Int = 1, summary: String, fields: [FieldSpec],
         read: @escaping DataFormat.Reader, values: @escaping @Sendable (RecipeCommand, _ put: (DataValue) -> Void) -> Bool) {
        self.kind = kind
        self.version = version
        self.summary = summary
        self.fields = fields
        self.read = read
        self.values = values
    }

    /// The reader of the version written.
    var format: DataFormat { DataFormat(kind, version: version, fields: fields.map(\.field), read: read) }

    /// Gives `command`'s members to `put` with the index of each one's field in `fields`, in that order.
    func members(of command: RecipeCommand, _ put: (_ field: Int, DataValue) -> Void) {
        var index = 0
        let described = values(command) { value in
            put(index, value)
            index &+= 1
        }
        precondition(described, "\(command.kind) described as \(kind)")
        assert(index == fields.count, "\(kind): \(index) values for \(fields.count) fields")
    }

    /// Every kind's description, in `allCases` order.
    public static let all: [CommandDescription] = RecipeCommand.Kind.allCases.map(describing)

    /// Every kind is listed: a new command kind does not compile until it is described.
    static func describing(_ kind: RecipeCommand.Kind) -> CommandDescription {
        switch kind {
        case .draftStarted: .draftStarted
        case .titleChanged: .titleChanged
        case .servingsChanged: .servingsChanged
        case .imageChanged: .imageChanged
        case .ingredientAdded: .ingredientAdded
        case .ingredientUpdated: .ingredientUpdated
        case .ingredientRemoved: .ingredientRemoved
        case .instructionAdded: .instructionAdded
        case .instructionUpdated: .instructionUpdated
        case .instructionRemoved: .instructionRemoved
        case .instructionMoved: .instructionMoved
        case .tagAdded: .tagAdded
        case .tagChanged: .tagChanged
        case .tagRemoved: .tagRemoved
        case .descriptionChanged: .descriptionChanged
        case .yieldChanged: .yieldChanged
        case .timesChanged: .timesChanged
        case .sourceChanged: .sourceChanged
        case .nutritionChanged: .nutritionChanged
        case .draftContentSet: .draftContentSet
        case .recipeSaved: .recipeSaved
        case .draftDiscarded: .draftDiscarded
        case .recipeDeleted: .recipeDeleted
        case .accessGranted: .accessGranted
        case .accessRevoked: .accessRevoked
        case .ownershipTransferred: .ownershipTransferred
        }
    }
}

// MARK: - Writing described data

extension JSONWriter {
    /// A command's `data` object as its description gives it: each member not absent, under its
    /// field's name, in the fields' order (the bytes `data(_:_:)` writes of the same values).
    mutating func data(of command: RecipeCommand, _ description: CommandDescription) {
        var first = true
        description.members(of: command) { index, value in
            if case .absent = value { return }
            key(description.fields[index].field.key, first: first)
            first = false
            // Scalars straight away; a list by `write`, which needs its field's items.
            switch value {
            case .string(let text): string(text)
            case .integer(let number): integer(number)
            case .number(let number): self.number(number)
            case .null: raw("null")
            case .boolean(let flag): raw(flag ? "true" : "false")
            case .absent, .time, .strings, .objects: write(value, description.fields[index])
            }
        }
        raw(first ? "{}" : "}")
    }

    /// A `data` object: each member of `values` not absent, under its field's name, in
    /// the fields' order. The same values always give the same bytes.
    mutating func data(_ values: [DataValue], _ fields: [FieldSpec]) {
        var first = true
        for index in values.indices {
            let value = values[index]
            if case .absent = value { continue }
            key(fields[index].field.key, first: first)
            first = false
            write(value, fields[index])
        }
        raw(first ? "{}" : "}")
    }

    mutating func write(_ value: DataValue, _ field: FieldSpec) {
        switch value {
        case .absent: break
        case .null: raw("null")
        case .string(let text): string(text)
        case .integer(let number): integer(number)
        case .number(let number): self.number(number)
        case .boolean(let flag): raw(flag ? "true" : "false")
        case .time(let time):
            raw("\"")
            RFC3339.write(time, to: &self)
            raw("\"")
        case .strings(let texts):
            raw("[")
            for (index, text) in texts.enumerated() {
                if index > 0 { raw(",") }
                string(text)
            }
            raw("]")
        case .objects(let items):
            guard case .objects(_, let itemFields) = field.items else { preconditionFailure("\(field.name) holds no objects") }
            raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { raw(",") }
                data(item, itemFields)
            }
            raw("]")
        }
    }
}
