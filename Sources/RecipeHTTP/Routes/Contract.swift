/// The API's contract, compiled into the binary so that a server needs no
/// repository at run time (it ships alone in a container image). `Contract/`
/// holds links to the one copy of each file in `Schemas/`; SwiftPM embeds
/// them (`resources: [.embedInCode("Contract")]` in Package.swift).
enum Contract {
    /// `Schemas/openapi.yaml`, served at `GET /openapi.yaml`.
    static let openAPI = PackageResources.openapi_yaml

    /// YAML's media type (RFC 9512).
    static let openAPIContentType = "application/yaml"
    /// JSON Schema's media type.
    static let schemaContentType = "application/schema+json"

    /// `Schemas/commands/<file>` by file name, served at `GET /commands/<file>`: where the
    /// document's relative `$ref`s point when it is read from the server. A new schema file
    /// needs its line here (OpenAPITests checks every file in `Schemas/commands/` is served).
    static let commandSchemas: [String: [UInt8]] = [
        "DraftStarted.v1.schema.json": PackageResources.DraftStarted_v1_schema_json,
        "TitleChanged.v1.schema.json": PackageResources.TitleChanged_v1_schema_json,
        "ServingsChanged.v1.schema.json": PackageResources.ServingsChanged_v1_schema_json,
        "ImageChanged.v1.schema.json": PackageResources.ImageChanged_v1_schema_json,
        "IngredientAdded.v1.schema.json": PackageResources.IngredientAdded_v1_schema_json,
        "IngredientUpdated.v1.schema.json": PackageResources.IngredientUpdated_v1_schema_json,
        "IngredientRemoved.v1.schema.json": PackageResources.IngredientRemoved_v1_schema_json,
        "InstructionAdded.v1.schema.json": PackageResources.InstructionAdded_v1_schema_json,
        "InstructionUpdated.v1.schema.json": PackageResources.InstructionUpdated_v1_schema_json,
        "InstructionRemoved.v1.schema.json": PackageResources.InstructionRemoved_v1_schema_json,
        "InstructionMoved.v1.schema.json": PackageResources.InstructionMoved_v1_schema_json,
        "TagAdded.v1.schema.json": PackageResources.TagAdded_v1_schema_json,
        "TagChanged.v1.schema.json": PackageResources.TagChanged_v1_schema_json,
        "TagRemoved.v1.schema.json": PackageResources.TagRemoved_v1_schema_json,
        "RecipeSaved.v1.schema.json": PackageResources.RecipeSaved_v1_schema_json,
        "DraftDiscarded.v1.schema.json": PackageResources.DraftDiscarded_v1_schema_json,
        "RecipeDeleted.v1.schema.json": PackageResources.RecipeDeleted_v1_schema_json,
        "AccessGranted.v1.schema.json": PackageResources.AccessGranted_v1_schema_json,
        "AccessRevoked.v1.schema.json": PackageResources.AccessRevoked_v1_schema_json,
        "OwnershipTransferred.v1.schema.json": PackageResources.OwnershipTransferred_v1_schema_json,
        // Content version 2.
        "IngredientAdded.v2.schema.json": PackageResources.IngredientAdded_v2_schema_json,
        "IngredientUpdated.v2.schema.json": PackageResources.IngredientUpdated_v2_schema_json,
        "InstructionAdded.v2.schema.json": PackageResources.InstructionAdded_v2_schema_json,
        "InstructionUpdated.v2.schema.json": PackageResources.InstructionUpdated_v2_schema_json,
        "DescriptionChanged.v1.schema.json": PackageResources.DescriptionChanged_v1_schema_json,
        "YieldChanged.v1.schema.json": PackageResources.YieldChanged_v1_schema_json,
        "TimesChanged.v1.schema.json": PackageResources.TimesChanged_v1_schema_json,
        "SourceChanged.v1.schema.json": PackageResources.SourceChanged_v1_schema_json,
        "DraftContentSet.v1.schema.json": PackageResources.DraftContentSet_v1_schema_json,
    ]
}
