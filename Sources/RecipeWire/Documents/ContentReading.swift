import RecipeDomain
import RecipeJSON

// MARK: - Reading a content

extension ContentJSON {
    /// Why a content could not be read: where (`ingredients[2].note`, empty for the
    /// document itself) and what was wrong there.
    public struct ReadError: Error, Equatable, Sendable {
        public let path: String
        public let reason: String

        /// "ingredients[2]: no member amount"; "the content: …" for the document itself.
        public var message: String { "\(path.isEmpty ? "the content" : path): \(reason)" }

        /// The same error one level further out: `place` is the member or item holding it.
        func within(_ place: String) -> ReadError {
            ReadError(path: path.isEmpty ? place : path.first == "[" ? place + path : place + "." + path, reason: reason)
        }
    }

    /// Reads a content as `format` writes it (the store's column, `ContentFormat.stored`),
    /// member by member of the format, by its keys, from its UTF-8 `bytes` (scanned once
    /// onto a tape, no `JSONDecoder`): a member without a value may be absent or `null`;
    /// a member the format does not name is passed over; a required member missing, one
    /// of another type, or bytes that are not JSON throw a `ReadError` saying where.
    public static func read(_ bytes: UnsafeRawBufferPointer, _ format: ContentFormat) throws(ReadError) -> RecipeContent {
        // A stored recipe of a dozen lines is about a hundred tokens.
        return try withTape(of: bytes, tokens: 256) { (tape, root) throws(ReadError) in
            var members = try Members(tape, root)
            return try content(&members, format)
        }
    }

    /// Runs `body` with `bytes` scanned onto a tape (valid only inside it) and the index of
    /// its root value; bytes that are too many or not one JSON value a `ReadError` at the root.
    private static func withTape<T>(of bytes: UnsafeRawBufferPointer, tokens: Int,
                                    _ body: (JSONTape, Int) throws(ReadError) -> T) throws(ReadError) -> T {
        guard bytes.count <= JSONScanner.maxInputSize else { throw ReadError(path: "", reason: "too large") }
        var scanner = JSONScanner(bytes, maxNestingDepth: WireFormat.maxNestingDepth)
        var writer = JSONTapeWriter(capacity: tokens)
        let root: Int
        do {
            root = try scanner.value(depth: 1, onto: &writer)
            try scanner.expectEnd()
        } catch {
            throw ReadError(path: "", reason: error.message)
        }
        return try body(JSONTape(bytes: bytes, tokens: writer.tokens), root)
    }

    /// Reads a list of tags as `writeTags` writes it (the store's list entries), by the same
    /// rules as `read(_:_:)`; an error names the item (`[1]: no member name`).
    public static func readTags(_ bytes: UnsafeRawBufferPointer, _ format: ContentFormat) throws(ReadError) -> [Tag] {
        try withTape(of: bytes, tokens: 16) { (tape, root) throws(ReadError) in
            guard tape[root].kind == .array else { throw ReadError(path: "", reason: "expected an array, found \(tape[root].kind.article)") }
            var tags: [Tag] = []
            try tape.forEachElement(ofArray: root) { (element: Int) throws(ReadError) in
                do throws(ReadError) {
                    var item = try Members(tape, element)
                    tags.append(try tag(&item, format))
                } catch {
                    throw error.within("[\(tags.count)]")
                }
            }
            return tags
        }
    }

    private static func tag(_ item: inout Members, _ format: ContentFormat) throws(ReadError) -> Tag {
        var tag = Tag(name: "", payload: nil)
        for member in format.tagMembers {
            switch member.part {
            case .name: tag.name = try item.string(member.key)
            case .payload: tag.payload = try item.optionalString(member.key)
            }
        }
        return tag
    }

