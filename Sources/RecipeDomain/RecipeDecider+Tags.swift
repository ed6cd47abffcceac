// MARK: - Tag rules

extension RecipeDecider {
    static func tagAdded(text: String, _ content: RecipeContent) -> Result<RecipeEvent, Rejection> {
        let tag: Tag
        switch Tag.parseSingle(from: text) {
        case .success(let parsed): tag = parsed
        case .failure(let rejection): return .failure(rejection)
        }
        if let existing = content.tagIndex(named: tag.name) {
            return .failure(Rejection(.duplicateTag, "The recipe already has the tag @\(content.tags[existing].name)."))
        }
        if content.tags.count >= RecipeLimits.maxTags {
            return .failure(Rejection(.limitExceeded, "A recipe has at most \(RecipeLimits.maxTags) tags."))
        }
        return .success(.tagAdded(tag))
    }

    /// Replaces a tag. Any rejection leaves the old tag as it was. The new tag may
    /// keep the name (changing payload or case) but may not take another tag's name.
    static func tagChanged(name: String, text: String, _ content: RecipeContent) -> Result<RecipeEvent, Rejection> {
        guard let index = content.tagIndex(named: name) else { return .failure(unknownTag(name)) }
        let tag: Tag
        switch Tag.parseSingle(from: text) {
        case .success(let parsed): tag = parsed
        case .failure(let rejection): return .failure(rejection)
        }
        if let other = content.tagIndex(named: tag.name), other != index {
            return .failure(Rejection(.duplicateTag, "The recipe already has the tag @\(content.tags[other].name)."))
        }
        return .success(.tagChanged(previousName: content.tags[index].name, tag: tag))
    }

    static func tagRemoved(name: String, _ content: RecipeContent) -> Result<RecipeEvent, Rejection> {
        guard let index = content.tagIndex(named: name) else { return .failure(unknownTag(name)) }
        return .success(.tagRemoved(name: content.tags[index].name))
    }

    private static func unknownTag(_ name: String) -> Rejection {
        Rejection(.unknownTag, "The recipe has no tag \(name).")
    }
}
