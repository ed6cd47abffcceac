import RecipeDomain
import RecipeJSON

// MARK: - Content format

/// How one document spells a content (`ContentJSON`): which `ContentField` members, in
/// list order or sorted by key among the document's own members, which are `null` rather
/// than absent when they have no value, and the keys of an item's members. The four
/// formats below are the only ones; each is kept byte for byte (goldens, stored rows,
/// the public detail document).
public final class ContentFormat: Sendable {
    public enum Part: Sendable, Equatable {
        case content(ContentField)
        /// The document's own member at this index of `documentKeys`.
        case document(Int)
    }

    public enum IngredientPart: Sendable, CaseIterable { case id, name, amount, amountMax, unit, note, section, text, display }
    public enum StepPart: Sendable, CaseIterable { case id, order, description, section }
    public enum TagPart: Sendable, CaseIterable { case name, payload }

    public struct Member<P: Sendable>: Sendable {
        public let key: StaticString
        public let part: P
        /// `key` as the writer writes it.
        let prepared: PreparedKey

        init(key: StaticString, part: P) {
            self.key = key
            self.part = part
            prepared = PreparedKey(key)
        }
    }

    /// In the order written.
    let members: [Member<Part>]
    let ingredientMembers: [Member<IngredientPart>]
    let stepMembers: [Member<StepPart>]
    let tagMembers: [Member<TagPart>]
    /// `ContentField`s (by bit) written as `null` when they have no value.
    private let nullMembers: UInt32
    /// Whether a tag without a payload has `"payload":null`.
    let tagPayloadNull: Bool

    /// The content's members and `documentKeys` (the document's own, written by the caller), in
    /// `ContentField` order then the document's, or all sorted by key as `JSONEncoder`'s
    /// `.sortedKeys` sorts them. An item's id is `id` or, with `namedIDs`, `ingredientId` and
    /// `instructionId`; a step has `order` when `stepOrder`; a line's unit is written under
    /// each of `unitKeys` (the store's `metric`, the event's `unit`, the detail's both); a
    /// line's `display` only when `display`.
    init(fields: [ContentField] = ContentField.allCases, documentKeys: [StaticString] = [], sorted: Bool,
         nullWhenAbsent: [ContentField] = [], namedIDs: Bool = false, stepOrder: Bool = true,
         unitKeys: [StaticString], display: Bool = false, tagPayloadNull: Bool = false) {
        func ordered<P>(_ members: [Member<P>]) -> [Member<P>] {
            sorted ? members.sorted { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) } : members
        }
        members = ordered(fields.map { Member(key: $0.key, part: .content($0)) }
            + documentKeys.indices.map { Member(key: documentKeys[$0], part: .document($0)) })
        ingredientMembers = ordered(IngredientPart.allCases.flatMap { part -> [Member<IngredientPart>] in
            switch part {
            case .id: [Member(key: namedIDs ? "ingredientId" : "id", part: part)]
            case .name: [Member(key: "name", part: part)]
            case .amount: [Member(key: "amount", part: part)]
            case .amountMax: [Member(key: "amountMax", part: part)]
            case .unit: unitKeys.map { Member(key: $0, part: part) }
            case .note: [Member(key: "note", part: part)]
            case .section: [Member(key: "section", part: part)]
            case .text: [Member(key: "text", part: part)]
            case .display: display ? [Member(key: "display", part: part)] : []
            }
        })
        stepMembers = ordered(StepPart.allCases.compactMap { part in
            switch part {
            case .id: Member(key: namedIDs ? "instructionId" : "id", part: part)
            case .order: stepOrder ? Member(key: "order", part: part) : nil
            case .description: Member(key: "description", part: part)
            case .section: Member(key: "section", part: part)
            }
        })
        tagMembers = ordered([Member(key: "name", part: .name), Member(key: "payload", part: .payload)])
        nullMembers = nullWhenAbsent.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
        self.tagPayloadNull = tagPayloadNull
    }

    @inline(__always)
    func writesNull(_ field: ContentField) -> Bool { nullMembers & 1 << UInt32(field.rawValue) != 0 }

    // MARK: - The formats

    /// ContentSet's data: list order, absent when none, `ingredientId`/`instructionId`,
    /// a step's order its place, the unit as `unit`; no nutrition (the event keeps it).
    public static let event = ContentFormat(
        fields: ContentField.allCases.filter { $0 != .nutrition }, sorted: false, namedIDs: true, stepOrder: false,
        unitKeys: ["unit"])

    /// The store's content column (content v2, StoreSchema): list order; `servings`,
    /// `image` and a tag's `payload` `null` when none (as v1 wrote them), the others absent;
    /// the unit under its v1 name `metric`.
    public static let stored = ContentFormat(
        sorted: false, nullWhenAbsent: [.servings, .image], unitKeys: ["metric"], tagPayloadNull: true)

    /// The members of the detail document that are not content, by index in `document`'s calls.
    public enum DetailMember: Int, CaseIterable {
        case guests, hasDraft, id, position, savedBy, units, updatedAt, version

        public var key: StaticString {
            switch self {
            case .guests: "guests"
            case .hasDraft: "hasDraft"
            case .id: "id"
            case .position: "position"
            case .savedBy: "savedBy"
            case .units: "units"
            case .updatedAt: "updatedAt"
            case .version: "version"
            }
        }
    }

    /// The detail document (`GET /v1/recipes/{id}`, `recipes.committed`): sorted by key, as
    /// `DocumentJSON.encoder` writes it; absent when none; a line's unit as both `metric`
    /// (the member old clients read) and `unit`, with `display`.
    public static let detail = ContentFormat(
        documentKeys: DetailMember.allCases.map(\.key),
        sorted: true, unitKeys: ["metric", "unit"], display: true)

    /// The members of the draft view that are not content, by index in `document`'s calls.
    public enum DraftMember: Int, CaseIterable {
        case baseVersion, id, lastRejection, missing, revision, updatedAt

        public var key: StaticString {
            switch self {
            case .baseVersion: "baseVersion"
            case .id: "id"
            case .lastRejection: "lastRejection"
            case .missing: "missing"
            case .revision: "revision"
            case .updatedAt: "updatedAt"
            }
        }
    }

    /// The draft view (`GET /v1/recipes/{id}/draft`): the detail's spelling with the draft's own members.
    public static let draftView = ContentFormat(
        documentKeys: DraftMember.allCases.map(\.key),
        sorted: true, unitKeys: ["metric", "unit"], display: true)
}

extension StaticString {
    fileprivate var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount) }
}
