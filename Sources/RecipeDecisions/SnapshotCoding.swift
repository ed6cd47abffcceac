import RecipeDomain

// MARK: - A snapshot's bytes
//
// A snapshot is a local file that only a decider reads, so it has an encoding of its own
// rather than JSON: a revoke writes snapshots inside the rebalance, which Foundation's
// JSON would hold up for seconds. Integers are LEB128 varints (signed ones
// zigzagged), a string or a byte string is its count then its bytes, an optional is a 0 or
// 1 byte before its value, a list its count then its items, a number its IEEE 754 bits
// (8 bytes, little-endian). A file is `magic`, the format, the body, and an FNV-1a 64
// checksum of all before it: a file cut short or damaged on disk reads as no snapshot. The
// checksum is not a seal: whoever may write the file may compute it; the folder is private to
// the decider's user (`SnapshotFolder`).

/// Appends values in the snapshot encoding.
struct SnapshotWriter {
    private(set) var bytes: [UInt8] = []

    /// A file that starts with `magic`.
    init(magic: [UInt8], capacity: Int) {
        bytes.reserveCapacity(capacity)
        bytes += magic
    }

    mutating func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func integer(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func integer(_ value: Int) { integer(Int64(value)) }

    mutating func flag(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func raw(_ value: [UInt8]) {
        unsigned(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            unsigned(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func number(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func optional<Value>(_ value: Value?, _ write: (inout SnapshotWriter, Value) -> Void) {
        flag(value != nil)
        if let value { write(&self, value) }
    }

    mutating func list<Element>(_ items: [Element], _ write: (inout SnapshotWriter, Element) -> Void) {
        unsigned(UInt64(items.count))
        for item in items { write(&self, item) }
    }

    /// The bytes with their checksum after them: what a file holds.
    mutating func sealed() -> [UInt8] {
        let sum = SnapshotReader.checksum(bytes[...])
        withUnsafeBytes(of: sum.littleEndian) { bytes.append(contentsOf: $0) }
        return bytes
    }
}

/// Reads values in the snapshot encoding; any byte out of place throws `Malformed`.
struct SnapshotReader {
    struct Malformed: Error {}

    private let bytes: [UInt8]
    private var index = 0

    /// The body of a sealed file that starts with `magic`, its checksum checked, or nil.
    init?(sealed file: [UInt8], magic: [UInt8]) {
        guard file.count >= magic.count + 8, file.starts(with: magic) else { return nil }
        let body = file[..<(file.count - 8)]
        let sum = Self.littleEndian(file[(file.count - 8)...])
        guard sum == Self.checksum(body) else { return nil }
        bytes = Array(body)
        index = magic.count
    }

    var isAtEnd: Bool { index == bytes.count }

    mutating func unsigned() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count, shift < 64 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw Malformed()
    }

    mutating func integer() throws(Malformed) -> Int64 {
        let value = try unsigned()
        return Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    mutating func int() throws(Malformed) -> Int {
        let value = try integer()
        guard let int = Int(exactly: value) else { throw Malformed() }
        return int
    }

    mutating func flag() throws(Malformed) -> Bool {
        guard index < bytes.count, bytes[index] <= 1 else { throw Malformed() }
        defer { index += 1 }
        return bytes[index] == 1
    }

    /// A count of things at least a byte each: never more than the bytes left.
    mutating func count() throws(Malformed) -> Int {
        let count = try unsigned()
        guard count <= UInt64(bytes.count - index) else { throw Malformed() }
        return Int(count)
    }

    mutating func raw() throws(Malformed) -> [UInt8] {
        let count = try count()
        defer { index += count }
        return Array(bytes[index..<(index + count)])
    }

    mutating func string() throws(Malformed) -> String {
        let count = try count()
        defer { index += count }
        guard let text = String(validating: bytes[index..<(index + count)], as: UTF8.self) else { throw Malformed() }
        return text
    }

    mutating func number() throws(Malformed) -> Double {
        guard bytes.count - index >= 8 else { throw Malformed() }
        defer { index += 8 }
        return Double(bitPattern: Self.littleEndian(bytes[index..<(index + 8)]))
    }

    mutating func optional<Value>(_ read: (inout SnapshotReader) throws(Malformed) -> Value) throws(Malformed) -> Value? {
        try flag() ? try read(&self) : nil
    }

    mutating func list<Element>(_ read: (inout SnapshotReader) throws(Malformed) -> Element) throws(Malformed) -> [Element] {
        let count = try count()
        var items: [Element] = []
        items.reserveCapacity(count)
        for _ in 0..<count { items.append(try read(&self)) }
        return items
    }

    /// FNV-1a, 64 bits: enough to tell a file cut short or changed from the one written.
    /// Eight bytes, least significant first, as the writer lays numbers and the checksum down.
    private static func littleEndian(_ eight: ArraySlice<UInt8>) -> UInt64 {
        eight.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

// MARK: - Recipe state

extension SnapshotWriter {
    /// Everything `Recipe`'s restoring initializer takes.
    mutating func recipe(_ recipe: Recipe) {
        string(recipe.id.text)
        list(recipe.versions) { $0.version($1) }
        optional(recipe.draft) { writer, draft in
            writer.integer(draft.baseVersion)
            writer.content(draft.content)
        }
        integer(recipe.revision)
        flag(recipe.isDeleted)
        list(recipe.appliedCommandIDs) { $0.string($1) }
        optional(recipe.owner) { $0.string($1) }
        list(recipe.grants) { writer, grant in
            writer.string(grant.actor)
            writer.string(grant.role.rawValue)
        }
    }

    private mutating func version(_ version: RecipeVersion) {
        integer(version.number)
        content(version.content)
        integer(version.savedAt.millisecondsSinceEpoch)
        string(version.savedBy)
    }

    private mutating func content(_ content: RecipeContent) {
        string(content.title)
        optional(content.servings) { $0.integer($1) }
        // The texts in `ContentField.texts` order: a member added there changes this format, so
        // `PartitionSnapshot.currentFormat` + 1 (a snapshot of another format is rebuilt from the log).
        for field in ContentField.texts { optional(content[text: field]) { $0.string($1) } }
        optional(content.nutrition) { writer, nutrition in
            for nutrient in Nutrition.Nutrient.allCases { writer.optional(nutrition.amounts[nutrient]) { $0.number($1) } }
            writer.optional(nutrition.servingSize) { $0.string($1) }
        }
        list(content.ingredients) { writer, ingredient in
            writer.string(ingredient.id)
            writer.string(ingredient.name)
            writer.optional(ingredient.amount) { $0.number($1) }
            writer.optional(ingredient.amountMax) { $0.number($1) }
            for text in [ingredient.unit, ingredient.note, ingredient.section, ingredient.text] {
                writer.optional(text) { $0.string($1) }
            }
        }
        list(content.instructions) { writer, instruction in
            writer.string(instruction.id)
            writer.string(instruction.description)
            writer.integer(instruction.order)
            writer.optional(instruction.section) { $0.string($1) }
        }
        list(content.tags) { writer, tag in
            writer.string(tag.name)
            writer.optional(tag.payload) { $0.string($1) }
        }
    }
}

extension SnapshotReader {
    mutating func recipe() throws(Malformed) -> Recipe {
        guard let id = try? RecipeID(try string()) else { throw Malformed() }
        let versions = try list { reader throws(Malformed) in try reader.version() }
        let draft = try optional { reader throws(Malformed) in
            let baseVersion = try reader.int()
            return RecipeDraft(content: try reader.content(), baseVersion: baseVersion)
        }
        let revision = try int()
        let isDeleted = try flag()
        let applied = try list { reader throws(Malformed) in try reader.string() }
        let owner = try optional { reader throws(Malformed) in try reader.string() }
        let grants = try list { reader throws(Malformed) in
            let actor = try reader.string()
            guard let role = AccessRole(rawValue: try reader.string()) else { throw Malformed() }
            return AccessGrant(actor: actor, role: role)
        }
        return Recipe(id: id, versions: versions, draft: draft, revision: revision, isDeleted: isDeleted,
                      appliedCommandIDs: applied, owner: owner, grants: grants)
    }

    private mutating func version() throws(Malformed) -> RecipeVersion {
        let number = try int()
        let content = try content()
        let savedAt = Timestamp(millisecondsSinceEpoch: try integer())
        return RecipeVersion(number: number, content: content, savedAt: savedAt, savedBy: try string())
    }

    private mutating func optionalString() throws(Malformed) -> String? {
        try optional { reader throws(Malformed) in try reader.string() }
    }

    private mutating func content() throws(Malformed) -> RecipeContent {
        var content = RecipeContent(title: try string())
        content.servings = try optional { reader throws(Malformed) in try reader.int() }
        for field in ContentField.texts { content[text: field] = try optionalString() }
        content.nutrition = try optional { reader throws(Malformed) in
            var nutrition = Nutrition()
            for nutrient in Nutrition.Nutrient.allCases {
                nutrition.amounts[nutrient] = try reader.optional { reader throws(Malformed) in try reader.number() }
            }
            nutrition.servingSize = try reader.optionalString()
            return nutrition
        }
        content.ingredients = try list { reader throws(Malformed) in
            Ingredient(
                id: try reader.string(), name: try reader.string(),
                amount: try reader.optional { reader throws(Malformed) in try reader.number() },
                amountMax: try reader.optional { reader throws(Malformed) in try reader.number() },
                unit: try reader.optionalString(), note: try reader.optionalString(),
                section: try reader.optionalString(), text: try reader.optionalString())
        }
        content.instructions = try list { reader throws(Malformed) in
            Instruction(id: try reader.string(), description: try reader.string(), order: try reader.int(),
                        section: try reader.optionalString())
        }
        content.tags = try list { reader throws(Malformed) in
            Tag(name: try reader.string(), payload: try reader.optionalString())
        }
        return content
    }
}
