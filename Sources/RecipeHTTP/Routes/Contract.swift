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

    // `commandSchemas` (Contract+Schemas.swift, generated): `Schemas/commands/<file>` by file
    // name, served at `GET /commands/<file>`, where the document's relative `$ref`s point when
    // it is read from the server.
}
