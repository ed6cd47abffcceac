import CMicroHTTPD
import Threads

/// Whether the work of a request may stop before its end, because no one will read its answer:
/// its client closed the connection (or its sending side), or the server is stopping. Work
/// that may run long (an import) asks every so many steps; an answer costs one `poll` of the
/// connection's socket, with no wait. The socket stays the request's while its handler runs
/// (the connection is suspended until it answers), so asking is only for that time.
public final class RequestCancellation: Sendable {
    public enum Reason: Sendable, Equatable {
        case clientGone
        case serverStopping
    }

    private let socket: Int32
    private let stopping: ServerStopping

    init(socket: Int32, stopping: ServerStopping) {
        self.socket = socket
        self.stopping = stopping
    }

    /// Why the work may stop; nil while its answer is still awaited.
    public var reason: Reason? {
        if stopping.isStopping { return .serverStopping }
        return cmhd_peer_closed(socket) != 0 ? .clientGone : nil
    }
}

/// Set once when `HTTPServer.stop` begins, before it waits for the handlers: what they run may end early.
final class ServerStopping: Sendable {
    private let flag = Locked(false)

    var isStopping: Bool { flag.withLock { $0 } }

    func begin() { flag.withLock { $0 = true } }
}
