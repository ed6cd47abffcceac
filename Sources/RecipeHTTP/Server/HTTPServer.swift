import RecipeWire
import CMicroHTTPD
import Foundation

/// Answers complete requests. Called on the server's connection threads (one
/// per connection), so it may block while it waits.
public protocol HTTPHandler: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
}

/// An HTTP/1.1 server on libmicrohttpd: a thread per connection, bodies
/// collected up to `maxBodySize` (a larger one is answered 413 as soon as it
/// passes the limit, chunked or not, and the connection closed), every request
/// handed whole to the handler. The URI, the query and the headers are checked
/// against `Limits` first, and answered with the API's JSON errors (414, 400,
/// 431); only a request head too large for a connection's memory at all
/// (`connectionMemoryLimit`) gets libmicrohttpd's own answer, an HTML 431 or 414 that no
/// callback of libmicrohttpd 0.9.75 can replace (docs/operations.md, "Limits").
///
/// ```swift
/// let server = try HTTPServer(handler: api, port: 0, loopbackOnly: true)
/// print(server.port)
/// server.stop()
/// ```
public final class HTTPServer: @unchecked Sendable {
    /// The largest body of a request whose path has no limit of its own: routes that take
    /// larger bodies (commands, batches) say so through the server's `maxBodySize`.
    public static let defaultMaxBodySize = 64 * 1024

    /// What one client and one connection may take.
    public struct Limits: Sendable {
        /// Connections at once in all; beyond it new ones are closed at once.
        public var maxConnections = 1000
        /// Connections at once from one IP address, so one client cannot take them all.
        public var maxConnectionsPerClient = 64
        /// A connection that sends nothing for this long is closed (idle keep-alive, slow clients).
        public var connectionTimeoutSeconds = 15
        /// Memory per connection for its request line, headers and buffers; also
        /// bounds what the checks below can still answer with JSON.
        public var connectionMemoryLimit = 256 * 1024
        /// Longest request target (path and query); longer is 414.
        public var maxURILength = 8 * 1024
        /// Most query parameters; more is 400 `tooManyParameters`.
        public var maxQueryParameters = 64
        /// Most bytes of header names and values together; more is 431.
        public var maxHeaderBytes = 16 * 1024
        /// PEM text of the key and certificate chain: with both, the server speaks HTTPS only.
        public var tlsKeyPEM: String?
        public var tlsCertificatePEM: String?

        public init() {}
    }

    let handler: any HTTPHandler
    /// The largest body of a request to a path: a body past it is refused as it passes it.
    let maxBodySize: @Sendable (_ path: String) -> Int
    let limits: Limits
    /// The port it listens on (the chosen one when 0 was asked). Set once in init.
    public private(set) var port: UInt16 = 0
    private let lock = NSLock()
    private var daemon: OpaquePointer?

    public init(handler: any HTTPHandler, port: UInt16, loopbackOnly: Bool,
                maxBodySize: @escaping @Sendable (_ path: String) -> Int = { _ in HTTPServer.defaultMaxBodySize },
                limits: Limits = Limits()) throws {
        self.handler = handler
        self.maxBodySize = maxBodySize
        self.limits = limits
        let flags = UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
                           | MHD_USE_POLL.rawValue)
        // The daemon borrows the server: `stop` (or deinit) stops the daemon first.
        let context = Unmanaged.passUnretained(self).toOpaque()
        // MHD copies the PEM text while it starts; the C strings live until then.
        let key = limits.tlsKeyPEM.map { strdup($0) } ?? nil
        let certificate = limits.tlsCertificatePEM.map { strdup($0) } ?? nil
        defer { free(key); free(certificate) }
        var options = cmhd_limits(
            connection_timeout_seconds: UInt32(limits.connectionTimeoutSeconds), max_connections: UInt32(limits.maxConnections),
            max_connections_per_client: UInt32(limits.maxConnectionsPerClient), connection_memory_limit: limits.connectionMemoryLimit,
            tls_key_pem: key, tls_cert_pem: certificate)
        guard let daemon = cmhd_start_daemon(flags, port, loopbackOnly ? 1 : 0, &options,
                                             mhdAccessHandler, context, mhdRequestCompleted, nil, mhdRequestStarted, context) else {
            throw HTTPServerError(message: limits.tlsKeyPEM != nil
                                  ? "cannot listen on port \(port) with TLS (in use, not allowed, or the key and certificate are not PEM that match)"
                                  : "cannot listen on port \(port) (in use, or not allowed)")
        }
        self.daemon = daemon
        self.port = cmhd_bound_port(daemon)
    }

    deinit { stop() }

    /// Stops listening, waits for the connection threads, and returns.
    public func stop() {
        let daemon: OpaquePointer? = lock.withLock {
            defer { self.daemon = nil }
            return self.daemon
        }
        if let daemon { MHD_stop_daemon(daemon) }
    }
}

public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

// MARK: - libmicrohttpd callbacks (file scope: they run on MHD's threads)

/// One request's state between the handler's calls.
final class RequestState {
    /// The URI as sent, path and query still percent-encoded.
    let uri: String
    var headersSeen = false
    var body: [UInt8] = []
    /// Set when the URI breaks a limit: the answer, once the headers are in.
    var refusal: HTTPError?

    init(uri: String, refusal: HTTPError?) {
        self.uri = uri
        self.refusal = refusal
    }
}

