import Foundation
import RecipeHTTP
import RecipeTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Thousands of clients that hold a connection and send nothing, or a head a byte at a time,
/// cost the server a socket each: while 10,000 idle and 1,000 slowloris connections are open,
/// `/healthz` and a query are answered, from an address that holds 5,000 of them. Against
/// `recipes dev` in a process of its own (each process may open 20,000 files here: the test's
/// 11,000 sockets and the server's would not fit in one). The assertion is that each request is
/// answered within a deadline of 5 s; the latencies and the server's memory are printed for
/// docs/operations.md, not asserted. Alone it takes about 3 s; in the whole suite on a loaded
/// machine, most of its time is the start of `recipes dev`.
@Suite("Connections held by the thousand", .serialized)
struct ConnectionLoadTests {
    static let idlePerAddress = 5_000
    static let idleAddresses = ["127.0.0.2", "127.0.0.3"]
    static let slowlorisCount = 1_000
    static let slowlorisAddress = "127.0.0.4"

    @Test func healthAndQueriesAreAnsweredWhileElevenThousandConnectionsAreHeld() throws {
        let needed = Self.idlePerAddress * Self.idleAddresses.count + Self.slowlorisCount + 100
        let capacity = HTTPServer.connectionCapacity() + HTTPServer.reservedFiles
        try #require(capacity >= needed + 1_000, "this process may open \(capacity) files; the test holds \(needed) sockets (ulimit -Hn)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("load-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A timeout far longer than the test: the connections are held, not timed out, while it looks.
        let dev = try RecipesProcess(["dev", "--port", "0", "--data", folder, "--connection-timeout", "300"])
        let url = try dev.line(startingWith: "http: ", deadline: .seconds(60))
        _ = try dev.line(startingWith: "ready", deadline: .seconds(60))
        let port = try #require(URLComponents(string: url)?.port.map(UInt16.init))
        let memoryBefore = Self.residentMegabytes(dev.pid)

        let idle = try {
            try Self.idleAddresses.flatMap { address in try (0..<Self.idlePerAddress).map { _ in try RawConnection(port: port, from: address) } }
        }()
        let slowloris = try { () throws -> [RawConnection] in
            let connections = try (0..<Self.slowlorisCount).map { _ in try RawConnection(port: port, from: Self.slowlorisAddress) }
            for connection in connections { connection.send("GET /v1/recipes HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ") }
            return connections
        }()
        // The server has taken every one of them: each slowloris connection takes one more byte.
        let trickled = slowloris.allSatisfy { $0.send("a") }
        #expect(trickled)

        var latencies: [String: [Double]] = [:]
        for path in ["/healthz", "/v1/recipes"] {
            for _ in 0..<20 {
                let (status, seconds) = try { () throws -> (Int?, Double) in
                    let start = ContinuousClock.now
                    let connection = try RawConnection(port: port, from: Self.idleAddresses[0])
                    connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    let status = connection.receiveResponse(timeout: .seconds(5))?.status
                    return (status, (ContinuousClock.now - start).seconds)
                }()
                #expect(status == 200, "\(path) from \(Self.idleAddresses[0]), which holds \(Self.idlePerAddress) idle connections: \(status.map(String.init) ?? "no answer within 5 s")")
                latencies[path, default: []].append(seconds)
            }
        }
        let memoryHeld = Self.residentMegabytes(dev.pid)
        let threads = Self.threadCount(dev.pid)

        // Held, not dropped: none was closed, and a request on a hundred of them is answered.
        let dropped = idle.count(where: \.isClosedByServer)
        #expect(dropped == 0, "\(dropped) of \(idle.count) idle connections were closed")
        let answered = ServerLimitsTests.healthOnEach(Array(idle.prefix(100)))
        #expect(answered == 100)

        func summary(_ values: [Double]) -> String {
            let sorted = values.sorted()
            return String(format: "median %.1f ms, max %.1f ms", sorted[sorted.count / 2] * 1000, sorted.last! * 1000)
        }
        print("""
            connection load: \(idle.count) idle + \(slowloris.count) slowloris connections held; \
            /healthz \(summary(latencies["/healthz"]!)); /v1/recipes \(summary(latencies["/v1/recipes"]!)); \
            server RSS \(memoryBefore) MB before, \(memoryHeld) MB with them; \(threads) threads
            """)
        _ = dev.stop()
    }

    /// The resident memory of a process, from /proc (0 when it cannot be read).
    static func residentMegabytes(_ pid: Int32) -> Int {
        status(pid, "VmRSS:").map { $0 / 1024 } ?? 0
    }

    static func threadCount(_ pid: Int32) -> Int {
        status(pid, "Threads:") ?? 0
    }

    private static func status(_ pid: Int32, _ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return nil }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }
}
