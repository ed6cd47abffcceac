import RecipeJSON
import RecipeWire

// MARK: - A document's recipes, and its main one

/// The Recipe nodes of a document and the choice of the one an import takes. The choice is
/// made from what the nodes say as written (where they sit, how many ingredients and steps
/// they list), so only the main recipe and the few others named in its omissions are read
/// (`RecipeNodeReader`): a graph of thousands of recipes costs one pass over it, not
/// thousands of recipes.
struct Reading {
    /// A Recipe node as found, and how much of a recipe it is as written.
    struct Candidate {
        var found: NodeIndex.Found
        /// What the node was read from.
        var source: ImportedRecipe.Source
        /// The members taken from the page's markup, which the node lacked.
        var filled: Set<String> = []
        /// Its ingredient and step entries as written (a text counts its lines).
        var size: Int
        /// Neither ingredients nor steps, such as the empty node some pages put beside the real one.
        var isStub: Bool { size == 0 }
    }

    let nodes: NodeIndex
    /// In document order (JSON-LD blocks, then the markup).
    private(set) var candidates: [Candidate]
    /// The page's JSON-LD blocks that could not be read, and why.
    let unreadable: [String]
    /// Values parsed, nodes collected and values visited reading recipes: what the document
    /// cost, which the bounds keep linear in its size.
    private(set) var work: Int
    /// Steps reading a page took (`SchemaOrgImport.maxSteps`): bytes scanned, text copied into values.
    var steps = 0
    /// Values visited reading recipes so far, held to `SchemaOrgImport.maxValues`.
    private var visits = 0

    init(documents: [(JSONValue, JSONPath, ImportedRecipe.Source)], valuesRead: Int, unreadable: [String]) {
        self.unreadable = unreadable
        var nodes = NodeIndex()
        var sources: [ImportedRecipe.Source] = []
        for (value, path, source) in documents {
            nodes.collect(value, at: path)
            sources += Array(repeating: source, count: nodes.recipes.count - sources.count)
        }
        self.nodes = nodes
        candidates = zip(nodes.recipes, sources).map { Candidate(found: $0, source: $1, size: Self.entries(of: $0.node)) }
        work = valuesRead + nodes.visits
    }

    /// The recipe parts a page's structured data lacks everywhere: ingredients, steps, or both.
    var missingParts: [String] {
        let parts = ["recipeIngredient", "recipeInstructions"].filter { member in
            !candidates.contains { Self.count(Self.member(member, of: $0.found.node)) > 0 }
        }
        // A name that is no text (or none) leaves the recipe unreadable: the page's title names it.
        let named = candidates.contains { if case .string(let name)? = $0.found.node.member("name")?.value { !name.trimmed.isEmpty } else { false } }
        return parts + (named || candidates.isEmpty ? [] : ["name"])
    }

    /// Gives the candidates the parts none of them has, from the recipe of the page's markup:
    /// each that is no stub (or all, when all are), so that a stub beside a recipe stays one.
    mutating func fill(_ members: [String], from markup: NodeIndex.Node) {
        let allStubs = candidates.allSatisfy(\.isStub)
        for index in candidates.indices where allStubs || !candidates[index].isStub {
            for member in members {
                guard let value = markup[member], member == "name" || Self.count(value) > 0 else { continue }
                candidates[index].found.node[member] = value
                candidates[index].filled.insert(member)
            }
            candidates[index].size = Self.entries(of: candidates[index].found.node)
        }
    }

    /// The main recipe, the others named in its omissions (see `SchemaOrgImport.recipe(from:contentType:)`).
    mutating func main() throws(SchemaOrgImportError) -> ImportedRecipe {
        guard !candidates.isEmpty else { throw .noRecipe(unreadableScripts: unreadable) }
        // The ranking of the doc comment, as a tuple compared in order; ties go to the earlier.
        func rank(_ index: Int) -> (Int, Int, Int, Int, Int) {
            let candidate = candidates[index]
            func one(_ flag: Bool) -> Int { flag ? 1 : 0 }
            return (one(!candidate.isStub), one(candidate.found.isMainEntity), one(!candidate.found.isPart), candidate.size, -index)
        }
        var firstError: SchemaOrgImportError?
        for best in candidates.indices.sorted(by: { rank($0) > rank($1) }) {
            switch read(candidates[best]) {
            case .success(var main):
                main.omissions += others(than: best, main: main.document)
                return main
            case .failure(let error):
                if firstError == nil { firstError = error }
                // A document whose reading is past its bound has nothing more to read.
                if case .tooComplex = error { throw error }
            }
        }
        throw firstError!
    }

