import RecipeDomain

/// Decisions as a build with other rules would have recorded them: for tests that
/// write such a decision by hand and check that every reader shows it as recorded.
public enum OlderBuild {
    /// A title longer than today's rules take.
    public static let longTitle = String(repeating: "Pie ", count: RecipeLimits.maxTitleLength / 4 + 1)

    /// What a build whose title limit was longer decided for `envelope`, a `TitleChanged`
    /// to `longTitle` on a new recipe: accepted, with the events today's rules give a title
    /// they take, the long title put back; and today's rejection of it. Nil when today's
    /// rules take the command (then the test has no rule change to show).
    public static func acceptedLongTitle(_ envelope: CommandEnvelope) -> (events: [RecipeEvent], today: Rejection)? {
        guard case .rejected(let rejection) = RecipeJudge.decide(envelope, against: Recipe(id: envelope.recipeID)) else { return nil }
        var short = envelope
        short.command = .titleChanged(title: "Pie")
        guard case .accepted(let events) = RecipeJudge.decide(short, against: Recipe(id: envelope.recipeID)) else { return nil }
        return (events.map { event in if case .titleChanged = event { .titleChanged(longTitle) } else { event } }, rejection)
    }
}
