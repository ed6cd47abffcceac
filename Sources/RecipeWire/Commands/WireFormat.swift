import RecipeDomain
import RecipeJSON

// MARK: - Wire format constants

/// The fixed facts of the record format on `recipes.edits`, in one place, for the
/// producer side (headers), the decoder (limits) and the tests (schema paths).
///
/// ```swift
/// let header = KafkaHeader(key: WireFormat.contentTypeHeaderName, value: WireFormat.contentType)
/// ```
public enum WireFormat {
    /// Name of the Kafka header every record carries.
    public static let contentTypeHeaderName = "content-type"
    /// Its value: a CloudEvent in structured mode, JSON.
    public static let contentType = "application/cloudevents+json"
    /// The CloudEvents version written and the only one read.
    public static let specVersion = "1.0"
    /// `datacontenttype` of every record: `data` is a JSON object.
    public static let dataContentType = "application/json"

    /// Largest record value, in bytes, that is decoded; checked before parsing.
    ///
    /// 2 MiB, so that one `DraftContentSet` holds a whole recipe at the documented
    /// maxima: 200 ingredients, 200 steps, 50 tags and every text at its limit,
    /// written in plain text, make a record of about 1.66 MB (DraftContentSetTests
    /// builds it and checks it fits; 64 KiB held barely one step at its limit).
    /// The same recipe in wider characters is larger (3.3 MB in two-byte "é", 9.8 MB
    /// in characters JSON escapes, six bytes each): such a command is refused before
    /// it is appended (`tooLarge`), and that recipe is written by single commands.
    /// Past a few MiB a record would slow every consumer that meets it, for recipes
    /// no cook writes: the limit covers the plain-text maximum with room to spare.
    /// Kafka's own limits follow it: `EditsTopicSettings.configs` (the topic's
    /// `max.message.bytes`) and `EditsTopicSettings.producerProperties` (the
    /// producer's `message.max.bytes`); the HTTP body limit is the same number.
    public static let maxRecordSize = 2 * 1024 * 1024
    /// Deepest nesting of objects and arrays a record may have. The envelope is
    /// depth 1 and `data` depth 2; the rest is headroom for extensions. Bounding it
    /// bounds the stack the parser uses, whatever the bytes.
    public static let maxNestingDepth = 32

    /// Prefix of every `type`, e.g. `recipes.IngredientAdded.v1`.
    public static let typePrefix = "recipes."

    /// The CloudEvents `type` of a command kind at a data version.
    ///
    /// ```swift
    /// WireFormat.typeName(.ingredientAdded, version: 1) // "recipes.IngredientAdded.v1"
    /// ```
    public static func typeName(_ kind: RecipeCommand.Kind, version: Int) -> String {
        "\(typePrefix)\(kind.rawValue).v\(version)"
    }

    /// The `dataschema` of a command kind at a data version: the schema file of its
    /// `data`, relative to the repository root.
    ///
    /// ```swift
    /// WireFormat.dataSchema(.tagAdded, version: 1) // "Schemas/commands/TagAdded.v1.schema.json"
    /// ```
    public static func dataSchema(_ kind: RecipeCommand.Kind, version: Int) -> String {
        "\(dataSchemaPrefix)\(kind.rawValue).v\(version)\(dataSchemaSuffix)"
    }

    static let dataSchemaPrefix = "Schemas/commands/"
    static let dataSchemaSuffix = ".schema.json"

    /// The command whose name is `name`'s UTF-8 exactly (case-sensitive), if any: a name read where
    /// it lies in a producer's bytes, without making a `String` of it.
    public static func kind(named name: UnsafeRawBufferPointer) -> RecipeCommand.Kind? {
        DataFormats.kind(named: name)
    }

    /// The data version the encoder writes for `kind`: the newest the decoder reads.
    public static func currentVersion(of kind: RecipeCommand.Kind) -> Int {
        DataFormats.standard.currentVersion(of: kind)
    }

    /// Every data version the decoder reads for `kind`, oldest first.
    public static func knownVersions(of kind: RecipeCommand.Kind) -> [Int] {
        DataFormats.standard.versions(of: kind)
    }

    /// The members of `kind`'s data at the version the encoder writes, in canonical
    /// order, with their JSON types: what a tool building `data` from text (the
    /// CLI's `--FIELD VALUE`) goes by, rather than a list of its own.
    ///
    /// ```swift
    /// WireFormat.dataFields(of: .ingredientAdded).filter(\.type.isNumeric).map(\.name) // ["amount"]
    /// ```
    public static func dataFields(of kind: RecipeCommand.Kind) -> [DataField] {
        dataFields(of: kind, version: currentVersion(of: kind)) ?? []
    }

    /// The members of `kind`'s data at `version`; nil for a version the decoder does not read.
    public static func dataFields(of kind: RecipeCommand.Kind, version: Int) -> [DataField]? {
        DataFormats.standard.format(kind, version: version)?.fields
    }
}

extension JSONWriter {
    /// `WireFormat.typeName(kind, version:)` as a JSON string, written without making a
    /// String of it (the encoder and the command builder write one per record). Plain
    /// ASCII by construction: nothing to escape.
    public mutating func typeName(_ kind: RecipeCommand.Kind, version: Int) {
        raw("\"")
        append(utf8: WireFormat.typePrefix)
        append(utf8: kind.rawValue)
        raw(".v")
        integer(version)
        raw("\"")
    }

    /// `WireFormat.dataSchema(kind, version:)` as a JSON string, written as `typeName` is.
    public mutating func dataSchema(_ kind: RecipeCommand.Kind, version: Int) {
        raw("\"")
        append(utf8: WireFormat.dataSchemaPrefix)
        append(utf8: kind.rawValue)
        raw(".v")
        integer(version)
        append(utf8: WireFormat.dataSchemaSuffix)
        raw("\"")
    }
}
