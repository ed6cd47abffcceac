import RecipeDomain
import RecipeJSON

// MARK: - Tags
//
// Tags added, changed and removed.

extension CommandDescription {
    static let tagAdded = CommandDescription(
        .tagAdded, summary: ". Adds the one tag written in `text`: `@name` or `@name(payload)`.",
        fields: [
            .string("text", .maxLength(RecipeLimits.maxTagTextLength),
                "Must hold exactly one tag (checked by the fold, `invalidTag`); at most 2048 characters (RecipeLimits.maxTagTextLength)."),
        ],
        read: { data throws(WireError) in .tagAdded(text: try data.string("text")) },
        values: { command, put in guard case .tagAdded(let text) = command else { return false }; put(.string(text)); return true })

    static let tagChanged = CommandDescription(
        .tagChanged, summary: ". Replaces the tag called `name` by the one tag written in `text`.",
        fields: [
            .string("name",
                "The tag to replace, with or without its @; matched ignoring case."),
            .string("text", .maxLength(RecipeLimits.maxTagTextLength),
                "Must hold exactly one tag; at most 2048 characters."),
        ],
        read: { data throws(WireError) in .tagChanged(name: try data.string("name"), text: try data.string("text")) },
        values: { command, put in guard case .tagChanged(let name, let text) = command else { return false }; put(.string(name)); put(.string(text)); return true })

    static let tagRemoved = CommandDescription(
        .tagRemoved, summary: ". Removes the tag called `name`.",
        fields: [
            .string("name",
                "The tag to remove, with or without its @; matched ignoring case."),
        ],
        read: { data throws(WireError) in .tagRemoved(name: try data.string("name")) },
        values: { command, put in guard case .tagRemoved(let name) = command else { return false }; put(.string(name)); return true })
}

extension EventDescription {
    static let tagAdded = EventDescription(
        .tagAdded, summary: ". A tag added to the draft.",
        fields: tagFields,
        read: { data throws(WireError) in .tagAdded(try readTag(data)) },
        values: { event, put in
            guard case .tagAdded(let tag) = event else { return false }
            tag.members(put)
            return true
        })

    static let tagChanged = EventDescription(
        .tagChanged, summary: ". A tag of the draft replaced by this one.",
        fields: [.string("previousName", "The name of the tag replaced, as it was stored.")] + tagFields,
        read: { data throws(WireError) in .tagChanged(previousName: try data.string("previousName"), tag: try readTag(data)) },
        values: { event, put in
            guard case .tagChanged(let previousName, let tag) = event else { return false }
            put(.string(previousName))
            tag.members(put)
            return true
        })

    static let tagRemoved = EventDescription(
        .tagRemoved, summary: ". A tag left the draft.",
        fields: [
            .string("name", "The name of the tag removed, as it was stored."),
        ],
        read: { data throws(WireError) in .tagRemoved(name: try data.string("name")) },
        values: { event, put in
            guard case .tagRemoved(let name) = event else { return false }
            put(.string(name))
            return true
        })
}
