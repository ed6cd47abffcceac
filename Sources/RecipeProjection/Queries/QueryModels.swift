// The shapes queries return: the JSON of the HTTP API, also printed by the CLI's
// `--json`. Fields may be added, never renamed. A nil optional is left out of the
// JSON, never `null`. Schemas/openapi.yaml describes each shape with no other
// members, so a field added here must be added there too (scripts/api-contract fails).

import RecipeWire

// The detail document is RecipeWire's (RecipeDetail.swift), so that the decider writes
// recipes.committed with the same JSON; named here too for the modules that read the queries.
public typealias RecipeDetail = RecipeWire.RecipeDetail
public typealias IngredientView = RecipeWire.IngredientView
public typealias InstructionView = RecipeWire.InstructionView
public typealias TagView = RecipeWire.TagView

public struct RecipeSummary: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var version: Int
    public var servings: Int?
    public var tags: [TagView]
    public var ingredientCount: Int
    public var image: String?
    /// RFC 3339 time of the latest version's save.
    public var updatedAt: String
}

public struct RecipeList: Codable, Sendable, Equatable {
    public var items: [RecipeSummary]
    /// Pass as `cursor` for the next page; nil on the last page.
    public var nextCursor: String?
}

public struct ReasonView: Codable, Sendable, Equatable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

public struct LastRejection: Codable, Sendable, Equatable {
    public var code: String
    public var message: String
    public var type: String
    public var commandId: String
    public var position: String
}

public struct DraftView: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var servings: Int?
    public var image: String?
    public var description: String?
    public var yield: String?
    public var prepTime: String?
    public var cookTime: String?
    public var totalTime: String?
    public var sourceUrl: String?
    public var ingredients: [IngredientView]
    public var instructions: [InstructionView]
    public var tags: [TagView]
    public var revision: Int
    /// The version the draft was copied from; 0 for a recipe never saved.
    public var baseVersion: Int
    /// What a save still needs: "title", "ingredients".
    public var missing: [String]
    public var lastRejection: LastRejection?
    public var updatedAt: String
    /// Per serving as stated, and in total for `servings`; absent when the draft states none.
    public var nutrition: NutritionView? = nil
}

/// An open draft as the drafts list shows it: which recipe, where it stands and what a save
/// still needs, without its content (`GET /v1/recipes/{id}/draft` has that), so that a page
/// of drafts stays small whatever the drafts hold.
public struct DraftSummary: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var ingredientCount: Int
    public var instructionCount: Int
    public var revision: Int
    /// The version the draft was copied from; 0 for a recipe never saved.
    public var baseVersion: Int
    /// What a save still needs: "title", "ingredients".
    public var missing: [String]
    public var lastRejection: LastRejection?
    public var updatedAt: String
}

public struct HistoryItem: Codable, Sendable, Equatable {
    public var position: String
    public var time: String?
    public var actor: String?
    public var type: String
    public var commandId: String?
    public var outcome: RecordOutcome
    public var reason: ReasonView?
    /// The recipe's revision after the record.
    public var revision: Int?
    /// The role the gateway wrote into the record (`admin` when an admin acted on
    /// someone else's recipe); absent for records without one.
    public var actorRole: String?
    /// The rules version of the build that decided the record (`RecipeDecider.rulesVersion`);
    /// absent for entries a store folded before it kept them (a replay fills them in).
    public var rulesVersion: Int?
}

/// Who may act on a recipe, as the fold decided: its owner and grants.
public struct RecipeAccessView: Codable, Sendable, Equatable {
    public var owner: String?
    /// Actor → `editor` or `viewer`.
    public var grants: [String: String]

    public init(owner: String?, grants: [String: String]) {
        self.owner = owner
        self.grants = grants
    }

    /// Whether `actor` owns the recipe or holds a grant on it.
    public func isVisible(to actor: String) -> Bool { owner == actor || grants[actor] != nil }
}

public struct RecipeHistory: Codable, Sendable, Equatable {
    public var items: [HistoryItem]
}

public struct RejectionItem: Codable, Sendable, Equatable {
    public var position: String
    public var key: String?
    public var commandId: String?
    public var type: String
    public var reason: ReasonView
}

/// Why a query has no answer.
public enum QueryError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(String)
    case deleted(String)
    case noSuchVersion(String, Int)
    case noDraft(String)
    case cannotScale(String)
    case badCursor

    public var description: String {
        switch self {
        case .notFound(let id): "no recipe \(id)"
        case .deleted(let id): "recipe \(id) was deleted"
        case .noSuchVersion(let id, let version): "recipe \(id) has no version \(version)"
        case .noDraft(let id): "recipe \(id) has no open draft"
        case .cannotScale(let why): why
        case .badCursor: "a cursor is the nextCursor of a page: at most \(ListCursor.maxLength) letters, digits, - and _"
        }
    }
}
