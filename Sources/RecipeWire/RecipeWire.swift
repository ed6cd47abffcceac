// MARK: - RecipeWire
//
// The record formats of `recipes.edits` (one command a record, a CloudEvents 1.0
// structured-mode JSON object) and `recipes.decisions` (one decision a command, its
// events as facts), matching the JSON Schemas in Schemas/; no Kafka, storage or HTTP.
//
// Where to start
// - `CommandDescription`, `EventDescription` (Kinds/): each kind described once; the
//   readers, writers, `RecordLimits` and the generated contract come from them.
// - `RecordEncoder` / `RecordDecoder`: a command's envelope to canonical bytes and back.
// - `DecisionEncoder` / `DecisionDecoder`, `EffectiveDecisions`: decisions and which count.
// - `RecipeTopics`, `RecordKey`, `WireFormat`: topic names, keys, headers, size caps.
// - What the decoders promise, check by check: `RecordDecoder`'s and `DecisionDecoder`'s docs.
