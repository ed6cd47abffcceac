import RecipeDomain
import RecipeJSON

// MARK: - Data fields

/// The members of one `data` object, matched to the fields of its data format,
/// with typed accessors for the format's reader.
///
/// A member the format does not name, or one given twice, is `malformed`: within a
/// version the shape of `data` is closed, so a field this reader does not know is
/// never silently dropped (a new field means a new version; see Schemas/README.md).
struct DataFields {
    /// Most fields a data format may have: a decision has thirteen, and its next version
    /// room for one more. Formats are checked against it.
    static let capacity = 14

    private let tape: JSONTape
    private let fields: [DataField]
    /// Where the object is, for messages: `data`, or an item of one of its arrays.
    private let place: Place
    /// The members' values by field index, as indexes on the tape (-1 for absent),
    /// held inline: no allocation per record.
    private var slots = InlineArray<14, Int32>(repeating: -1)

    /// Where an object is, for messages: `data` and the members and items below it
    /// (`data.events[2].data.ingredients[0]`), kept as static names and indexes and
    /// made into text only for a message (a path made per event or item was an
    /// allocation or two each, for every decision read).
    private struct Place {
        /// A member's name, or an array's name and the item's index.
        private struct Step {
            var name: UnsafePointer<UInt8>
            var length: Int32
            /// -1 for a member.
            var index: Int32
        }

        /// Data formats nest objects no deeper.
        private static let capacity = 6
        private var steps = InlineArray<6, Step>(repeating: Step(name: StaticString("").utf8Start, length: 0, index: -1))
        private var count = 0

        static var data: Place { Place() }

        func member(_ name: StaticString) -> Place { appending(name, index: -1) }

        func item(_ array: StaticString, _ index: Int) -> Place { appending(array, index: Int32(clamping: index)) }

        private func appending(_ name: StaticString, index: Int32) -> Place {
            precondition(count < Self.capacity, "data formats nest objects at most \(Self.capacity) deep")
            var place = self
            place.steps[count] = Step(name: name.utf8Start, length: Int32(name.utf8CodeUnitCount), index: index)
            place.count += 1
            return place
        }

        var path: String {
            var text = "data"
            for position in 0..<count {
                let step = steps[position]
                text += "." + String(decoding: UnsafeBufferPointer(start: step.name, count: Int(step.length)), as: UTF8.self)
                if step.index >= 0 { text += "[\(step.index)]" }
            }
            return text
        }
    }

    /// Reads `data`, the object at `index` on the record's tape; the envelope pass has
    /// already checked it is well-formed JSON.
    init(object index: Int, on tape: JSONTape, fields: [DataField]) throws(WireError) {
        try self.init(object: index, on: tape, fields: fields, place: Place.data)
    }

    private init(object index: Int, on tape: JSONTape, fields: [DataField], place: Place) throws(WireError) {
        self.tape = tape
        self.fields = fields
        self.place = place
        // Canonical records list the fields in their declared order: guessing the
        // next one first makes matching a single comparison for them.
        var expected = 0
        var slots = InlineArray<14, Int32>(repeating: -1)
        try tape.forEachMember(ofObject: index) { (key, value) throws(WireError) in
            let slot: Int
            let token = tape[key]
            if expected < fields.count && fields[expected].isKey(token, in: tape.bytes) {
                slot = expected
            } else if let found = fields.firstIndex(where: { $0.isKey(token, in: tape.bytes) }) {
                slot = found
            } else {
                let known = fields.isEmpty ? "none" : fields.map(\.name).joined(separator: ", ")
                throw .malformed(
                    "\(place.path) has an unknown field \(quoted(tape.text(key))) (fields of this type: \(known)).",
                    field: place.path)
            }
            guard slots[slot] < 0 else {
                throw .malformed("\(place.path).\(fields[slot].key) appears twice.", field: "\(place.path).\(fields[slot].key)")
            }
            slots[slot] = Int32(truncatingIfNeeded: value)
            expected = slot &+ 1
        }
        self.slots = slots
    }

