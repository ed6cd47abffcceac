/// The text/event-stream framing (WHATWG HTML, "Server-sent events"): an event is `id:`,
/// `event:` and one `data:` line per line of its data, ended by a blank line. Data lines are
/// split at every line break a client splits at (LF, CR LF, CR), so data with line breaks
/// arrives whole, joined by LF; an id or event name never holds one (they are written as given
/// with their line breaks dropped, which no id or name of this API has).
public enum ServerSentEvents {
    public static let contentType = "text/event-stream; charset=utf-8"
    /// How long a client waits before it reconnects, sent first on every stream.
    public static let retryMilliseconds = 2000

    public static func event(id: String? = nil, _ name: String? = nil, data: String) -> [UInt8] {
        var text = ""
        if let id { text += "id: \(oneLine(id))\n" }
        if let name { text += "event: \(oneLine(name))\n" }
        var line = ""
        for character in data {
            // Swift reads CR LF as one Character.
            if character == "\r\n" || character == "\n" || character == "\r" {
                text += "data: \(line)\n"
                line = ""
            } else {
                line.append(character)
            }
        }
        text += "data: \(line)\n\n"
        return Array(text.utf8)
    }

    /// A comment line, which clients ignore: keeps idle connections (and proxies) alive.
    public static func comment(_ text: String) -> [UInt8] { Array(": \(oneLine(text))\n\n".utf8) }

    public static func retry(milliseconds: Int = retryMilliseconds) -> [UInt8] { Array("retry: \(milliseconds)\n\n".utf8) }

    private static func oneLine(_ text: String) -> String {
        text.filter { $0 != "\n" && $0 != "\r" && $0 != "\r\n" }
    }
}