    private static func content(_ members: inout Members, _ format: ContentFormat) throws(ReadError) -> RecipeContent {
        let tape = members.tape
        var content = RecipeContent()
        for member in format.members {
            guard case .content(let field) = member.part else { continue }
            let key = member.key
            switch field.kind {
            case .title: content.title = try members.string(key)
            case .servings: content.servings = try members.optionalInt(key)
            case .text: content[text: field] = try members.optionalString(key)
            case .ingredients:
                try members.forEachItem(key) { (item: inout Members) throws(ReadError) in
                    content.ingredients.append(try ingredient(&item, format))
                }
            case .instructions:
                try members.forEachItem(key) { (item: inout Members) throws(ReadError) in
                    content.instructions.append(try step(&item, format, place: content.instructions.count + 1))
                }
            case .tags:
                try members.forEachItem(key) { (item: inout Members) throws(ReadError) in
                    content.tags.append(try tag(&item, format))
                }
            case .nutrition:
                guard let value = members.value(key), tape[value].kind != .null else { continue }
                do throws(ReadError) {
                    content.nutrition = try nutrition(Members(tape, value))
                } catch {
                    throw error.within(key.description)
                }
            }
        }
        return content
    }

    private static func ingredient(_ item: inout Members, _ format: ContentFormat) throws(ReadError) -> Ingredient {
        var line = Ingredient(id: "", name: "")
        var unitRead = false
        for member in format.ingredientMembers {
            let key = member.key
            switch member.part {
            case .id: line.id = try item.string(key)
            case .name: line.name = try item.string(key)
            case .amount: line.amount = try item.optionalDouble(key)
            case .amountMax: line.amountMax = try item.optionalDouble(key)
            case .unit:
                // A format writing the unit under two keys writes it the same under both.
                if !unitRead { line.unit = try item.optionalString(key) }
                unitRead = true
            case .note: line.note = try item.optionalString(key)
            case .section: line.section = try item.optionalString(key)
            case .text: line.text = try item.optionalString(key)
            case .display: break
            }
        }
        return line
    }

    /// A step; without an `order` member in the format, its order is its place.
    private static func step(_ item: inout Members, _ format: ContentFormat, place: Int) throws(ReadError) -> Instruction {
        var step = Instruction(id: "", description: "", order: place)
        for member in format.stepMembers {
            let key = member.key
            switch member.part {
            case .id: step.id = try item.string(key)
            case .order: step.order = try item.int(key)
            case .description: step.description = try item.string(key)
            case .section: step.section = try item.optionalString(key)
            }
        }
        return step
    }

    /// The stored nutrition (`Nutrition.write(to:)`): the nutrients by name, each a number,
    /// and `servingSize`; a member of another name is refused, as is an object that states nothing.
    private static func nutrition(_ members: Members) throws(ReadError) -> Nutrition {
        let tape = members.tape
        var nutrition = Nutrition()
        try tape.forEachMember(ofObject: members.object) { (key: Int, value: Int) throws(ReadError) in
            let name = tape.text(key)
            if name == "servingSize" {
                nutrition.servingSize = try Members.string(at: value, on: tape, name)
            } else if let nutrient = Nutrition.Nutrient(rawValue: name) {
                nutrition.amounts[nutrient] = try Members.double(at: value, on: tape, name)
            } else {
                throw ReadError(path: name, reason: "not a nutrient")
            }
        }
        guard !nutrition.isEmpty else { throw ReadError(path: "", reason: "no nutrient and no serving size") }
        return nutrition
    }
}

// MARK: - An object's members

/// The members of one object on a content's tape, found by key. The format's readers ask
/// for the members in the order its writer wrote them, so the search starts after the
/// member found last: one comparison a member for what the writer wrote.
private struct Members {
    let tape: JSONTape
    let object: Int
    /// Where the next search starts: the key after the member found last.
    private var cursor: Int

    init(_ tape: JSONTape, _ object: Int) throws(ContentJSON.ReadError) {
        guard tape[object].kind == .object else {
            throw ContentJSON.ReadError(path: "", reason: "expected an object, found \(tape[object].kind.article)")
        }
        self.tape = tape
        self.object = object
        cursor = object &+ 1
    }

