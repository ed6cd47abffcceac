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
        writer.data(description.values(of: event), description.fields)
        writer.raw("}")
    }
}
