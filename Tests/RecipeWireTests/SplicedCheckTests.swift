import RecipeDomain
import RecipeJSON
@testable import RecipeWire
import Testing

/// `RecordDecoder.decode(spliced:…)` checks a record a producer spliced together reading only
/// the parts copied from the producer's input; it must accept exactly the records the whole
/// decoder accepts, as the same record, whatever the input: random commands (half of them
/// breaking a limit) and each of them broken in its id, its expected revision or its data.
@Suite("The check of spliced records")
struct SplicedCheckTests {
    /// A record as `CommandBuilder` splices it: the encoder's record of an envelope, in parts,
    /// the `id`, `expectedrevision` and `data` values replaceable.
    struct Spliced {
        var envelope: CommandEnvelope
        var id: String
        /// From `,"source":` to the value of `expectedrevision` or of `data`.
        var middle: String
        var revision: String?
        var data: String

        init(_ envelope: CommandEnvelope) throws {
            self.envelope = envelope
            let record = String(decoding: WireTestSupport.encoder.encode(envelope), as: UTF8.self)
            let head = #"{"specversion":"1.0","id":"#
            #expect(record.hasPrefix(head))
            // Markers with unescaped quotes cannot lie inside a string, and `data` comes last.
            let source = try #require(record.range(of: #","source":"#))
            let dataMarker = try #require(record.range(of: #","data":"#))
            id = String(record[record.index(record.startIndex, offsetBy: head.count)..<source.lowerBound])
            data = String(record[dataMarker.upperBound...].dropLast())
            if let revisionMarker = record.range(of: #","expectedrevision":"#) {
                middle = String(record[source.lowerBound..<revisionMarker.upperBound])
                revision = String(record[revisionMarker.upperBound..<dataMarker.lowerBound])
            } else {
                middle = String(record[source.lowerBound..<dataMarker.lowerBound])
            }
        }

        var record: [UInt8] {
            var text = #"{"specversion":"1.0","id":"# + id + middle
            if let revision { text += revision + #","data":"# } else { text += #","data":"# }
            return Array((text + data + "}").utf8)
        }
    }

    /// The whole decoder's verdict and the check's, for `spliced`.
    static func verdicts(_ spliced: Spliced) -> (whole: DecodedRecord?, check: DecodedRecord?) {
        let envelope = spliced.envelope
        let record = spliced.record
        let whole = try? RecordDecoder().decode(key: Array(envelope.recipeID.text.utf8), value: record).get()
        let attributes = RecordDecoder.ProducerAttributes(
            source: WireTestSupport.encoder.source, actor: envelope.actor, actorRole: envelope.actorRole,
            time: envelope.time, timeText: RFC3339.string(envelope.time))
        let id = Array(spliced.id.utf8), data = Array(spliced.data.utf8), revision = Array((spliced.revision ?? "").utf8)
        let check = id.withUnsafeBytes { id in
            data.withUnsafeBytes { data in
                revision.withUnsafeBytes { revision in
                    RecordDecoder().decode(spliced: envelope.command.kind, recipeID: envelope.recipeID, id: .given(id),
                                           expectedRevision: spliced.revision == nil ? nil : revision, data: data,
                                           recordSize: record.count, attributes: attributes)
                }
            }
        }
        return (whole, check)
    }

    /// Values a member of `data` is replaced with: other types, values beyond the limits,
    /// control characters, nesting beyond the cap, JSON that is not JSON.
    static let values = [
        "1", "-1", "0", "1.5", "1e999", "-0", "1000000001", "9007199254740993", #""x""#, #""""#, "null", "true",
        "[]", "{}", #"["a"]"#, #"[{"name":"x"}]"#, #""\#(String(repeating: "é", count: 2001))""#,
        #""\#(String(repeating: "a", count: 129))""#, #""a\u0001b""#, #""a\tb""#, #""jose\u0301""#, #""bob""#,
        #""2026-12-01T10:15:00Z""#, String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "01", "+1", "}",
    ]