    // MARK: - Typed access

    /// A field that must be a string.
    func string(_ name: StaticString) throws(WireError) -> String {
        guard let token = token(name, .string, .required) else { throw .missing(path(name)) }
        return try text(token, name)
    }

    /// A string field read by `parse` from its UTF-8 (`JSONToken.withText`): for a name
    /// looked up, not kept, without making a String. When `parse` answers nil, `refusal`
    /// of the text is thrown.
    func string<Value>(_ name: StaticString, parsedBy parse: (UnsafeRawBufferPointer) -> Value?,
                       refusal: (String) -> WireError) throws(WireError) -> Value {
        guard let token = token(name, .string, .required) else { throw .missing(path(name)) }
        return try parsed(token, name, parse, refusal)
    }

    /// A field that may be absent (nil) or a string. `null` is not absent: within a
    /// version each field has one type, and the canonical form omits the member.
    func optionalString(_ name: StaticString) throws(WireError) -> String? {
        guard let token = token(name, .string, .optional) else { return nil }
        return try text(token, name)
    }

    /// A field that may be absent (nil) or a string, read as `string(_:parsedBy:refusal:)` reads one.
    func optionalString<Value>(_ name: StaticString, parsedBy parse: (UnsafeRawBufferPointer) -> Value?,
                               refusal: (String) -> WireError) throws(WireError) -> Value? {
        guard let token = token(name, .string, .optional) else { return nil }
        return try parsed(token, name, parse, refusal)
    }

    /// A field that must be present, as a string or `null` (nil).
    func nullableString(_ name: StaticString) throws(WireError) -> String? {
        guard let token = token(name, .string, .requiredOrNull) else { throw .missing(path(name)) }
        if token.kind == .null { return nil }
        guard token.kind == .string else { throw wrongType(token, name, "a string or null") }
        return token.text(in: tape.bytes)
    }

    /// A field that must be an integer (`4`, or `4.0` as JSON Schema allows).
    func integer(_ name: StaticString) throws(WireError) -> Int {
        guard let token = token(name, .integer, .required) else { throw .missing(path(name)) }
        return try integer(token, name)
    }

    func optionalInteger(_ name: StaticString) throws(WireError) -> Int? {
        guard let token = token(name, .integer, .optional) else { return nil }
        return try integer(token, name)
    }

    /// A field that must be a number; may come back infinite (`1e999`), which
    /// `RecordLimits` then rejects as `invalid`.
    func number(_ name: StaticString) throws(WireError) -> Double {
        guard let token = token(name, .number, .required) else { throw .missing(path(name)) }
        return try number(token, name)
    }

    func optionalNumber(_ name: StaticString) throws(WireError) -> Double? {
        guard let token = token(name, .number, .optional) else { return nil }
        return try number(token, name)
    }

    /// A field that may be absent (nil) or a finite number: what a decision's events
    /// hold, which an encoder wrote from finite values (`1e999` reads as infinity).
    func optionalFiniteNumber(_ name: StaticString) throws(WireError) -> Double? {
        guard let value = try optionalNumber(name) else { return nil }
        guard value.isFinite else { throw .invalid(path(name), "must be a finite number") }
        return value
    }

    /// An error about the field `name` of this object, named by its path:
    /// `error(.invalid, "role", "must be editor or viewer")`.
    func error(_ code: RejectionCode, _ name: StaticString, _ problem: String) -> WireError {
        WireError(code, "\(path(name)) \(problem).", field: path(name))
    }

    /// A field of an update: absent keeps, `null` clears, a string sets.
    func clearableString(_ name: StaticString) throws(WireError) -> FieldUpdate<String> {
        guard let token = token(name, .string, .optionalOrNull) else { return .keep }
        if token.kind == .null { return .clear }
        guard token.kind == .string else { throw wrongType(token, name, "a string or null") }
        return .set(token.text(in: tape.bytes))
    }

