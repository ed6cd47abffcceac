import RecipeJSON
import RecipeWire

// MARK: - The nodes of a document

/// The Recipe nodes of a document's JSON-LD, microdata and RDFa, found anywhere (top
/// level, a list, `@graph`, `mainEntity`, inside another recipe), and every node with an
/// `@id`, so a reference such as `"image": {"@id": "#primaryimage"}` can be followed to
/// the node it names. One visit per value: the work is the document's size.
struct NodeIndex {
    typealias Node = [String: JSONValue]

    /// A Recipe node and what the document says of it.
    struct Found {
        var node: Node
        var path: JSONPath
        /// Inside another Recipe node (a part of it: `hasPart`, a sub-recipe).
        var isPart: Bool
        /// Named as the page's main entity (`mainEntity` holds it or its `@id`).
        var isMainEntity: Bool
    }

    private(set) var recipes: [Found] = []
    private(set) var identified: [String: Node] = [:]
    /// The `@id`s that a `mainEntity` member refers to.
    private var mainEntityIDs: Set<String> = []
    /// Values visited: what the collection cost.
    private(set) var visits = 0

    mutating func collect(_ value: JSONValue, at path: JSONPath) {
        var steps: [JSONPath.Step] = []
        collect(value, at: path, steps: &steps, insideRecipe: false, asMainEntity: false)
        for index in recipes.indices {
            if case .string(let id)? = recipes[index].node["@id"], mainEntityIDs.contains(id) { recipes[index].isMainEntity = true }
        }
    }

    /// `steps`: the way from `path` to `value`, written out as a path only for the recipes found.
    private mutating func collect(_ value: JSONValue, at path: JSONPath, steps: inout [JSONPath.Step], insideRecipe: Bool,
                                  asMainEntity: Bool) {
        visits += 1
        switch value {
        case .array(let items):
            for (index, item) in items.enumerated() {
                steps.append(.index(index))
                collect(item, at: path, steps: &steps, insideRecipe: insideRecipe, asMainEntity: asMainEntity)
                steps.removeLast()
            }
        case .object(let members):
            if case .string(let id)? = members["@id"] {
                if members.count > 1, identified[id] == nil { identified[id] = members }
                if members.count == 1, asMainEntity { mainEntityIDs.insert(id) }
            }
            let isRecipe = Self.types(of: members).contains("recipe")
            if isRecipe {
                // A recipe that names the page it is the main entity of says so itself.
                let namesItsPage = members["mainEntityOfPage"].map { $0 != .null && $0 != .bool(false) } ?? false
                recipes.append(Found(node: members, path: path.following(steps), isPart: insideRecipe,
                                     isMainEntity: asMainEntity || namesItsPage))
            }
            // Sorted, so that the order recipes are found in does not depend on hashing.
            for name in members.keys.sorted() {
                steps.append(.key(name))
                collect(members[name]!, at: path, steps: &steps, insideRecipe: insideRecipe || isRecipe, asMainEntity: name == "mainEntity")
                steps.removeLast()
            }
        default:
            return
        }
    }

    /// The node an object stands for: the object itself, or the node its lone `@id` names.
    func resolved(_ members: Node) -> Node {
        guard members.count == 1, case .string(let id)? = members["@id"], let node = identified[id] else { return members }
        return node
    }

    /// The `@type`s of a node in lower case, without a `schema:` or schema.org prefix.
    static func types(of members: Node) -> [String] {
        let names: [String]
        switch members["@type"] {
        case .string(let name)?: names = name.split(separator: " ").map(String.init)
        case .array(let items)?: names = items.compactMap { if case .string(let name) = $0 { name } else { nil } }
        default: names = []
        }
        return names.map(schemaName)
    }

    /// A type or property name without a schema.org prefix (`https://schema.org/`,
    /// `http://www.schema.org/`, `schema:`), in lower case.
    static func schemaName(_ name: String) -> String {
        var type = name.trimmed.lowercased()
        for prefix in ["https://schema.org/", "http://schema.org/", "https://www.schema.org/", "http://www.schema.org/", "schema:"]
        where type.hasPrefix(prefix) {
            type = String(type.dropFirst(prefix.count))
        }
        return type
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// The member called `name`, else one whose name differs only in case (`RecipeInstructions`):
    /// its name as written (for paths) and value. Only a node of at most 100 members is searched
    /// for another case (a recipe or a step has a few dozen), so a node read many times through
    /// references costs no more than its lookups.
    func member(_ name: String) -> (name: String, value: JSONValue)? {
        if let value = self[name] { return (name, value) }
        guard count <= 100 else { return nil }
        let lower = name.lowercased()
        guard let key = keys.filter({ $0.lowercased() == lower }).min() else { return nil }
        return (key, self[key]!)
    }
}
