import Foundation
import RecipeCLI
#if canImport(Glibc)
import Glibc
#endif

/// A Server-Sent Events stream read over plain HTTP/1.1 (`http://host:port`): one GET on a
/// socket of its own, its body (chunked or up to the close) split into events as a browser's
/// EventSource splits them. Blocking; the stream ends when the server closes it.
final class EventStreamReader {
    struct Event {
        var id: String?
        var name: String
        var data: String
    }

    struct Refused: Error {
        var status: Int
        var body: String
    }

    private let fd: Int32
    private var raw: [UInt8] = []
    private var body: [UInt8] = []
    private var chunked = false
    private var ended = false
    /// The server's `retry:`, in milliseconds, once it sent one.
    private(set) var retry: Int?

    /// Connects and sends the request; throws `Refused` for an answer other than 200.
    init(server: URL, path: String, headers: [(String, String)]) throws {
        guard server.scheme == "http", let host = server.host else {
            throw UsageError("--server: an http://HOST:PORT URL, not \(server.absoluteString)")
        }
        let port = server.port ?? 80
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
            throw CommandFailed(status: 1, "cannot resolve \(host)")
        }
        defer { freeaddrinfo(found) }
        var connected: Int32 = -1
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry, connected < 0 {
            let socket = Glibc.socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
            if socket >= 0, connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
                connected = socket
            } else if socket >= 0 {
                close(socket)
            }
            entry = address.pointee.ai_next
        }
        guard connected >= 0 else { throw CommandFailed(status: 1, "cannot connect to \(host):\(port)") }
        fd = connected
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nAccept: text/event-stream\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        let bytes = Array((request + "\r\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { close(fd); throw CommandFailed(status: 1, "the server closed the connection") }
            sent += n
        }
        try readHead()
    }

    deinit { close(fd) }

    /// The next event; nil once the server has closed the stream.
    func next() -> Event? {
        while true {
            dechunk()
            if let event = takeEvent() { return event }
            if ended || !receive() { return nil }
        }
    }

    private func readHead() throws {
        while true {
            if let range = raw.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: raw[..<range.lowerBound], as: UTF8.self)
                raw.removeSubrange(..<range.upperBound)
                let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                chunked = head.lowercased().contains("\r\ntransfer-encoding: chunked")
                guard status == 200 else {
                    while receive() {}
                    throw Refused(status: status, body: String(decoding: raw, as: UTF8.self))
                }
                return
            }
            guard receive() else { throw CommandFailed(status: 1, "the server closed the connection before answering") }
        }
    }

    /// Reads what came; false once the connection is closed.
    private func receive() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        raw += buffer[0..<n]
        return true
    }

    private func dechunk() {
        guard chunked else {
            body += raw
            raw = []
            return
        }
        while let line = raw.firstRange(of: Array("\r\n".utf8)) {
            let size = Int(String(decoding: raw[..<line.lowerBound], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
            guard raw.count >= line.upperBound + size + 2 else { return }
            body += raw[line.upperBound..<(line.upperBound + size)]
            raw.removeSubrange(..<(line.upperBound + size + 2))
            if size == 0 { ended = true }
        }
    }

    /// One event off the body (lines end at LF, CR LF or CR; comments skipped; an event with no
    /// data line is not one).
    private func takeEvent() -> Event? {
        while let end = blockEnd() {
            let block = String(decoding: body[..<end.lowerBound], as: UTF8.self)
            body.removeSubrange(..<end.upperBound)
            var event = Event(id: nil, name: "message", data: "")
            var data: [String] = []
            for line in block.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                guard !line.hasPrefix(":") else { continue }
                let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                var value = parts.count > 1 ? String(parts[1]) : ""
                if value.hasPrefix(" ") { value.removeFirst() }
                switch parts[0] {
                case "id": event.id = value
                case "event": event.name = value
                case "data": data.append(value)
                case "retry": retry = Int(value)
                default: break
                }
            }
            guard !data.isEmpty else { continue }
            event.data = data.joined(separator: "\n")
            return event
        }
        return nil
    }

    private func blockEnd() -> Range<Int>? {
        [Array("\n\n".utf8), Array("\r\n\r\n".utf8), Array("\r\r".utf8)].compactMap { body.firstRange(of: $0) }
            .min { $0.lowerBound < $1.lowerBound }
    }
}