    /// A field of an update: absent keeps, `null` clears, a number sets.
    func clearableNumber(_ name: StaticString) throws(WireError) -> FieldUpdate<Double> {
        guard let token = token(name, .number, .optionalOrNull) else { return .keep }
        if token.kind == .null { return .clear }
        return .set(try number(token, name))
    }

    /// A field that must be an array of objects, each read with `fields`; the
    /// items' messages name their place (`data.ingredients[2].name`).
    func objects(_ name: StaticString, fields itemFields: [DataField]) throws(WireError) -> [DataFields] {
        guard let index = index(name, .array, .required) else { throw .missing(path(name)) }
        return try objects(index, name, fields: itemFields)
    }

    /// A field that may be absent (nil) or an array of objects, read as `objects` reads one.
    func optionalObjects(_ name: StaticString, fields itemFields: [DataField]) throws(WireError) -> [DataFields]? {
        guard let index = index(name, .array, .optional) else { return nil }
        return try objects(index, name, fields: itemFields)
    }

    private func objects(_ index: Int, _ name: StaticString, fields itemFields: [DataField]) throws(WireError) -> [DataFields] {
        let token = tape[index]
        guard token.kind == .array else { throw wrongType(token, name, "an array") }
        var items: [DataFields] = []
        try tape.forEachElement(ofArray: index) { element throws(WireError) in
            let place = place.item(name, items.count)
            let item = tape[element]
            guard item.kind == .object else { throw .wrongType(place.path, expected: "an object, not \(item.kind.article)") }
            items.append(try DataFields(object: element, on: tape, fields: itemFields, place: place))
        }
        return items
    }

    /// A field that must be an object, read with `fields` (an event's `data`).
    func object(_ name: StaticString, fields memberFields: [DataField]) throws(WireError) -> DataFields {
        guard let index = index(name, .object, .required) else { throw .missing(path(name)) }
        return try object(index, name, fields: memberFields)
    }

    /// A field that may be absent (nil) or an object, read with `fields`.
    func optionalObject(_ name: StaticString, fields memberFields: [DataField]) throws(WireError) -> DataFields? {
        guard let index = index(name, .object, .optional) else { return nil }
        return try object(index, name, fields: memberFields)
    }

    private func object(_ index: Int, _ name: StaticString, fields memberFields: [DataField]) throws(WireError) -> DataFields {
        let token = tape[index]
        guard token.kind == .object else { throw wrongType(token, name, "an object") }
        return try DataFields(object: index, on: tape, fields: memberFields, place: place.member(name))
    }

    /// A field that must be `true` or `false`.
    func boolean(_ name: StaticString) throws(WireError) -> Bool {
        guard let token = token(name, .boolean, .required) else { throw .missing(path(name)) }
        guard token.kind == .bool else { throw wrongType(token, name, "a boolean") }
        return token.flag
    }

    /// A string field holding an RFC 3339 date-time.
    func time(_ name: StaticString) throws(WireError) -> Timestamp {
        let text = try string(name)
        guard let time = RFC3339.parse(text) else {
            throw .malformed("\(path(name)) \(quoted(text)) is not an RFC 3339 date-time (2026-12-01T10:15:00Z).", field: path(name))
        }
        return time
    }

    /// A field that must be an array of strings.
    func strings(_ name: StaticString) throws(WireError) -> [String] {
        guard let index = index(name, .array, .required) else { throw .missing(path(name)) }
        let token = tape[index]
        guard token.kind == .array else { throw wrongType(token, name, "an array") }
        var texts: [String] = []
        try tape.forEachElement(ofArray: index) { element throws(WireError) in
            let item = tape[element]
            guard item.kind == .string else {
                throw .wrongType("\(path(name))[\(texts.count)]", expected: "a string, not \(item.kind.article)")
            }
            texts.append(item.text(in: tape.bytes))
        }
        return texts
    }

