import RecipeDomain

// MARK: - Event writer

/// Writes events as a decision holds them: `{"type":"<Kind>.v<N>","data":{…}}`, each in
/// the version its `EventDescription` gives, members in the order of its fields,
/// optional members left out when absent.
enum EventWriter {
    static func write(_ event: RecipeEvent, to writer: inout JSONWriter) {
        let description = EventDescription.all[event.kind.ordinal]
        writer.key("type", first: true)
        writer.raw("\"")
        writer.append(utf8: description.kind.rawValue)
        writer.raw(".v")
        writer.integer(description.version)
        writer.raw("\"")
        writer.key("data")
        writeData(event, description, to: &writer)
        writer.raw("}")
    }

    /// The event's `data` object, as `JSONWriter.data(_:_:)` writes the same values: each
    /// member as the description gives it, with no list of them in between.
    private static func writeData(_ event: RecipeEvent, _ description: EventDescription, to writer: inout JSONWriter) {
        let fields = description.fields
        var index = 0
        var first = true
        let described = description.values(event) { value in
            defer { index &+= 1 }
            if case .absent = value { return }
            writer.key(fields[index].field.key, first: first)
            first = false
            writer.write(value, fields[index])
        }
        precondition(described, "\(event.kind) described as \(description.kind)")
        assert(index == fields.count, "\(description.kind): \(index) values for \(fields.count) fields")
        writer.raw(first ? "{}" : "}")
    }
}
