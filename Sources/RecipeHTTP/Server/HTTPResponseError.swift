/// An error that says how it is answered: a status, a stable code, a message,
/// the field of the input at fault (when one is) and extra headers. Every
/// error a route throws should be one; `HTTPResponse(error:)` renders them all.
public protocol HTTPResponseError: Error {
    var status: Int { get }
    var code: String { get }
    var message: String { get }
    var field: String? { get }
    var headers: [(String, String)] { get }
}

extension HTTPResponseError {
    public var field: String? { nil }
    public var headers: [(String, String)] { [] }
}

extension HTTPResponse {
    /// The answer to any error: `{"error":{"code","message","field"}}` with the error's
    /// status and headers; an error that is not an `HTTPResponseError` is a bug, 500 `internal`.
    public init(error: any Error) {
        let known = error as? any HTTPResponseError ?? HTTPError.internal("\(error)")
        self = .json(ErrorBody(error: ErrorDetail(code: known.code, message: known.message, field: known.field)),
                     status: known.status)
        headers += known.headers
    }
}

private struct ErrorBody: Encodable { var error: ErrorDetail }

private struct ErrorDetail: Encodable {
    var code: String
    var message: String
    var field: String?
}

/// An error of the HTTP layer itself (routing, parameters, access, waits).
public struct HTTPError: HTTPResponseError, Sendable, CustomStringConvertible {
    public var status: Int
    public var code: String
    public var message: String
    public var field: String?
    public var headers: [(String, String)] = []

    public init(_ status: Int, _ code: String, _ message: String, field: String? = nil, headers: [(String, String)] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers
    }

    public var description: String { "\(status) \(code): \(message)" }

    // MARK: - Common errors

    public static func badParameter(_ name: String, _ message: String) -> HTTPError {
        HTTPError(400, "badParameter", message, field: name)
    }

    public static func notFound(_ message: String) -> HTTPError { HTTPError(404, "notFound", message) }

    public static func unauthorized(_ message: String) -> HTTPError {
        HTTPError(401, "unauthorized", message, headers: [("WWW-Authenticate", "Bearer")])
    }

    public static func tooLarge(_ limit: Int) -> HTTPError {
        HTTPError(413, "tooLarge", "the request body is larger than \(limit) bytes")
    }

    public static func stale(_ message: String, retryAfter seconds: Int? = nil) -> HTTPError {
        HTTPError(503, "stale", message, headers: seconds.map { [("Retry-After", String($0))] } ?? [])
    }

    public static func `internal`(_ message: String) -> HTTPError { HTTPError(500, "internal", message) }
}
