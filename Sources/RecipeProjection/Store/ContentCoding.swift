import Foundation
import RecipeDomain
import RecipeJSON
import RecipeWire

/// How recipe content is kept in the store: `ContentFormat.stored`, written by
/// `ContentJSON` canonically so that equal content is equal text (the canonical
/// dumps of `audit verify` compare it byte for byte).
///
/// Content version 2 adds members that are written only when present (the
/// recipe's `description`, `yield`, `prepTime`, `cookTime`, `totalTime`,
/// `sourceUrl`; an ingredient's `amountMax`, `note`, `section`, `text`, and its
/// `amount` and unit now optional; a step's `section`), and keeps the unit under
/// its v1 name `metric`. So content stored before v2 is exactly what v2 writes for
/// the same content, and old stores are read as they are (store schema 3 only
/// keeps code older than v2 away from stores that may hold v2 content).
enum ContentCoding {
    /// The JSON as bytes, to bind as text without making a String of it first.
    static func utf8(_ content: RecipeContent) -> [UInt8] {
        // Room for a typical recipe at once, rather than growing four or five times.
        var writer = JSONWriter(capacity: 1024)
        ContentJSON.write(content, .stored, into: &writer)
        return writer.bytes
    }

    /// The tags of a list entry as JSON text.
    static func json(_ tags: [Tag]) -> String {
        var writer = JSONWriter(capacity: 64)
        ContentJSON.writeTags(tags, .stored, into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Reads content the store wrote; anything else, a member missing or of
    /// another type included, is a corrupted store rather than a default.
    static func content(fromJSON text: String) throws -> RecipeContent {
        var text = text
        let read = text.withUTF8 { utf8 in
            Result { () throws(ContentJSON.ReadError) in try ContentJSON.read(UnsafeRawBufferPointer(utf8), .stored) }
        }
        switch read {
        case .success(let content): return content
        case .failure(let error): throw StoreError.corrupted("recipe content: \(error.message)")
        }
    }
}

// MARK: - Grants

extension ContentCoding {
    /// A recipe's grants as `{"actor":"role",…}` in actor order (the fold keeps them
    /// sorted, so equal grants are equal text); nil for none, as a store migrated
    /// from before grants existed has it.
    static func grantsJSON(_ grants: [AccessGrant]) -> String? {
        guard !grants.isEmpty else { return nil }
        var writer = JSONWriter(capacity: 64)
        for (index, grant) in grants.enumerated() {
            writer.append(index == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
            writer.string(grant.actor)
            writer.append(UInt8(ascii: ":"))
            writer.string(grant.role.rawValue)
        }
        writer.raw("}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func grants(fromJSON text: String?) throws -> [AccessGrant] {
        guard let text else { return [] }
        guard let members = try? JSONDecoder().decode([String: String].self, from: Data(text.utf8)) else {
            throw StoreError.corrupted("recipe grants: not an object of roles: \(text)")
        }
        return try members.keys.sorted().map { actor in
            guard let role = AccessRole(rawValue: members[actor]!) else {
                throw StoreError.corrupted("recipe grants: \(actor) has the unknown role \(members[actor]!)")
            }
            return AccessGrant(actor: actor, role: role)
        }
    }
}
