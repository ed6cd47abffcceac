import Foundation
import RecipeJSON

extension JSONValue {
    /// The `data` member of a record (nil when it is absent or null, or when the record is not
    /// a JSON object): what Foundation's `JSONDecoder` reads into a `JSONValue?` property
    /// `data`, for the audit tools, which show the data of every command.
    ///
    /// Read with the records' scanner where it answers for certain, by Foundation otherwise:
    /// Foundation alone was four fifths of `audit export` (a `JSONValue` tries each type in
    /// turn, and each miss throws).
    public static func data(ofRecord bytes: [UInt8]) -> JSONValue? {
        if let scanned = scannedData(ofRecord: bytes) { return scanned }
        return decodedData(ofRecord: bytes)
    }

    /// `data` as the records' scanner reads it: `.some(nil)` when it is absent or null or the
    /// record is no object, nil when the scanner cannot say for certain what Foundation would
    /// (bad JSON, nesting past the records' cap, a key given twice, a number Foundation might
    /// read as another type: one with a fraction or exponent that is whole and within `Int64`,
    /// an integer past `Int64`, one past `Double`).
    static func scannedData(ofRecord bytes: [UInt8]) -> JSONValue?? {
        guard bytes.count <= DecisionFormat.maxRecordSize else { return nil }
        return bytes.withUnsafeBytes { buffer -> JSONValue?? in
            var scanner = JSONScanner(buffer, maxNestingDepth: WireFormat.maxNestingDepth)
            var writer = JSONTapeWriter(capacity: 64)
            do {
                let root = try scanner.value(depth: 1, onto: &writer)
                try scanner.expectEnd()
                let tape = JSONTape(bytes: buffer, tokens: writer.tokens)
                guard tape[root].kind == .object else { return .some(nil) }
                var data: Int?
                var repeated = false
                tape.forEachMember(ofObject: root) { key, value in
                    guard tape[key].text(in: buffer, equals: "data") else { return }
                    repeated = repeated || data != nil
                    data = value
                }
                guard !repeated else { return nil }
                guard let data else { return .some(nil) }
                guard let value = certainValue(at: data, on: tape) else { return nil }
                return .some(value == .null ? nil : value)
            } catch {
                return nil
            }
        }
    }

    /// The value at `index` of `tape`; nil where Foundation might read it otherwise.
    private static func certainValue(at index: Int, on tape: JSONTape) -> JSONValue? {
        let token = tape[index]
        switch token.kind {
        case .null: return .null
        case .bool: return .bool(token.flag)
        case .string: return .string(token.text(in: tape.bytes))
        case .number:
            let raw = UnsafeRawBufferPointer(rebasing: tape.bytes[token.start..<token.end])
            if token.flag { return Int64(String(decoding: raw, as: UTF8.self)).map(JSONValue.integer) }
            let number = JSONNumber.double(raw)
            // A whole number written with a fraction or exponent may be read as an `Int64`,
            // unless it is past `Int64`'s range (2^63 is the first double past it).
            guard number.isFinite, number.rounded(.towardZero) != number || number.magnitude >= 0x1p63 else { return nil }
            return .number(number)
        case .array:
            var items: [JSONValue] = []
            var certain = true
            tape.forEachElement(ofArray: index) { element in
                guard certain, let item = certainValue(at: element, on: tape) else { return certain = false }
                items.append(item)
            }
            return certain ? .array(items) : nil
        case .object:
            var members: [String: JSONValue] = [:]
            var certain = true
            tape.forEachMember(ofObject: index) { key, value in
                guard certain, let member = certainValue(at: value, on: tape),
                      members.updateValue(member, forKey: tape.text(key)) == nil
                else { return certain = false }
            }
            return certain ? .object(members) : nil
        }
    }

    /// `data` as Foundation's `JSONDecoder` reads it.
    static func decodedData(ofRecord bytes: [UInt8]) -> JSONValue? {
        struct Record: Decodable { let data: JSONValue? }
        return (try? JSONDecoder().decode(Record.self, from: Data(bytes)))?.data
    }
}
