import RecipeDomain
import RecipeJSON

// MARK: - Event writer

/// Writes events as a decision holds them: `{"type":"<Kind>.v<N>","data":{…}}`, each in
/// the version its `EventDescription` gives, members in the order of its fields,
/// optional members left out when absent: the bytes `JSONWriter.data(_:_:)` writes of
/// the same values.
enum EventWriter {
    /// What writing needs of one kind's description, in a class so that looking it up
    /// per event copies nothing but a reference (a description is a struct of arrays and
    /// closures), with its members' keys apart (a `FieldSpec` holds strings and lists).
    private final class Shape: Sendable {
        let description: EventDescription
        let keys: [StaticString]

        init(_ description: EventDescription) {
            self.description = description
            keys = description.fields.map(\.field.key)
        }
    }

    /// In `allCases` order, as `EventDescription.all`.
    private static let shapes = EventDescription.all.map(Shape.init)

    static func write(_ event: RecipeEvent, to writer: inout JSONWriter) {
        let shape = shapes[event.kind.ordinal]
        writer.key("type", first: true)
        writer.raw("\"")
        writer.append(utf8: shape.description.kind.rawValue)
        writer.raw(".v")
        writer.integer(shape.description.version)
        writer.raw("\"")
        writer.key("data")
        writeData(event, shape, to: &writer)
        writer.raw("}")
    }

    /// The event's `data` object: each member written as the description gives it, with
    /// no list of them in between; scalars straight away, lists by `JSONWriter.write`.
    private static func writeData(_ event: RecipeEvent, _ shape: Shape, to writer: inout JSONWriter) {
        let values: @Sendable (RecipeEvent, _ put: (DataValue) -> Void) -> Bool
        switch shape.description.writing {
        case .values(let given): values = given
        case .json(let write):
            let described = write(event, &writer)
            precondition(described, "\(event.kind) described as \(shape.description.kind)")
            return
        }
        var index = 0
        var first = true
        let described = values(event) { value in
            defer { index &+= 1 }
            if case .absent = value { return }
            writer.key(shape.keys[index], first: first)
            first = false
            switch value {
            case .string(let text): writer.string(text)
            case .integer(let number): writer.integer(number)
            case .number(let number): writer.number(number)
            case .null: writer.raw("null")
            case .boolean(let flag): writer.raw(flag ? "true" : "false")
            case .absent, .time, .strings, .objects: writer.write(value, shape.description.fields[index])
            }
        }
        precondition(described, "\(event.kind) described as \(shape.description.kind)")
        assert(index == shape.keys.count, "\(shape.description.kind): \(index) values for \(shape.keys.count) fields")
        writer.raw(first ? "{}" : "}")
    }
}