    // MARK: - Conversion

    /// The member `name`, read as the format declares it: in debug builds a reader
    /// that reads a field with another type or presence than its declaration stops
    /// here, so the declarations the CLI and the tests go by cannot drift from what
    /// the decoder does.
    private func token(_ name: StaticString, _ type: DataField.ValueType, _ presence: DataField.Presence) -> JSONToken? {
        index(name, type, presence).map { tape[$0] }
    }

    /// The tape index of the member `name`'s value, checked against its declaration as `token` is.
    private func index(_ name: StaticString, _ type: DataField.ValueType, _ presence: DataField.Presence) -> Int? {
        // The readers name fields with the literals the formats declare, which the
        // compiler keeps once: the address settles it, and the bytes are compared only
        // when no address matches (with 8 fields, comparing bytes first cost a fifth
        // of decoding an ingredient).
        let address = UInt(bitPattern: name.utf8Start)
        var found = fields.firstIndex { $0.keyAddress == address }
        if found == nil { found = fields.firstIndex { Self.same($0.key, name) } }
        if let field = found {
            assert(fields[field].type == type && fields[field].presence == presence,
                   "data field \(name) is declared \(fields[field]) but read as \(type.rawValue), \(presence)")
            let slot = slots[field]
            return slot < 0 ? nil : Int(slot)
        }
        assertionFailure("data field \(name) is not declared by its format")
        return nil
    }

    private func text(_ token: JSONToken, _ name: StaticString) throws(WireError) -> String {
        guard token.kind == .string else { throw wrongType(token, name, "a string") }
        return token.text(in: tape.bytes)
    }

    private func parsed<Value>(_ token: JSONToken, _ name: StaticString, _ parse: (UnsafeRawBufferPointer) -> Value?,
                               _ refusal: (String) -> WireError) throws(WireError) -> Value {
        guard token.kind == .string else { throw wrongType(token, name, "a string") }
        guard let value = token.withText(in: tape.bytes, parse) else { throw refusal(token.text(in: tape.bytes)) }
        return value
    }

    private func integer(_ token: JSONToken, _ name: StaticString) throws(WireError) -> Int {
        guard token.kind == .number else { throw wrongType(token, name, "an integer") }
        switch JSONNumber.integer(raw(token), isPlainInteger: token.flag) {
        case .value(let value): return value
        case .notInteger: throw .wrongType(path(name), expected: "an integer, not a fraction")
        case .outOfRange: throw .invalid(path(name), "is out of range")
        }
    }

    private func number(_ token: JSONToken, _ name: StaticString) throws(WireError) -> Double {
        guard token.kind == .number else { throw wrongType(token, name, "a number") }
        return JSONNumber.double(raw(token))
    }

    private func raw(_ token: JSONToken) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: tape.bytes[token.start..<token.end])
    }

    private func path(_ name: StaticString) -> String { "\(place.path).\(name)" }

    private func wrongType(_ token: JSONToken, _ name: StaticString, _ expected: String) -> WireError {
        .wrongType(path(name), expected: "\(expected), not \(token.kind.article)")
    }

    private static func same(_ lhs: StaticString, _ rhs: StaticString) -> Bool {
        JSONScanner.same(
            UnsafeRawBufferPointer(start: lhs.utf8Start, count: lhs.utf8CodeUnitCount),
            UnsafeRawBufferPointer(start: rhs.utf8Start, count: rhs.utf8CodeUnitCount))
    }
}

// MARK: - Quoting in messages

/// `text` in quotes for a message, control characters escaped and cut to 80
/// characters: records are untrusted, and messages end up in logs and read models.
func quoted(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > 80 else { return text.debugDescription }
    let cut = String(String.UnicodeScalarView(scalars.prefix(80))).debugDescription
    return cut.dropLast() + "…\""
}
