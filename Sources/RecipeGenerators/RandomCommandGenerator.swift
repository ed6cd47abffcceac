import RecipeDomain
// MARK: - Random command generator

/// Seeded generator of recipe commands, for property tests, codec round trips
/// and benchmarks in any module. The same seed and calls give the same commands.
///
/// - `arbitraryCommand()`: any command with any field values, valid or not
///   (blank, too long, non-ASCII, JSON-hostile characters), amounts always finite.
/// - `plausibleCommand(for:)` / `plausibleEdit(for:)`: what a person would do
///   next to a recipe, mostly valid; about `invalidRate` of them break a rule.
/// - `envelope(for:command:)` / `nextEnvelope(for:)`: metadata around them:
///   fresh UUID command ids, time moving forward, sometimes an expected revision,
///   sometimes (`duplicateRate`) an exact resend of a recent envelope.
public struct RandomCommandGenerator: Sendable {
    public var random: SplitMix64
    /// Share of plausible commands, and of expected revisions, that are wrong on purpose.
    public var invalidRate: Double
    /// Share of `nextEnvelope(for:)` calls that resend a recent envelope of the same recipe.
    public var duplicateRate: Double
    /// Share of envelopes that carry an expected revision.
    public var expectedRevisionRate: Double
    /// The time of the last envelope; each new one is 1 ms to 1 minute later.
    public private(set) var time: Timestamp

    /// Recently made envelopes, for resending; a ring so that memory stays flat.
    private var recent: [CommandEnvelope] = []
    private var recentNext = 0
    private static let recentCapacity = 64

    public init(
        seed: UInt64,
        invalidRate: Double = 0.03,
        duplicateRate: Double = 0.01,
        expectedRevisionRate: Double = 0.1,
        startTime: Timestamp = Timestamp(millisecondsSinceEpoch: 1_704_067_200_000) // 2024-01-01T00:00:00Z
    ) {
        random = SplitMix64(seed: seed)
        self.invalidRate = invalidRate
        self.duplicateRate = duplicateRate
        self.expectedRevisionRate = expectedRevisionRate
        time = startTime
    }

    // MARK: - Ids