    static let ids = [#""""#, "42", "null", #""a\tb""#, #""a\u0001b""#, #""\#(String(repeating: "i", count: 129))""#,
                      #""\u0030-id""#, #""ok-id""#]
    static let revisions = ["-1", "1.5", #""4""#, "9007199254740993", "9007199254740991", "1e2", "0", "null", "4.0", "01"]

    /// `data` with each member's value replaced, an unknown member, a member twice, in turn.
    static func dataVariants(_ data: String) -> [String] {
        var variants = ["{}", "[]", "null", #""x""#, "{", #"{"zzz":1}"#]
        let bytes = Array(data.utf8)
        let members: [(key: Range<Int>, value: Range<Int>)] = bytes.withUnsafeBytes { buffer in
            withUnsafeTemporaryAllocation(of: JSONToken.self, capacity: 1) { stack in
                var scanner = JSONScanner(buffer, maxNestingDepth: 64)
                var tape = JSONTapeWriter(startingIn: stack)
                guard let index = try? scanner.value(depth: 1, onto: &tape) else { return [] }
                let written = JSONTape(bytes: buffer, tokens: tape.tokens)
                var found: [(key: Range<Int>, value: Range<Int>)] = []
                written.forEachMember(ofObject: index) { key, value in
                    let keyToken = written[key], valueToken = written[value]
                    let valueRange = valueToken.kind == .string ? (valueToken.start - 1)..<(valueToken.end + 1) : valueToken.start..<valueToken.end
                    found.append(((keyToken.start - 1)..<(keyToken.end + 1), valueRange))
                }
                return found
            }
        }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        if let first = members.first {
            variants.append("{" + text(first.key) + ":" + text(first.value) + "," + String(data.dropFirst()))
            variants.append(#"{"zzz":1,"# + String(data.dropFirst()))
        }
        for member in members {
            for value in values {
                variants.append(text(0..<member.value.lowerBound) + value + text(member.value.upperBound..<bytes.count))
            }
        }
        return variants
    }

    @Test func theCheckAcceptsExactlyWhatTheDecoderAcceptsAsTheSameRecord() throws {
        var accepted = 0, refused = 0
        func compare(_ spliced: Spliced, _ what: @autoclosure () -> String) {
            let (whole, check) = Self.verdicts(spliced)
            #expect(check == whole, "\(what()): \(String(decoding: spliced.record, as: UTF8.self))")
            if whole == nil { refused += 1 } else { accepted += 1 }
        }
        for (number, envelope) in RandomEnvelopes.mixed(count: 600, seed: 50).enumerated() {
            let spliced = try Spliced(envelope)
            compare(spliced, "as encoded")
            // Each envelope broken one way, the kinds of breakage taken in turn (all of them for the first few).
            let dataVariants = Self.dataVariants(spliced.data)
            let all = number < 30
            for (index, data) in dataVariants.enumerated() where all || index % 40 == number % 40 {
                var variant = spliced
                variant.data = data
                compare(variant, "data \(data)")
            }
            for (index, id) in Self.ids.enumerated() where all || index == number % Self.ids.count {
                var variant = spliced
                variant.id = id
                compare(variant, "id \(id)")
            }
            for (index, revision) in Self.revisions.enumerated() where all || index == number % Self.revisions.count {
                var variant = spliced
                if variant.revision == nil { variant.middle += #","expectedrevision":"# }
                variant.revision = revision
                compare(variant, "expectedrevision \(revision)")
            }
        }
        #expect(accepted > 1000 && refused > 1000, "accepted \(accepted), refused \(refused)")
    }

    @Test func attributesTheDecoderWouldRefuseAreNotAccepted() {
        let time = GoldenCases.time
        let text = RFC3339.string(time)
        #expect(RecordDecoder.ProducerAttributes(source: "recipes-cli", actor: "ana", actorRole: nil, time: time, timeText: text).areAccepted)
        #expect(!RecordDecoder.ProducerAttributes(source: "recipes-cli", actor: "an a", actorRole: nil, time: time, timeText: text).areAccepted)
        #expect(!RecordDecoder.ProducerAttributes(source: "recipes-cli", actor: "a\u{1}", actorRole: nil, time: time, timeText: text).areAccepted)
        #expect(!RecordDecoder.ProducerAttributes(source: "", actor: "ana", actorRole: nil, time: time, timeText: text).areAccepted)
        #expect(!RecordDecoder.ProducerAttributes(source: "cli\t", actor: "ana", actorRole: nil, time: time, timeText: text).areAccepted)
        #expect(!RecordDecoder.ProducerAttributes(source: "recipes-cli", actor: "ana", actorRole: nil, time: time, timeText: "yesterday").areAccepted)
    }
}