/// Called first for each request, with its URI before libmicrohttpd decodes it: the request's
/// state starts here, so that the path and query are decoded by `HTTPRequest` (libmicrohttpd
/// decodes the whole path at once: `%2F` would become a separator and `%00` would end it early).
private func mhdRequestStarted(_ context: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?,
                               _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    let text = uri.map { String(cString: $0) } ?? "/"
    var refusal: HTTPError?
    if let context {
        let limits = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().limits
        if text.utf8.count > limits.maxURILength {
            refusal = HTTPError(414, "uriTooLong", "the request target is \(text.utf8.count) bytes; at most \(limits.maxURILength) are read")
        } else if let query = text.split(separator: "?", maxSplits: 1).dropFirst().first,
                  query.split(separator: "&").count > limits.maxQueryParameters {
            refusal = HTTPError(400, "tooManyParameters", "the query has more than \(limits.maxQueryParameters) parameters")
        }
    }
    // A refused request keeps only the start of its URI: it is never routed.
    return Unmanaged.passRetained(RequestState(uri: refusal == nil ? text : "/", refusal: refusal)).toOpaque()
}

/// Called once with the headers, then once per body chunk, then once more with
/// no data: then the request is complete and is answered.
private func mhdAccessHandler(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                              _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                              _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                              _ uploadDataSize: UnsafeMutablePointer<Int>?,
                              _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let context, let connection, let requestContext, let stored = requestContext.pointee else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    let state = Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()
    let maxBodySize = server.maxBodySize(url.map { String(cString: $0) } ?? "")
    if !state.headersSeen {
        state.headersSeen = true
        if let refusal = state.refusal { return queue(HTTPResponse(error: refusal), on: connection, closing: true) }
        let headerBytes = headerSize(connection)
        if headerBytes > server.limits.maxHeaderBytes {
            return queue(HTTPResponse(error: HTTPError(431, "headersTooLarge",
                                                       "the headers are \(headerBytes) bytes; at most \(server.limits.maxHeaderBytes) are read")),
                         on: connection, closing: true)
        }
        // A declared length over the limit is refused before reading any of it.
        if let length = lookup(connection, MHD_ValueKind.HEADER_KIND, "Content-Length").flatMap(Int.init),
           length > maxBodySize {
            return queue(HTTPResponse(error: HTTPError.tooLarge(maxBodySize)), on: connection, closing: true)
        }
        return MHD_Result.YES
    }
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        // Chunked (no length declared): refused as soon as it passes the limit, not at its end;
        // the rest is not read, the connection closes after the answer.
        if state.body.count + count > maxBodySize {
            uploadDataSize.pointee = 0
            state.body = []
            // libmicrohttpd queues no response in the middle of a body: the answer goes to the
            // socket itself (plain HTTP), and the connection closes. Over TLS it only closes.
            if server.limits.tlsKeyPEM == nil {
                let bytes = rawResponse(HTTPResponse(error: HTTPError.tooLarge(maxBodySize)))
                _ = bytes.withUnsafeBytes { cmhd_answer_and_close(connection, $0.baseAddress, $0.count) }
            }
            return MHD_Result.NO
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        }
        uploadDataSize.pointee = 0
        return MHD_Result.YES
    }
    let request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "GET",
        uri: state.uri,
        headers: values(connection, MHD_ValueKind.HEADER_KIND, lowercasingKeys: true),
        body: state.body)
    return queue(server.handler.respond(to: request), on: connection)
}

private func mhdRequestCompleted(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                                 _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                                 _ reason: MHD_RequestTerminationCode) {
    guard let requestContext, let stored = requestContext.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(stored).release()
    requestContext.pointee = nil
}

/// `closing`: the request was refused before it was read whole; the connection ends after the answer.
private func queue(_ response: HTTPResponse, on connection: OpaquePointer, closing: Bool = false) -> MHD_Result {
    let created = response.body.withUnsafeBytes { bytes in
        cmhd_response_copying(bytes.baseAddress, bytes.count)
    }
    guard let created else { return MHD_Result.NO }
    for (name, value) in response.headers { _ = MHD_add_response_header(created, name, value) }
    if closing { _ = MHD_add_response_header(created, "Connection", "close") }
    let result = MHD_queue_response(connection, UInt32(response.status), created)
    MHD_destroy_response(created)
    return result
}

/// A whole HTTP/1.1 response as bytes, for `cmhd_answer_and_close`.
private func rawResponse(_ response: HTTPResponse) -> [UInt8] {
    var head = "HTTP/1.1 \(response.status) \(response.status == 413 ? "Content Too Large" : "Error")\r\n"
    for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
    return Array(head.utf8) + response.body
}

/// Bytes of every header's name and value.
private func headerSize(_ connection: OpaquePointer) -> Int {
    values(connection, MHD_ValueKind.HEADER_KIND, lowercasingKeys: false).reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
}

private func lookup(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ key: String) -> String? {
    MHD_lookup_connection_value(connection, kind, key).map { String(cString: $0) }
}

/// Collects one kind of values (headers, query arguments) of a request.
private final class Pairs {
    var values: [String: String] = [:]
    var lowercasingKeys = false
}

private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind, lowercasingKeys: Bool) -> [String: String] {
    let pairs = Pairs()
    pairs.lowercasingKeys = lowercasingKeys
    _ = withExtendedLifetime(pairs) {
        MHD_get_connection_values(connection, kind, { context, _, key, value in
            guard let context, let key else { return MHD_Result.YES }
            let pairs = Unmanaged<Pairs>.fromOpaque(context).takeUnretainedValue()
            let name = String(cString: key)
            pairs.values[pairs.lowercasingKeys ? name.lowercased() : name] = value.map { String(cString: $0) } ?? ""
            return MHD_Result.YES
        }, Unmanaged.passUnretained(pairs).toOpaque())
    }
    return pairs.values
}
