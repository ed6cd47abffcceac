import CMicroHTTPD
import Foundation

// libmicrohttpd's callbacks, at file scope: they run on its polling threads, which must never
// block; the handler's `respond` runs on `HandlerThreads` while the connection is suspended,
// unless `respondWithoutWaiting` answers the request on the polling thread without blocking.

/// One request's state between libmicrohttpd's calls.
final class RequestState: @unchecked Sendable {
    enum Phase {
        /// Nothing seen but the URI.
        case head
        /// Admitted: its body is being read.
        case body
        /// Complete, with a handler thread; the connection is suspended until `response` is set.
        case handling
        case answered
    }

    /// The URI as sent, path and query still percent-encoded.
    let uri: String
    /// Set when the URI breaks a limit: the answer, once the headers are in.
    let refusal: HTTPError?
    var phase = Phase.head
    /// The head as admitted, then with its body.
    var request: HTTPRequest?
    var maxBodySize = 0
    var body: [UInt8] = []
    /// Written by the handler thread before it resumes the connection, read by libmicrohttpd's
    /// thread after the resume: libmicrohttpd's lock around the resume orders the two.
    var response: HTTPResponse?
    /// Who its answer is counted for (`AnswerMemory`), and the bytes its answer holds there.
    var client = ""
    var unsentBytes = 0
    /// The bytes its body holds in `HTTPServer.requestBodies` while it is read and handled.
    var bodyBytes = 0

    init(uri: String, refusal: HTTPError?) {
        self.uri = uri
        self.refusal = refusal
    }
}

/// A suspended connection, for the handler thread that resumes it.
private struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}

private func server(_ context: UnsafeMutableRawPointer) -> HTTPServer {
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
}

/// Called first for each request, with its URI before libmicrohttpd decodes it: the request's
/// state starts here, so that the path and query are decoded by `HTTPRequest` (libmicrohttpd
/// decodes the whole path at once: `%2F` would become a separator and `%00` would end it early).
func mhdRequestStarted(_ context: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?,
                       _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    let text = uri.map { String(cString: $0) } ?? "/"
    var refusal: HTTPError?
    if let context {
        let limits = server(context).limits
        if text.utf8.count > limits.maxURILength {
            refusal = HTTPError(414, "uriTooLong", "the request target is \(text.utf8.count) bytes; at most \(limits.maxURILength) are read")
        } else if let question = text.utf8.firstIndex(of: UInt8(ascii: "?")), question != text.utf8.startIndex,
                  case let query = text.utf8[text.utf8.index(after: question)...], !query.isEmpty,
                  // Empty ones count: libmicrohttpd stores one argument per `&` all the same.
                  query.reduce(1, { $1 == UInt8(ascii: "&") ? $0 + 1 : $0 }) > limits.maxQueryParameters {
            refusal = HTTPError(400, "tooManyParameters", "the query has more than \(limits.maxQueryParameters) parameters")
        }
    }
    // libmicrohttpd parses the query into the connection's memory right after this call, and
    // closes the connection without a word when thousands of parameters do not fit. A refused
    // request is never routed: its query is cut off in libmicrohttpd's buffer (where it reads the
    // request line in place), so that nothing of it is parsed and the refusal is answered.
    if refusal != nil, let uri, let question = strchr(uri, Int32(UInt8(ascii: "?"))) {
        UnsafeMutablePointer(mutating: question + 1).pointee = 0
    }
    return Unmanaged.passRetained(RequestState(uri: refusal == nil ? text : "/", refusal: refusal)).toOpaque()
}

