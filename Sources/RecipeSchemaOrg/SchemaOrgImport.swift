import Foundation
import RecipeJSON
import RecipeWire

// MARK: - Import

/// Reads schema.org `Recipe`s from JSON-LD, or from an HTML page's JSON-LD scripts,
/// microdata or RDFa, into `RecipeDocument`s the domain's rules accept.
///
/// JSON is read as pages write it (`LenientJSONReader`). A value the rules would refuse is
/// cut to fit or left out, and named in `ImportedRecipe.omissions`; only a document without
/// a readable recipe is an error. The work is linear in the input and bounded per document
/// (`maxValues`, `maxDepth`): past the bounds a document is refused as `tooComplex`.
public enum SchemaOrgImport {
    /// The largest JSON document read: far above any recipe, small enough to refuse at once.
    public static let maxJSONBytes = 2 << 20
    /// The largest HTML page read: pages carry markup, scripts and styles around their
    /// JSON-LD; each JSON-LD block in it is still held to `maxJSONBytes`.
    public static let maxHTMLBytes = 5 << 20
    /// The most JSON values (objects, lists, texts, numbers) and microdata values one document
    /// may hold, all its blocks together; and, separately, the most values reading its
    /// recipes may visit (following `@id` references visits a node again). A recipe page's
    /// JSON-LD holds a few hundred to a few thousand.
    public static let maxValues = 100_000
    /// The deepest objects, lists and items may nest (recipes nest about ten levels).
    public static let maxDepth = 64
    /// The most steps reading a page may take: a step a byte scanned, `stepsPerValueByte` a byte
    /// of text copied into a microdata or RDFa value or read from the page's markup. A page is
    /// scanned at most three times (its scripts, its items, its outline) and the text of its
    /// properties copied about once (nested properties copy theirs again), so this leaves room for
    /// megabytes of property text while a page of nested properties that repeat their text is refused.
    public static let maxSteps = 5 * maxHTMLBytes
    /// Steps a byte copied into a value costs: what reads it later (cleaning, splitting into
    /// lines, parsing ingredients) looks at it a few times more.
    static let stepsPerValueByte = 4
    /// The most text one microdata or RDFa property is read to: what one record can hold.
    static let maxPropertyBytes = WireFormat.maxRecordSize
    /// The most other recipes named one by one in the omissions; the rest are counted.
    static let maxNamedOthers = 20
    /// The most omissions listed for one recipe's own fields; the rest are counted.
    static let maxOmissions = 100

    /// What the bytes are.
    public enum Format: Sendable, Hashable {
        /// `application/ld+json` or `application/json`: a Recipe, a list of nodes, or `@graph`.
        case json
        /// `text/html` (or XHTML) with `<script type="application/ld+json">` blocks.
        case html

        /// The format of a content type (`text/html; charset=utf-8`), nil when it is neither.
        public init?(contentType: String) {
            switch ContentType(contentType).mediaType {
            case "application/ld+json", "application/json", "text/json": self = .json
            case "text/html", "application/xhtml+xml": self = .html
            default: return nil
            }
        }

        /// JSON when the first character that is not a space opens an object or a list, else HTML:
        /// for files, which come without a content type.
        public static func sniffed(from data: Data) -> Format {
            let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
            return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .html
        }

        var limit: Int { self == .json ? SchemaOrgImport.maxJSONBytes : SchemaOrgImport.maxHTMLBytes }
    }

    // MARK: - Entry points

    /// The recipe of a document: its main recipe when it holds several. Copies of one recipe
    /// count once; the main one is the first of: a recipe that is no stub (it lists ingredients
    /// or steps), the page's main entity (a `mainEntity` holds it, or it names its
    /// `mainEntityOfPage`), not a part of another recipe, the most ingredient and step entries
    /// as written, the first. Each other recipe is named in the omissions.
    ///
    /// - Parameters:
    ///   - contentType: the HTTP content type, or nil to tell JSON from HTML by the first character.
    ///   - shouldStop: asked every so many steps of reading (and once at the start) whether to go
    ///     on; true stops it, as `interrupted` (a client that went away, a server stopping).
    public static func recipe(from data: Data, contentType: String?,
                              shouldStop: (() -> Bool)? = nil) throws(SchemaOrgImportError) -> ImportedRecipe {
        var reading = try read(data, contentType: contentType, shouldStop: shouldStop)
        return try reading.main()
    }

    /// Every different recipe of a document, each read on its own, in document order: the
    /// recipe, or why it cannot be read. Stubs beside recipes with content are left out.
    public static func recipes(from data: Data, contentType: String?) throws(SchemaOrgImportError)
        -> [Result<ImportedRecipe, SchemaOrgImportError>] {
        var reading = try read(data, contentType: contentType)
        return try reading.all()
    }

    /// The document read: its candidates and what reading cost.
    static func read(_ data: Data, contentType: String?, shouldStop: (() -> Bool)? = nil) throws(SchemaOrgImportError) -> Reading {
        let charset: String?
        let format: Format
        if let contentType {
            guard let known = Format(contentType: contentType) else { throw .unsupportedContentType(contentType) }
            format = known
            charset = ContentType(contentType).charset
        } else {
            format = Format.sniffed(from: data)
            charset = nil
        }
        guard data.count <= format.limit else { throw .documentTooLarge(bytes: data.count, limit: format.limit) }
        let bytes = try utf8Bytes(of: data, charset: charset)
        var budget = LenientJSONReader.Budget(values: maxValues, depth: maxDepth, maxSteps: maxSteps, shouldStop: shouldStop)
        do {
            try budget.step(0)
        } catch {
            throw refusal(error)
        }
        switch format {
        case .json:
            switch LenientJSONReader.read(bytes[...], budget: &budget) {
            case .success(let value): return Reading(documents: [(value, JSONPath(), .jsonLD)], valuesRead: maxValues - budget.values, unreadable: [])
            case .failure(.syntax(let reason)): throw .notJSON(where: "The document", reason: reason)
            case .failure(let other): throw refusal(other)
            }
        case .html:
            var reading = try readPage(bytes, budget: &budget)
            reading.steps = budget.steps
            return reading
        }
    }

