import Foundation
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// The subscribers of `recipes-bench streams`: many event streams held on raw sockets and read by
/// a few threads in poll(2) (not a thread each), so that the client costs little beside the server.
/// Each stream counts its `event: accepted` frames after `event: caught-up`; the time each one
/// arrived (CLOCK_MONOTONIC, the clock the appends are timed by) is kept per append, in order.
final class StreamSubscribers: @unchecked Sendable {
    /// Per reading thread: its sockets (a closed one's descriptor made negative, which poll skips)
    /// and their states, touched by that thread only once it runs (`@unchecked Sendable`: each
    /// `Reader` is handed to one thread).
    private final class Reader: @unchecked Sendable {
        var sockets: [pollfd] = []
        var streams: [Stream] = []
    }

    private struct Stream {
        var tail: [UInt8] = []
        var caughtUp = false
        var accepted = 0
    }

    struct Progress {
        var caughtUp = 0
        var closed = 0
        /// `arrivals[k]`: when each stream got its (k+1)th decision after catching up.
        var arrivals: [[UInt64]] = []
    }

    let count: Int
    let progress = Locked(Progress())
    private let stopping = Locked(false)
    private let readers: [Reader]
    private var threads: [OwnedThread] = []

    /// Opens `count` streams of `path` from loopback addresses 127.0.3.x (`perAddress` each, under the
    /// server's per-client limit) and starts `threads` readers.
    init(port: UInt16, path: String, count: Int, threads threadCount: Int, perAddress: Int = 100) throws {
        self.count = count
        readers = (0..<threadCount).map { _ in Reader() }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        for index in 0..<count {
            let fd = try HTTPBenchmark.openSocket(port: port, from: "127.0.\(3 + index / (perAddress * 250)).\(1 + (index / perAddress) % 250)")
            let sent = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard sent == request.count else { throw BenchmarkError("cannot send the stream's request: \(errno)") }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let reader = readers[index % threadCount]
            reader.sockets.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
            reader.streams.append(Stream())
        }
        for reader in readers {
            let (progress, stopping) = (progress, stopping)
            threads.append(OwnedThread(name: "bench-streams") { Self.read(reader, progress: progress, stopping: stopping) })
        }
    }

    /// Waits until every stream has caught up; false past the deadline (or when the server closed some).
    func waitCaughtUp(deadline: ContinuousClock.Instant) -> Bool {
        progress.wait(until: { $0.caughtUp + $0.closed >= count }, deadline: deadline) && progress.withLock { $0.closed == 0 }
    }

    /// Waits until every stream got `decisions` decisions since catching up.
    func waitDecisions(_ decisions: Int, deadline: ContinuousClock.Instant) -> Bool {
        progress.wait(until: { $0.arrivals.count >= decisions && $0.arrivals[decisions - 1].count >= count }, deadline: deadline)
    }

    /// Stops the readers and closes every stream.
    func close() {
        stopping.withLock { $0 = true }
        for thread in threads { thread.join() }
        for reader in readers {
            for socket in reader.sockets { Glibc.close(socket.fd < 0 ? ~socket.fd : socket.fd) }
        }
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    private static let acceptedFrame = Array("event: accepted\n".utf8)
    private static let caughtUpFrame = Array("event: caught-up\n".utf8)

    private static func read(_ reader: Reader, progress: Locked<Progress>, stopping: Locked<Bool>) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !stopping.withLock({ $0 }) {
            var ready = reader.sockets.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 50) }
            guard ready > 0 else { continue }
            let now = monotonicNanoseconds()
            var caughtUp = 0
            var closed = 0
            var arrived: [Int] = []
            for slot in reader.sockets.indices where ready > 0 && reader.sockets[slot].revents != 0 {
                ready -= 1
                let fd = reader.sockets[slot].fd
                while true {
                    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                        closed += 1
                        reader.sockets[slot].fd = ~fd
                        break
                    }
                    if n < 0 { break }
                    scan(&reader.streams[slot], chunk[0..<n], caughtUp: &caughtUp, arrived: &arrived)
                }
            }
            progress.withLock { state in
                state.caughtUp += caughtUp
                state.closed += closed
                for index in arrived {
                    while state.arrivals.count <= index { state.arrivals.append([]) }
                    state.arrivals[index].append(now)
                }
            }
        }
    }

    /// Finds the frames in what came, the end of the last chunk prepended (a frame split between two).
    private static func scan(_ stream: inout Stream, _ bytes: ArraySlice<UInt8>, caughtUp: inout Int, arrived: inout [Int]) {
        let text = stream.tail + bytes
        let old = stream.tail.count
        var index = 0
        while index < text.count {
            if text[index] == UInt8(ascii: "e") {
                if matches(text, at: index, acceptedFrame), index + acceptedFrame.count > old {
                    if stream.caughtUp {
                        arrived.append(stream.accepted)
                        stream.accepted += 1
                    }
                } else if matches(text, at: index, caughtUpFrame), index + caughtUpFrame.count > old, !stream.caughtUp {
                    stream.caughtUp = true
                    caughtUp += 1
                }
            }
            index += 1
        }
        stream.tail = Array(text.suffix(caughtUpFrame.count - 1))
    }

    private static func matches(_ text: [UInt8], at index: Int, _ frame: [UInt8]) -> Bool {
        guard index + frame.count <= text.count else { return false }
        for offset in 0..<frame.count where text[index + offset] != frame[offset] { return false }
        return true
    }
}
