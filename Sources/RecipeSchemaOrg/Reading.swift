import RecipeWire

// MARK: - A document's recipes, and its main one

/// Every Recipe node of a document read on its own (`RecipeNodeReader`), and the choice of
/// the one an import takes. Linear: each node is read once, copies are found by hashing.
struct Reading {
    struct Candidate {
        var found: NodeIndex.Found
        var recipe: Result<ImportedRecipe, SchemaOrgImportError>

        /// A recipe with neither ingredients nor steps, such as the empty node some pages
        /// put beside the real one.
        var isStub: Bool {
            guard case .success(let imported) = recipe else { return false }
            return imported.document.ingredients.isEmpty && imported.document.instructions.isEmpty
        }

        var size: Int {
            guard case .success(let imported) = recipe else { return -1 }
            return imported.document.ingredients.count + imported.document.instructions.count
        }
    }

    /// One per different recipe, in document order (JSON-LD blocks, then the markup).
    private(set) var candidates: [Candidate] = []
    /// The page's JSON-LD blocks that could not be read, and why.
    let unreadable: [String]
    /// Values parsed, nodes collected and values visited reading the recipes: what the
    /// document cost, which the bounds keep linear in its size.
    private(set) var work: Int

    init(documents: [(JSONValue, JSONPath)], valuesRead: Int, unreadable: [String]) {
        self.unreadable = unreadable
        var nodes = NodeIndex()
        for (value, path) in documents { nodes.collect(value, at: path) }
        var visits = 0
        var seen: Set<RecipeDocument> = []
        for found in nodes.recipes {
            var reader = RecipeNodeReader(nodes: nodes, visits: visits, maxVisits: SchemaOrgImport.maxValues)
            let recipe: Result<ImportedRecipe, SchemaOrgImportError>
            do {
                let document = try reader.document(from: found.node, at: found.path)
                // A copy of a recipe already read (pages often carry it twice) is that recipe.
                guard seen.insert(document).inserted else {
                    visits = reader.visits
                    continue
                }
                recipe = .success(ImportedRecipe(document: document, omissions: Self.capped(reader.omissions)))
            } catch {
                recipe = .failure(error)
            }
            visits = reader.visits
            candidates.append(Candidate(found: found, recipe: recipe))
        }
        work = valuesRead + nodes.visits + visits
    }

    /// At most `maxOmissions`: a page with thousands of unusable keywords gets a readable answer.
    private static func capped(_ omissions: [ImportOmission]) -> [ImportOmission] {
        guard omissions.count > SchemaOrgImport.maxOmissions else { return omissions }
        let kept = SchemaOrgImport.maxOmissions - 1
        return Array(omissions.prefix(kept)) + [ImportOmission(path: "", value: "", reason: "\(omissions.count - kept) more values like those above")]
    }

    /// The main recipe, the others named in its omissions (see `SchemaOrgImport.recipe(from:contentType:)`).
    func main() throws(SchemaOrgImportError) -> ImportedRecipe {
        guard let first = candidates.first else { throw .noRecipe(unreadableScripts: unreadable) }
        // The ranking of the doc comment, as a tuple compared in order; ties go to the earlier.
        func rank(_ candidate: Candidate) -> (Int, Int, Int, Int, Int) {
            func one(_ flag: Bool) -> Int { flag ? 1 : 0 }
            return (one(candidate.size >= 0), one(!candidate.isStub), one(candidate.found.isMainEntity), one(!candidate.found.isPart),
                    candidate.size)
        }
        var best = 0
        for index in candidates.indices.dropFirst() where rank(candidates[index]) > rank(candidates[best]) { best = index }
        guard case .success(var main) = candidates[best].recipe else {
            if case .failure(let error) = first.recipe { throw error }
            throw .noRecipe(unreadableScripts: unreadable)
        }
        let others = candidates.indices.filter { $0 != best }
        for index in others.prefix(SchemaOrgImport.maxNamedOthers) {
            let other = candidates[index]
            let place = other.found.path.description
            switch other.recipe {
            case .success(let imported) where other.isStub && !candidates[best].isStub:
                main.omissions.append(ImportOmission(path: place, value: imported.document.name,
                                                     reason: "a Recipe with no ingredients or steps, beside the one imported"))
            case .success(let imported):
                main.omissions.append(ImportOmission(
                    path: place, value: imported.document.name,
                    reason: "another recipe of the document (\(imported.document.ingredients.count) ingredients, "
                        + "\(imported.document.instructions.count) steps); an import is one recipe: the page's main entity, "
                        + "else the one with the most ingredients and steps"))
            case .failure(let error):
                main.omissions.append(ImportOmission(path: place, value: "", reason: "a Recipe that cannot be read: \(error)"))
            }
        }
        if others.count > SchemaOrgImport.maxNamedOthers {
            main.omissions.append(ImportOmission(path: "", value: "", reason: "\(others.count - SchemaOrgImport.maxNamedOthers) more recipes of the document"))
        }
        return main
    }

    /// Every different recipe, stubs left out when another has content.
    func all() throws(SchemaOrgImportError) -> [Result<ImportedRecipe, SchemaOrgImportError>] {
        guard !candidates.isEmpty else { throw .noRecipe(unreadableScripts: unreadable) }
        let withContent = candidates.filter { !$0.isStub }
        return (withContent.isEmpty ? candidates : withContent).map(\.recipe)
    }
}
