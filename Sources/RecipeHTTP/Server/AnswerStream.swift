import CMicroHTTPD
import Glibc
import Threads

/// The body of an answer that goes on until its sender ends it (a Server-Sent Events stream):
/// bytes handed to `send` are queued and written as the client takes them. No thread waits on
/// it: while its queue is empty its connection is suspended (libmicrohttpd's content reader
/// suspends it), and `send` or `end` resumes it. The queue is bounded (`maxQueuedBytes`): a
/// `send` past the bound is refused, so a client that does not read cannot make it grow; its
/// sender then ends it (`end(with:)`, which drops what is queued).
///
/// Threads: `send` and `end` from any thread; the reader runs on libmicrohttpd's polling threads.
public final class AnswerStream: @unchecked Sendable {
    public let maxQueuedBytes: Int
    /// The buffer libmicrohttpd reads the queue into, per stream: one write's worth at most.
    static let blockSize = 4096
    /// The socket send buffer of a streamed answer's connection (the kernel doubles it).
    static let socketSendBuffer = 16 * 1024
    private let state = Locked(State())
    /// Run once when the connection is done with it (the client left, it ended, the server stopped).
    private let closed = Locked<[@Sendable () -> Void]>([])

    private struct State {
        var chunks: [[UInt8]] = []
        /// Bytes of `chunks[0]` already written.
        var written = 0
        var queued = 0
        /// No more bytes come: the answer ends once the queue is written.
        var ending = false
        /// The connection, once the answer is queued on it; only touched under the lock.
        var connection: StreamConnection?
        /// Whether the reader suspended the connection (and nothing resumed it yet).
        var suspended = false
        var finished = false
    }

    public init(maxQueuedBytes: Int) {
        self.maxQueuedBytes = maxQueuedBytes
    }

    /// Runs `body` once the stream is done with (at once when it is already).
    public func onClose(_ body: @escaping @Sendable () -> Void) {
        closed.withLock { $0.append(body) }
        // Finished meanwhile: `finish` may have run the list before `body` was in it.
        if state.withLock({ $0.finished }) { runClosed() }
    }

    private func runClosed() {
        for body in closed.withLock({ bodies in defer { bodies = [] }; return bodies }) { body() }
    }

    /// Queues bytes; false (nothing queued) once it is ending or when they would pass
    /// `maxQueuedBytes` (unless `evenPastBound`: for what its sender bounds itself).
    @discardableResult
    public func send(_ bytes: [UInt8], evenPastBound: Bool = false) -> Bool {
        state.withLock { state in
            guard !state.ending, !state.finished, evenPastBound || state.queued + bytes.count <= maxQueuedBytes else { return false }
            state.chunks.append(bytes)
            state.queued += bytes.count
            Self.resume(&state)
            return true
        }
    }

    /// Ends the answer after `bytes`: what is queued and not yet written is dropped when
    /// `dropping`, else written first.
    public func end(with bytes: [UInt8] = [], dropping: Bool = false) {
        state.withLock { state in
            guard !state.ending, !state.finished else { return }
            if dropping {
                state.chunks = []
                state.written = 0
                state.queued = 0
            }
            if !bytes.isEmpty {
                state.chunks.append(bytes)
                state.queued += bytes.count
            }
            state.ending = true
            Self.resume(&state)
        }
    }

    /// Whether it still takes bytes.
    public var isOpen: Bool { state.withLock { !$0.ending && !$0.finished } }

    /// Bytes queued and not yet written.
    public var queuedBytes: Int { state.withLock { $0.queued } }

    private static func resume(_ state: inout State) {
        guard state.suspended, let connection = state.connection else { return }
        state.suspended = false
        MHD_resume_connection(connection.pointer)
    }

    // MARK: - libmicrohttpd's side

    func attach(_ connection: OpaquePointer) {
        let attached = StreamConnection(pointer: connection)
        state.withLock { $0.connection = attached }
    }

