import Foundation
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// Sockets closed after a refusal whose body was not read (413, 401, …). Closing a socket with
/// unread bytes resets the connection, and a client still sending its body then gets a broken
/// pipe and may never read the answer, which was sent. So such a socket is kept open (a
/// duplicate of libmicrohttpd's descriptor) and what comes is read and thrown away, as common
/// servers do, until the client closes, `quietSeconds` pass without a byte, `maxSeconds` pass, or
/// `maxBytes` are read; at most `maxSockets` at once (beyond, a socket closes at once). One
/// thread polls them all.
final class LingeringCloses: Sendable {
    static let maxSockets = 256
    static let maxBytes = 8 << 20
    static let maxSeconds = 10.0
    static let quietSeconds = 2.0

    private struct Lingering {
        var socket: Int32
        var until: ContinuousClock.Instant
        var quietUntil: ContinuousClock.Instant
        var bytesLeft: Int
    }

    private let state = Locked(State())

    private struct State {
        var sockets: [Lingering] = []
        /// Started with the first socket, ended by `stop`.
        var thread: OwnedThread?
        var stopping = false
    }

    /// Takes `socket` (its answer written, its sending side shut down) and closes it when done.
    func add(_ socket: Int32) {
        let start = state.withLock { state -> OwnedThread? in
            guard !state.stopping, state.sockets.count < Self.maxSockets else {
                close(socket)
                return nil
            }
            let now = ContinuousClock.now
            state.sockets.append(Lingering(socket: socket, until: now + .seconds(Self.maxSeconds),
                                           quietUntil: now + .seconds(Self.quietSeconds), bytesLeft: Self.maxBytes))
            guard state.thread == nil else { return nil }
            let thread = OwnedThread(name: "http-linger")
            state.thread = thread
            return thread
        }
        start?.start { [self] in run() }
    }

    /// Closes every socket and returns once the thread has ended.
    func stop() {
        let thread = state.withLock { state in
            state.stopping = true
            return state.thread
        }
        thread?.join()
        state.withLock { state in
            for lingering in state.sockets { close(lingering.socket) }
            state.sockets = []
        }
    }

    private func run() {
        var sink = [UInt8](repeating: 0, count: 65536)
        while var polled = state.withLock(when: { !$0.sockets.isEmpty || $0.stopping }, { state, _ in
            state.stopping ? nil : state.sockets.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
        }) {
            _ = poll(&polled, nfds_t(polled.count), 100)
            state.withLock { state in sweep(&state.sockets, polled: polled, sink: &sink) }
        }
    }

    /// Reads what the polled sockets hold and closes those that are done.
    private func sweep(_ sockets: inout [Lingering], polled: [pollfd], sink: inout [UInt8]) {
        // Only this thread removes sockets; new ones are appended after those polled.
        let now = ContinuousClock.now
        var index = 0
        var kept: [Lingering] = []
        for var lingering in sockets {
            defer { index += 1 }
            var done = now >= lingering.until || now >= lingering.quietUntil
            if index < polled.count, polled[index].revents != 0, !done {
                let read = sink.withUnsafeMutableBytes { recv(lingering.socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if read > 0 {
                    lingering.bytesLeft -= read
                    lingering.quietUntil = now + .seconds(Self.quietSeconds)
                }
                done = read == 0 || (read < 0 && errno != EAGAIN && errno != EINTR) || lingering.bytesLeft <= 0
            }
            if done { close(lingering.socket) } else { kept.append(lingering) }
        }
        sockets = kept
    }
}
