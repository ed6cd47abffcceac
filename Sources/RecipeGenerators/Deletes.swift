import RecipeDomain

/// `stream` with a `RecipeDeleted` for every `every`-th recipe it names, each followed by one more
/// command for that recipe (rejected: deleted): the generator deletes too rarely for a short stream.
public func withDeletes(_ stream: [CommandEnvelope], every: Int) -> [CommandEnvelope] {
    var seen: [RecipeID] = []
    for envelope in stream where !seen.contains(envelope.recipeID) { seen.append(envelope.recipeID) }
    var result = stream
    let time = Timestamp(millisecondsSinceEpoch: (stream.map(\.time.millisecondsSinceEpoch).max() ?? 0) + 1)
    for (index, recipe) in seen.enumerated() where index % every == 0 {
        let actor = stream.last { $0.recipeID == recipe }!.actor
        result.append(CommandEnvelope(commandID: "delete-\(recipe.text)", recipeID: recipe, actor: actor, time: time, command: .recipeDeleted))
        result.append(CommandEnvelope(commandID: "after-delete-\(recipe.text)", recipeID: recipe, actor: actor, time: time,
                                      command: .titleChanged(title: "Too late")))
    }
    return result
}
