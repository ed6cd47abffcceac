// MARK: - Command envelope

/// A command as it comes from the log: the command and the metadata the rules need.
public struct CommandEnvelope: Sendable, Hashable {
    /// Unique per command; a second command with an id already applied to the
    /// recipe is a duplicate. Also the seed of ids the command creates.
    public var commandID: String
    /// The aggregate the command is for (the record key and `subject`).
    public var recipeID: RecipeID
    /// Who asked; recorded on the versions they save.
    public var actor: String
    /// When it was asked, as the log says; the domain reads no clock.
    public var time: Timestamp
    /// When present, the command applies only if the recipe's revision equals it.
    public var expectedRevision: Int?
    /// The role the writing gateway gave the actor (the record's `actorrole`);
    /// `nil` for records that carry none, which the access rules do not check.
    public var actorRole: ActorRole?
    public var command: RecipeCommand

    public init(
        commandID: String,
        recipeID: RecipeID,
        actor: String,
        time: Timestamp,
        expectedRevision: Int? = nil,
        actorRole: ActorRole? = nil,
        command: RecipeCommand
    ) {
        self.commandID = commandID
        self.recipeID = recipeID
        self.actor = actor
        self.time = time
        self.expectedRevision = expectedRevision
        self.actorRole = actorRole
        self.command = command
    }
}
