import Foundation
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
final class LingeringCloses: @unchecked Sendable {
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

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var sockets: [Lingering] = []
    private var threadRuns = false
    private var stopping = false

    /// Takes `socket` (its answer written, its sending side shut down) and closes it when done.
    func add(_ socket: Int32) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, sockets.count < Self.maxSockets else {
            close(socket)
            return
        }
        let now = ContinuousClock.now
        sockets.append(Lingering(socket: socket, until: now + .seconds(Self.maxSeconds),
                                 quietUntil: now + .seconds(Self.quietSeconds), bytesLeft: Self.maxBytes))
        if !threadRuns {
            threadRuns = true
            let thread = Thread { [self] in run() }
            thread.name = "recipes-http-linger"
            thread.start()
        }
        condition.signal()
    }

    /// Closes every socket and returns once the thread has ended.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while threadRuns { condition.wait() }
        for lingering in sockets { close(lingering.socket) }
        sockets = []
        condition.unlock()
    }

    private func run() {
        var sink = [UInt8](repeating: 0, count: 65536)
        condition.lock()
        while !stopping {
            if sockets.isEmpty {
                condition.wait()
                continue
            }
            var polled = sockets.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
            condition.unlock()
            _ = poll(&polled, nfds_t(polled.count), 100)
            condition.lock()
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
        threadRuns = false
        condition.broadcast()
        condition.unlock()
    }
}
