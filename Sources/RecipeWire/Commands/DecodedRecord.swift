import RecipeDomain

// MARK: - Decoded record

/// A record read back: the command for the fold plus what the envelope says about
/// where it came from.
public struct DecodedRecord: Sendable, Hashable {
    /// The command with its metadata, as `RecipeDecider` takes it. Always in
    /// today's shape, whatever data version the record was written in.
    public var envelope: CommandEnvelope
    /// The CloudEvents `source`: the producer that wrote it (`recipes-cli`…).
    public var source: String
    /// The data version the record was written in (`1` for `recipes.TitleChanged.v1`).
    public var typeVersion: Int

    public init(envelope: CommandEnvelope, source: String, typeVersion: Int) {
        self.envelope = envelope
        self.source = source
        self.typeVersion = typeVersion
    }
}
