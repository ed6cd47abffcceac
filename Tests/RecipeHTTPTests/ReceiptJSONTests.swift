import Foundation
@testable import RecipeHTTP
import RecipeWriteSide
import Testing

/// The 202 answers of the single and the batch POST are written by hand (`JSONWriter`, for
/// speed): the same JSON `HTTPResponse.json` writes with `JSONEncoder`, byte for byte.
@Suite("Receipt JSON")
struct ReceiptJSONTests {
    func encoded<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONCoding.encoder.encode(value), as: UTF8.self)
    }

    @Test func theSingleReceiptIsWhatTheEncoderWrites() throws {
        let receipt = CommandReceipt(commandId: "c-1", recipeId: "r/\"ü\"", partition: 11, offset: 1_234_567_890_123,
                                     position: "11:1234567890123")
        let response = receipt.accepted
        #expect(response.status == 202)
        #expect(response.headers.contains { $0 == ("Content-Type", "application/json") })
        #expect(String(decoding: response.body, as: UTF8.self) == (try encoded(receipt)))
    }

    @Test func theBatchReceiptIsWhatTheEncoderWrites() throws {
        var delivered = BatchItem(index: 0, line: 1, commandId: "c-1", recipeId: "r-1")
        delivered.partition = 0
        delivered.offset = 7
        delivered.position = "0:7"
        let refused = BatchItem(index: 1, line: 3, error: .init(code: "invalidField", message: "title: \"\\\" is\ttoo long", field: "data.title"))
        let noField = BatchItem(index: 2, line: nil, error: .init(code: "logFull", message: "the log is full"))
        let receipt = BatchReceipt(appended: 1, failed: 2, items: [delivered, refused, noField])
        let response = receipt.accepted
        #expect(response.status == 202)
        #expect(String(decoding: response.body, as: UTF8.self) == (try encoded(receipt)))
    }
}

/// Command ids: version 4 UUIDs from 128 random bits each.
@Suite("Command ids")
struct CommandIDTests {
    @Test func idsAreDistinctVersion4UUIDs() {
        let ids = (0..<5_000).map { _ in CommandBuilder.newCommandID() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(600) {
            let uuid = UUID(uuidString: id)
            #expect(uuid != nil && uuid!.uuidString.lowercased() == id)
            let characters = Array(id)
            #expect(characters[14] == "4")
            #expect("89ab".contains(characters[19]))
        }
    }
}
