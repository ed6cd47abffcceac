import CMicroHTTPD
import Foundation
import Threads

/// Answers requests in two steps: `admit` once the request line and headers are in, before any
/// byte of the body is read, and `respond` once the request is complete.
public protocol HTTPHandler: Sendable {
    /// Called on one of the server's polling threads, so it must not block: it decides from the
    /// head alone (route, method, credentials, declared length, media type) whether the body is
    /// read at all. `head` has no body; `head.declaresBody` says whether one follows.
    func admit(_ head: HTTPRequest) -> HTTPAdmission
    /// Called on a handler thread (`HTTPServer.Limits.handlerThreads`), so it may block while it waits.
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// Called on the polling thread with a complete request before it is handed to a handler
    /// thread: the answer, when it can be made without blocking (no wait for a lock held
    /// by other work, for the log or for a position), saving the hand-off; nil to have `respond` make it.
    func respondWithoutWaiting(to request: HTTPRequest) -> HTTPResponse?
}

extension HTTPHandler {
    /// Every request is read, with a body of up to `HTTPServer.defaultMaxBodySize`.
    public func admit(_ head: HTTPRequest) -> HTTPAdmission { .read(maxBodySize: HTTPServer.defaultMaxBodySize) }
    /// Every request is answered on a handler thread.
    public func respondWithoutWaiting(to request: HTTPRequest) -> HTTPResponse? { nil }
}

/// What `HTTPHandler.admit` decides about a request whose headers are in.
public enum HTTPAdmission: Sendable {
    /// Read the body, refusing it (413) as soon as it passes `maxBodySize` bytes.
    case read(maxBodySize: Int)
    /// Answer at once without reading the body; a connection that declared one closes after the answer.
    case answer(HTTPResponse)
}

/// An HTTP/1.1 server on libmicrohttpd. A few polling threads (epoll) hold every connection, so
/// an idle or slow client costs a socket and its buffers, not a thread. Once a request's headers
/// are in it is checked against `Limits` (the URI, the query, the headers' size, one framing of
/// its body), then the handler admits it or answers it at once; an admitted body is collected up
/// to the handler's limit (a larger one is answered 413 as soon as it passes it, chunked or not,
/// and the connection closed). The complete request is then handed to a handler thread while its
/// connection is suspended, and the connection resumed with the answer (unless the handler
/// answers it at once without blocking: `HTTPHandler.respondWithoutWaiting`). Refusals are the API's
/// JSON errors; only a request head too large for a connection's memory at all
/// (`connectionMemoryLimit`) or one libmicrohttpd cannot parse gets libmicrohttpd's own answer,
/// an HTML 431, 414 or 400 that no callback of libmicrohttpd 0.9.75 can replace
/// (docs/operations.md, "Connections"). `HTTPServer(handler:port:loopbackOnly:)` listens at once;
/// `stop()` closes every connection.
public final class HTTPServer: @unchecked Sendable {
    /// The largest body of a request whose handler sets no limit of its own.
    public static let defaultMaxBodySize = 64 * 1024
    /// Open files kept for everything but connections (the store, Kafka's sockets, logs).
    public static let reservedFiles = 1024

    /// What clients and connections may hold.
    public struct Limits: Sendable {
        /// Connections at once in all; beyond it new ones are closed at once. At most what the
        /// open-file limit allows (`connectionCapacity()`).
        public var maxConnections = 16_384
        /// Connections at once from one IP address, so one client cannot take them all; nil: half
        /// of `maxConnections`, or none with `trustedProxies` (behind a proxy every client has its
        /// address); 0: no limit of its own.
        public var maxConnectionsPerClient: Int? = nil
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
        /// Bytes that answers may hold (`AnswerMemory`): answers queued and not yet sent, each
        /// its connection's buffers and its body unless shared; and again the buffers of answered
        /// connections kept open; and again request bodies being read and handled. Past it an
        /// answer is 503 `busy` (kept open: `Connection: close`; a body: 503 `busy` as it passes).
        public var answerMemory = 128 << 20
        /// The same per client address; nil: a quarter of `answerMemory`; 0: no bound of its own.
        public var answerMemoryPerClient: Int? = nil
        /// Threads that poll the connections.
        public var pollingThreads = 2
        /// At most this many requests are handled at once (each on a thread while it runs); more wait their turn.
        public var handlerThreads = 256
        /// Proxies whose `X-Forwarded-For` names the client (`HTTPRequest.clientAddress`).
        public var trustedProxies = TrustedProxies()
        /// PEM text of the key and certificate chain: with both, the server speaks HTTPS only.
        public var tlsKeyPEM: String?
        public var tlsCertificatePEM: String?

        public init() {}

