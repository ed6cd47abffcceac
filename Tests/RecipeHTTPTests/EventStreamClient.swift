import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A Server-Sent Events client over a raw connection, as a test holds it: the response's head,
/// then its body (chunked or read to the close) parsed into events as a browser parses them.
/// Blocking calls, each with a deadline.
final class EventStreamClient: @unchecked Sendable {
    struct Event: CustomStringConvertible {
        var id: String?
        var name: String
        var data: String
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] ?? [:] }
        var position: String? { object["position"] as? String }
        var description: String { "\(name) \(id ?? "-") \(data)" }
    }

    let connection: RawConnection
    private(set) var status = 0
    private(set) var head = ""
    /// Comments (`: ping`) and `retry:` values seen so far.
    private(set) var comments: [String] = []
    private(set) var retry: Int?
    private(set) var closed = false
    private var raw: [UInt8] = []
    private var body: [UInt8] = []
    private var chunked = false

    init(port: UInt16, path: String, headers: [String: String] = [:], receiveBuffer: Int32? = nil) throws {
        connection = try RawConnection(port: port, receiveBuffer: receiveBuffer)
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        connection.send(request + "\r\n")
    }

    /// Reads the head (status, headers); the body of a refusal stays readable as `rest`.
    func readHead(deadline: Duration = .seconds(10)) throws {
        let end = ContinuousClock.now + deadline
        while true {
            if let range = raw.firstRange(of: Array("\r\n\r\n".utf8)) {
                head = String(decoding: raw[..<range.lowerBound], as: UTF8.self)
                raw.removeSubrange(..<range.upperBound)
                status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                chunked = head.lowercased().contains("transfer-encoding: chunked")
                return
            }
            try receive(until: end)
            if closed { throw RawConnection.Failure("closed before the head: \(String(decoding: raw, as: UTF8.self))") }
        }
    }

    /// The next event, or nil once the server closed the stream.
    func next(deadline: Duration = .seconds(10)) throws -> Event? {
        if status == 0 { try readHead(deadline: deadline) }
        let end = ContinuousClock.now + deadline
        while true {
            dechunk()
            if let event = takeEvent() { return event }
            if closed { return nil }
            try receive(until: end)
        }
    }

    /// Events up to and including the first that `last` accepts.
    func events(through last: (Event) -> Bool, deadline: Duration = .seconds(20)) throws -> [Event] {
        let end = ContinuousClock.now + deadline
        var events: [Event] = []
        while let event = try next(deadline: max(.zero, end - .now)) {
            events.append(event)
            if last(event) { return events }
        }
        throw RawConnection.Failure("the stream ended before the event awaited; got \(events)")
    }

    /// Reads until `count` comments (`: ping`) have come in all; the events read meanwhile.
    func events(untilComments count: Int, deadline: Duration = .seconds(20)) throws -> [Event] {
        let end = ContinuousClock.now + deadline
        var events: [Event] = []
        while comments.count < count {
            dechunk()
            if let event = takeEvent() { events.append(event); continue }
            if closed { throw RawConnection.Failure("the stream ended after \(comments.count) comments") }
            try receive(until: end)
        }
        return events
    }

    /// Every event until the server closes the stream.
    func eventsUntilClosed(deadline: Duration = .seconds(20)) throws -> [Event] {
        let end = ContinuousClock.now + deadline
        var events: [Event] = []
        while let event = try next(deadline: max(.zero, end - .now)) { events.append(event) }
        return events
    }

    /// The body of a refusal (a JSON error), read to its `Content-Length`.
    func refusalBody(deadline: Duration = .seconds(10)) throws -> String {
        if status == 0 { try readHead(deadline: deadline) }
        let length = head.lowercased().split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let end = ContinuousClock.now + deadline
        while raw.count < length, !closed { try receive(until: end) }
        return String(decoding: raw.prefix(length), as: UTF8.self)
    }

    private func receive(until end: ContinuousClock.Instant) throws {
        var poller = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
        let wait = Int32(max(0, (end - ContinuousClock.now).milliseconds))
        guard poll(&poller, 1, wait) > 0 else { throw RawConnection.Failure("no event within the deadline; body so far: \(String(decoding: body, as: UTF8.self).suffix(600))") }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { closed = true } else { raw += buffer[0..<n] }
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
            if size == 0 { closed = true }
        }
    }

    /// One event off the body, as the WHATWG parser dispatches it (lines at LF; comments and
    /// `retry:` noted; an event without data lines is not dispatched).
    private func takeEvent() -> Event? {
        while let end = body.firstRange(of: Array("\n\n".utf8)) {
            let block = String(decoding: body[..<end.lowerBound], as: UTF8.self)
            body.removeSubrange(..<end.upperBound)
            var event = Event(id: nil, name: "message", data: "")
            var dataLines: [String] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") { comments.append(String(line.dropFirst().drop { $0 == " " })); continue }
                let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let field = String(parts[0])
                var value = parts.count > 1 ? String(parts[1]) : ""
                if value.hasPrefix(" ") { value.removeFirst() }
                switch field {
                case "id": event.id = value
                case "event": event.name = value
                case "data": dataLines.append(value)
                case "retry": retry = Int(value)
                default: break
                }
            }
            guard !dataLines.isEmpty else { continue }
            event.data = dataLines.joined(separator: "\n")
            return event
        }
        return nil
    }
}
