import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Connections as a test holds them: plain sockets from a chosen loopback address, raw bytes
/// out and in, for what `HTTPClient` would not send (bad framing, odd methods, heads without
/// their body) and for holding many connections at once. Blocking calls: run them on a thread.
/// The socket closes with the object.
final class RawConnection: @unchecked Sendable {
    let fd: Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Connected to the server on `port` from `source` (any 127.x.y.z address is this machine).
    /// `receiveBuffer` bytes (set before connecting, so the window offered is that small): a
    /// client that reads slowly or not at all holds the server's answer instead. `sendBuffer`
    /// bytes: a send of more waits for the server to take it.
    init(port: UInt16, from source: String = "127.0.0.1", receiveBuffer: Int32? = nil, sendBuffer: Int32? = nil) throws {
        // Close-on-exec: a process another test starts meanwhile must not hold these connections open.
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket failed: \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if var size = sendBuffer {
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, connected == 0 else {
            let error = errno
            close(fd)
            throw Failure("connect from \(source) failed: \(error)")
        }
    }

    deinit { close(fd) }

    /// False when the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    /// What the server sends until it closes the connection (`closed`), or until `timeout` passes
    /// without a byte (`closed` false: the connection is still open).
    func receiveUntilClosed(timeout: Duration = .seconds(10)) -> (bytes: [UInt8], closed: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(timeout.milliseconds)) > 0 else { return (bytes, false) }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return (bytes, true) }
            bytes += buffer[0..<n]
        }
    }

    /// The first response on the connection (its head, and a body of its `Content-Length`), or
    /// nil when none came within `timeout`.
    func receiveResponse(timeout: Duration = .seconds(10)) -> RawResponse? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if let response = RawResponse(bytes) { return response }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, (end - ContinuousClock.now).milliseconds))) > 0 else { break }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return RawResponse(bytes)
    }

    /// Whether something came from the server (bytes, or its close) that has not been read.
    var hasSomethingToRead: Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }

    /// Bytes sent that the server has not taken yet (SIOCOUTQ).
    var unsentBytes: Int {
        var unsent: Int32 = 0
        return ioctl(fd, 0x5411, &unsent) == 0 ? Int(unsent) : -1
    }

    /// What has come and not been read (one read, without waiting).
    func receiveAvailable() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    /// Whether the server has closed (or reset) the connection, as far as can be seen now.
    var isClosedByServer: Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }
}

/// One HTTP/1.1 response read off a raw connection.
struct RawResponse {
    var status: Int
    /// Lowercase names.
    var headers: [String: String]
    var body: [UInt8]
    /// The bytes after this response: another response on the same connection.
    var rest: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    var errorCode: String? {
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        return (object?["error"] as? [String: Any])?["code"] as? String
    }

    /// Nil until `bytes` hold a whole response.
    init?(_ bytes: [UInt8]) {
        guard let split = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: bytes[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap(Int.init) ?? 0
        guard bytes.count - split.upperBound >= length else { return nil }
        self.status = status
        self.headers = headers
        body = Array(bytes[split.upperBound..<split.upperBound + length])
        rest = Array(bytes[(split.upperBound + length)...])
    }
}
