import RecipeDomain
@testable import RecipeWire
import Testing

/// Versioned decoding: every known version maps to today's command, an unknown
/// one is `unsupportedVersion`. Shown with a test-only TitleChanged v2 whose data
/// is `{"text": …, "language": …}`: one new `DataFormat`, nothing else.
@Suite("Versions and upcasting")
struct UpcastingTests {
    static let titleChangedV2 = DataFormat(.titleChanged, version: 2, fields: [.string("text"), .optionalString("language")]) { data throws(WireError) in
        // v2 added a language tag the domain does not keep (yet): dropped on reading.
        _ = try data.optionalString("language")
        return .titleChanged(title: try data.string("text"))
    }

    static let decoderWithV2 = RecordDecoder(formats: VersionTable(DataFormats.version1 + [titleChangedV2]))

    static func record(version: Int, data: String) -> [UInt8] {
        Array(WrongExamples.record("TitleChanged", data: data)
            .replacingOccurrences(of: "recipes.TitleChanged.v1", with: "recipes.TitleChanged.v\(version)").utf8)
    }

    /// Content version 2 (issue 16) gave the ingredient and instruction commands a v2;
    /// every other kind is at v1.
    static let atVersionTwo: Set<RecipeCommand.Kind> = [.ingredientAdded, .ingredientUpdated, .instructionAdded, .instructionUpdated]

    @Test func todaysVersions() {
        for kind in RecipeCommand.Kind.allCases {
            let versions = Self.atVersionTwo.contains(kind) ? [1, 2] : [1]
            #expect(WireFormat.knownVersions(of: kind) == versions, "\(kind)")
            #expect(WireFormat.currentVersion(of: kind) == versions.last, "\(kind)")
        }
    }

    @Test func aSecondVersionIsReadIntoTodaysCommand() throws {
        let v2 = try Self.decoderWithV2.decode(value: Self.record(version: 2, data: #"{"text":"Soup","language":"en"}"#)).get()
        #expect(v2.envelope.command == .titleChanged(title: "Soup"))
        #expect(v2.typeVersion == 2)
        let v1 = try Self.decoderWithV2.decode(value: Self.record(version: 1, data: #"{"title":"Soup"}"#)).get()
        #expect(v1.envelope == v2.envelope)
        #expect(v1.typeVersion == 1)
        #expect(Self.decoderWithV2.formats.currentVersion(of: .titleChanged) == 2)
        #expect(Self.decoderWithV2.formats.versions(of: .titleChanged) == [1, 2])
    }

    @Test func eachVersionKeepsItsOwnShape() {
        // v1 fields in a v2 record, and v2 fields in a v1 record, are unknown fields.
        #expect(Self.decoderWithV2.decode(value: Self.record(version: 2, data: #"{"title":"Soup"}"#)).failureCode == .malformed)
        #expect(Self.decoderWithV2.decode(value: Self.record(version: 1, data: #"{"text":"Soup"}"#)).failureCode == .malformed)
    }

    @Test func versionsNobodyKnowsAreUnsupportedNotGuessed() {
        for version in [2, 3, 10] {
            let result = WireTestSupport.decoder.decode(value: Self.record(version: version, data: #"{"title":"Soup"}"#))
            #expect(result.failureCode == .unsupportedVersion)
        }
        let v3 = Self.decoderWithV2.decode(value: Self.record(version: 3, data: #"{"text":"Soup"}"#))
        #expect(v3.failureCode == .unsupportedVersion)
        if case .failure(let error) = v3 { #expect(error.message.contains("v1, v2")) }
    }

    @Test func limitsApplyToWhatAnyVersionReads() {
        let long = String(repeating: "x", count: 201)
        #expect(Self.decoderWithV2.decode(value: Self.record(version: 2, data: #"{"text":"\#(long)"}"#)).failureCode == .invalid)
    }
}
