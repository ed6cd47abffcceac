// MARK: - Instruction

/// One step of a recipe's method.
public struct Instruction: Sendable, Hashable {
    /// Stable id: survives edits, moves, drafts and versions.
    public var id: String
    /// What to do. Never blank.
    public var description: String
    /// Position in the method, 1...n with no gaps; the fold renumbers on every
    /// insert, move and removal so this always equals the index in the list + 1.
    public var order: Int
    /// The heading the step stands under ("For the sauce"), or nil. Never blank.
    public var section: String?

    public init(id: String, description: String, order: Int, section: String? = nil) {
        self.id = id
        self.description = description
        self.order = order
        self.section = section
    }
}