/// Called once with the headers, then once per body chunk, then once more with no data: then
/// the request is complete and goes to a handler thread; once more after the handler has
/// resumed the connection, to queue its answer.
func mhdAccessHandler(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                      _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                      _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                      _ uploadDataSize: UnsafeMutablePointer<Int>?,
                      _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let context, let connection, let requestContext, let stored = requestContext.pointee else { return MHD_Result.NO }
    let server = server(context)
    let state = Unmanaged<RequestState>.fromOpaque(stored).takeUnretainedValue()
    switch state.phase {
    case .head:
        state.phase = .body
        let head = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", uri: state.uri,
                               headers: values(connection, MHD_ValueKind.HEADER_KIND, lowercasingKeys: true))
        state.client = clientAddress(server, connection, head)
        if let refusal = state.refusal ?? headRefusal(server, connection, head, version: version) {
            return queue(HTTPResponse(error: refusal), on: connection, closing: true, server, state, bodyUnread: head.declaresBody)
        }
        var admitted = head
        admitted.clientAddress = state.client
        switch server.handler.admit(admitted) {
        case .answer(let response):
            return queue(response, on: connection, closing: head.declaresBody, server, state, bodyUnread: head.declaresBody)
        case .read(let maxBodySize):
            // A declared length over the limit is refused before reading any of it.
            if let length = head.declaredBodyLength, length > maxBodySize {
                return queue(HTTPResponse(error: HTTPError.tooLarge(maxBodySize)), on: connection, closing: true, server, state,
                             bodyUnread: true)
            }
            state.request = admitted
            state.maxBodySize = maxBodySize
            return MHD_Result.YES
        }
    case .body:
        if let uploadDataSize, uploadDataSize.pointee > 0 {
            return take(uploadData, uploadDataSize, into: state, server, connection)
        }
        guard var complete = state.request else { return MHD_Result.NO }
        complete.body = state.body
        state.body = []
        complete.cancellation = RequestCancellation(socket: cmhd_connection_socket(connection), stopping: server.stopping)
        let request = complete
        state.phase = .handling
        guard server.hasRoomForAnswer(for: state) else {
            state.phase = .answered
            return queue(HTTPServer.busyAnswer, on: connection, closing: true, server, state)
        }
        let handler = server.handler
        if let response = handler.respondWithoutWaiting(to: request) {
            server.requestBodies.release(state.bodyBytes, for: state.client)
            state.bodyBytes = 0
            state.phase = .answered
            return queue(response, on: connection, server, state)
        }
        // Suspended before the handler can resume it: a resume must follow its suspend.
        MHD_suspend_connection(connection)
        let suspended = SuspendedConnection(pointer: connection)
        let taken = server.handlerThreads.submit {
            state.response = handler.respond(to: request)
            MHD_resume_connection(suspended.pointer)
        }
        if !taken {
            state.response = HTTPResponse(error: HTTPError(503, "unavailable", "the server is stopping"))
            MHD_resume_connection(connection)
        }
        return MHD_Result.YES
    case .handling:
        guard let response = state.response else { return MHD_Result.YES }
        // The handler is done with the body.
        server.requestBodies.release(state.bodyBytes, for: state.client)
        state.bodyBytes = 0
        state.phase = .answered
        state.response = nil
        return queue(response, on: connection, server, state)
    case .answered:
        return MHD_Result.YES
    }
}

/// 431 for headers over the limit, 400 `badFraming` for a body that could be framed two ways.
private func headRefusal(_ server: HTTPServer, _ connection: OpaquePointer, _ head: HTTPRequest,
                         version: UnsafePointer<CChar>?) -> HTTPError? {
    let headerBytes = head.headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    if headerBytes > server.limits.maxHeaderBytes {
        return HTTPError(431, "headersTooLarge", "the headers are \(headerBytes) bytes; at most \(server.limits.maxHeaderBytes) are read")
    }
    return RequestFraming.violation(connection, version: version).map { HTTPError(400, "badFraming", $0) }
}

/// The connection's address, or the client a trusted proxy names.
private func clientAddress(_ server: HTTPServer, _ connection: OpaquePointer, _ head: HTTPRequest) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    let peer = buffer.withUnsafeMutableBufferPointer {
        cmhd_client_address(connection, $0.baseAddress!, $0.count) != 0 ? String(cString: $0.baseAddress!) : ""
    }
    return server.limits.trustedProxies.client(peer: peer, forwardedFor: head.header("x-forwarded-for"))
}

