import Foundation
import RecipeDomain
import RecipeGenerators
@testable import RecipeWire
import Testing

/// Any bytes decode to a command or an error: random and mutated records,
/// truncations, repeated keys, deep nesting. Whatever decodes is a valid record:
/// written back and read again it gives the same envelope.
@Suite("Robustness")
struct RobustnessTests {
    static let inputCount = 100_000

    @Test func mutatedAndRandomInputsNeverCrash() throws {
        var random = SplitMix64(seed: 20_261_201)
        let seeds = try Self.seedRecords()
        var decoded = 0
        var codes: [RejectionCode: Int] = [:]
        for round in 0..<Self.inputCount {
            var bytes = round % 50 == 0 ? Self.randomBytes(&random) : random.pick(seeds)
            if round % 50 != 0 {
                for _ in 0..<random.int(in: 1...3) { Self.mutate(&bytes, &random) }
            }
            let key = random.chance(0.9) ? Array(GoldenCases.recipeID.text.utf8) : nil
            switch WireTestSupport.decoder.decode(key: key, value: bytes) {
            case .success(let record):
                decoded += 1
                let again = WireTestSupport.decoder.decode(
                    key: Array(record.envelope.recipeID.text.utf8), value: RecordEncoder(source: record.source).encode(record.envelope))
                #expect(try again.get().envelope == record.envelope)
            case .failure(let error):
                codes[error.code, default: 0] += 1
                #expect(!error.message.isEmpty)
            }
        }
        // The mix should reach every decoder stage, not only the syntax check.
        #expect(decoded > 1000, "\(decoded) decoded")
        for code in [RejectionCode.malformed, .unknownType, .unsupportedVersion, .keyMismatch, .invalid] {
            #expect(codes[code, default: 0] > 50, "\(code): \(codes)")
        }
    }

    // MARK: - Inputs

    /// Golden records, random encoded records and the hand-written one.
    static func seedRecords() throws -> [[UInt8]] {
        var seeds = try GoldenCases.all.map { try [UInt8](Data(contentsOf: GoldenCases.goldenFile($0.name))) }
        seeds.append(try [UInt8](Data(contentsOf: WireTestSupport.fixturesDirectory.appendingPathComponent("kcat-IngredientAdded.json"))))
        for envelope in RandomEnvelopes.mixed(count: 200, seed: 3) {
            var keyed = envelope
            keyed.recipeID = GoldenCases.recipeID
            seeds.append(WireTestSupport.encoder.encode(keyed))
        }
        return seeds
    }

    static let interestingBytes: [UInt8] = Array(#"{}[]":,\0123456789eE+-. tfn"#.utf8) + [0x00, 0x0A, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
    static let fragments: [String] = [
        #""actor":"x","#, #""id":"dup","#, #""data":{},"#, #""expectedrevision":1e400,"#, #""ext":[[[[[[[[]]]]]]]],"#,
        #""type":"recipes.TitleChanged.v7","#, #""specversion":"0.3","#, #""\u0000":1,"#, #""time":"2026-02-30T00:00:00Z","#,
        #"\ud800"#, #"\u00e9"#, "1e999", "-0", "null", String(repeating: "[", count: 40), String(repeating: "{\"a\":", count: 40),
    ]

    static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        guard !bytes.isEmpty else {
            bytes = Array(random.pick(fragments).utf8)
            return
        }
        let index = random.int(below: bytes.count)
        switch random.int(below: 8) {
        case 0: bytes[index] ^= UInt8(1 << random.int(below: 8)) // bit flip
        case 1: bytes[index] = random.pick(interestingBytes)
        case 2: bytes.removeSubrange(index...) // truncation
        case 3: // a slice repeated somewhere else (duplicated keys, values, brackets)
            let end = min(bytes.count, index + random.int(in: 1...40))
            let slice = Array(bytes[index..<end])
            bytes.insert(contentsOf: slice, at: random.int(below: bytes.count + 1))
        case 4: bytes.removeSubrange(index..<min(bytes.count, index + random.int(in: 1...20)))
        case 5: // a member inserted right after an opening brace
            let brace = bytes[index...].firstIndex(of: UInt8(ascii: "{")) ?? 0
            bytes.insert(contentsOf: Array(random.pick(fragments).utf8), at: min(bytes.count, brace + 1))
        case 6: bytes.insert(contentsOf: Array(random.pick(fragments).utf8), at: index)
        default: // a digit run or string changed in length
            bytes.insert(contentsOf: Array(repeating: bytes[index], count: random.int(in: 1...300)), at: index)
        }
    }

    static func randomBytes(_ random: inout SplitMix64) -> [UInt8] {
        (0..<random.int(in: 0...400)).map { _ in
            random.chance(0.5) ? random.pick(interestingBytes) : UInt8(truncatingIfNeeded: random.next())
        }
    }
}
