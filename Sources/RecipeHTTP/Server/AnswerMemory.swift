import CMicroHTTPD
import Foundation
import Threads

/// Bytes that answers hold of the server's memory, bounded in all and per client address, so
/// that clients that never read what they asked for cannot fill the server's memory.
///
/// What an answer costs: libmicrohttpd 0.9.75 fills a connection's buffers (`connectionMemoryLimit`,
/// 256 KiB) when it answers and zeroes all of them between requests of a kept-alive connection, so
/// a connection holds that much from its first answer until it closes; an answer's body is
/// copied per connection unless it is `SharedBytes`. The server keeps two accounts of
/// `HTTPServer.Limits.answerMemory` each: `unsent`, each answer's buffers and copied body from
/// when it is queued until libmicrohttpd says it is done (sent, or the connection gone); and
/// `keptAlive`, the buffers of each answered connection that is kept open, until it closes.
/// Answers of at most 16 KiB are not counted as unsent: the socket takes them at once.
/// A third account of the same bounds, `requestBodies`, holds each request's body as it is read,
/// until its handler is done (a body past it is refused 503 `busy` as it passes, mid-body).
/// An answer that does not fit in `unsent` is a small 503 `busy` that closes the connection; one
/// that does not fit in `keptAlive` is sent, with `Connection: close`.
final class AnswerMemory: Sendable {
    /// At most this many bytes in all, and per client (0: no bound of its own).
    let total: Int
    let perClient: Int
    /// The polling threads share one account.
    private let account = Locked((held: 0, byClient: [String: Int]()))

    init(total: Int, perClient: Int) {
        self.total = total
        self.perClient = perClient
    }

    /// Takes `bytes` for `client` when both bounds allow (or, `evenPast`, whatever they say); false
    /// (nothing taken) when not.
    func reserve(_ bytes: Int, for client: String, evenPast: Bool = false) -> Bool {
        account.withLock { account in
            let clientHeld = account.byClient[client, default: 0]
            guard evenPast || account.held + bytes <= total, evenPast || perClient == 0 || clientHeld + bytes <= perClient else { return false }
            account.held += bytes
            account.byClient[client] = clientHeld + bytes
            return true
        }
    }

    /// Whether `reserve` would take `bytes` for `client` now (it may not, a moment later).
    func wouldFit(_ bytes: Int, for client: String) -> Bool {
        account.withLock { $0.held + bytes <= total && (perClient == 0 || $0.byClient[client, default: 0] + bytes <= perClient) }
    }

    func release(_ bytes: Int, for client: String) {
        guard bytes > 0 else { return }
        account.withLock { account in
            account.held -= bytes
            let left = account.byClient[client, default: 0] - bytes
            account.byClient[client] = left > 0 ? left : nil
        }
    }

    /// The bytes held now, in all.
    var heldBytes: Int { account.withLock { $0.held } }
}

/// One connection's state between libmicrohttpd's calls, from its start to its close; only its
/// polling thread touches it.
final class ConnectionState {
    /// Who the connection's answers are counted for.
    var client = ""
    /// Bytes it holds in `HTTPServer.keptAliveAnswers` while it stays open after an answer.
    var keptAliveBytes = 0
    /// Closed after a refusal whose body was not read: what the client still sends is read off
    /// (`LingeringCloses`) so that the close does not reset the connection before it reads the answer.
    var lingers = false
}

/// Called as a connection starts, and as it closes (before its socket is closed).
func mhdConnectionNotified(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                           _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                           _ code: MHD_ConnectionNotificationCode) {
    guard let context, let socketContext else { return }
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        socketContext.pointee = Unmanaged.passRetained(ConnectionState()).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        guard let stored = socketContext.pointee else { return }
        socketContext.pointee = nil
        let state = Unmanaged<ConnectionState>.fromOpaque(stored).takeRetainedValue()
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        server.keptAliveAnswers.release(state.keptAliveBytes, for: state.client)
        if state.lingers, let connection {
            let socket = cmhd_duplicate_socket(connection)
            if socket >= 0 { server.lingeringCloses.add(socket) }
        }
    default:
        break
    }
}

/// The connection's state (nil only when libmicrohttpd did not tell of its start).
func connectionState(_ connection: OpaquePointer) -> ConnectionState? {
    cmhd_connection_context(connection).map { Unmanaged<ConnectionState>.fromOpaque($0).takeUnretainedValue() }
}

extension HTTPServer {
    /// An answer this small leaves libmicrohttpd as it is queued, whether its client reads or not:
    /// a socket's send buffer takes at least this much (Linux: `tcp_wmem`'s default, 16 KiB). So it
    /// is not counted in `unsentAnswers` (a burst of small answers is never `busy`).
    static let takenBySocketAtOnce = 16 * 1024

    static let busyAnswer = HTTPResponse(error: HTTPError(
        503, "busy", "the server holds as many answers not yet read as it may (for this client, or in all); try again",
        headers: [("Retry-After", "1")]))

    /// Whether one more answer's buffers would fit in `unsentAnswers` now: a request that finds no
    /// room is answered `busy` before it is handled, so a client that does not read what it asked
    /// for has no more answers made for it (their work and memory) until it reads.
    func hasRoomForAnswer(for request: RequestState) -> Bool {
        unsentAnswers.wouldFit(limits.connectionMemoryLimit, for: request.client)
    }

    /// The answer that goes out for `response` within the memory bounds, and whether the
    /// connection closes after it; what it takes of `unsentAnswers` is noted in `request`, to
    /// be given back when libmicrohttpd is done with it.
    func bounded(_ response: HTTPResponse, closing: Bool, request: RequestState,
                 connection: ConnectionState?) -> (response: HTTPResponse, closing: Bool) {
        let buffers = limits.connectionMemoryLimit
        if response.body.count > Self.takenBySocketAtOnce {
            let cost = buffers + (response.shared == nil ? response.body.count : 0)
            // A write's work is done by now (a batch appended): its answer is sent, counted past
            // the bound; the next request of its client finds no room (`hasRoomForAnswer`).
            let isWrite = request.request.map { !["GET", "HEAD"].contains($0.method) } ?? false
            guard unsentAnswers.reserve(cost, for: request.client, evenPast: isWrite) else { return (Self.busyAnswer, true) }
            request.unsentBytes = cost
        }
        guard !closing, let connection else { return (response, closing) }
        if connection.keptAliveBytes == 0 {
            guard keptAliveAnswers.reserve(buffers, for: request.client) else { return (response, true) }
            connection.keptAliveBytes = buffers
            connection.client = request.client
        }
        return (response, false)
    }
}