/// Adds a piece of the body, or refuses the request once the body passes its limit.
private func take(_ uploadData: UnsafePointer<CChar>?, _ uploadDataSize: UnsafeMutablePointer<Int>, into state: RequestState,
                  _ server: HTTPServer, _ connection: OpaquePointer) -> MHD_Result {
    let count = uploadDataSize.pointee
    uploadDataSize.pointee = 0
    // Chunked (no length declared): refused as soon as it passes the limit, not at its end;
    // the rest is not read, the connection closes after the answer.
    if state.body.count + count > state.maxBodySize {
        return refuseMidBody(HTTPResponse(error: HTTPError.tooLarge(state.maxBodySize)), state, server, connection)
    }
    // The body counts in `requestBodies` (its declared length at once, its buffer then sized to
    // it): a client past its bound (hundreds of uploads stalled near their end) is told it is busy.
    let declared = state.bodyBytes == 0 ? (state.request?.declaredBodyLength ?? 0) : 0
    let needed = max(state.body.count + count, declared) - state.bodyBytes
    if needed > 0 {
        guard server.requestBodies.reserve(needed, for: state.client) else {
            return refuseMidBody(HTTPServer.busyAnswer, state, server, connection)
        }
        state.bodyBytes += needed
    }
    if declared > 0 { state.body.reserveCapacity(declared) }
    if let uploadData {
        uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
            state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
        }
    }
    return MHD_Result.YES
}

func mhdRequestCompleted(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                         _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                         _ reason: MHD_RequestTerminationCode) {
    guard let requestContext, let stored = requestContext.pointee else { return }
    let state = Unmanaged<RequestState>.fromOpaque(stored).takeRetainedValue()
    requestContext.pointee = nil
    if let context {
        server(context).unsentAnswers.release(state.unsentBytes, for: state.client)
        server(context).requestBodies.release(state.bodyBytes, for: state.client)
    }
}

/// Headers every answer carries (unless it sets them itself): no client may guess another type than the one sent.
private let commonHeaders = [("X-Content-Type-Options", "nosniff")]

private func headers(of response: HTTPResponse) -> [(String, String)] {
    response.headers + commonHeaders.filter { common in !response.headers.contains { $0.0.lowercased() == common.0.lowercased() } }
}

/// `closing`: the request was refused before it was read whole; the connection ends after the
/// answer (`bodyUnread`: and what the client still sends of its body is read off first). Within
/// the bounds of `AnswerMemory`, or 503 `busy`.
private func queue(_ response: HTTPResponse, on connection: OpaquePointer, closing: Bool = false,
                   _ server: HTTPServer, _ state: RequestState, bodyUnread: Bool = false) -> MHD_Result {
    if let stream = response.stream { return queueStream(stream, response, on: connection, server, headers: headers(of: response)) }
    let connectionState = connectionState(connection)
    let (response, closing) = server.bounded(response, closing: closing, request: state, connection: connectionState)
    if closing && bodyUnread { connectionState?.lingers = true }
    let created: OpaquePointer?
    if let shared = response.shared {
        // The response holds the shared bytes until libmicrohttpd releases it.
        created = cmhd_response_sharing(shared.base, shared.count, Unmanaged.passRetained(shared).toOpaque()) { owner in
            if let owner { Unmanaged<SharedBytes>.fromOpaque(owner).release() }
        }
        if created == nil { Unmanaged.passUnretained(shared).release() }
    } else {
        created = response.body.withUnsafeBytes { bytes in
            cmhd_response_copying(bytes.baseAddress, bytes.count)
        }
    }
    guard let created else { return MHD_Result.NO }
    for (name, value) in headers(of: response) { _ = MHD_add_response_header(created, name, value) }
    if closing { _ = MHD_add_response_header(created, "Connection", "close") }
    let result = MHD_queue_response(connection, UInt32(response.status), created)
    MHD_destroy_response(created)
    return result
}

/// A whole HTTP/1.1 response as bytes, for `cmhd_answer_and_close`.
private func rawResponse(_ response: HTTPResponse) -> [UInt8] {
    let reason = [413: "Content Too Large", 503: "Service Unavailable"][response.status] ?? "Error"
    var head = "HTTP/1.1 \(response.status) \(reason)\r\n"
    for (name, value) in headers(of: response) { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
    return Array(head.utf8) + response.body
}

/// Ends a request in the middle of its body with `response`: libmicrohttpd queues no response
/// there, so the answer goes to the socket itself (plain HTTP) and the connection closes, what the
/// client still sends read off first (`LingeringCloses`). Over TLS it only closes.
private func refuseMidBody(_ response: HTTPResponse, _ state: RequestState, _ server: HTTPServer,
                           _ connection: OpaquePointer) -> MHD_Result {
    state.body = []
    connectionState(connection)?.lingers = true
    if server.limits.tlsKeyPEM == nil {
        let bytes = rawResponse(response)
        _ = bytes.withUnsafeBytes { cmhd_answer_and_close(connection, $0.baseAddress, $0.count) }
    }
    return MHD_Result.NO
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
