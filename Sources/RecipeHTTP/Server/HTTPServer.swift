import RecipeWire
import CMicroHTTPD
import Foundation

/// Answers complete requests. Called on the server's connection threads (one
/// per connection), so it may block while it waits.
public protocol HTTPHandler: Sendable {
    func respond(to request: HTTPRequest) -> HTTPResponse
}

/// An HTTP/1.1 server on libmicrohttpd: a thread per connection, bodies
/// collected up to `maxBodySize` (a larger body is read and dropped, then
/// answered 413), every request handed whole to the handler.
///
/// ```swift
/// let server = try HTTPServer(handler: api, port: 0, loopbackOnly: true)
/// print(server.port)
/// server.stop()
/// ```
public final class HTTPServer: @unchecked Sendable {
    /// As large as a record: a command's body is its record's `data` and a little more.
    public static let defaultMaxBodySize = WireFormat.maxRecordSize

    let handler: any HTTPHandler
    let maxBodySize: Int
    /// The port it listens on (the chosen one when 0 was asked). Set once in init.
    public private(set) var port: UInt16 = 0
    private let lock = NSLock()
    private var daemon: OpaquePointer?

    public init(handler: any HTTPHandler, port: UInt16, loopbackOnly: Bool,
                maxBodySize: Int = HTTPServer.defaultMaxBodySize) throws {
        self.handler = handler
        self.maxBodySize = maxBodySize
        let flags = UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
                           | MHD_USE_POLL.rawValue)
        // The daemon borrows the server: `stop` (or deinit) stops the daemon first.
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let daemon = cmhd_start_daemon(flags, port, loopbackOnly ? 1 : 0, 30,
                                             mhdAccessHandler, context, mhdRequestCompleted, nil, mhdRequestStarted, nil) else {
            throw HTTPServerError(message: "cannot listen on port \(port) (in use, or not allowed)")
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
    var overflowed = false

    init(uri: String) { self.uri = uri }
}

/// Called first for each request, with its URI before libmicrohttpd decodes it: the request's
/// state starts here, so that the path and query are decoded by `HTTPRequest` (libmicrohttpd
/// decodes the whole path at once: `%2F` would become a separator and `%00` would end it early).
private func mhdRequestStarted(_ context: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?,
                               _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    Unmanaged.passRetained(RequestState(uri: uri.map { String(cString: $0) } ?? "/")).toOpaque()
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
    if !state.headersSeen {
        state.headersSeen = true
        // A declared length far over the limit is refused before reading it.
        if let length = lookup(connection, MHD_ValueKind.HEADER_KIND, "Content-Length").flatMap(Int.init),
           length > server.maxBodySize * 16 {
            return queue(HTTPResponse(error: HTTPError.tooLarge(server.maxBodySize)), on: connection)
        }
        return MHD_Result.YES
    }
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        if !state.overflowed, let uploadData {
            if state.body.count + count > server.maxBodySize {
                state.overflowed = true
                state.body = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                    state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
            }
        }
        uploadDataSize.pointee = 0
        return MHD_Result.YES
    }
    if state.overflowed {
        return queue(HTTPResponse(error: HTTPError.tooLarge(server.maxBodySize)), on: connection)
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

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let created = response.body.withUnsafeBytes { bytes in
        cmhd_response_copying(bytes.baseAddress, bytes.count)
    }
    guard let created else { return MHD_Result.NO }
    for (name, value) in response.headers { _ = MHD_add_response_header(created, name, value) }
    let result = MHD_queue_response(connection, UInt32(response.status), created)
    MHD_destroy_response(created)
    return result
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
