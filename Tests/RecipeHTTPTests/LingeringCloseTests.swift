import Foundation
import RecipeHTTP
import RecipeTestSupport
import Testing

/// A body refused before it is read whole (413 from the declared length, or as a chunked body
/// passes the limit) closes the connection; a client still sending it must get the answer, not
/// a reset: the server reads off what it still sends, within bounds, before it closes
/// (`LingeringCloses`), as common servers do.
@Suite("A refused body's answer reaches its client")
struct LingeringCloseTests {
    static let body = [UInt8](repeating: UInt8(ascii: " "), count: 3 << 20)

    /// Sends the head and `first` of the body, and once the answer has come sends the `rest`,
    /// as a client does that writes its whole request before it reads (urllib): whether all of it
    /// was sent (not reset), and the answer then read. The client's small send buffer makes it
    /// wait for the server to take what it sends.
    static func send(_ head: String, _ first: [UInt8], _ rest: [UInt8], port: UInt16) throws -> (sent: Bool, response: RawResponse?) {
        let connection = try RawConnection(port: port, sendBuffer: 16 * 1024)
        connection.send(Array(head.utf8) + first)
        try waitFor("the answer while the body is still being sent", deadline: .seconds(10)) { connection.hasSomethingToRead }
        let sent = connection.send(rest)
        return (sent, connection.receiveResponse(timeout: .seconds(10)))
    }

    @Test func aClientStillSendingThreeMiBToACommandGetsTheJSON413() throws {
        for attempt in 0..<5 {
            let head = "POST /v1/recipes/\(UUID().uuidString.lowercased())/commands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(Self.body.count)\r\n\r\n"
            let (sent, response) = try Self.send(head, [], Self.body, port: shared.port)
            #expect(sent, "attempt \(attempt): the connection was reset while the body was sent")
            #expect(response?.status == 413, "attempt \(attempt)")
            #expect(response?.errorCode == "tooLarge", "attempt \(attempt)")
        }
    }

    @Test func aChunkedBodyCutOffAsItPassesTheLimitStillGetsTheJSON413() throws {
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x10000) + Array("\r\n".utf8)
        let chunked = (0..<48).flatMap { _ in chunk } + Array("0\r\n\r\n".utf8)
        for attempt in 0..<3 {
            let head = "POST /v1/recipes/\(UUID().uuidString.lowercased())/commands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            let (sent, response) = try Self.send(head, Array(chunked[..<(chunk.count * 33)]), Array(chunked[(chunk.count * 33)...]),
                                                 port: shared.port)
            #expect(sent, "attempt \(attempt): the connection was reset while the body was sent")
            #expect(response?.status == 413, "attempt \(attempt)")
            #expect(response?.errorCode == "tooLarge", "attempt \(attempt)")
        }
    }
}