    /// Every JSON-LD block of a page; its microdata and RDFa when no block holds a Recipe; the
    /// recipe its own markup shows (`PageMarkup`) when neither does, or to give them the
    /// ingredients or steps none of them holds.
    private static func readPage(_ page: [UInt8], budget: inout LenientJSONReader.Budget) throws(SchemaOrgImportError) -> Reading {
        var documents: [(JSONValue, JSONPath, ImportedRecipe.Source)] = []
        var unreadable: [String] = []
        // The page is scanned for its scripts, and looked at for items: a step a byte.
        do {
            try budget.step(page.count)
        } catch {
            throw refusal(error)
        }
        for (offset, block) in JSONLDScripts.blocks(in: page).enumerated() {
            let name = "script \(offset + 1)"
            do {
                try budget.step(block.count)
            } catch {
                throw refusal(error)
            }
            guard block.count <= maxJSONBytes else {
                unreadable.append("\(name): \(block.count) bytes, over the \(maxJSONBytes)-byte limit")
                continue
            }
            var result = LenientJSONReader.read(block, budget: &budget)
            if case .failure(.syntax) = result, block.contains(UInt8(ascii: "&")) {
                // Some pages HTML-escape the whole block (`{&quot;@type&quot;: …}`); read it once more decoded.
                let decoded = HTMLText.decodingEntities(String(decoding: block, as: UTF8.self))
                if case .success(let value) = LenientJSONReader.read(Array(decoded.utf8)[...], budget: &budget) { result = .success(value) }
            }
            switch result {
            case .success(let value): documents.append((value, JSONPath(prefix: name + ": "), .jsonLD))
            case .failure(.syntax(let reason)), .failure(.overBudget(let reason)): unreadable.append("\(name): \(reason)")
            case .failure(let other): throw refusal(other)
            }
        }
        var reading = Reading(documents: documents, valuesRead: maxValues - budget.values, unreadable: unreadable)
        if reading.candidates.isEmpty, HTMLItems.mayHoldItems(page) {
            switch HTMLItems.items(in: page, budget: &budget) {
            case .success(let items): if !items.isEmpty { documents.append((.array(items), JSONPath(prefix: "markup: "), .microdata)) }
            case .failure(.syntax(let reason)), .failure(.overBudget(let reason)): unreadable.append("markup: \(reason)")
            case .failure(let other): throw refusal(other, where: "The page's markup")
            }
            reading = Reading(documents: documents, valuesRead: maxValues - budget.values, unreadable: unreadable)
        }
        let missing = reading.missingParts
        guard reading.candidates.isEmpty || !missing.isEmpty else { return reading }
        let shown: JSONValue?
        do {
            let outline = try HTMLOutline(page: page, budget: &budget)
            shown = try PageMarkup.recipe(in: outline, whole: reading.candidates.isEmpty, budget: &budget)
        } catch {
            switch error {
            case .syntax(let reason), .overBudget(let reason): unreadable.append("page markup: \(reason)")
            case .tooMuchWork, .interrupted: throw refusal(error, where: "The page's markup")
            }
            shown = nil
        }
        if case .object(let node)? = shown {
            if reading.candidates.isEmpty {
                documents.append((.object(node), JSONPath(prefix: "page markup: "), .markup))
                reading = Reading(documents: documents, valuesRead: maxValues - budget.values, unreadable: unreadable)
            } else {
                reading.fill(missing, from: node)
            }
        }
        if documents.isEmpty, unreadable.isEmpty { throw .noStructuredData }
        return reading.candidates.isEmpty ? Reading(documents: documents, valuesRead: maxValues - budget.values, unreadable: unreadable) : reading
    }

    // MARK: - Steps

    /// The refusal of a whole document for a failure of its budget: past its steps, or stopped.
    private static func refusal(_ failure: LenientJSONReader.Failure, where place: String = "The document") -> SchemaOrgImportError {
        switch failure {
        case .interrupted: .interrupted
        case .syntax(let what), .overBudget(let what), .tooMuchWork(let what): .tooComplex(where: place, what: what)
        }
    }

    /// The document as UTF-8 without a byte order mark. UTF-8 is what JSON is and what pages
    /// are unless they say otherwise; Latin-1 and Windows-1252 are converted.
    private static func utf8Bytes(of data: Data, charset: String?) throws(SchemaOrgImportError) -> [UInt8] {
        switch charset?.lowercased() {
        case nil, "utf-8", "utf8", "us-ascii", "ascii":
            var bytes = [UInt8](data)
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            return bytes
        case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
            guard let text = String(data: data, encoding: .isoLatin1) else { throw .notText(encoding: "ISO-8859-1") }
            return Array(text.utf8)
        case "windows-1252", "cp1252":
            guard let text = String(data: data, encoding: .windowsCP1252) else { throw .notText(encoding: "Windows-1252") }
            return Array(text.utf8)
        case let other?:
            throw .notText(encoding: other)
        }
    }
}

// MARK: - Content types

/// A content type's media type and charset, in lower case.
struct ContentType {
    var mediaType: String
    var charset: String?

    init(_ text: String) {
        let parts = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        mediaType = parts.first ?? ""
        charset = parts.dropFirst().first { $0.hasPrefix("charset=") }
            .map { String($0.dropFirst("charset=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")) }
    }
}

