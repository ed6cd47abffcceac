import RecipeDomain
import RecipeWire

// MARK: - libFuzzer harness for the record decoder
//
// Built by scripts/fuzz-wire with `swiftc -sanitize=fuzzer,address`. Any input
// must decode to a record or a `WireError`; a crash, a sanitizer report or a
// broken invariant below is a finding. Invariants of a successful decode:
// - it passes `RecordLimits` (the decoder never hands the fold what it forbids);
// - keyed with its own subject it decodes the same; with another recipe id as key
//   it is a key mismatch, with a key that is no recipe id (a NUL added) malformed;
// - written back canonically and read again it is the same envelope, and writing
//   that gives the same bytes (the canonical form is a fixed point).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWireDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // libFuzzer's own buffer, borrowed, so AddressSanitizer sees any read past its end.
    let value = UnsafeRawBufferPointer(start: data, count: size)
    let decoder = RecordDecoder()
    // Without a key first, so that every stage after the key check is reached.
    guard case .success(let record) = decoder.decode(value: value) else { return 0 }

    require(RecordLimits.violation(in: record.envelope) == nil, "decoded a record that breaks a limit")

    // Keyed as a consumer reads a record: key and value borrowed where they lie.
    func decode(key: [UInt8]) -> Result<DecodedRecord, WireError> {
        key.withUnsafeBytes { key in Result { () throws(WireError) in try decoder.decoded(key: key, value: value) } }
    }
    let key = RecordKey.key(forRecipe: record.envelope.recipeID)
    let keyed = decode(key: key)
    require(keyed == .success(record), "decoding with the subject as key differs")
    var otherKey = key
    otherKey[otherKey.count - 1] = otherKey.last == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
    guard case .failure(let mismatch) = decode(key: otherKey) else {
        fail("a record was accepted under another key")
    }
    require(mismatch.code == .keyMismatch, "another key gave \(mismatch)")
    guard case .failure(let alias) = decode(key: key + [0, UInt8(ascii: "x")]) else {
        fail("a record was accepted under its key with a NUL and more")
    }
    require(alias.code == .malformed, "a key with a NUL gave \(alias)")

    let encoder = RecordEncoder(source: record.source)
    let canonical = encoder.encode(record.envelope)
    guard case .success(let again) = decoder.decode(value: canonical) else {
        fail("the canonical form does not decode: \(String(decoding: canonical, as: UTF8.self))")
    }
    require(again.envelope == record.envelope, "the canonical form reads differently")
    require(encoder.encode(again.envelope) == canonical, "the canonical form is not a fixed point")
    return 0
}

private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

private func fail(_ message: String) -> Never {
    fatalError("wire fuzz invariant broken: \(message)")
}