    /// The value's index on the tape, nil when the object has no member `key`.
    mutating func value(_ key: StaticString) -> Int? {
        let expected = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        let first = object &+ 1, end = tape[object].next
        guard first < end else { return nil }
        var candidate = cursor < end ? cursor : first
        let start = candidate
        repeat {
            let found = tape[candidate].withText(in: tape.bytes) { JSONScanner.same($0, expected) }
            let next = tape[candidate &+ 1].next
            if found {
                cursor = next
                return candidate &+ 1
            }
            candidate = next
            if candidate >= end { candidate = first }
        } while candidate != start
        return nil
    }

    mutating func string(_ key: StaticString) throws(ContentJSON.ReadError) -> String {
        guard let value = value(key) else { throw missing(key) }
        return try Self.string(at: value, on: tape, key.description)
    }

    mutating func optionalString(_ key: StaticString) throws(ContentJSON.ReadError) -> String? {
        guard let value = value(key), tape[value].kind != .null else { return nil }
        return try Self.string(at: value, on: tape, key.description)
    }

    mutating func int(_ key: StaticString) throws(ContentJSON.ReadError) -> Int {
        guard let value = value(key) else { throw missing(key) }
        return try Self.int(at: value, on: tape, key.description)
    }

    mutating func optionalInt(_ key: StaticString) throws(ContentJSON.ReadError) -> Int? {
        guard let value = value(key), tape[value].kind != .null else { return nil }
        return try Self.int(at: value, on: tape, key.description)
    }

    mutating func optionalDouble(_ key: StaticString) throws(ContentJSON.ReadError) -> Double? {
        guard let value = value(key), tape[value].kind != .null else { return nil }
        return try Self.double(at: value, on: tape, key.description)
    }

    /// Calls `body` with each item of the array `key`, each an object; an error inside
    /// an item says which (`ingredients[2].note`).
    mutating func forEachItem(_ key: StaticString, _ body: (inout Members) throws(ContentJSON.ReadError) -> Void) throws(ContentJSON.ReadError) {
        guard let array = value(key) else { throw missing(key) }
        let tape = tape
        guard tape[array].kind == .array else { throw Self.mismatch(at: array, on: tape, key.description, expected: .array) }
        var index = 0
        try tape.forEachElement(ofArray: array) { (element: Int) throws(ContentJSON.ReadError) in
            do throws(ContentJSON.ReadError) {
                var item = try Members(tape, element)
                try body(&item)
            } catch {
                throw error.within("\(key)[\(index)]")
            }
            index += 1
        }
    }

    private func missing(_ key: StaticString) -> ContentJSON.ReadError {
        ContentJSON.ReadError(path: "", reason: "no member \(key)")
    }

    static func string(at value: Int, on tape: JSONTape, _ name: String) throws(ContentJSON.ReadError) -> String {
        guard tape[value].kind == .string else { throw mismatch(at: value, on: tape, name, expected: .string) }
        return tape.text(value)
    }

    static func int(at value: Int, on tape: JSONTape, _ name: String) throws(ContentJSON.ReadError) -> Int {
        let token = tape[value]
        guard token.kind == .number else { throw mismatch(at: value, on: tape, name, expected: .number) }
        let raw = UnsafeRawBufferPointer(rebasing: tape.bytes[token.start..<token.end])
        guard case .value(let number) = JSONNumber.integer(raw, isPlainInteger: token.flag) else {
            throw ContentJSON.ReadError(path: name, reason: "not a whole number within ±2^53")
        }
        return number
    }

    static func double(at value: Int, on tape: JSONTape, _ name: String) throws(ContentJSON.ReadError) -> Double {
        let token = tape[value]
        guard token.kind == .number else { throw mismatch(at: value, on: tape, name, expected: .number) }
        return JSONNumber.double(UnsafeRawBufferPointer(rebasing: tape.bytes[token.start..<token.end]))
    }

    static func mismatch(at value: Int, on tape: JSONTape, _ name: String, expected: JSONToken.Kind) -> ContentJSON.ReadError {
        ContentJSON.ReadError(path: name, reason: "expected \(expected.article), found \(tape[value].kind.article)")
    }
}
