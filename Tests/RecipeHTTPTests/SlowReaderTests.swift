import Foundation
import RecipeHTTP
import RecipeTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Clients that ask and never read their answers, or read one and keep the connection, hold
/// what the server holds for them: it bounds that memory (`HTTPServer.Limits.answerMemory`, in
/// all and per client address), sends static files from one shared buffer, and answers past the
/// bound 503 `busy`, closing the connection. Against `recipes dev` in a process of its own, whose
/// resident memory (VmRSS) is read from /proc: a memory assertion, not a timed one. Each client
/// offers a 4 KiB receive window, so an answer larger than the sockets' buffers stays unsent.
@Suite("Clients that never read", .serialized)
struct SlowReaderTests {
    static let clients = 3_000
    static let address = "127.0.0.2"

    /// `recipes dev` with a timeout longer than the test: the connections are held, not timed out.
    static func dev() throws -> (RecipesProcess, UInt16, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readers-\(UUID().uuidString)").path
        let dev = try RecipesProcess(["dev", "--port", "0", "--data", folder, "--connection-timeout", "300"])
        let url = try dev.line(startingWith: "http: ", deadline: .seconds(60))
        _ = try dev.line(startingWith: "ready", deadline: .seconds(60))
        let port = try #require(URLComponents(string: url)?.port.map(UInt16.init))
        return (dev, port, folder)
    }

    @Test func threeThousandClientsThatNeverReadTheConsoleScriptCostUnder100MB() throws {
        let (dev, port, folder) = try Self.dev()
        defer { _ = dev.stop(); try? FileManager.default.removeItem(atPath: folder) }
        let before = ConnectionLoadTests.residentMegabytes(dev.pid)
        let connections = try (0..<Self.clients).map { _ in
            let connection = try RawConnection(port: port, from: Self.address, receiveBuffer: 4096)
            connection.send("GET /console/console.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            return connection
        }
        // Every request has been answered (its answer begun, or refused and closed): what the
        // answers hold is held now.
        try waitFor("an answer on each of \(Self.clients) connections", deadline: .seconds(60)) {
            connections.allSatisfy(\.hasSomethingToRead)
        }
        let held = ConnectionLoadTests.residentMegabytes(dev.pid)
        #expect(held - before < 100, "the server grew from \(before) to \(held) MB")

        // Some were served; the others were told to come back, in the API's JSON, and closed.
        let answers = connections.map { $0.receiveAvailable() }
        let served = answers.count { String(decoding: $0.prefix(12), as: UTF8.self) == "HTTP/1.1 200" }
        let busy = answers.compactMap { RawResponse($0) }.filter { $0.status == 503 }
        #expect(served > 0)
        #expect(served + busy.count == Self.clients, "\(served) served, \(busy.count) busy")
        #expect(busy.allSatisfy { $0.errorCode == "busy" && $0.headers["retry-after"] == "1" })
        #expect(busy.allSatisfy { $0.headers["connection"] == "close" })
        print("clients that never read: \(Self.clients) asking for /console/console.js: server RSS \(before) MB before, \(held) MB with them; \(served) served, \(busy.count) busy")

        // Another address is served as ever, the script whole.
        let other = try RawConnection(port: port, from: "127.0.0.3")
        other.send("GET /console/console.js HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let script = other.receiveResponse(timeout: .seconds(10))
        #expect(script?.status == 200)
        #expect(script?.body == (try ConsoleTests.file("console.js")))
    }

    /// Uploads that stop just short of their end hold their bodies: counted in the same bounds,
    /// each past them is answered 503 `busy` as it passes, and its connection closes.
    @Test func threeHundredUploadsStalledNearTheirEndCostUnder100MB() throws {
        let (dev, port, folder) = try Self.dev()
        defer { _ = dev.stop(); try? FileManager.default.removeItem(atPath: folder) }
        let before = ConnectionLoadTests.residentMegabytes(dev.pid)
        let length = 2 << 20
        let part = [UInt8](repeating: UInt8(ascii: " "), count: length - 100 * 1024)
        let connections = try (0..<300).map { _ in
            let connection = try RawConnection(port: port, from: Self.address)
            let head = "POST /v1/recipes/\(UUID().uuidString.lowercased())/commands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(length)\r\n\r\n"
            connection.send(Array(head.utf8) + part)
            return connection
        }
        // Each upload has left its client (or was refused: its answer is there to read), and the
        // server has read all that came: what the bodies hold is held now.
        try waitFor("the server to read the uploads", deadline: .seconds(60)) {
            connections.allSatisfy { $0.hasSomethingToRead || $0.unsentBytes == 0 } && Self.unreadBytes(onServerPort: port) == 0
        }
        let held = ConnectionLoadTests.residentMegabytes(dev.pid)
        #expect(held - before < 100, "the server grew from \(before) to \(held) MB")
        let refused = connections.compactMap { RawResponse($0.receiveAvailable()) }
        #expect(refused.count > 200 && refused.allSatisfy { $0.status == 503 && $0.errorCode == "busy" },
                "\(refused.map(\.status))")
        print("stalled uploads: 300 of 1.9 MiB: server RSS \(before) MB before, \(held) MB with them; \(refused.count) refused busy")
    }

    /// Bytes that came to the server's connections on `port` and that it has not read yet
    /// (`rx_queue` in /proc/net/tcp).
    static func unreadBytes(onServerPort port: UInt16) -> Int {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return -1 }
        let local = String(format: ":%04X", port)
        return table.split(separator: "\n").dropFirst().reduce(0) { total, line in
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[1].hasSuffix(local), let queues = fields[4].split(separator: ":").last,
                  let unread = Int(queues, radix: 16) else { return total }
            return total + unread
        }
    }

    /// Each connection that was answered and is kept open holds libmicrohttpd's buffers (256 KiB,
    /// zeroed between requests): past the bound its answer says `Connection: close`.
    @Test func threeThousandAnsweredConnectionsKeptOpenCostUnder100MB() throws {
        let (dev, port, folder) = try Self.dev()
        defer { _ = dev.stop(); try? FileManager.default.removeItem(atPath: folder) }
        let before = ConnectionLoadTests.residentMegabytes(dev.pid)
        let connections = try (0..<Self.clients).map { _ in try RawConnection(port: port, from: Self.address) }
        for connection in connections { connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
        let answers = connections.map { $0.receiveResponse(timeout: .seconds(10)) }
        let statuses = Dictionary(grouping: answers, by: { $0.map { "\($0.status) \($0.errorCode ?? "")" } ?? "none" }).mapValues(\.count)
        #expect(statuses == ["200 ": Self.clients])
        let closing = connections.indices.filter { answers[$0]?.headers["connection"] == "close" }
        try waitFor("the \(closing.count) connections told they close to be closed", deadline: .seconds(60)) {
            closing.allSatisfy { connections[$0].isClosedByServer }
        }
        let held = ConnectionLoadTests.residentMegabytes(dev.pid)
        #expect(held - before < 100, "the server grew from \(before) to \(held) MB")
        let open = connections.count { !$0.isClosedByServer }
        #expect(open > 0 && open == Self.clients - closing.count, "\(open) of \(Self.clients) kept open")
        print("answered connections kept open: \(Self.clients) after /healthz: server RSS \(before) MB before, \(held) MB with them; \(open) kept open")
    }
}