        /// `maxConnectionsPerClient` as applied: 0 when there is no limit of its own.
        var perClientLimit: Int { maxConnectionsPerClient ?? (trustedProxies.isEmpty ? max(1, maxConnections / 2) : 0) }
    }

    let handler: any HTTPHandler
    let limits: Limits
    let handlerThreads: HandlerThreads
    /// What answers hold of memory (`AnswerMemory`).
    let unsentAnswers: AnswerMemory
    let keptAliveAnswers: AnswerMemory
    /// What request bodies hold while they are read and handled, within the same bounds.
    let requestBodies: AnswerMemory
    let lingeringCloses = LingeringCloses()
    /// Streamed answers open now (`AnswerStream`): `stop` ends them.
    let openStreams = OpenStreams()
    /// The port it listens on (the chosen one when 0 was asked). Set once in init.
    public private(set) var port: UInt16 = 0
    /// The connections it holds at most: `Limits.maxConnections`, or fewer when the open-file limit allows fewer.
    public let maxConnections: Int
    /// Until `stop` takes it.
    private let daemon = Locked<Daemon?>(nil)

    /// A running daemon's handle, which libmicrohttpd lets any thread stop.
    private struct Daemon: @unchecked Sendable {
        let handle: OpaquePointer
    }
    /// Set when `stop` begins: handlers that run long (`HTTPRequest.cancellation`) end early.
    let stopping = ServerStopping()

    public init(handler: any HTTPHandler, port: UInt16, loopbackOnly: Bool, limits: Limits = Limits()) throws {
        self.handler = handler
        self.limits = limits
        maxConnections = min(limits.maxConnections, Self.connectionCapacity())
        handlerThreads = HandlerThreads(maxThreads: limits.handlerThreads)
        let perClient = limits.answerMemoryPerClient ?? limits.answerMemory / 4
        unsentAnswers = AnswerMemory(total: limits.answerMemory, perClient: perClient)
        keptAliveAnswers = AnswerMemory(total: limits.answerMemory, perClient: perClient)
        requestBodies = AnswerMemory(total: limits.answerMemory, perClient: perClient)
        let flags = UInt32(MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue)
        // MHD copies the PEM text while it starts; the C strings live until then.
        let key = limits.tlsKeyPEM.map { strdup($0) } ?? nil
        let certificate = limits.tlsCertificatePEM.map { strdup($0) } ?? nil
        defer { free(key); free(certificate) }
        var options = cmhd_limits(
            connection_timeout_seconds: UInt32(limits.connectionTimeoutSeconds), max_connections: UInt32(maxConnections),
            max_connections_per_client: UInt32(min(limits.perClientLimit, maxConnections)), connection_memory_limit: limits.connectionMemoryLimit, polling_threads: UInt32(max(1, limits.pollingThreads)),
            tls_key_pem: key, tls_cert_pem: certificate)
        // The daemon borrows the server: `stop` (or deinit) stops the daemon first.
        var callbacks = cmhd_callbacks(handler: mhdAccessHandler, completed: mhdRequestCompleted, uri_logger: mhdRequestStarted,
                                       connection_notifier: mhdConnectionNotified, context: Unmanaged.passUnretained(self).toOpaque())
        guard let daemon = cmhd_start_daemon(flags, port, loopbackOnly ? 1 : 0, &options, &callbacks) else {
            throw HTTPServerError(message: limits.tlsKeyPEM != nil
                                  ? "cannot listen on port \(port) with TLS (in use, not allowed, or the key and certificate are not PEM that match)"
                                  : "cannot listen on port \(port) (in use, or not allowed)")
        }
        self.port = cmhd_bound_port(daemon)
        self.daemon.withLock { $0 = Daemon(handle: daemon) }
    }

    deinit { stop() }

    /// Stops listening: lets the requests being handled finish and be answered (those that run long
    /// see `HTTPRequest.cancellation` say so, and end early), then closes every connection.
    public func stop() {
        guard let daemon = self.daemon.withLock({ $0.take() })?.handle else { return }
        stopping.begin()
        openStreams.endAll()
        // libmicrohttpd may not stop while a connection is suspended: each handler resumes its own.
        handlerThreads.stop()
        MHD_stop_daemon(daemon)
        lingeringCloses.stop()
    }

    /// Raises the process's soft limit of open files to its hard limit (each connection is a
    /// file) and answers how many connections that leaves room for, `reservedFiles` kept aside.
    public static func connectionCapacity() -> Int {
        var files = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0 else { return 0 }
        if files.rlim_cur < files.rlim_max {
            var raised = files
            raised.rlim_cur = files.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { files = raised }
        }
        return max(0, Int(clamping: files.rlim_cur) - reservedFiles)
    }
}

public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
    public init(message: String) { self.message = message }
}