    /// A random version-4 UUID string in lowercase, e.g. for recipe and command ids.
    public mutating func uuid() -> String {
        let hex = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        var high = next(), low = next()
        high = (high & ~0xF000) | 0x4000 // version 4
        low = (low & ~(0xC << 60)) | (0x8 << 60) // RFC 4122 variant
        for nibble in 0..<32 {
            if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 { bytes.append(UInt8(ascii: "-")) }
            let word = nibble < 16 ? high : low
            let shift = UInt64(60 - 4 * (nibble % 16))
            bytes.append(hex[Int((word >> shift) & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A new recipe's id: a `uuid()`.
    public mutating func recipeID() -> RecipeID {
        RecipeID(made: uuid())
    }

    // MARK: - Envelopes

    /// Wraps `command` for `recipe` with a fresh command id and the next time.
    public mutating func envelope(for recipe: Recipe, command: RecipeCommand, actor: String? = nil) -> CommandEnvelope {
        time.millisecondsSinceEpoch += Int64(random.int(in: 1...60_000))
        var expectedRevision: Int?
        if random.chance(expectedRevisionRate) {
            expectedRevision = random.chance(invalidRate) ? max(0, recipe.revision + random.pick([-1, 1])) : recipe.revision
        }
        let envelope = CommandEnvelope(
            commandID: uuid(),
            recipeID: recipe.id,
            actor: actor ?? random.pick(Vocabulary.actors),
            time: time,
            expectedRevision: expectedRevision,
            command: command
        )
        remember(envelope)
        return envelope
    }

    /// The next envelope a client might send for `recipe`: usually a fresh
    /// plausible command, sometimes a resend of one it sent before.
    public mutating func nextEnvelope(for recipe: Recipe) -> CommandEnvelope {
        if random.chance(duplicateRate), let resent = recentEnvelope(for: recipe.id) {
            return resent
        }
        return envelope(for: recipe, command: plausibleCommand(for: recipe))
    }

    /// A random recent envelope of this recipe, if any is still remembered.
    public mutating func recentEnvelope(for recipeID: RecipeID) -> CommandEnvelope? {
        let candidates = recent.filter { $0.recipeID == recipeID }
        return candidates.isEmpty ? nil : random.pick(candidates)
    }

    private mutating func remember(_ envelope: CommandEnvelope) {
        if recent.count < Self.recentCapacity {
            recent.append(envelope)
        } else {
            recent[recentNext] = envelope
            recentNext = (recentNext + 1) % Self.recentCapacity
        }
    }

    private mutating func next() -> UInt64 { random.next() }

    // MARK: - Plausible commands

    /// What a person would do next to `recipe`: start, edit, save, discard, now and
    /// then delete. Edits on a recipe without a draft open one implicitly.
    public mutating func plausibleCommand(for recipe: Recipe) -> RecipeCommand {
        let content = recipe.currentContent ?? .empty
        let shares = recipe.draft == nil ? Self.lifecycleSharesWithoutDraft : Self.lifecycleSharesWithDraft
        let roll = random.unitInterval()
        // Thousandths turned into a fraction by one division, so that each threshold
        // is the very double of its decimal (700 / 1000 == 0.70).
        var threshold = 1000 - shares.reduce(0) { $0 + $1.perMille }
        if roll < Double(threshold) / 1000 { return plausibleEdit(for: content) }
        for (kind, perMille) in shares.dropLast() {
            threshold += perMille
            if roll < Double(threshold) / 1000 { return lifecycleCommand(kind, for: recipe) }
        }
        return lifecycleCommand(shares[shares.count - 1].kind, for: recipe)
    }

    /// How often `plausibleCommand` picks each command that is not an edit, in
    /// thousandths, in the order the roll tries them; edits take the rest of the
    /// thousand. Each list holds every kind that is not an edit
    /// (RandomCommandGeneratorTests checks it), so a new lifecycle command is drawn.
    static let lifecycleSharesWithoutDraft: [(kind: RecipeCommand.Kind, perMille: Int)] = [
        (.draftStarted, 200),
        (.recipeSaved, 50), // rejected: no draft
        (.draftDiscarded, 40), // rejected: no draft
        (.recipeDeleted, 10),
        (.accessGranted, 4),
        (.accessRevoked, 2),
        (.ownershipTransferred, 1),
    ]
    static let lifecycleSharesWithDraft: [(kind: RecipeCommand.Kind, perMille: Int)] = [
        (.recipeSaved, 80),
        (.draftDiscarded, 25),
        (.draftStarted, 12), // rejected: already open
        (.recipeDeleted, 3),
        (.accessGranted, 2),
        (.accessRevoked, 1),
        (.ownershipTransferred, 1),
    ]

    private mutating func lifecycleCommand(_ kind: RecipeCommand.Kind, for recipe: Recipe) -> RecipeCommand {
        switch kind {
        case .draftStarted: return .draftStarted
        case .recipeSaved: return .recipeSaved
        case .draftDiscarded: return .draftDiscarded
        // Deleting a recipe no command touched is refused; people start one instead.
        case .recipeDeleted: return recipe.revision > 0 ? .recipeDeleted : .draftStarted
        // Sharing needs a recipe too; who is picked may own it or hold the role already (rejected).
        case .accessGranted:
            return recipe.revision > 0
                ? .accessGranted(grantee: random.pick(Vocabulary.actors), role: random.pick(AccessRole.allCases)) : .draftStarted
        case .accessRevoked:
            return recipe.revision > 0 ? .accessRevoked(grantee: random.pick(Vocabulary.actors)) : .draftStarted
        case .ownershipTransferred:
            return recipe.revision > 0 ? .ownershipTransferred(newOwner: random.pick(Vocabulary.actors)) : .draftStarted
        default:
            preconditionFailure("\(kind) is an edit, drawn by plausibleEdit")
        }
    }
}

/// A random but realistic stream of `count` commands: drafts of edits, saves, discards,
/// deletes, a few invalid commands and duplicates, over `recipes` recipes, interleaved.
/// The same seed gives the same stream.
public func commandStream(count: Int, recipes: Int, seed: UInt64) -> [CommandEnvelope] {
    var generator = RandomCommandGenerator(seed: seed, invalidRate: 0.03, duplicateRate: 0.01, expectedRevisionRate: 0.05)
    var states = (0..<recipes).map { _ in Recipe(id: generator.recipeID()) }
    var stream: [CommandEnvelope] = []
    stream.reserveCapacity(count)
    while stream.count < count {
        let index = Int(generator.random.next() % UInt64(recipes))
        let envelope = generator.nextEnvelope(for: states[index])
        RecipeJudge.decide(envelope, recipe: &states[index])
        stream.append(envelope)
    }
    return stream
}
