import Foundation
import Glibc
import Kafka
import RecipeTestSupport
import Testing

/// The embedded brokers answer as Kafka's own do: their side of a connection does not hold a
/// small answer back until the client acknowledges the last one (Nagle's algorithm), which, with
/// a client waiting for that answer, stalled it 40 ms (docs/benchmarks.md, "Issue 50, session 50").
@Suite("The embedded broker's connections")
struct EmbeddedBrokerSocketTests {
    @Test("every broker's side of a connection it accepts has Nagle's algorithm off (TCP_NODELAY)")
    func acceptedWithoutNagle() throws {
        let kafka = try EmbeddedKafka(brokers: 3)
        let ports = kafka.bootstrapServers.split(separator: ",").compactMap { $0.split(separator: ":").last.flatMap { UInt16($0) } }
        #expect(ports.count == 3)
        for port in ports {
            let client = try connectToLoopback(port: port)
            defer { close(client) }
            let clientPort = try #require(Self.address(of: client, peer: false)?.port)
            var accepted: Int32?
            try waitUntil("the broker on port \(port) accepts the connection") {
                accepted = Self.acceptedSocket(serverPort: port, clientPort: clientPort)
                return accepted != nil
            }
            let socket = try #require(accepted)
            var noDelay: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            #expect(getsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, &size) == 0)
            #expect(noDelay == 1, "the broker on port \(port) holds small answers back (Nagle's algorithm is on)")
        }
        withExtendedLifetime(kafka) {}
    }

    private func connectToLoopback(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "cannot connect to 127.0.0.1:\(port)")
        return fd
    }

    /// The socket of this process (the mock brokers run in it) whose local port is `serverPort`
    /// and whose peer's is `clientPort`: the broker's side of the test's connection.
    private static func acceptedSocket(serverPort: UInt16, clientPort: UInt16) -> Int32? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }.first { fd in
            address(of: fd, peer: false)?.port == serverPort && address(of: fd, peer: true)?.port == clientPort
        }
    }

    private static func address(of fd: Int32, peer: Bool) -> (family: sa_family_t, port: UInt16)? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return (address.sin_family, UInt16(bigEndian: address.sin_port))
    }
}
