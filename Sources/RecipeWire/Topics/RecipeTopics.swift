import RecipeDomain

// MARK: - Topics

/// The names of the recipe topics, with an environment prefix (`--topic-prefix`).
/// Every layer takes topic names from here, never spelling them itself.
///
/// ```swift
/// RecipeTopics().edits                     // "recipes.edits"
/// RecipeTopics(prefix: "staging.").edits   // "staging.recipes.edits"
/// ```
public struct RecipeTopics: Sendable, Hashable {
    /// Put before every name; empty by default.
    public var prefix: String

    public init(prefix: String = "") {
        self.prefix = prefix
    }

    /// The log of commands: one CloudEvents record per command, keyed by recipe id.
    public var edits: String { prefix + "recipes.edits" }

    /// The decisions: one `DecisionRecord` per record of `edits`, with its key, on
    /// the partition of the same number, in the same order (written by the decider).
    public var decisions: String { prefix + "recipes.decisions" }

    /// The latest committed version of each recipe, as its detail document, or a tombstone
    /// once it is deleted (`CommittedRecipe`): compacted, keyed by recipe id, on the
    /// partition of the same number as its commands; written by the decider.
    public var committed: String { prefix + "recipes.committed" }

    /// Why `prefix` cannot start topic names, or nil when it can. Kafka allows
    /// ASCII letters, digits, `.`, `_` and `-`, and names up to 249 characters.
    ///
    /// ```swift
    /// if let problem = RecipeTopics.problem(withPrefix: value) { throw UsageError("--topic-prefix: \(problem)") }
    /// ```
    public static func problem(withPrefix prefix: String) -> String? {
        guard prefix.utf8.allSatisfy(isNameByte) else { return "a topic prefix may hold only ASCII letters, digits, '.', '_' and '-'" }
        let longest = [RecipeTopics().edits, RecipeTopics().decisions, RecipeTopics().committed].map(\.utf8.count).max()!
        guard prefix.utf8.count + longest <= 249 else { return "the prefix makes topic names longer than 249 characters" }
        return nil
    }

    /// Whether `byte` may stand in a Kafka name (a topic's, and a decider's): an ASCII letter,
    /// a digit, `.`, `_` or `-`.
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}

// MARK: - Keys

/// The Kafka key of a record: the recipe id's bytes, so that every command of one
/// recipe lands on one partition, in order.
///
/// ```swift
/// let key = RecordKey.key(forRecipe: envelope.recipeID)   // Array("5a8f2c1e-…".utf8)
/// ```
public enum RecordKey {
    public static func key(forRecipe recipeID: RecipeID) -> [UInt8] {
        Array(recipeID.text.utf8)
    }

    /// The recipe a key names, or nil when the key is absent or not a recipe id.
    public static func recipeID(fromKey key: some Collection<UInt8>) -> RecipeID? {
        RecipeID(utf8: key)
    }
}
