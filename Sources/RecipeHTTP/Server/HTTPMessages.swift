import Foundation
import RecipeWire

/// One HTTP request as the routes see it: the body is complete (at most the
/// server's body limit), the query is decoded, header names are lowercase.
/// `HTTPHandler.admit` sees the same without the body.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string, percent-decoded (for messages).
    public var path: String
    /// The path's segments, each percent-decoded on its own: what routes match. An escaped
    /// `/` or NUL stays inside its segment instead of splitting or ending the path.
    public var segments: [String]
    public var query: [String: String]
    public var headers: [String: String]
    public var body: [UInt8]
    /// The values of the matched route's `{name}` segments (set by the router).
    public var parameters: [String: String] = [:]
    /// Who sent it: the connection's address, or the client a trusted proxy names in
    /// `X-Forwarded-For` (`HTTPServer.Limits.trustedProxies`); empty when not known.
    public var clientAddress = ""
    /// Whether its answer is still awaited, for handlers that run long; nil when it came from no connection.
    public var cancellation: RequestCancellation?

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: [UInt8] = []) {
        self.init(method: method, path: path, segments: path.utf8.split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) },
                  query: query, headers: headers, body: body)
    }

    private init(method: String, path: String, segments: [String], query: [String: String], headers: [String: String], body: [UInt8]) {
        self.method = method
        self.path = path
        self.segments = segments
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// A request from the URI as sent (`/v1/recipes/a%2Fb?q=soup+pie`). Of a repeated query
    /// parameter the last one counts; invalid escapes stay as written.
    public init(method: String, uri: String, headers: [String: String] = [:], body: [UInt8] = []) {
        // Split on the bytes: `?`, `&`, `=` and `/` are ASCII, never part of another character's
        // UTF-8 (splitting the `String` compared grapheme clusters, most of a request's parsing).
        let utf8 = Array(uri.utf8)
        let queryStart = utf8.firstIndex(of: UInt8(ascii: "?")) ?? utf8.endIndex
        let rawPath = utf8[..<queryStart]
        var query: [String: String] = [:]
        if queryStart < utf8.endIndex {
            for pair in utf8[(queryStart + 1)...].split(separator: UInt8(ascii: "&")) {
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                query[Self.percentDecoded(pair[..<equals], plusIsSpace: true)] =
                    equals < pair.endIndex ? Self.percentDecoded(pair[(equals + 1)...], plusIsSpace: true) : ""
            }
        }
        self.init(method: method, path: Self.percentDecoded(rawPath, plusIsSpace: false),
                  segments: rawPath.split(separator: UInt8(ascii: "/")).map { Self.percentDecoded($0, plusIsSpace: false) },
                  query: query, headers: headers, body: body)
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body's length as the head declares it: nil when it is chunked, 0 when there is none.
    public var declaredBodyLength: Int? {
        if headers["transfer-encoding"] != nil { return nil }
        return headers["content-length"].flatMap { Int($0) } ?? 0
    }

    /// Whether a body follows the head.
    public var declaresBody: Bool { declaredBodyLength != 0 }

    /// `%XX` escapes as bytes, read as UTF-8 (invalid sequences become U+FFFD).
    static func percentDecoded(_ input: ArraySlice<UInt8>, plusIsSpace: Bool) -> String {
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        // A segment without escapes is its bytes as they are.
        guard input.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(decoding: input, as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var index = input.startIndex
        while index < input.endIndex {
            if input[index] == UInt8(ascii: "%"), index + 2 < input.endIndex,
               let high = hex(input[index + 1]), let low = hex(input[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
                continue
            }
            bytes.append(plusIsSpace && input[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : input[index])
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// What a route answers.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8] {
        didSet { shared = nil }
    }
    /// Set when the body is bytes many answers send (`SharedBytes`): sent from their one
    /// buffer, not copied per connection. Changing `body` unsets it.
    public private(set) var shared: SharedBytes?
    /// Set for an answer whose body goes on until the stream ends (`AnswerStream`); `body` is then unused.
    public var stream: AnswerStream?

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An answer whose body is `shared`'s bytes.
    public init(status: Int, headers: [(String, String)] = [], shared: SharedBytes) {
        self.init(status: status, headers: headers, body: shared.array)
        self.shared = shared
    }

    /// A JSON body from any Encodable value.
    public static func json<T: Encodable>(_ value: T, status: Int = 200) -> HTTPResponse {
        do {
            return HTTPResponse(status: status, headers: [("Content-Type", "application/json")],
                                body: Array(try JSONCoding.encoder.encode(value)))
        } catch {
            return HTTPResponse(error: HTTPError.internal("cannot encode the response: \(error)"))
        }
    }

    /// A detail document, in the bytes `recipes.committed` carries it in (`RecipeDetail.json`).
    public static func json(_ detail: RecipeDetail, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: detail.json())
    }

    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", contentType)], body: Array(text.utf8))
    }
}

enum JSONCoding {
    /// The read side's one encoder, which recipes.committed's values are written with too.
    static let encoder = DocumentJSON.encoder
}
