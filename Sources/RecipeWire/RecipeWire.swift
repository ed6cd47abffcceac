// MARK: - RecipeWire
//
// The record format of `recipes.edits`: one command per record, as a CloudEvents
// 1.0 structured-mode JSON object, matching the JSON Schemas in Schemas/.
// Depends on RecipeDomain only: no Kafka, no storage, no HTTP, no Foundation.
//
// Where to start
// - `RecordEncoder(source:).encode(_:)`: envelope → canonical bytes.
// - `RecordDecoder().decode(key:value:)`: bytes → `DecodedRecord` or `WireError`.
// - `RecordLimits.violation(in:)`: what a reader would reject, for producers.
// - `RecipeTopics`, `RecordKey`: topic names (with a prefix) and keys.
// - `WireFormat`: header name and value, size and depth caps, type names.
// - `RFC3339`: the time writer and parser the records use. The JSON engine
//   (`JSONScanner`, `JSONWriter`, `JSONValue`) is the RecipeJSON module.
// - `DecisionRecord`, `DecisionEncoder`, `DecisionDecoder`, `DecisionFormat`: the
//   record format of the decisions topic (one decision per command, its events as
//   facts; Schemas/decisions/, Schemas/events/). Not yet written by any stage.
//
// Decisions
// - The decoder is total and bounded: size checked before parsing (2 MiB →
//   `tooLarge`), nesting over 32 → `malformed`; it never builds a tree.
// - A key repeated inside the envelope or `data` is `malformed`: readers differ
//   on which copy wins, so the record's meaning would depend on the reader.
//   (Inside an ignored extension's value, repeats are not looked for.)
// - Extensions are accepted and ignored, if their names are CloudEvents names
//   (a-z, 0-9): `expectedRevision` is refused rather than silently ignored.
// - `data` is closed per version: an unknown field is `malformed`.
// - Limits of the domain that hold for a record alone (lengths, servings, amount
//   range, positions) are checked here and are `invalid`; rules needing judgement
//   or the recipe's state are the fold's. See `RecordLimits`.
// - `time`: written UTC, millisecond precision only when non-zero; read in any
//   RFC 3339 form, fractions beyond milliseconds cut off.
// - Versions: each (command, version) reader maps straight to today's command
//   (Upcasting.swift); an unknown version is `unsupportedVersion`.
