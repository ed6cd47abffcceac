/// The text/event-stream framing (WHATWG HTML, "Server-sent events"): an event is `id:`,
/// `event:` and one `data:` line per line of its data, ended by a blank line. Data lines are
/// split at every line break a client splits at (LF, CR LF, CR), so data with line breaks
/// arrives whole, joined by LF; an id or event name never holds one (their line breaks are
/// dropped; no id or name of this API has any). Built as bytes: every stream sends each frame.
public enum ServerSentEvents {
    public static let contentType = "text/event-stream; charset=utf-8"
    /// How long a client waits before it reconnects, sent first on every stream.
    public static let retryMilliseconds = 2000

    private static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

    public static func event(id: String? = nil, _ name: String? = nil, data: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + (id?.utf8.count ?? 0) + (name?.utf8.count ?? 0) + 24)
        if let id { field("id", id, into: &bytes) }
        if let name { field("event", name, into: &bytes) }
        bytes += "data: ".utf8
        // CR and LF never occur inside a multi-byte UTF-8 sequence: bytes split where characters do.
        var previous: UInt8 = 0
        for byte in data.utf8 {
            if byte == lf && previous == cr {
                // The LF of a CR LF: the CR broke the line already.
            } else if byte == cr || byte == lf {
                bytes += "\ndata: ".utf8
            } else {
                bytes.append(byte)
            }
            previous = byte
        }
        bytes += "\n\n".utf8
        return bytes
    }

    /// A comment line, which clients ignore: keeps idle connections (and proxies) alive.
    public static func comment(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = Array(": ".utf8)
        bytes += text.utf8.filter { $0 != cr && $0 != lf }
        bytes += "\n\n".utf8
        return bytes
    }

    public static func retry(milliseconds: Int = retryMilliseconds) -> [UInt8] { Array("retry: \(milliseconds)\n\n".utf8) }

    private static func field(_ name: String, _ value: String, into bytes: inout [UInt8]) {
        bytes += name.utf8
        bytes += ": ".utf8
        bytes += value.utf8.filter { $0 != cr && $0 != lf }
        bytes.append(lf)
    }
}
