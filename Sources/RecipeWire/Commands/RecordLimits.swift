import RecipeDomain
import RecipeJSON

// MARK: - Record limits

/// The domain's limits that a record is checked against on its own, without the recipe it
/// is for: the bounds the kinds' descriptions give their fields (`FieldSpec.Bound`, from
/// `RecipeLimits`), which the generated schemas state as `maxLength`, `minimum`, `maximum`.
///
/// Names too: the command id holds no control character (tab and newline included), and
/// `actor`, `grantee` and `newOwner` are actor names in their one spelling (`ActorName`).
///
/// What is *not* checked here, and left to the fold so that it shows in the
/// recipe's history with the domain's own code: rules that need judgement (blank
/// text, the URL's form, the tag grammar, "an update changes something") and
/// rules that need the recipe (unknown ids, counts, positions beyond the list).
/// Ids and tag names only looked up are not bounded: a long one is simply not found.
///
/// The decoder rejects a record breaking a limit as `invalid`; producers call
/// `violation(in:)` before appending, to refuse what every reader would reject:
public enum RecordLimits {
    /// The first reason a reader would reject `envelope` once encoded, or nil.
    /// An empty `id` is `malformed` (CloudEvents requires one; the recipe id is a
    /// `RecipeID`, never empty); every other problem is `invalid` and names its field.
    public static func violation(in envelope: CommandEnvelope) -> WireError? {
        if let problem = violation(commandID: envelope.commandID) { return problem }
        if let problem = violation(actor: envelope.actor) { return problem }
        if let revision = envelope.expectedRevision, let problem = violation(expectedRevision: revision) { return problem }
        return violation(in: envelope.command)
    }

    /// Why `commandID` is no record's `id`, or nil.
    static func violation(commandID: String) -> WireError? {
        if commandID.isEmpty { return .malformed("id must not be empty.", field: "id") }
        if let problem = maxLength(commandID, RecipeLimits.maxIdentifierLength, "id") { return problem }
        // Tab and newline too: an id is a name, not text (other controls never get this far).
        var commandID = commandID
        if commandID.withUTF8({ $0.contains { $0 < 0x20 } }) {
            return .invalid("id", "must not hold control characters, tab and newline included")
        }
        return nil
    }

    /// Why `actor` is no record's `actor` (`ActorName`), or nil.
    static func violation(actor: String) -> WireError? {
        actorName(actor, "actor")
    }

    /// Why `revision` is no record's `expectedrevision`, or nil.
    static func violation(expectedRevision revision: Int) -> WireError? {
        guard !(0...JSONNumber.maxSafeInteger).contains(revision) else { return nil }
        return .invalid("expectedrevision", "must be from 0 to \(JSONNumber.maxSafeInteger), not \(revision)")
    }

    /// The first field of `command`'s data that breaks a record-level limit, or nil: each
    /// field against the bound its kind's description gives it (`FieldSpec.Bound`).
    /// How many items a list holds is the fold's (`limitExceeded`), as for the single adds;
    /// the record size bounds the record.
    public static func violation(in command: RecipeCommand) -> WireError? {
        let description = CommandDescription.all[command.kind.ordinal]
        var problem: WireError?
        description.members(of: command) { index, value in
            // Only a problem found is stored: an optional error assigned per member cost more than the checks.
            guard case .none = problem, let found = violation(of: value, description.fields, index, at: { "data" }) else { return }
            problem = found
        }
        return problem
    }

    /// The first member of an object (an item of a list in `data`) that breaks its bound.
    private static func violation(in values: [DataValue], _ fields: [FieldSpec], at place: () -> String) -> WireError? {
        for index in values.indices {
            if let problem = violation(of: values[index], fields, index, at: place) { return problem }
        }
        return nil
    }

    /// Whether `value`, the member `fields[index]` of the object at `place`, breaks the field's bound
    /// (the field read in place: a `FieldSpec` copied per member cost as much as its check).
    private static func violation(of value: DataValue, _ fields: [FieldSpec], _ index: Int, at place: () -> String) -> WireError? {
        func path() -> String { "\(place()).\(fields[index].name)" }
        switch value {
        case .string(let text):
            if let problem = violation(of: text, fields[index].bound, path()) { return problem }
        case .integer(let value):
            switch fields[index].bound {
            case .range(let bounds): if let problem = range(value, bounds, path()) { return problem }
            case .atLeast(let least): if let problem = range(value, least...Int.max, path()) { return problem }
            default: break
            }
        case .number(let value):
            let bound = fields[index].bound
            if bound == .amount, let problem = amount(value, path()) { return problem }
            if case .measure(let range) = bound, !(value.isFinite && range.contains(value)) {
                return .invalid(path(), "must be a number from \(PrettyJSON.number(range.lowerBound).indented(0)) to \(PrettyJSON.number(range.upperBound).indented(0))")
            }
        case .strings(let texts):
            guard case .strings(let bound) = fields[index].items else { break }
            for (item, text) in texts.enumerated() {
                if let problem = violation(of: text, bound, "\(path())[\(item)]") { return problem }
            }
        case .objects(let items):
            guard case .objects(_, let itemFields) = fields[index].items else { break }
            for (item, members) in items.enumerated() {
                if let problem = violation(in: members, itemFields, at: { "\(path())[\(item)]" }) { return problem }
            }
        case .absent, .null, .boolean, .time:
            break
        }
        return nil
    }

    private static func violation(of text: String, _ bound: FieldSpec.Bound, _ field: @autoclosure () -> String) -> WireError? {
        switch bound {
        case .maxLength(let limit): maxLength(text, limit, field())
        case .actorName: actorName(text, field())
        default: nil
        }
    }

    // MARK: - Checks

    /// Amounts: the domain's rule (`RecipeLimits.isAllowedAmount`), with its own
    /// message for a number too large to be finite (`1e999`).
    private static func amount(_ amount: Double, _ field: @autoclosure () -> String) -> WireError? {
        guard amount.isFinite else { return .invalid(field(), "must be a finite number") }
        guard RecipeLimits.isAllowedAmount(amount) else {
            return .invalid(field(), "must be \(RecipeLimits.amountRange)")
        }
        return nil
    }

    /// An actor's name in its one spelling (`ActorName`): `jose\u{301}` is refused, naming
    /// `jos\u{E9}`, so that the fold's `==` and the store's bytes never tell two apart.
    private static func actorName(_ name: String, _ field: String) -> WireError? {
        if let problem = maxLength(name, RecipeLimits.maxIdentifierLength, field) { return problem }
        guard let problem = ActorName.problem(name) else { return nil }
        return WireError(.invalid, "\(field) \(problem).", field: field)
    }

    private static func range(_ value: Int, _ range: ClosedRange<Int>, _ field: @autoclosure () -> String) -> WireError? {
        guard !range.contains(value) else { return nil }
        return .invalid(field(), "must be from \(range.lowerBound) to \(range.upperBound), not \(value)")
    }

    /// Lengths count Unicode scalars, as the domain and JSON Schema's `maxLength` do.
    /// `field` is made only for a problem: item paths (`data.ingredients[3].name`) cost
    /// an allocation, which every record would otherwise pay.
    private static func maxLength(_ text: String, _ limit: Int, _ field: @autoclosure () -> String) -> WireError? {
        // UTF-8 takes 1…4 bytes per scalar: the byte count (O(1) for native
        // strings) settles nearly every case without walking the text.
        let bytes = text.utf8.count
        if bytes <= limit { return nil }
        if bytes <= limit * 4, text.unicodeScalars.count <= limit { return nil }
        return .invalid(field(), "is longer than \(limit) characters")
    }
}