    /// Every different recipe, each read on its own; stubs left out when another has content.
    mutating func all() throws(SchemaOrgImportError) -> [Result<ImportedRecipe, SchemaOrgImportError>] {
        guard !candidates.isEmpty else { throw .noRecipe(unreadableScripts: unreadable) }
        var seen: Set<RecipeDocument> = []
        var recipes: [Result<ImportedRecipe, SchemaOrgImportError>] = []
        for candidate in candidates {
            let recipe = read(candidate)
            // A copy of a recipe already read (pages often carry it twice) is that recipe.
            if case .success(let imported) = recipe, !seen.insert(imported.document).inserted { continue }
            recipes.append(recipe)
        }
        func isStub(_ recipe: Result<ImportedRecipe, SchemaOrgImportError>) -> Bool {
            guard case .success(let imported) = recipe else { return false }
            return imported.document.ingredients.isEmpty && imported.document.instructions.isEmpty
        }
        let withContent = recipes.filter { !isStub($0) }
        return withContent.contains { (try? $0.get()) != nil } ? withContent : recipes
    }

    // MARK: - Steps

    private mutating func read(_ candidate: Candidate) -> Result<ImportedRecipe, SchemaOrgImportError> {
        var reader = RecipeNodeReader(nodes: nodes, visits: visits, maxVisits: SchemaOrgImport.maxValues)
        defer {
            work += reader.visits - visits
            visits = reader.visits
        }
        do {
            let document = try reader.document(from: candidate.found.node, at: candidate.found.path)
            func source(of member: String, _ part: [some Any]) -> ImportedRecipe.Source? {
                part.isEmpty ? nil : candidate.filled.contains(member) ? .markup : candidate.source
            }
            let sources = ImportedRecipe.Sources(title: candidate.filled.contains("name") ? .markup : candidate.source, ingredients: source(of: "recipeIngredient", document.ingredients),
                                                 instructions: source(of: "recipeInstructions", document.instructions),
                                                 nutrition: document.nutrition == nil ? nil : candidate.source)
            return .success(ImportedRecipe(document: document, omissions: Self.capped(reader.omissions), sources: sources))
        } catch {
            return .failure(error)
        }
    }

    /// The omissions that name the document's other recipes, in document order: the first
    /// `maxNamedOthers` read and named (copies of the main one are that recipe, and not named),
    /// the rest counted.
    private mutating func others(than main: Int, main document: RecipeDocument) -> [ImportOmission] {
        var omissions: [ImportOmission] = []
        var counted = 0
        var read = 0
        for index in candidates.indices where index != main {
            let other = candidates[index]
            guard omissions.count < SchemaOrgImport.maxNamedOthers, read < 2 * SchemaOrgImport.maxNamedOthers else {
                counted += 1
                continue
            }
            read += 1
            let place = other.found.path.description
            switch self.read(other) {
            case .success(let imported) where imported.document == document:
                continue
            case .success(let imported) where other.isStub && !candidates[main].isStub:
                omissions.append(ImportOmission(path: place, value: imported.document.name,
                                                reason: "a Recipe with no ingredients or steps, beside the one imported"))
            case .success(let imported):
                omissions.append(ImportOmission(
                    path: place, value: imported.document.name,
                    reason: "another recipe of the document (\(imported.document.ingredients.count) ingredients, "
                        + "\(imported.document.instructions.count) steps); an import is one recipe: the page's main entity, "
                        + "else the one with the most ingredients and steps"))
            case .failure(let error):
                omissions.append(ImportOmission(path: place, value: "", reason: "a Recipe that cannot be read: \(error)"))
            }
        }
        if counted > 0 {
            omissions.append(ImportOmission(path: "", value: "", reason: "\(counted) more recipes of the document"))
        }
        return omissions
    }

    /// The ingredient and step entries of a node as written: list items (lists in lists
    /// counted through), the lines of a text. One look at each value.
    private static func entries(of node: NodeIndex.Node) -> Int {
        count(member("recipeIngredient", of: node)) + count(member("recipeInstructions", of: node))
    }

    /// A node's ingredients or steps, under their name or the older one (`ingredients`, `instructions`), in any
    /// case; ingredients also as `recipeIngredients`, as some pages misspell it.
    private static func member(_ name: String, of node: NodeIndex.Node) -> JSONValue? {
        guard name == "recipeIngredient" else { return (node.member(name) ?? node.member("instructions"))?.value }
        return (node.member(name) ?? node.member("recipeIngredients") ?? node.member("ingredients"))?.value
    }

    private static func count(_ value: JSONValue?) -> Int {
        switch value {
        case .array(let items)?: return items.reduce(0) { $0 + count($1) }
        case .string(let text)?: return text.utf8.reduce(text.isEmpty ? 0 : 1) { $0 + ($1 == 0x0A ? 1 : 0) }
        case .object?: return 1
        default: return 0
        }
    }

    /// At most `maxOmissions`: a page with thousands of unusable keywords gets a readable answer.
    private static func capped(_ omissions: [ImportOmission]) -> [ImportOmission] {
        guard omissions.count > SchemaOrgImport.maxOmissions else { return omissions }
        let kept = SchemaOrgImport.maxOmissions - 1
        return Array(omissions.prefix(kept)) + [ImportOmission(path: "", value: "", reason: "\(omissions.count - kept) more values like those above")]
    }
}