    /// Copies queued bytes into `buffer`; with none, suspends the connection until `send` or `end`.
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { state in
            if state.queued == 0 {
                if state.ending { return -1 } // MHD_CONTENT_READER_END_OF_STREAM
                guard let connection = state.connection else { return 0 }
                state.suspended = true
                MHD_suspend_connection(connection.pointer)
                return 0
            }
            var copied = 0
            while copied < max, !state.chunks.isEmpty {
                let chunk = state.chunks[0]
                let count = min(max - copied, chunk.count - state.written)
                chunk.withUnsafeBytes { bytes in
                    (buffer + copied).withMemoryRebound(to: UInt8.self, capacity: count) {
                        $0.update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + state.written, count: count)
                    }
                }
                copied += count
                state.written += count
                if state.written == chunk.count {
                    state.chunks.removeFirst()
                    state.written = 0
                }
            }
            state.queued -= copied
            return copied
        }
    }

    func finish() {
        state.withLock { state in
            state.finished = true
            state.ending = true
            state.connection = nil
            state.chunks = []
            state.queued = 0
        }
        runClosed()
    }
}

/// A connection as a stream's state holds it: only touched under the stream's lock.
private struct StreamConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The streams a server holds open, so that `stop` can end them all: libmicrohttpd may not stop
/// with a connection suspended, and a stream's connection is suspended whenever it waits.
final class OpenStreams: Sendable {
    private let state = Locked((streams: [ObjectIdentifier: AnswerStream](), stopped: false))

    /// Adds a stream; one that comes once `endAll` has run is ended at once.
    func add(_ stream: AnswerStream) {
        let stopped = state.withLock { state in
            if !state.stopped { state.streams[ObjectIdentifier(stream)] = stream }
            return state.stopped
        }
        if stopped { stream.end() }
    }

    func remove(_ stream: AnswerStream) {
        state.withLock { _ = $0.streams.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    var count: Int { state.withLock { $0.streams.count } }

    /// Ends every stream, each resumed to write its end, and any added later.
    func endAll() {
        let streams = state.withLock { state in
            state.stopped = true
            return Array(state.streams.values)
        }
        for stream in streams { stream.end() }
    }
}

/// Queues a streamed answer (`HTTPResponse.stream`) on a connection: a body of unknown length
/// that its `AnswerStream` feeds; the connection closes after it.
func queueStream(_ stream: AnswerStream, _ response: HTTPResponse, on connection: OpaquePointer, _ server: HTTPServer,
                 headers: [(String, String)]) -> MHD_Result {
    stream.attach(connection)
    // The kernel's buffer for the socket stays small: what a client does not read waits in the
    // stream's bounded queue, where it counts, not in kernel memory per idle connection.
    var sendBuffer = Int32(AnswerStream.socketSendBuffer)
    setsockopt(cmhd_connection_socket(connection), SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
    let owner = Unmanaged.passRetained(stream).toOpaque()
    guard let created = MHD_create_response_from_callback(UInt64.max, AnswerStream.blockSize, { owner, _, buffer, max in
        guard let owner, let buffer else { return -2 }
        return Unmanaged<AnswerStream>.fromOpaque(owner).takeUnretainedValue().read(into: buffer, max: max)
    }, owner, { owner in
        guard let owner else { return }
        let stream = Unmanaged<AnswerStream>.fromOpaque(owner).takeRetainedValue()
        stream.finish()
    }) else {
        Unmanaged<AnswerStream>.fromOpaque(owner).release()
        stream.finish()
        return MHD_Result.NO
    }
    _ = cmhd_response_close_delimited(created)
    server.openStreams.add(stream)
    stream.onClose { [weak server] in server?.openStreams.remove(stream) }
    for (name, value) in headers { _ = MHD_add_response_header(created, name, value) }
    _ = MHD_add_response_header(created, "Connection", "close")
    let result = MHD_queue_response(connection, UInt32(response.status), created)
    MHD_destroy_response(created)
    return result
}
